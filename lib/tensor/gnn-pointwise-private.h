/* gnn-pointwise-private.h: the op descriptors of the pointwise files, for
 * the files that combine them (clamp from maximum and minimum, lerp and
 * addcmul from the arithmetic), and a scaled copy into an existing tensor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-elementwise-private.h"

G_BEGIN_DECLS

/* gnn-tensor-arith.c */
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_add;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_sub;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_mul;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_div;
/* gnn-tensor-division.c */
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_div_trunc;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_div_floor;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_remainder;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_fmod;
/* gnn-tensor-binary-math.c */
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_pow;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_atan2;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_maximum;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_minimum;
/* gnn-tensor-compare.c */
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_eq;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_ne;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_lt;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_le;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_gt;
G_GNUC_INTERNAL extern const GnnBinaryOp gnn_op_ge;

/* where (condition, a, b) with @a and @b promoted together, not recorded. */
G_GNUC_INTERNAL
GnnTensor *gnn_where_values (GnnTensor *condition, GnnTensor *a, GnnTensor *b, GError **error);

/* The unary ops of gnn-tensor-unary-kernels.c. */
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
  GNN_UNARY_SQUARE,
  GNN_UNARY_POW,          /* param: the exponent */
  GNN_UNARY_SIN,
  GNN_UNARY_COS,
  GNN_UNARY_TAN,
  GNN_UNARY_ASIN,
  GNN_UNARY_ACOS,
  GNN_UNARY_ATAN,
  GNN_UNARY_SINH,
  GNN_UNARY_COSH,
  GNN_UNARY_ASINH,
  GNN_UNARY_ACOSH,
  GNN_UNARY_ATANH,
  GNN_UNARY_LOG2,
  GNN_UNARY_LOG10,
  GNN_UNARY_LOG1P,
  GNN_UNARY_EXPM1,
  GNN_UNARY_EXP2,
  GNN_UNARY_RSQRT,
  GNN_UNARY_RECIPROCAL,
  GNN_UNARY_SIGN,
  GNN_UNARY_FLOOR,
  GNN_UNARY_CEIL,
  GNN_UNARY_ROUND,
  GNN_UNARY_TRUNC,
  GNN_UNARY_FRAC,
  GNN_UNARY_ERF,
  GNN_UNARY_ISNAN,
  GNN_UNARY_ISINF,
  GNN_UNARY_ISFINITE,
  GNN_UNARY_ERFC,
  GNN_UNARY_ERFINV,
  GNN_UNARY_LGAMMA,
  GNN_UNARY_DIGAMMA,
  GNN_UNARY_LOGIT,        /* param: eps, or < 0 for none */
  GNN_N_UNARY
} GnnUnaryId;

G_GNUC_INTERNAL
const GnnUnaryOp *gnn_unary_op (GnnUnaryId id);

/* op (self) elementwise: a new contiguous tensor, or NULL + error for a
 * dtype the op has no kernel for. Records nothing. */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_unary_op (GnnUnaryId   id,
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

G_END_DECLS
