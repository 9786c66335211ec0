/* gnn-tensor-unary-trig.c: the public functions of torch's trigonometric
 * and hyperbolic functions and their inverses, out of place and in place
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-tensor-unary-math-private.h"

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
  return gnn_unary_math (GNN_UNARY_SIN, GNN_OP_SIN, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_SIN, GNN_OP_SIN, self, error);
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
  return gnn_unary_math (GNN_UNARY_COS, GNN_OP_COS, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_COS, GNN_OP_COS, self, error);
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
  return gnn_unary_math (GNN_UNARY_TAN, GNN_OP_TAN, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_TAN, GNN_OP_TAN, self, error);
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
  return gnn_unary_math (GNN_UNARY_ASIN, GNN_OP_ASIN, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_ASIN, GNN_OP_ASIN, self, error);
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
  return gnn_unary_math (GNN_UNARY_ACOS, GNN_OP_ACOS, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_ACOS, GNN_OP_ACOS, self, error);
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
  return gnn_unary_math (GNN_UNARY_ATAN, GNN_OP_ATAN, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_ATAN, GNN_OP_ATAN, self, error);
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
  return gnn_unary_math (GNN_UNARY_SINH, GNN_OP_SINH, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_SINH, GNN_OP_SINH, self, error);
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
  return gnn_unary_math (GNN_UNARY_COSH, GNN_OP_COSH, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_COSH, GNN_OP_COSH, self, error);
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
  return gnn_unary_math (GNN_UNARY_ASINH, GNN_OP_ASINH, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_ASINH, GNN_OP_ASINH, self, error);
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
  return gnn_unary_math (GNN_UNARY_ACOSH, GNN_OP_ACOSH, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_ACOSH, GNN_OP_ACOSH, self, error);
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
  return gnn_unary_math (GNN_UNARY_ATANH, GNN_OP_ATANH, self, error);
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
  return gnn_unary_math_ (GNN_UNARY_ATANH, GNN_OP_ATANH, self, error);
}
