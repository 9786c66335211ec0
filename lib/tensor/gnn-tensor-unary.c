/* gnn-tensor-unary.c: elementwise activations, exp/log/sqrt/abs/neg and
 * the finiteness tests (kernels in gnn-tensor-unary-kernels.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"

static gboolean
unary_ (GnnUnaryId   id,
        GnnOpKind    kind,
        GnnTensor   *self,
        GError     **error)
{
  g_autoptr(GnnTensor) values = NULL;

  GNN_CHECK_STORAGE (gnn_unary_op (id)->name, self, error, FALSE);
  values = gnn_tensor_unary_op (id, self, error);
  return values != NULL && gnn_ew_assign_ (self, values, kind, NULL, 0, NULL, error);
}

/* torch refuses to negate a mask */
static gboolean
check_not_bool_neg (GnnTensor *self,
                    GError   **error)
{
  if (gnn_tensor_priv (self)->dtype != GNN_DTYPE_BOOL)
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "Negation, the `-` operator, on a bool tensor is not supported. If you "
                       "are trying to invert a mask, use the `~` or `logical_not()` operator "
                       "instead.");
  return FALSE;
}

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
 *   for a dtype the op does not take (integer tensors give float32)
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
 * Computes the hyperbolic tangent elementwise (like `torch.tanh`); integer
 * and bool tensors give float32, as in torch.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *   for a dtype the op does not take (integer tensors give float32)
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
 *   for a dtype the op does not take (integer tensors give float32)
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
 *   for a dtype the op does not take (integer tensors give float32)
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
 *   for a dtype the op does not take (integer tensors give float32)
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
  if (!check_not_bool_neg (self, error))
    return NULL;
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
 *   for a dtype the op does not take (integer tensors give float32)
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

/**
 * gnn_tensor_exp_:
 * @self: a floating-point tensor, updated in place
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.exp] (like `self.exp_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_exp_ (GnnTensor *self,
                 GError   **error)
{
  return unary_ (GNN_UNARY_EXP, GNN_OP_EXP, self, error);
}

/**
 * gnn_tensor_log_:
 * @self: a floating-point tensor, updated in place
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.log] (like `self.log_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_log_ (GnnTensor *self,
                 GError   **error)
{
  return unary_ (GNN_UNARY_LOG, GNN_OP_LOG, self, error);
}

/**
 * gnn_tensor_sqrt_:
 * @self: a floating-point tensor, updated in place
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.sqrt] (like `self.sqrt_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sqrt_ (GnnTensor *self,
                  GError   **error)
{
  return unary_ (GNN_UNARY_SQRT, GNN_OP_SQRT, self, error);
}

/**
 * gnn_tensor_abs_:
 * @self: the tensor to update
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.abs] (like `self.abs_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_abs_ (GnnTensor *self,
                 GError   **error)
{
  return unary_ (GNN_UNARY_ABS, GNN_OP_ABS, self, error);
}

/**
 * gnn_tensor_neg_:
 * @self: the tensor to update
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.neg] (like `self.neg_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_neg_ (GnnTensor *self,
                 GError   **error)
{
  if (!check_not_bool_neg (self, error))
    return FALSE;
  return unary_ (GNN_UNARY_NEG, GNN_OP_NEG, self, error);
}

/**
 * gnn_tensor_tanh_:
 * @self: a floating-point tensor, updated in place
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.tanh] (like `self.tanh_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_tanh_ (GnnTensor *self,
                  GError   **error)
{
  return unary_ (GNN_UNARY_TANH, GNN_OP_TANH, self, error);
}

/**
 * gnn_tensor_sigmoid_:
 * @self: a floating-point tensor, updated in place
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.sigmoid] (like `self.sigmoid_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_sigmoid_ (GnnTensor *self,
                     GError   **error)
{
  return unary_ (GNN_UNARY_SIGMOID, GNN_OP_SIGMOID, self, error);
}

/**
 * gnn_tensor_isnan:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Which elements are NaN (like `torch.isnan`): a bool tensor.
 *
 * Returns: (transfer full): a new contiguous bool tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isnan (GnnTensor *self,
                  GError   **error)
{
  GNN_CHECK_STORAGE ("isnan", self, error, NULL);
  return gnn_tensor_unary_op (GNN_UNARY_ISNAN, self, error);
}

/**
 * gnn_tensor_isinf:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Which elements are ±inf (like `torch.isinf`): a bool tensor.
 *
 * Returns: (transfer full): a new contiguous bool tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isinf (GnnTensor *self,
                  GError   **error)
{
  GNN_CHECK_STORAGE ("isinf", self, error, NULL);
  return gnn_tensor_unary_op (GNN_UNARY_ISINF, self, error);
}

/**
 * gnn_tensor_isfinite:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * Which elements are neither NaN nor ±inf (like `torch.isfinite`).
 *
 * Returns: (transfer full): a new contiguous bool tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isfinite (GnnTensor *self,
                     GError   **error)
{
  GNN_CHECK_STORAGE ("isfinite", self, error, NULL);
  return gnn_tensor_unary_op (GNN_UNARY_ISFINITE, self, error);
}
