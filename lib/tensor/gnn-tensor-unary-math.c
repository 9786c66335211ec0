/* gnn-tensor-unary-math.c: the public functions of torch's unary math —
 * trigonometric, hyperbolic, logarithms and exponentials, rounding, sign —
 * out of place and in place (their kernels are in gnn-tensor-unary-kernels.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"

static GnnTensor *
unary (GnnUnaryId   id,
       GnnOpKind    kind,
       GnnTensor   *self,
       GError     **error)
{
  GNN_CHECK_STORAGE (gnn_unary_op (id)->name, self, error, NULL);
  return gnn_tensor_record (kind, gnn_tensor_unary_op (id, self, error), &self, 1,
                            kind == GNN_OP_POW ? &(GnnOpParams) { .scalar = 2.0 } : NULL);
}

static gboolean
unary_ (GnnUnaryId   id,
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
 * gnn_tensor_sin:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the sine elementwise (like `torch.sin`). Integer and bool tensors
 * are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sin (GnnTensor *self,
                GError   **error)
{
  return unary (GNN_UNARY_SIN, GNN_OP_SIN, self, error);
}

/**
 * gnn_tensor_sin_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.sin] (like `self.sin_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sin_ (GnnTensor *self,
                 GError   **error)
{
  return unary_ (GNN_UNARY_SIN, GNN_OP_SIN, self, error);
}

/**
 * gnn_tensor_cos:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the cosine elementwise (like `torch.cos`). Integer and bool
 * tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cos (GnnTensor *self,
                GError   **error)
{
  return unary (GNN_UNARY_COS, GNN_OP_COS, self, error);
}

/**
 * gnn_tensor_cos_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.cos] (like `self.cos_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_cos_ (GnnTensor *self,
                 GError   **error)
{
  return unary_ (GNN_UNARY_COS, GNN_OP_COS, self, error);
}

/**
 * gnn_tensor_tan:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the tangent elementwise (like `torch.tan`). Integer and bool
 * tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tan (GnnTensor *self,
                GError   **error)
{
  return unary (GNN_UNARY_TAN, GNN_OP_TAN, self, error);
}

/**
 * gnn_tensor_tan_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.tan] (like `self.tan_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_tan_ (GnnTensor *self,
                 GError   **error)
{
  return unary_ (GNN_UNARY_TAN, GNN_OP_TAN, self, error);
}

/**
 * gnn_tensor_asin:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the arcsine (NaN outside [-1, 1]) elementwise (like `torch.asin`).
 * Integer and bool tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_asin (GnnTensor *self,
                 GError   **error)
{
  return unary (GNN_UNARY_ASIN, GNN_OP_ASIN, self, error);
}

/**
 * gnn_tensor_asin_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.asin] (like `self.asin_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_asin_ (GnnTensor *self,
                  GError   **error)
{
  return unary_ (GNN_UNARY_ASIN, GNN_OP_ASIN, self, error);
}

/**
 * gnn_tensor_acos:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the arccosine (NaN outside [-1, 1]) elementwise (like
 * `torch.acos`). Integer and bool tensors are computed in float32, as in
 * torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_acos (GnnTensor *self,
                 GError   **error)
{
  return unary (GNN_UNARY_ACOS, GNN_OP_ACOS, self, error);
}

/**
 * gnn_tensor_acos_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.acos] (like `self.acos_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_acos_ (GnnTensor *self,
                  GError   **error)
{
  return unary_ (GNN_UNARY_ACOS, GNN_OP_ACOS, self, error);
}

/**
 * gnn_tensor_atan:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the arctangent elementwise (like `torch.atan`). Integer and bool
 * tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atan (GnnTensor *self,
                 GError   **error)
{
  return unary (GNN_UNARY_ATAN, GNN_OP_ATAN, self, error);
}

/**
 * gnn_tensor_atan_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.atan] (like `self.atan_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_atan_ (GnnTensor *self,
                  GError   **error)
{
  return unary_ (GNN_UNARY_ATAN, GNN_OP_ATAN, self, error);
}

/**
 * gnn_tensor_sinh:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the hyperbolic sine elementwise (like `torch.sinh`). Integer and
 * bool tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sinh (GnnTensor *self,
                 GError   **error)
{
  return unary (GNN_UNARY_SINH, GNN_OP_SINH, self, error);
}

/**
 * gnn_tensor_sinh_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.sinh] (like `self.sinh_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sinh_ (GnnTensor *self,
                  GError   **error)
{
  return unary_ (GNN_UNARY_SINH, GNN_OP_SINH, self, error);
}

/**
 * gnn_tensor_cosh:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the hyperbolic cosine elementwise (like `torch.cosh`). Integer and
 * bool tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cosh (GnnTensor *self,
                 GError   **error)
{
  return unary (GNN_UNARY_COSH, GNN_OP_COSH, self, error);
}

/**
 * gnn_tensor_cosh_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.cosh] (like `self.cosh_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_cosh_ (GnnTensor *self,
                  GError   **error)
{
  return unary_ (GNN_UNARY_COSH, GNN_OP_COSH, self, error);
}

/**
 * gnn_tensor_asinh:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the inverse hyperbolic sine elementwise (like `torch.asinh`).
 * Integer and bool tensors are computed in float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_asinh (GnnTensor *self,
                  GError   **error)
{
  return unary (GNN_UNARY_ASINH, GNN_OP_ASINH, self, error);
}

/**
 * gnn_tensor_asinh_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.asinh] (like `self.asinh_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_asinh_ (GnnTensor *self,
                   GError   **error)
{
  return unary_ (GNN_UNARY_ASINH, GNN_OP_ASINH, self, error);
}

/**
 * gnn_tensor_acosh:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the inverse hyperbolic cosine (NaN below 1) elementwise (like
 * `torch.acosh`). Integer and bool tensors are computed in float32, as in
 * torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_acosh (GnnTensor *self,
                  GError   **error)
{
  return unary (GNN_UNARY_ACOSH, GNN_OP_ACOSH, self, error);
}

/**
 * gnn_tensor_acosh_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.acosh] (like `self.acosh_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_acosh_ (GnnTensor *self,
                   GError   **error)
{
  return unary_ (GNN_UNARY_ACOSH, GNN_OP_ACOSH, self, error);
}

/**
 * gnn_tensor_atanh:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the inverse hyperbolic tangent (NaN outside [-1, 1]) elementwise
 * (like `torch.atanh`). Integer and bool tensors are computed in float32, as
 * in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atanh (GnnTensor *self,
                  GError   **error)
{
  return unary (GNN_UNARY_ATANH, GNN_OP_ATANH, self, error);
}

/**
 * gnn_tensor_atanh_:
 * @self: the tensor to update, possibly a view
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.atanh] (like `self.atanh_()`). An integer @self
 * cannot hold the float result and is refused, as in torch.
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_atanh_ (GnnTensor *self,
                   GError   **error)
{
  return unary_ (GNN_UNARY_ATANH, GNN_OP_ATANH, self, error);
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
  return unary (GNN_UNARY_LOG2, GNN_OP_LOG2, self, error);
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
  return unary_ (GNN_UNARY_LOG2, GNN_OP_LOG2, self, error);
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
  return unary (GNN_UNARY_LOG10, GNN_OP_LOG10, self, error);
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
  return unary_ (GNN_UNARY_LOG10, GNN_OP_LOG10, self, error);
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
  return unary (GNN_UNARY_LOG1P, GNN_OP_LOG1P, self, error);
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
  return unary_ (GNN_UNARY_LOG1P, GNN_OP_LOG1P, self, error);
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
  return unary (GNN_UNARY_EXPM1, GNN_OP_EXPM1, self, error);
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
  return unary_ (GNN_UNARY_EXPM1, GNN_OP_EXPM1, self, error);
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
  return unary (GNN_UNARY_EXP2, GNN_OP_EXP2, self, error);
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
  return unary_ (GNN_UNARY_EXP2, GNN_OP_EXP2, self, error);
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
  return unary (GNN_UNARY_RSQRT, GNN_OP_RSQRT, self, error);
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
  return unary_ (GNN_UNARY_RSQRT, GNN_OP_RSQRT, self, error);
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
  return unary (GNN_UNARY_RECIPROCAL, GNN_OP_RECIPROCAL, self, error);
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
  return unary_ (GNN_UNARY_RECIPROCAL, GNN_OP_RECIPROCAL, self, error);
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
  return unary (GNN_UNARY_ERF, GNN_OP_ERF, self, error);
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
  return unary_ (GNN_UNARY_ERF, GNN_OP_ERF, self, error);
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
  return unary (GNN_UNARY_SIGN, GNN_OP_SIGN, self, error);
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
  return unary_ (GNN_UNARY_SIGN, GNN_OP_SIGN, self, error);
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
  return unary (GNN_UNARY_FLOOR, GNN_OP_FLOOR, self, error);
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
  return unary_ (GNN_UNARY_FLOOR, GNN_OP_FLOOR, self, error);
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
  return unary (GNN_UNARY_CEIL, GNN_OP_CEIL, self, error);
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
  return unary_ (GNN_UNARY_CEIL, GNN_OP_CEIL, self, error);
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
  return unary (GNN_UNARY_ROUND, GNN_OP_ROUND, self, error);
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
  return unary_ (GNN_UNARY_ROUND, GNN_OP_ROUND, self, error);
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
  return unary (GNN_UNARY_TRUNC, GNN_OP_TRUNC, self, error);
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
  return unary_ (GNN_UNARY_TRUNC, GNN_OP_TRUNC, self, error);
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
  return unary (GNN_UNARY_FRAC, GNN_OP_FRAC, self, error);
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
  return unary_ (GNN_UNARY_FRAC, GNN_OP_FRAC, self, error);
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
  return unary (GNN_UNARY_SQUARE, GNN_OP_POW, self, error);
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
  return unary_ (GNN_UNARY_SQUARE, GNN_OP_POW, self, error);
}
