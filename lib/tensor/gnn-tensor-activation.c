/* gnn-tensor-activation.c: torch.nn.functional's activations as tensor
 * functions; the elementwise ones run through one driver
 * (gnn-activation-kernels.c), glu and prelu have kernels of their own
 * (gnn-glu-prelu-kernels.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-nn-ops-private.h"

/* torch.nn.functional.selu's constants */
#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

/**
 * gnn_tensor_leaky_relu:
 * @self: a floating-point #GnnTensor
 * @negative_slope: the slope for x < 0 (PyTorch's default is 0.01)
 * @error: return location for a #GError
 *
 * Computes `x` for `x > 0` and `negative_slope × x` otherwise, elementwise
 * (like `torch.nn.functional.leaky_relu(input, negative_slope)`).
 * Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_leaky_relu (GnnTensor  *self,
                       double      negative_slope,
                       GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("leaky_relu", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_LEAKY_RELU, self,
                                (const double[]) { negative_slope, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_leaky_relu_:
 * @self: a floating-point #GnnTensor
 * @negative_slope: the slope for x < 0 (PyTorch's default is 0.01)
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.leaky_relu]: overwrites @self
 * (like `torch.nn.functional.leaky_relu_(input, negative_slope)` or
 * `inplace=True`). Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_leaky_relu_ (GnnTensor  *self,
                        double      negative_slope,
                        GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("leaky_relu_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_LEAKY_RELU, self,
                                 (const double[]) { negative_slope, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_elu:
 * @self: a floating-point #GnnTensor
 * @alpha: the value the output approaches for x → -∞ (PyTorch's default is 1.0)
 * @error: return location for a #GError
 *
 * Computes `x` for `x > 0` and `alpha × (exp (x) - 1)` otherwise,
 * elementwise (like `torch.nn.functional.elu(input, alpha)`).
 * Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_elu (GnnTensor  *self,
                double      alpha,
                GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("elu", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_ELU, self, (const double[]) { alpha, 1, 1, 0 }, error);
}

/**
 * gnn_tensor_elu_:
 * @self: a floating-point #GnnTensor
 * @alpha: the value the output approaches for x → -∞ (PyTorch's default is 1.0)
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.elu]: overwrites @self
 * (like `torch.nn.functional.elu_(input, alpha)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_elu_ (GnnTensor  *self,
                 double      alpha,
                 GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("elu_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_ELU, self, (const double[]) { alpha, 1, 1, 0 }, error);
}

/**
 * gnn_tensor_selu:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `scale × elu (x, alpha)` elementwise with the self-normalizing
 * constants alpha = 1.6732632423543772 and scale = 1.0507009873554805 (like
 * `torch.nn.functional.selu(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_selu (GnnTensor  *self,
                 GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("selu", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_ELU, self,
                                (const double[]) { SELU_ALPHA * SELU_SCALE, SELU_SCALE, 1, 0 }, error);
}

/**
 * gnn_tensor_selu_:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.selu]: overwrites @self
 * (like `torch.nn.functional.selu_(input)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_selu_ (GnnTensor  *self,
                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("selu_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_ELU, self,
                                 (const double[]) { SELU_ALPHA * SELU_SCALE, SELU_SCALE, 1, 0 }, error);
}

/**
 * gnn_tensor_celu:
 * @self: a floating-point #GnnTensor
 * @alpha: the scale of the negative part, not 0 (PyTorch's default is 1.0)
 * @error: return location for a #GError
 *
 * Computes `max (0, x) + min (0, alpha × (exp (x / alpha) - 1))` elementwise
 * (like `torch.nn.functional.celu(input, alpha)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_celu (GnnTensor  *self,
                 double      alpha,
                 GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("celu", self, error, NULL);
  if (alpha == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_ZERO_DIVISION,
                           "ZeroDivisionError: alpha cannot be 0 for CELU");
      return NULL;
    }
  return gnn_tensor_activation (GNN_OP_CELU, self,
                                (const double[]) { alpha, 1, 1 / alpha, 0 }, error);
}

/**
 * gnn_tensor_celu_:
 * @self: a floating-point #GnnTensor
 * @alpha: the scale of the negative part, not 0 (PyTorch's default is 1.0)
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.celu]: overwrites @self
 * (like `torch.nn.functional.celu_(input, alpha)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_celu_ (GnnTensor  *self,
                  double      alpha,
                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("celu_", self, error, FALSE);
  if (alpha == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_ZERO_DIVISION,
                           "ZeroDivisionError: alpha cannot be 0 for CELU");
      return FALSE;
    }
  return gnn_tensor_activation_ (GNN_OP_CELU, self,
                                 (const double[]) { alpha, 1, 1 / alpha, 0 }, error);
}

/**
 * gnn_tensor_silu:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes the sigmoid-weighted linear unit `x × sigmoid (x)` elementwise
 * (like `torch.nn.functional.silu(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_silu (GnnTensor  *self,
                 GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("silu", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_SILU, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_silu_:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.silu]: overwrites @self
 * (like `torch.nn.functional.silu_(input)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_silu_ (GnnTensor  *self,
                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("silu_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_SILU, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_mish:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `x × tanh (softplus (x))` elementwise (like
 * `torch.nn.functional.mish(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mish (GnnTensor  *self,
                 GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("mish", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_MISH, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_mish_:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.mish]: overwrites @self
 * (like `torch.nn.functional.mish_(input)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_mish_ (GnnTensor  *self,
                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("mish_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_MISH, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_hardtanh:
 * @self: a floating-point #GnnTensor
 * @min_val: the lower bound (PyTorch's default is -1.0)
 * @max_val: the upper bound (PyTorch's default is 1.0)
 * @error: return location for a #GError
 *
 * Clamps every element to [@min_val, @max_val] (the lower bound wins when
 * @min_val > @max_val, as in PyTorch); the gradient is 1 strictly inside the
 * bounds and 0 outside (like `torch.nn.functional.hardtanh(input, min_val,
 * max_val)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardtanh (GnnTensor  *self,
                     double      min_val,
                     double      max_val,
                     GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("hardtanh", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_HARDTANH, self,
                                (const double[]) { min_val, max_val, 0, 0 }, error);
}

/**
 * gnn_tensor_hardtanh_:
 * @self: a floating-point #GnnTensor
 * @min_val: the lower bound (PyTorch's default is -1.0)
 * @max_val: the upper bound (PyTorch's default is 1.0)
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.hardtanh]: overwrites @self
 * (like `torch.nn.functional.hardtanh_(input, min_val, max_val)` or
 * `inplace=True`). Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_hardtanh_ (GnnTensor  *self,
                      double      min_val,
                      double      max_val,
                      GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("hardtanh_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_HARDTANH, self,
                                 (const double[]) { min_val, max_val, 0, 0 }, error);
}

/**
 * gnn_tensor_relu6:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `min (max (0, x), 6)` elementwise (hardtanh with bounds 0 and 6)
 * (like `torch.nn.functional.relu6(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_relu6 (GnnTensor  *self,
                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("relu6", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_HARDTANH, self, (const double[]) { 0, 6, 0, 0 }, error);
}

/**
 * gnn_tensor_relu6_:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.relu6]: overwrites @self
 * (like `torch.nn.functional.relu6_(input)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_relu6_ (GnnTensor  *self,
                   GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("relu6_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_HARDTANH, self, (const double[]) { 0, 6, 0, 0 }, error);
}

/**
 * gnn_tensor_hardswish:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `x × relu6 (x + 3) / 6` elementwise (like
 * `torch.nn.functional.hardswish(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardswish (GnnTensor  *self,
                      GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("hardswish", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_HARDSWISH, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_hardswish_:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.hardswish]: overwrites @self
 * (like `torch.nn.functional.hardswish_(input)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_hardswish_ (GnnTensor  *self,
                       GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("hardswish_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_HARDSWISH, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_hardsigmoid:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `relu6 (x + 3) / 6` elementwise (like
 * `torch.nn.functional.hardsigmoid(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardsigmoid (GnnTensor  *self,
                        GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("hardsigmoid", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_HARDSIGMOID, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_hardsigmoid_:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.hardsigmoid]: overwrites @self
 * (like `torch.nn.functional.hardsigmoid_(input)` or `inplace=True`).
 * Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_hardsigmoid_ (GnnTensor  *self,
                         GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("hardsigmoid_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_HARDSIGMOID, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_softplus:
 * @self: a floating-point #GnnTensor
 * @beta: the sharpness (PyTorch's default is 1)
 * @threshold: above `beta × x > threshold` the result is x itself (PyTorch's
 *   default is 20)
 * @error: return location for a #GError
 *
 * Computes `log (1 + exp (beta × x)) / beta` elementwise, and x itself where
 * `beta × x > threshold` (for numerical stability) (like
 * `torch.nn.functional.softplus(input, beta, threshold)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_softplus (GnnTensor  *self,
                     double      beta,
                     double      threshold,
                     GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("softplus", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_SOFTPLUS, self,
                                (const double[]) { beta, threshold, 0, 0 }, error);
}

/**
 * gnn_tensor_softsign:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `x / (1 + |x|)` elementwise (like
 * `torch.nn.functional.softsign(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_softsign (GnnTensor  *self,
                     GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("softsign", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_SOFTSIGN, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_tanhshrink:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `x - tanh (x)` elementwise (like
 * `torch.nn.functional.tanhshrink(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tanhshrink (GnnTensor  *self,
                       GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("tanhshrink", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_TANHSHRINK, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_threshold:
 * @self: a floating-point #GnnTensor
 * @threshold: elements at or below it are replaced
 * @value: their replacement
 * @error: return location for a #GError
 *
 * Replaces every element `x <= threshold` by @value and keeps the others
 * (like `torch.nn.functional.threshold(input, threshold, value)`).
 * Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_threshold (GnnTensor  *self,
                      double      threshold,
                      double      value,
                      GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("threshold", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_THRESHOLD, self,
                                (const double[]) { threshold, value, 0, 0 }, error);
}

/**
 * gnn_tensor_threshold_:
 * @self: a floating-point #GnnTensor
 * @threshold: elements at or below it are replaced
 * @value: their replacement
 * @error: return location for a #GError
 *
 * The in-place form of [method@Gnn.Tensor.threshold]: overwrites @self
 * (like `torch.nn.functional.threshold_(input, threshold, value)` or
 * `inplace=True`). Differentiable when @self is
 * not a leaf that requires grad.
 *
 * Returns: %TRUE, or %FALSE with @error set if @self is not float32 or
 *   float64, has overlapping elements (an expanded view) or is a leaf that
 *   requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_threshold_ (GnnTensor  *self,
                       double      threshold,
                       double      value,
                       GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  GNN_CHECK_STORAGE ("threshold_", self, error, FALSE);
  return gnn_tensor_activation_ (GNN_OP_THRESHOLD, self,
                                 (const double[]) { threshold, value, 0, 0 }, error);
}

/**
 * gnn_tensor_hardshrink:
 * @self: a floating-point #GnnTensor
 * @lambd: the half-width of the band that is zeroed
 * @error: return location for a #GError
 *
 * Zeroes every element with `-lambd <= x <= lambd` and keeps the others
 * (like `torch.nn.functional.hardshrink(input, lambd)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardshrink (GnnTensor  *self,
                       double      lambd,
                       GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("hardshrink", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_HARDSHRINK, self, (const double[]) { lambd, 0, 0, 0 },
                                error);
}

/**
 * gnn_tensor_softshrink:
 * @self: a floating-point #GnnTensor
 * @lambd: the shrinkage, at least 0
 * @error: return location for a #GError
 *
 * Moves every element towards 0 by @lambd, zeroing those with
 * `-lambd <= x <= lambd` (like
 * `torch.nn.functional.softshrink(input, lambd)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a negative @lambd ("lambda must be greater or equal to 0, but found
 *   to be -1.") or a dtype other than float32 and float64 (PyTorch's
 *   messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_softshrink (GnnTensor  *self,
                       double      lambd,
                       GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("softshrink", self, error, NULL);
  if (!(lambd >= 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "lambda must be greater or equal to 0, but found to be %g.", lambd);
      return NULL;
    }
  return gnn_tensor_activation (GNN_OP_SOFTSHRINK, self, (const double[]) { lambd, 0, 0, 0 },
                                error);
}

/**
 * gnn_tensor_log_sigmoid:
 * @self: a floating-point #GnnTensor
 * @error: return location for a #GError
 *
 * Computes `log (sigmoid (x)) = min (x, 0) - log1p (exp (-|x|))`
 * elementwise, stable for large |x| (like
 * `torch.nn.functional.logsigmoid(input)`). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   if @self is not float32 or float64 (PyTorch's message)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log_sigmoid (GnnTensor  *self,
                        GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("log_sigmoid", self, error, NULL);
  return gnn_tensor_activation (GNN_OP_LOG_SIGMOID, self, (const double[]) { 0, 0, 0, 0 }, error);
}

/**
 * gnn_tensor_gelu_approximate:
 * @self: a floating-point #GnnTensor
 * @approximate: (nullable): `"none"` (the exact x Φ(x), as
 *   [method@Gnn.Tensor.gelu]) or `"tanh"`; %NULL is `"none"`
 * @error: return location for a #GError
 *
 * The Gaussian error linear unit, like
 * `torch.nn.functional.gelu(input, approximate=approximate)`: with `"tanh"`,
 * 0.5 x (1 + tanh (√(2/π) (x + 0.044715 x³))). Differentiable.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for another @approximate ("approximate argument must be either none or
 *   tanh.") or a dtype other than float32 and float64
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_gelu_approximate (GnnTensor   *self,
                             const char  *approximate,
                             GError     **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("gelu", self, error, NULL);
  if (approximate == NULL || strcmp (approximate, "none") == 0)
    return gnn_tensor_gelu (self, error);
  if (strcmp (approximate, "tanh") == 0)
    return gnn_tensor_activation (GNN_OP_GELU_TANH, self,
                                  (const double[]) { sqrt (2.0 / G_PI), 0.044715, 0, 0 }, error);
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "approximate argument must be either none or tanh.");
  return NULL;
}

/**
 * gnn_tensor_softmin:
 * @self: a floating-point #GnnTensor
 * @dim: the dimension to normalize over (negative counts from the end)
 * @error: return location for a #GError
 *
 * The softmax of `-x` along @dim, like
 * `torch.nn.functional.softmin(input, dim)` (which computes it so):
 * large inputs get small weights. Differentiable.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set for a
 *   @dim out of range or an unsupported dtype
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_softmin (GnnTensor  *self,
                    gint        dim,
                    GError    **error)
{
  g_autoptr(GnnTensor) neg = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if ((neg = gnn_tensor_neg (self, error)) == NULL)
    return NULL;
  return gnn_tensor_softmax (neg, dim, error);
}
