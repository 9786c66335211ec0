/* gnn-tensor-shuffle.c: pixel shuffle and unshuffle
 * (torch.nn.functional.pixel_shuffle, pixel_unshuffle)
 *
 * A shuffle is a permuted view copied out: [B, C, r, r, H, W] read as [B,
 * C, H, r, W, r] (unshuffle: the reverse). The node's backward is the
 * other shuffle of the gradient.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-shuffle-private.h"

GnnTensor *
gnn_pixel_shuffle_copy (GnnTensor  *t,
                        gint64      r,
                        gboolean    unshuffle,
                        GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  g_autoptr(GnnTensor) tc = gnn_tensor_contiguous_checked (t, error);
  g_autoptr(GnnTensor) view = NULL;
  g_autoptr(GnnTensor) packed = NULL;
  gint64 b = 1, c, h, w, shape[6], strides[6], out_shape[GNN_MAX_DIMS];

  if (tc == NULL)
    return NULL;
  for (guint d = 0; d + 3 < p->ndim; d++)
    b *= p->shape[d];
  c = p->shape[p->ndim - 3], h = p->shape[p->ndim - 2], w = p->shape[p->ndim - 1];
  memcpy (out_shape, p->shape, sizeof (gint64) * p->ndim);
  if (!unshuffle)
    {
      /* [B, C, r, r, H, W] read in the order [B, C, H, r, W, r] */
      gint64 oc = c / (r * r);
      const gint64 src_strides[6] = { c * h * w, r * r * h * w, r * h * w, h * w, w, 1 };

      shape[0] = b, shape[1] = oc, shape[2] = h, shape[3] = r, shape[4] = w, shape[5] = r;
      strides[0] = src_strides[0], strides[1] = src_strides[1], strides[2] = src_strides[4];
      strides[3] = src_strides[2], strides[4] = src_strides[5], strides[5] = src_strides[3];
      out_shape[p->ndim - 3] = oc, out_shape[p->ndim - 2] = h * r, out_shape[p->ndim - 1] = w * r;
    }
  else
    {
      /* [B, C, H, r, W, r] read in the order [B, C, r, r, H, W] */
      gint64 ih = h / r, iw = w / r;
      const gint64 src_strides[6] = { c * h * w, h * w, r * w, w, r, 1 };

      shape[0] = b, shape[1] = c, shape[2] = r, shape[3] = r, shape[4] = ih, shape[5] = iw;
      strides[0] = src_strides[0], strides[1] = src_strides[1], strides[2] = src_strides[3];
      strides[3] = src_strides[5], strides[4] = src_strides[2], strides[5] = src_strides[4];
      out_shape[p->ndim - 3] = c * r * r, out_shape[p->ndim - 2] = ih, out_shape[p->ndim - 1] = iw;
    }
  view = gnn_tensor_new_view (tc, shape, strides, 6, gnn_tensor_priv (tc)->offset);
  if ((packed = gnn_tensor_contiguous_checked (view, error)) == NULL)
    return NULL;
  {
    gint64 out_strides[GNN_MAX_DIMS];

    gnn_contiguous_strides (out_shape, p->ndim, out_strides);
    return gnn_tensor_new_view (packed, out_shape, out_strides, p->ndim, gnn_tensor_priv (packed)->offset);
  }
}

static GnnTensor *
shuffle (GnnTensor  *input,
         gint64      r,
         gboolean    unshuffle,
         GError    **error)
{
  const char *name = unshuffle ? "pixel_unshuffle" : "pixel_shuffle";
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE (name, input, error, NULL);
  p = gnn_tensor_priv (input);
  if (p->ndim < 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s expects input to have at least 3 dimensions, but got input with %u dimension(s)",
                   name, p->ndim);
      return NULL;
    }
  if (r <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s expects a positive %s, but got %"
                   G_GINT64_FORMAT, name, unshuffle ? "downscale_factor" : "upscale_factor", r);
      return NULL;
    }
  if (!unshuffle && (r > G_MAXINT32 || p->shape[p->ndim - 3] % (r * r) != 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                   "upscale_factor, but input.size(-3)=%" G_GINT64_FORMAT " is not divisible by %" G_GINT64_FORMAT,
                   p->shape[p->ndim - 3], r * r);
      return NULL;
    }
  for (guint axis = 0; unshuffle && axis < 2; axis++)
    if (p->shape[p->ndim - 2 + axis] % r != 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "pixel_unshuffle expects %s to be divisible by downscale_factor, but input.size(%d)=%"
                     G_GINT64_FORMAT " is not divisible by %" G_GINT64_FORMAT, axis == 0 ? "height" : "width",
                     axis == 0 ? -2 : -1, p->shape[p->ndim - 2 + axis], r);
        return NULL;
      }
  return gnn_tensor_record (GNN_OP_PIXEL_SHUFFLE, gnn_pixel_shuffle_copy (input, r, unshuffle, error), &input, 1,
                            &(GnnOpParams) { .ints = { r }, .n_ints = 1, .flag = unshuffle });
}

/**
 * gnn_tensor_pixel_shuffle:
 * @input: the input, `[*, C · r², H, W]`
 * @upscale_factor: r (> 0)
 * @error: return location for a #GError
 *
 * Rearranges channels into space, `torch.nn.functional.pixel_shuffle`:
 * the result is `[*, C, H · r, W · r]`, element `(c, h · r + i, w · r + j)`
 * taken from channel `c · r² + i · r + j` at `(h, w)`.
 *
 * Returns: (transfer full): the shuffled tensor, or %NULL on error (with
 *   PyTorch's messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pixel_shuffle (GnnTensor *input,
                          gint64     upscale_factor,
                          GError   **error)
{
  return shuffle (input, upscale_factor, FALSE, error);
}

/**
 * gnn_tensor_pixel_unshuffle:
 * @input: the input, `[*, C, H · r, W · r]`
 * @downscale_factor: r (> 0)
 * @error: return location for a #GError
 *
 * The reverse of [method@Gnn.Tensor.pixel_shuffle],
 * `torch.nn.functional.pixel_unshuffle`: the result is `[*, C · r², H,
 * W]`.
 *
 * Returns: (transfer full): the unshuffled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pixel_unshuffle (GnnTensor *input,
                            gint64     downscale_factor,
                            GError   **error)
{
  return shuffle (input, downscale_factor, TRUE, error);
}
