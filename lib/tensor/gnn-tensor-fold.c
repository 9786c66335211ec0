/* gnn-tensor-fold.c: sliding blocks to columns and back (torch's
 * im2col / col2im under F.unfold / F.fold), on the convolution kernels'
 * im2col and col2im
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-fold-private.h"
#include "tensor/gnn-parallel-private.h"

/* torch's checks of the four settings, in its words. */
/* torch's rank check of im2col / col2im: @rank or @rank + 1 (batched)
 * dimensions, none empty but the batch; @what is torch's message. */
static gboolean
check_rank (GnnTensorPrivate  *p,
            guint              rank,
            const char        *what,
            GError           **error)
{
  gboolean empty = FALSE;

  for (guint d = p->ndim == rank + 1 ? 1 : 0; d < p->ndim; d++)
    empty = empty || p->shape[d] == 0;
  if ((p->ndim == rank || p->ndim == rank + 1) && !empty)
    return TRUE;
  {
    g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s, but got: %s", what, is);
  }
  return FALSE;
}

static gboolean
check_settings (const gint64  *s,
                GError       **error)
{
  static const struct { const char *what, *axis; gint64 minimum; } names[] = {
    { "kernel size should be greater than zero", "kernel", 1 },
    { "dilation should be greater than zero", "dilation", 1 },
    { "padding should be non-negative", "pad", 0 },
    { "stride should be greater than zero", "stride", 1 },
  };

  for (guint i = 0; i < 4; i++)
    if (s[2 * i] < names[i].minimum || s[2 * i + 1] < names[i].minimum)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s, but got %s_height: %" G_GINT64_FORMAT " %s_width: %" G_GINT64_FORMAT, names[i].what,
                     names[i].axis, s[2 * i], names[i].axis, s[2 * i + 1]);
        return FALSE;
      }
  return TRUE;
}

/* The number of blocks along an axis of @size. */
static gint64
blocks (gint64 size,
        gint64 k,
        gint64 d,
        gint64 p,
        gint64 st)
{
  gint64 span = size + 2 * p - d * (k - 1) - 1;

  return span < 0 ? 0 : span / st + 1;
}

void
gnn_fold_geom_init (GnnConvGeom  *g,
                    gint64        channels,
                    gint64        h,
                    gint64        w,
                    const gint64 *s)
{
  memset (g, 0, sizeof *g);
  g->n = 1, g->groups = 1;
  g->cin = g->cin_g = channels;
  g->h = h, g->w = w;
  g->kh = s[0], g->kw = s[1], g->dh = s[2], g->dw = s[3], g->ph = s[4], g->pw = s[5];
  g->sh = s[6], g->sw = s[7];
  g->oh = blocks (h, g->kh, g->dh, g->ph, g->sh);
  g->ow = blocks (w, g->kw, g->dw, g->pw, g->sw);
  g->d = g->kd = g->od = g->sd = g->dd = 1;
}

typedef struct
{
  const GnnConvGeom *g;
  gboolean f32, to_columns;
  const guint8 *src;
  guint8 *dst;
} FoldJob;

static void
fold_range (gint64   i0,
            gint64   i1,
            gpointer data)
{
  const FoldJob *j = data;
  const GnnConvGeom *g = j->g;
  gsize es = j->f32 ? sizeof (float) : sizeof (double);
  gint64 image = g->cin * g->h * g->w, columns = g->cin * g->kh * g->kw * g->oh * g->ow;
  gint64 l = g->oh * g->ow;

  for (gint64 i = i0; i < i1; i++)
    {
      const guint8 *src = j->src + (gsize) (i * (j->to_columns ? image : columns)) * es;
      guint8 *dst = j->dst + (gsize) (i * (j->to_columns ? columns : image)) * es;

      if (j->to_columns && j->f32)
        gnn_conv_im2col_f32 (g, (const float *) src, l, (float *) dst);
      else if (j->to_columns)
        gnn_conv_im2col_f64 (g, (const double *) src, l, (double *) dst);
      else if (j->f32)
        gnn_conv_col2im_f32 (g, (const float *) src, l, (float *) dst);
      else
        gnn_conv_col2im_f64 (g, (const double *) src, l, (double *) dst);
    }
}

void
gnn_fold_run (const GnnConvGeom *g,
              gint64             images,
              GnnDType           dtype,
              gboolean           to_columns,
              const void        *src,
              void              *dst)
{
  gint64 per_image = g->cin * g->kh * g->kw * g->oh * g->ow;

  if (!to_columns)
    memset (dst, 0, (gsize) (images * g->cin * g->h * g->w) * gnn_dtype_get_size (dtype));
  if (images > 0 && per_image > 0)
    gnn_parallel_for (images, gnn_parallel_grain (per_image), fold_range,
                      &(FoldJob) { g, dtype == GNN_DTYPE_F32, to_columns, src, dst });
}

static GnnTensor *
run_and_record (GnnTensor         *input,
                const GnnConvGeom *g,
                gint64             images,
                const gint64      *out_shape,
                guint              out_ndim,
                gboolean           to_columns,
                const gint64      *settings,
                GError           **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) out = gnn_tensor_new_contiguous_checked (p->dtype, out_shape, out_ndim, FALSE, error);
  GnnOpParams params = { .flag = to_columns, .n_ints = 8 };

  if (out == NULL || (xc = gnn_tensor_contiguous_checked (input, error)) == NULL)
    return NULL;
  gnn_fold_run (g, images, p->dtype, to_columns, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out));
  memcpy (params.ints, settings, sizeof (gint64) * 8);
  return gnn_tensor_record (GNN_OP_FOLD, g_steal_pointer (&out), &input, 1, &params);
}

/**
 * gnn_tensor_im2col:
 * @input: the input, `[N, C, H, W]` or unbatched `[C, H, W]`, float32 or
 *   float64
 * @kernel_h: the block height (> 0)
 * @kernel_w: the block width (> 0)
 * @dilation_h: the vertical spacing of a block's elements (> 0)
 * @dilation_w: the horizontal spacing of a block's elements (> 0)
 * @padding_h: the zero padding on the top and bottom (>= 0)
 * @padding_w: the zero padding on the left and right (>= 0)
 * @stride_h: the vertical stride of the blocks (> 0)
 * @stride_w: the horizontal stride of the blocks (> 0)
 * @error: return location for a #GError
 *
 * Extracts the sliding blocks of @input as columns, torch's `im2col`
 * (`torch.nn.functional.unfold`): the result is `[N, C · kH · kW, L]` (or
 * `[C · kH · kW, L]`), L the number of blocks; row `(c, i, j)` holds the
 * element at offset `(i, j)` of channel c of each block.
 *
 * Returns: (transfer full): the columns, or %NULL on error (with PyTorch's
 *   messages, e.g. "kernel size should be greater than zero, but got
 *   kernel_height: 0 kernel_width: 2")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_im2col (GnnTensor *input,
                   gint64     kernel_h,
                   gint64     kernel_w,
                   gint64     dilation_h,
                   gint64     dilation_w,
                   gint64     padding_h,
                   gint64     padding_w,
                   gint64     stride_h,
                   gint64     stride_w,
                   GError   **error)
{
  const gint64 s[8] = { kernel_h, kernel_w, dilation_h, dilation_w, padding_h, padding_w, stride_h, stride_w };
  GnnTensorPrivate *p;
  gboolean batched;
  gint64 out_shape[3];
  GnnConvGeom g;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE ("im2col", input, error, NULL);
  if (!check_settings (s, error))
    return NULL;
  p = gnn_tensor_priv (input);
  batched = p->ndim == 4;
  if (!check_rank (p, 3, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
                   "non-zero dimensions for input", error))
    return NULL;
  if (!gnn_check_float_dtype ("im2col", input, error))
    return NULL;
  gnn_fold_geom_init (&g, p->shape[p->ndim - 3], p->shape[p->ndim - 2], p->shape[p->ndim - 1], s);
  if (g.oh < 1 || g.ow < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Given input with spatial size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), kernel_size=(%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), dilation=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   "), padding=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), calculated shape of the array of "
                   "sliding blocks as (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), but its components must be "
                   "at least one.", g.h, g.w, kernel_h, kernel_w, dilation_h, dilation_w, padding_h, padding_w,
                   g.oh, g.ow);
      return NULL;
    }
  out_shape[0] = batched ? p->shape[0] : 0;
  out_shape[batched ? 1 : 0] = g.cin * kernel_h * kernel_w;
  out_shape[batched ? 2 : 1] = g.oh * g.ow;
  return run_and_record (input, &g, batched ? p->shape[0] : 1, out_shape, batched ? 3 : 2, TRUE, s, error);
}

/**
 * gnn_tensor_col2im:
 * @input: the columns, `[N, C · kH · kW, L]` or unbatched `[C · kH · kW,
 *   L]`, float32 or float64
 * @output_h: the height of the output (its spatial size without padding)
 * @output_w: the width of the output
 * @kernel_h: the block height (> 0)
 * @kernel_w: the block width (> 0)
 * @dilation_h: the vertical spacing of a block's elements (> 0)
 * @dilation_w: the horizontal spacing of a block's elements (> 0)
 * @padding_h: the zero padding on the top and bottom (>= 0)
 * @padding_w: the zero padding on the left and right (>= 0)
 * @stride_h: the vertical stride of the blocks (> 0)
 * @stride_w: the horizontal stride of the blocks (> 0)
 * @error: return location for a #GError
 *
 * Sums the columns back into an image, torch's `col2im`
 * (`torch.nn.functional.fold`), the transpose of [method@Gnn.Tensor.im2col]:
 * the result is `[N, C, output_h, output_w]` (or `[C, output_h,
 * output_w]`), each element the sum of the column entries of the blocks
 * that cover it.
 *
 * Returns: (transfer full): the image, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_col2im (GnnTensor *input,
                   gint64     output_h,
                   gint64     output_w,
                   gint64     kernel_h,
                   gint64     kernel_w,
                   gint64     dilation_h,
                   gint64     dilation_w,
                   gint64     padding_h,
                   gint64     padding_w,
                   gint64     stride_h,
                   gint64     stride_w,
                   GError   **error)
{
  const gint64 s[8] = { kernel_h, kernel_w, dilation_h, dilation_w, padding_h, padding_w, stride_h, stride_w };
  GnnTensorPrivate *p;
  gboolean batched;
  gint64 out_shape[4], rows, channels;
  GnnConvGeom g;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE ("col2im", input, error, NULL);
  if (!check_settings (s, error))
    return NULL;
  p = gnn_tensor_priv (input);
  batched = p->ndim == 3;
  if (!check_rank (p, 2, "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                   "non-zero dimensions for input", error))
    return NULL;
  rows = p->shape[p->ndim - 2];
  if (rows % (kernel_h * kernel_w) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
                   "input.size(1)=%" G_GINT64_FORMAT " and kernel_size=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   ").", rows, kernel_h, kernel_w);
      return NULL;
    }
  channels = rows / (kernel_h * kernel_w);
  if (output_h < 0 || output_w < 0 || output_h > G_MAXINT32 || output_w > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "col2im: the output size must be non-negative, got (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   ")", output_h, output_w);
      return NULL;
    }
  gnn_fold_geom_init (&g, channels, output_h, output_w, s);
  if (g.oh * g.ow != p->shape[p->ndim - 1])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Given output_size=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), kernel_size=(%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), dilation=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   "), padding=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), stride=(%" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT "), expected size of input's dimension 2 to match the calculated number of "
                   "sliding blocks %" G_GINT64_FORMAT " * %" G_GINT64_FORMAT " = %" G_GINT64_FORMAT ", but got "
                   "input.size(2)=%" G_GINT64_FORMAT ".", output_h, output_w, kernel_h, kernel_w, dilation_h,
                   dilation_w, padding_h, padding_w, stride_h, stride_w, g.oh, g.ow, g.oh * g.ow,
                   p->shape[p->ndim - 1]);
      return NULL;
    }
  if (!gnn_check_float_dtype ("col2im", input, error))
    return NULL;
  out_shape[0] = batched ? p->shape[0] : 0;
  out_shape[batched ? 1 : 0] = channels;
  out_shape[batched ? 2 : 1] = output_h;
  out_shape[batched ? 3 : 2] = output_w;
  return run_and_record (input, &g, batched ? p->shape[0] : 1, out_shape, batched ? 4 : 3, FALSE, s, error);
}
