/* gnn-pointwise-private.h: internal entry points of gnn-tensor-pointwise.c:
 * the elementwise comparison driver (for gnn-tensor-compare.c) and a
 * scaled copy into an existing tensor
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

/* out = self * value, elementwise, into an existing @out: both contiguous,
 * one dtype, the same number of elements (shapes may differ). One pass
 * instead of copy_ + mul_ (DDP scales gradients into its buckets). */
G_GNUC_INTERNAL
gboolean gnn_tensor_mul_scalar_into (GnnTensor  *out,
                                     GnnTensor  *self,
                                     double      value,
                                     GError    **error);

G_END_DECLS
