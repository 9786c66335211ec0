/* gnn-value-private.h: the layout of GnnValue, shared by its constructors
 * (gnn-value.c) and its readers (gnn-value-read.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

struct _GnnValue
{
  gatomicrefcount ref_count;
  GnnValueKind    kind;
  union
  {
    gboolean  b;
    gint64    i;
    double    d;
    char     *s;
    GObject  *object;      /* TENSOR, OBJECT */
    char    **keys;        /* DICT: n keys, then NULL (a strv for get_keys) */
  };
  gsize       n;           /* TUPLE, LIST, DICT: the number of items */
  GnnValue   *items[];     /* TUPLE, LIST, DICT: n values, allocated with the value */
};

static inline gboolean
gnn_value_is_sequence (GnnValueKind kind)
{
  return kind == GNN_VALUE_TUPLE || kind == GNN_VALUE_LIST || kind == GNN_VALUE_DICT;
}

G_END_DECLS
