/* gnn-pointwise-private.h: internal entry points of gnn-tensor-pointwise.c:
 * the elementwise comparison and unary drivers (for gnn-tensor-compare.c and
 * gnn-tensor-unary.c) and a scaled copy into an existing tensor
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

typedef enum {
  GNN_UNARY_RELU,
  GNN_UNARY_GELU,
  GNN_UNARY_TANH,
  GNN_UNARY_SIGMOID,
  GNN_UNARY_EXP,
  GNN_UNARY_LOG,
  GNN_UNARY_NEG,
  GNN_UNARY_ABS,
  GNN_UNARY_SQRT,
} GnnUnaryOp;

/* op (self) elementwise: a new contiguous tensor of self's dtype, or NULL +
 * error for a dtype the op has no kernel for. Records nothing. */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_unary_op (GnnUnaryOp   op,
                                GnnTensor   *self,
                                GError     **error);

/* out = self * value, elementwise, into an existing @out: both contiguous,
 * one dtype, the same number of elements (shapes may differ). One pass
 * instead of copy_ + mul_ (DDP scales gradients into its buckets). */
G_GNUC_INTERNAL
gboolean gnn_tensor_mul_scalar_into (GnnTensor  *out,
                                     GnnTensor  *self,
                                     double      value,
                                     GError    **error);

/* FALSE + PyTorch's "unsupported operation: more than one element of the
 * written-to tensor refers to a single memory location..." when @p has a
 * stride 0 over more than one element (an expanded view): the check of
 * every in-place op. */
G_GNUC_INTERNAL
gboolean gnn_check_no_internal_overlap (GnnTensorPrivate *p,
                                        GError          **error);

G_END_DECLS
