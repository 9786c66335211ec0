/* gnn-tensor-lp-pool.c: power-average pooling
 * (torch.nn.functional.lp_pool1d/2d), composed of C ops as torch composes it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"

/* (sign(out) * relu(|out|) * window) ^ (1 / p) for out the average of x^p:
 * torch's expression, op for op, so the graph and its gradients (zero
 * where the sum of powers is zero) are torch's. */
static GnnTensor *
finish (GnnTensor  *avg,
        double      norm_type,
        gint64      window,
        GError    **error)
{
  g_autoptr(GnnTensor) sign = gnn_tensor_sign (avg, error);
  g_autoptr(GnnTensor) abs = sign != NULL ? gnn_tensor_abs (avg, error) : NULL;
  g_autoptr(GnnTensor) relu = abs != NULL ? gnn_tensor_relu (abs, error) : NULL;
  g_autoptr(GnnTensor) prod = relu != NULL ? gnn_tensor_mul (sign, relu, error) : NULL;
  g_autoptr(GnnTensor) scaled = prod != NULL ? gnn_tensor_mul_scalar (prod, (double) window, error) : NULL;

  return scaled != NULL ? gnn_tensor_pow (scaled, 1.0 / norm_type, error) : NULL;
}

/**
 * gnn_tensor_lp_pool1d:
 * @input: the input, `[N, C, L]` or `[C, L]`, float32 or float64
 * @norm_type: the power p
 * @kernel_size: the window length (> 0)
 * @stride: the stride, or 0 for @kernel_size (torch's `None`)
 * @ceil_mode: whether to round the output size up instead of down
 * @error: return location for a #GError
 *
 * `torch.nn.functional.lp_pool1d`: `(Σ x^p)^(1/p)` over each window,
 * computed as torch computes it (an average pool of `x^p`, scaled back).
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lp_pool1d (GnnTensor  *input,
                      double      norm_type,
                      gint64      kernel_size,
                      gint64      stride,
                      gboolean    ceil_mode,
                      GError    **error)
{
  g_autoptr(GnnTensor) powered = NULL;
  g_autoptr(GnnTensor) avg = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);

  powered = gnn_tensor_pow (input, norm_type, error);
  avg = powered != NULL ? gnn_tensor_avg_pool1d (powered, kernel_size, stride, 0, ceil_mode, TRUE, error) : NULL;
  return avg != NULL ? finish (avg, norm_type, kernel_size, error) : NULL;
}

/**
 * gnn_tensor_lp_pool2d:
 * @input: the input, `[N, C, H, W]` or `[C, H, W]`, float32 or float64
 * @norm_type: the power p
 * @kernel_h: the window height (> 0)
 * @kernel_w: the window width (> 0)
 * @stride_h: the vertical stride; 0 (with @stride_w 0) means the kernel
 * @stride_w: the horizontal stride
 * @ceil_mode: whether to round the output size up instead of down
 * @error: return location for a #GError
 *
 * `torch.nn.functional.lp_pool2d`; see [method@Gnn.Tensor.lp_pool1d].
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lp_pool2d (GnnTensor  *input,
                      double      norm_type,
                      gint64      kernel_h,
                      gint64      kernel_w,
                      gint64      stride_h,
                      gint64      stride_w,
                      gboolean    ceil_mode,
                      GError    **error)
{
  g_autoptr(GnnTensor) powered = NULL;
  g_autoptr(GnnTensor) avg = NULL;
  gint64 window;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);

  powered = gnn_tensor_pow (input, norm_type, error);
  avg = powered != NULL ? gnn_tensor_avg_pool2d (powered, kernel_h, kernel_w, stride_h, stride_w, 0, 0,
                                                 ceil_mode, TRUE, 0, error) : NULL;
  if (avg == NULL)
    return NULL;
  if (!gnn_checked_mul (kernel_h, kernel_w, &window))
    window = G_MAXINT64;
  return finish (avg, norm_type, window, error);
}
