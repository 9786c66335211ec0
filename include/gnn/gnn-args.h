/* gnn-args.h: parsing a forward's arguments the way Python binds them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <stdarg.h>
#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-value.h>

G_BEGIN_DECLS

/**
 * GnnArgKind:
 * @GNN_ARG_TENSOR: a tensor; the variable is a `GnnTensor *`
 * @GNN_ARG_BOOL: a `bool`; the variable is a `gboolean`
 * @GNN_ARG_INT: an `int` (a `bool` too, as in Python); the variable is a
 *   `gint64`
 * @GNN_ARG_DOUBLE: a `float` (an `int` or `bool` too); the variable is a
 *   `double`
 * @GNN_ARG_STRING: a `str`; the variable is a `const char *`
 * @GNN_ARG_OBJECT: any #GObject (a tensor too); the variable is a
 *   `GObject *`
 * @GNN_ARG_VALUE: any value; the variable is a `GnnValue *`
 * @GNN_ARG_OPTIONAL: flag: the argument may be left out (Python's
 *   `name=default`); the variable then keeps what it held, the default —
 *   except a tensor's or a value's, which is set to %NULL (their default
 *   is always `None`)
 * @GNN_ARG_NULLABLE: flag: `None` is accepted; a pointer variable is set to
 *   %NULL, a number variable keeps its default
 * @GNN_ARG_OPTIONAL_TENSOR: `Optional[Tensor] = None`: a tensor, `None` or
 *   nothing; the variable is %NULL for the last two
 * @GNN_ARG_OPTIONAL_VALUE: any value, `None` or nothing; the variable is
 *   %NULL for the last two
 *
 * One parameter of [func@Gnn.args_parse]: a kind, optionally with
 * %GNN_ARG_OPTIONAL and %GNN_ARG_NULLABLE.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_ARG_TENSOR = 0,
  GNN_ARG_BOOL = 1,
  GNN_ARG_INT = 2,
  GNN_ARG_DOUBLE = 3,
  GNN_ARG_STRING = 4,
  GNN_ARG_OBJECT = 5,
  GNN_ARG_VALUE = 6,
  GNN_ARG_OPTIONAL = 1 << 8,
  GNN_ARG_NULLABLE = 1 << 9,
  GNN_ARG_OPTIONAL_TENSOR = GNN_ARG_TENSOR | GNN_ARG_OPTIONAL | GNN_ARG_NULLABLE,
  GNN_ARG_OPTIONAL_VALUE = GNN_ARG_VALUE | GNN_ARG_OPTIONAL | GNN_ARG_NULLABLE,
} GnnArgKind;

/**
 * GNN_ARGS_MAX:
 *
 * The most parameters one [func@Gnn.args_parse] describes.
 *
 * Since: 0.1
 */
#define GNN_ARGS_MAX 32

GNN_AVAILABLE_IN_ALL
gboolean gnn_args_parse        (GnnValue    *args,
                                GnnValue    *kwargs,
                                const char  *function,
                                GError     **error,
                                const char  *first_name,
                                ...) G_GNUC_NULL_TERMINATED;
GNN_AVAILABLE_IN_ALL
gboolean gnn_args_parse_valist (GnnValue    *args,
                                GnnValue    *kwargs,
                                const char  *function,
                                GError     **error,
                                const char  *first_name,
                                va_list      ap);

G_END_DECLS
