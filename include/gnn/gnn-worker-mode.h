/* gnn-worker-mode.h: how a data loader runs its workers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>

G_BEGIN_DECLS

/**
 * GnnWorkerMode:
 * @GNN_WORKER_MODE_THREADS: workers are threads sharing the dataset (its
 *   get_item must be safe to call from several threads at once)
 * @GNN_WORKER_MODE_PROCESSES: workers are forked processes returning batches
 *   through shared memory (not implemented yet)
 *
 * How a [class@Gnn.DataLoader] runs its workers.
 */
typedef enum {
  GNN_WORKER_MODE_THREADS,
  GNN_WORKER_MODE_PROCESSES,
} GnnWorkerMode;

G_END_DECLS
