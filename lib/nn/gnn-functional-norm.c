/* gnn-functional-norm.c: local response normalization
 * (torch.nn.functional.local_response_norm), composed of differentiable
 * ops as torch composes it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

/**
 * gnn_tensor_local_response_norm:
 * @input: the input, `[N, C, *]` with at least one more dimension, float32
 *   or float64
 * @size: the number of neighbouring channels summed over (> 0)
 * @alpha: the multiplicative factor
 * @beta: the exponent
 * @k: the additive constant
 * @error: return location for a #GError
 *
 * Local response normalization, `torch.nn.functional.local_response_norm`:
 * each element is divided by `(k + alpha / size · Σ x²)^beta`, the sum over
 * the @size channels around its own (zero padded), composed of
 * [method@Gnn.Tensor.pad], [method@Gnn.Tensor.avg_pool2d] and pointwise ops
 * as torch composes it.
 *
 * Returns: (transfer full): the normalized tensor, or %NULL on error
 *   ("Expected 3D or higher dimensionality input (got 2 dimensions)")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_local_response_norm (GnnTensor *input,
                                gint64     size,
                                double     alpha,
                                double     beta,
                                double     k,
                                GError   **error)
{
  guint ndim;
  const gint64 *shape;
  gint64 flat[4];
  g_autoptr(GnnTensor) sq = NULL, div = NULL, view = NULL, padded = NULL, pooled = NULL;
  g_autoptr(GnnTensor) squeezed = NULL, back = NULL, scaled = NULL, shifted = NULL, powered = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  shape = gnn_tensor_get_shape (input, &ndim);
  if (ndim < 3)
    {
      /* sic: torch 1.13's text keeps its source's indentation */
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected 3D or higher dimensionality                          input (got %u dimensions)",
                   ndim);
      return NULL;
    }
  if (size <= 0 || size > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "local_response_norm: size must be a positive integer, got %" G_GINT64_FORMAT, size);
      return NULL;
    }
  if (gnn_tensor_get_numel (input) == 0)
    return g_object_ref (input);
  /* x² as [N, 1, C, rest], summed over size channels by an average pool */
  flat[0] = shape[0], flat[1] = 1, flat[2] = shape[1], flat[3] = -1;
  if ((sq = gnn_tensor_mul (input, input, error)) == NULL ||
      (view = gnn_tensor_reshape (sq, flat, 4, error)) == NULL ||
      (padded = gnn_tensor_pad (view, (gint64[]) { 0, 0, size / 2, (size - 1) / 2 }, 4,
                                GNN_PADDING_MODE_CONSTANT, 0.0, error)) == NULL ||
      (pooled = gnn_tensor_avg_pool2d (padded, size, 1, 1, 1, 0, 0, FALSE, TRUE, 0, error)) == NULL ||
      (squeezed = gnn_tensor_squeeze (pooled, 1, error)) == NULL ||
      (back = gnn_tensor_reshape (squeezed, shape, ndim, error)) == NULL ||
      (scaled = gnn_tensor_mul_scalar (back, alpha, error)) == NULL ||
      (shifted = gnn_tensor_add_scalar (scaled, k, error)) == NULL ||
      (powered = gnn_tensor_pow (shifted, beta, error)) == NULL)
    return NULL;
  return gnn_tensor_div (input, powered, error);
}
