/* gnn-error.h: the GNN_ERROR domain
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib.h>
#include <gnn/gnn-version-macros.h>

G_BEGIN_DECLS

/**
 * GNN_ERROR:
 *
 * The error domain of every #GError that Gnn reports.
 *
 * Since: 0.1
 */
#define GNN_ERROR (gnn_error_quark ())

/**
 * GnnError:
 * @GNN_ERROR_INVALID_ARGUMENT: an argument is out of its allowed range
 * @GNN_ERROR_NAME: a name is malformed or already taken
 * @GNN_ERROR_TYPE: a value has the wrong type
 * @GNN_ERROR_SHAPE: tensor shapes do not fit together
 * @GNN_ERROR_DTYPE: a dtype is wrong or unsupported for the operation
 * @GNN_ERROR_INDEX: an index or dimension is out of range
 * @GNN_ERROR_KEY: a key is missing or unexpected
 * @GNN_ERROR_FORMAT: a file or buffer is malformed
 * @GNN_ERROR_IO: reading or writing failed
 * @GNN_ERROR_WORKER: a data loader worker failed
 * @GNN_ERROR_TIMEOUT: an operation timed out
 * @GNN_ERROR_NOT_SUPPORTED: the operation is not supported for these inputs
 * @GNN_ERROR_AUTOGRAD: the autograd graph cannot do what was asked
 * @GNN_ERROR_DISTRIBUTED: a collective or process group failed (a peer died,
 *   MPI reported an error, ranks disagree)
 * @GNN_ERROR_MEMORY: memory for a tensor could not be allocated (the message
 *   names the byte count and the shape)
 * @GNN_ERROR_ZERO_DIVISION: integer division or remainder by zero
 *
 * Error codes of the %GNN_ERROR domain. Messages always name the culprit:
 * the name, shape, index or path involved.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_ERROR_INVALID_ARGUMENT,
  GNN_ERROR_NAME,
  GNN_ERROR_TYPE,
  GNN_ERROR_SHAPE,
  GNN_ERROR_DTYPE,
  GNN_ERROR_INDEX,
  GNN_ERROR_KEY,
  GNN_ERROR_FORMAT,
  GNN_ERROR_IO,
  GNN_ERROR_WORKER,
  GNN_ERROR_TIMEOUT,
  GNN_ERROR_NOT_SUPPORTED,
  GNN_ERROR_AUTOGRAD,
  GNN_ERROR_DISTRIBUTED,
  GNN_ERROR_MEMORY,
  GNN_ERROR_ZERO_DIVISION,
} GnnError;

GNN_AVAILABLE_IN_ALL
GQuark gnn_error_quark (void);

G_END_DECLS
