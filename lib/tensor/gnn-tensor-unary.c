/* gnn-tensor-unary.c: elementwise activations and math functions (their
 * kernels are in gnn-tensor-pointwise.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-pointwise-private.h"

/**
 * gnn_tensor_relu:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `max (x, 0)` elementwise (like `torch.relu`); NaN stays NaN.
 * Works on float and integer dtypes.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for an unsupported dtype
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_relu (GnnTensor *self,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("relu", self, error, NULL);
  return gnn_tensor_record (GNN_OP_RELU, gnn_tensor_unary_op (GNN_UNARY_RELU, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_gelu:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the exact GELU `x * Φ(x) = 0.5 x (1 + erf (x / √2))` elementwise,
 * like `torch.nn.functional.gelu` with its default `approximate='none'`.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_gelu (GnnTensor *self,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("gelu", self, error, NULL);
  return gnn_tensor_record (GNN_OP_GELU, gnn_tensor_unary_op (GNN_UNARY_GELU, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_tanh:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the hyperbolic tangent elementwise (like `torch.tanh`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tanh (GnnTensor *self,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("tanh", self, error, NULL);
  return gnn_tensor_record (GNN_OP_TANH, gnn_tensor_unary_op (GNN_UNARY_TANH, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_sigmoid:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the logistic function `1 / (1 + exp (-x))` elementwise (like
 * `torch.sigmoid`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sigmoid (GnnTensor *self,
                    GError   **error)
{
  GNN_CHECK_STORAGE ("sigmoid", self, error, NULL);
  return gnn_tensor_record (GNN_OP_SIGMOID, gnn_tensor_unary_op (GNN_UNARY_SIGMOID, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_exp:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `e^x` elementwise (like `torch.exp`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_exp (GnnTensor *self,
                GError   **error)
{
  GNN_CHECK_STORAGE ("exp", self, error, NULL);
  return gnn_tensor_record (GNN_OP_EXP, gnn_tensor_unary_op (GNN_UNARY_EXP, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_log:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the natural logarithm elementwise (like `torch.log`): log 0 is
 * -inf, the log of a negative number NaN.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log (GnnTensor *self,
                GError   **error)
{
  GNN_CHECK_STORAGE ("log", self, error, NULL);
  return gnn_tensor_record (GNN_OP_LOG, gnn_tensor_unary_op (GNN_UNARY_LOG, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_neg:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Negates every element (like `torch.neg`). Integers wrap around (the
 * negation of uint8 3 is 253, as in PyTorch).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for an unsupported dtype
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_neg (GnnTensor *self,
                GError   **error)
{
  GNN_CHECK_STORAGE ("neg", self, error, NULL);
  return gnn_tensor_record (GNN_OP_NEG, gnn_tensor_unary_op (GNN_UNARY_NEG, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_abs:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the absolute value elementwise (like `torch.abs`). The most
 * negative integer stays itself, as in PyTorch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for an unsupported dtype
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_abs (GnnTensor *self,
                GError   **error)
{
  GNN_CHECK_STORAGE ("abs", self, error, NULL);
  return gnn_tensor_record (GNN_OP_ABS, gnn_tensor_unary_op (GNN_UNARY_ABS, self, error),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_sqrt:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the square root elementwise (like `torch.sqrt`); negative
 * numbers give NaN.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sqrt (GnnTensor *self,
                 GError   **error)
{
  GNN_CHECK_STORAGE ("sqrt", self, error, NULL);
  return gnn_tensor_record (GNN_OP_SQRT, gnn_tensor_unary_op (GNN_UNARY_SQRT, self, error),
                            &self, 1, NULL);
}
