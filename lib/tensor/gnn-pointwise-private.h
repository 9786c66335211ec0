/* gnn-pointwise-private.h: the elementwise comparison driver of
 * gnn-tensor-pointwise.c, for the public comparisons in gnn-tensor-compare.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

typedef enum {
  GNN_COMPARE_EQ,
  GNN_COMPARE_NE,
  GNN_COMPARE_LT,
  GNN_COMPARE_LE,
  GNN_COMPARE_GT,
  GNN_COMPARE_GE,
} GnnCompareOp;

/* a <op> b elementwise with broadcasting: a new bool tensor, or NULL + error. */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_compare_op (GnnCompareOp   op,
                                  GnnTensor     *a,
                                  GnnTensor     *b,
                                  GError       **error);

G_END_DECLS
