/* gnn-tensor-unary-math.c: the public functions of torch's unary math —
 * logarithms and exponentials, rounding, sign (the trigonometric and
 * hyperbolic ones are gnn-tensor-unary-trig.c) — out of place and in place
 * (their kernels are in gnn-tensor-unary-kernels.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-tensor-unary-math-private.h"

GnnTensor *
gnn_unary_math (GnnUnaryId   id,
                GnnOpKind    kind,
                GnnTensor   *self,
                GError     **error)
{
  GNN_CHECK_STORAGE (gnn_unary_op (id)->name, self, error, NULL);
  return gnn_tensor_record (kind, gnn_tensor_unary_op (id, self, error), &self, 1,
                            kind == GNN_OP_POW ? &(GnnOpParams) { .scalar = 2.0 } : NULL);
}

gboolean
gnn_unary_math_ (GnnUnaryId   id,
                 GnnOpKind    kind,
                 GnnTensor   *self,
                 GError     **error)
{
  g_autoptr(GnnTensor) values = NULL;

  GNN_CHECK_STORAGE (gnn_unary_op (id)->name, self, error, FALSE);
  values = gnn_tensor_unary_op (id, self, error);
  return values != NULL &&
         gnn_ew_assign_ (self, values, kind, NULL, 0,
                         kind == GNN_OP_POW ? &(GnnOpParams) { .scalar = 2.0 } : NULL, error);
}

/**
 * gnn_tensor_log2:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the base-2 logarithm elementwise (like `torch.log2`). Integer and
 * bool tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log2 (GnnTensor *self,
                 GError   **error)
{
  return gnn_unary_math (GNN_UNARY_LOG2, GNN_OP_LOG2, self, error);
}

/**
 * gnn_tensor_log2_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.log2] (like `self.log2_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_log2_ (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_LOG2, GNN_OP_LOG2, self, error);
}

/**
 * gnn_tensor_log10:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the base-10 logarithm elementwise (like `torch.log10`). Integer
 * and bool tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log10 (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math (GNN_UNARY_LOG10, GNN_OP_LOG10, self, error);
}

/**
 * gnn_tensor_log10_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.log10] (like `self.log10_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_log10_ (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_LOG10, GNN_OP_LOG10, self, error);
}

/**
 * gnn_tensor_log1p:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `log (1 + x)`, accurate for small x elementwise (like
 * `torch.log1p`). Integer and bool tensors are computed in float32, as in
 * torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log1p (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math (GNN_UNARY_LOG1P, GNN_OP_LOG1P, self, error);
}

/**
 * gnn_tensor_log1p_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.log1p] (like `self.log1p_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_log1p_ (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_LOG1P, GNN_OP_LOG1P, self, error);
}

/**
 * gnn_tensor_expm1:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `exp (x) - 1`, accurate for small x elementwise (like
 * `torch.expm1`). Integer and bool tensors are computed in float32, as in
 * torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_expm1 (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math (GNN_UNARY_EXPM1, GNN_OP_EXPM1, self, error);
}

/**
 * gnn_tensor_expm1_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.expm1] (like `self.expm1_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_expm1_ (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_EXPM1, GNN_OP_EXPM1, self, error);
}

/**
 * gnn_tensor_exp2:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `2^x` elementwise (like `torch.exp2`). Integer and bool tensors
 * are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_exp2 (GnnTensor *self,
                 GError   **error)
{
  return gnn_unary_math (GNN_UNARY_EXP2, GNN_OP_EXP2, self, error);
}

/**
 * gnn_tensor_exp2_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.exp2] (like `self.exp2_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_exp2_ (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_EXP2, GNN_OP_EXP2, self, error);
}

/**
 * gnn_tensor_rsqrt:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `1 / sqrt (x)` elementwise (like `torch.rsqrt`). Integer and bool
 * tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rsqrt (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math (GNN_UNARY_RSQRT, GNN_OP_RSQRT, self, error);
}

/**
 * gnn_tensor_rsqrt_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.rsqrt] (like `self.rsqrt_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_rsqrt_ (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_RSQRT, GNN_OP_RSQRT, self, error);
}

/**
 * gnn_tensor_reciprocal:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `1 / x` elementwise (like `torch.reciprocal`). Integer and bool
 * tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_reciprocal (GnnTensor *self,
                       GError   **error)
{
  return gnn_unary_math (GNN_UNARY_RECIPROCAL, GNN_OP_RECIPROCAL, self, error);
}

/**
 * gnn_tensor_reciprocal_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.reciprocal] (like `self.reciprocal_()`). An
 * integer @self cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_reciprocal_ (GnnTensor *self,
                        GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_RECIPROCAL, GNN_OP_RECIPROCAL, self, error);
}

/**
 * gnn_tensor_erf:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the error function elementwise (like `torch.erf`). Integer and
 * bool tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_erf (GnnTensor *self,
                GError   **error)
{
  return gnn_unary_math (GNN_UNARY_ERF, GNN_OP_ERF, self, error);
}

/**
 * gnn_tensor_erf_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.erf] (like `self.erf_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_erf_ (GnnTensor *self,
                 GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_ERF, GNN_OP_ERF, self, error);
}

/**
 * gnn_tensor_sign:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the sign (-1, 0 or 1; bool stays bool) elementwise (like
 * `torch.sign`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sign (GnnTensor *self,
                 GError   **error)
{
  return gnn_unary_math (GNN_UNARY_SIGN, GNN_OP_SIGN, self, error);
}

/**
 * gnn_tensor_sign_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.sign] (like `self.sign_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sign_ (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_SIGN, GNN_OP_SIGN, self, error);
}

/**
 * gnn_tensor_floor:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the largest integer not above x (integers unchanged) elementwise
 * (like `torch.floor`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_floor (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math (GNN_UNARY_FLOOR, GNN_OP_FLOOR, self, error);
}

/**
 * gnn_tensor_floor_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.floor] (like `self.floor_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_floor_ (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_FLOOR, GNN_OP_FLOOR, self, error);
}

/**
 * gnn_tensor_ceil:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the smallest integer not below x (integers unchanged) elementwise
 * (like `torch.ceil`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ceil (GnnTensor *self,
                 GError   **error)
{
  return gnn_unary_math (GNN_UNARY_CEIL, GNN_OP_CEIL, self, error);
}

/**
 * gnn_tensor_ceil_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.ceil] (like `self.ceil_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_ceil_ (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_CEIL, GNN_OP_CEIL, self, error);
}

/**
 * gnn_tensor_round:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the nearest integer, halves to even (integers unchanged)
 * elementwise (like `torch.round`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_round (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math (GNN_UNARY_ROUND, GNN_OP_ROUND, self, error);
}

/**
 * gnn_tensor_round_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.round] (like `self.round_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_round_ (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_ROUND, GNN_OP_ROUND, self, error);
}

/**
 * gnn_tensor_trunc:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes x rounded toward zero (integers unchanged) elementwise (like
 * `torch.trunc`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_trunc (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math (GNN_UNARY_TRUNC, GNN_OP_TRUNC, self, error);
}

/**
 * gnn_tensor_trunc_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.trunc] (like `self.trunc_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_trunc_ (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_TRUNC, GNN_OP_TRUNC, self, error);
}

/**
 * gnn_tensor_frac:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the fractional part `x - trunc (x)` (floating point only)
 * elementwise (like `torch.frac`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_frac (GnnTensor *self,
                 GError   **error)
{
  return gnn_unary_math (GNN_UNARY_FRAC, GNN_OP_FRAC, self, error);
}

/**
 * gnn_tensor_frac_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.frac] (like `self.frac_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_frac_ (GnnTensor *self,
                  GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_FRAC, GNN_OP_FRAC, self, error);
}

/**
 * gnn_tensor_square:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `x · x` in the input dtype elementwise (like `torch.square`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_square (GnnTensor *self,
                   GError   **error)
{
  return gnn_unary_math (GNN_UNARY_SQUARE, GNN_OP_POW, self, error);
}

/**
 * gnn_tensor_square_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.square] (like `self.square_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_square_ (GnnTensor *self,
                    GError   **error)
{
  return gnn_unary_math_ (GNN_UNARY_SQUARE, GNN_OP_POW, self, error);
}
