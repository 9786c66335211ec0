/* gnn-vision-geometry.c: crops, flips, padding and erasing — every one a
 * gather of rows and columns through index maps (-1: the fill value)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

/* dst[n, c, y, x] = src[n, c, ymap[y], xmap[x]], or fill[c] where a map is
 * -1 (fill: one value per channel, NULL for zeros). */
GnnTensor *
gnn_vision_gather (GnnTensor     *input,
        const gint64  *ymap,
        gint64         out_h,
        const gint64  *xmap,
        gint64         out_w,
        const double  *fill,
        const char    *op,
        GError       **error)
{
  g_autoptr(GnnTensor) keep = NULL, keep_out = NULL;
  g_autoptr(GnnTensor) out = NULL;
  g_autofree guint8 *fills = NULL;
  GnnPlanes src, dst;
  gsize es;

  if (!gnn_planes_init (&src, input, &keep, op, error))
    return NULL;
  out = gnn_vision_new_like (input, src.c, out_h, out_w, src.dtype, FALSE, error);
  if (out == NULL || !gnn_planes_init (&dst, out, &keep_out, op, error))
    return NULL;
  es = src.elsize;
  fills = gnn_vision_alloc (src.c, es, error);
  if (fills == NULL)
    return NULL;
  for (gint64 c = 0; c < src.c && fill != NULL; c++)
    gnn_dtype_write (src.dtype, fills + c * es, fill[c]);
  if (es == 1 && src.sc == 1 && dst.sc == 1 && dst.sw == src.c && src.n == 1)
    {
      /* an image (channels interleaved): whole pixels at a time */
      for (gint64 y = 0; y < out_h; y++)
        {
          guint8 *row = dst.data + y * dst.sh;
          const guint8 *in = ymap[y] < 0 ? NULL : src.data + ymap[y] * src.sh;

          for (gint64 x = 0; x < out_w; x++, row += src.c)
            {
              const guint8 *from = in != NULL && xmap[x] >= 0 ? in + xmap[x] * src.sw : fills;

              for (gint64 c = 0; c < src.c; c++)
                row[c] = from[c];
            }
        }
      return g_steal_pointer (&out);
    }
  for (gint64 n = 0; n < src.n; n++)
    for (gint64 c = 0; c < src.c; c++)
      for (gint64 y = 0; y < out_h; y++)
        {
          guint8 *row = dst.data + (n * dst.sn + c * dst.sc + y * dst.sh) * es;
          const guint8 *in = ymap[y] < 0 ? NULL
                             : src.data + (n * src.sn + c * src.sc + ymap[y] * src.sh) * es;

          for (gint64 x = 0; x < out_w; x++)
            {
              const guint8 *from = in != NULL && xmap[x] >= 0 ? in + xmap[x] * src.sw * es
                                                              : fills + c * es;

              if (es == 1)
                row[x * dst.sw] = *from;
              else
                memcpy (row + x * dst.sw * es, from, es);
            }
        }
  return g_steal_pointer (&out);
}

/* --- index maps ---------------------------------------------------------------- */

/* @n positions starting at @start of an axis of @size, -1 outside. */
static gint64 *
window_map (gint64   start,
            gint64   n,
            gint64   size,
            GError **error)
{
  gint64 *map = gnn_vision_alloc (n, sizeof (gint64), error);

  for (gint64 i = 0; map != NULL && i < n; i++)
    map[i] = start + i >= 0 && start + i < size ? start + i : -1;
  return map;
}

/* The source of position @j (relative to the first kept value) of an axis
 * of @size values, padded by @mode. */
static gint64
pad_index (gint64               j,
           gint64               size,
           GnnVisionPaddingMode mode)
{
  gint64 period;

  if (j >= 0 && j < size)
    return j;
  switch (mode)
    {
    case GNN_VISION_PADDING_MODE_EDGE:
      return CLAMP (j, 0, size - 1);
    case GNN_VISION_PADDING_MODE_REFLECT:
      if (size == 1)
        return 0;
      period = 2 * (size - 1);
      j = ((j % period) + period) % period;
      return j < size ? j : period - j;
    case GNN_VISION_PADDING_MODE_SYMMETRIC:
      period = 2 * size;
      j = ((j % period) + period) % period;
      return j < size ? j : period - 1 - j;
    case GNN_VISION_PADDING_MODE_CONSTANT:
    default:
      return -1;
    }
}

/* The map of an axis of @size padded by @before and @after (negative:
 * cropped first, as torchvision crops before padding). */
static gint64 *
pad_map (gint64                size,
         gint64                before,
         gint64                after,
         GnnVisionPaddingMode  mode,
         gint64               *out_n,
         GError              **error)
{
  gint64 lo = MAX (-before, 0), hi = size - MAX (-after, 0), kept = MAX (hi - lo, 0);
  gint64 b = MAX (before, 0), n;
  gint64 *map;

  if (!gnn_checked_add (kept, b, &n) || !gnn_checked_add (n, MAX (after, 0), &n))
    n = -1;
  map = gnn_vision_alloc (n, sizeof (gint64), error);
  if (map == NULL)
    return NULL;
  for (gint64 i = 0; i < n; i++)
    {
      gint64 j = kept > 0 ? pad_index (i - b, kept, mode) : -1;

      map[i] = j < 0 ? -1 : lo + j;
    }
  *out_n = n;
  return map;
}

GnnTensor *
gnn_vision_crop_copy (GnnTensor  *src,
                      gint64      top,
                      gint64      left,
                      gint64      h,
                      gint64      w,
                      GError    **error)
{
  g_autofree gint64 *ymap = NULL, *xmap = NULL;
  gint64 c, ih, iw;

  if (!gnn_vision_dimensions (src, &c, &ih, &iw, "crop", error))
    return NULL;
  ymap = window_map (top, h, ih, error);
  xmap = ymap != NULL ? window_map (left, w, iw, error) : NULL;
  if (xmap == NULL)
    return NULL;
  return gnn_vision_gather (src, ymap, h, xmap, w, NULL, "crop", error);
}

/**
 * gnn_vision_crop:
 * @img: an image or a tensor image `[..., C, H, W]`
 * @top: the first row (may be negative)
 * @left: the first column (may be negative)
 * @height: the number of rows
 * @width: the number of columns
 * @error: return location for a #GError
 *
 * torchvision's `F.crop(img, top, left, height, width)`: the rectangle,
 * with zeros where it reaches outside the input. Inside the bounds the crop
 * is a view sharing @img's memory (as torch slices a tensor; PIL copies,
 * which only shows if the crop is written to in place).
 *
 * Returns: (transfer full): the crop, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_crop (GnnTensor  *img,
                 gint64      top,
                 gint64      left,
                 gint64      height,
                 gint64      width,
                 GError    **error)
{
  gint64 c, h, w;

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE ("crop", img, error, NULL);
  if (!gnn_vision_dimensions (img, &c, &h, &w, "crop", error))
    return NULL;
  if (height < 0 || width < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "crop: height and width must not be negative, got %" G_GINT64_FORMAT " and %"
                   G_GINT64_FORMAT, height, width);
      return NULL;
    }
  if (GNN_IS_IMAGE (img) && top >= 0 && left >= 0 && top + height <= h && left + width <= w)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (img);

      return GNN_TENSOR (gnn_image_new_with_storage (gnn_storage_ref (p->storage), height, width,
                                                     c, p->strides, p->offset + top * p->strides[0]
                                                     + left * p->strides[1]));
    }
  if (top >= 0 && left >= 0 && top + height <= h && left + width <= w)
    {
      g_autoptr(GnnTensor) rows = gnn_tensor_narrow (img, -2, top, height, error);

      return rows != NULL ? gnn_tensor_narrow (rows, -1, left, width, error) : NULL;
    }
  return gnn_vision_crop_copy (img, top, left, height, width, error);
}

/**
 * gnn_vision_center_crop:
 * @img: an image or a tensor image
 * @output_size: (array length=n_output_size): [h, w], or one value for both
 * @n_output_size: 1 or 2
 * @error: return location for a #GError
 *
 * torchvision's `F.center_crop(img, output_size)`: the centred rectangle
 * (its top left corner rounded half to even, as Python's round()), the
 * input first padded with zeros where it is smaller.
 *
 * Returns: (transfer full): the crop, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_center_crop (GnnTensor     *img,
                        const gint64  *output_size,
                        gsize          n_output_size,
                        GError       **error)
{
  g_autoptr(GnnTensor) padded = NULL;
  gint64 c, h, w, ch, cw;

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  g_return_val_if_fail (output_size != NULL || n_output_size == 0, NULL);
  GNN_CHECK_STORAGE ("center_crop", img, error, NULL);
  if (!gnn_vision_crop_size (output_size, n_output_size, &ch, &cw, "center_crop", error) ||
      !gnn_vision_dimensions (img, &c, &h, &w, "center_crop", error))
    return NULL;
  if (cw > w || ch > h)
    {
      const gint64 padding[4] = { cw > w ? (cw - w) / 2 : 0, ch > h ? (ch - h) / 2 : 0,
                                  cw > w ? (cw - w + 1) / 2 : 0, ch > h ? (ch - h + 1) / 2 : 0 };

      padded = gnn_vision_pad (img, padding, 4, NULL, 0, GNN_VISION_PADDING_MODE_CONSTANT, error);
      if (padded == NULL)
        return NULL;
      img = padded;
      gnn_vision_dimensions (img, &c, &h, &w, "center_crop", NULL);
      if (cw == w && ch == h)
        return g_steal_pointer (&padded);
    }
  return gnn_vision_crop (img, (gint64) nearbyint ((double) (h - ch) / 2.0),
                          (gint64) nearbyint ((double) (w - cw) / 2.0), ch, cw, error);
}

static GnnTensor *
flip (GnnTensor   *img,
      gboolean     horizontal,
      const char  *op,
      GError     **error)
{
  g_autofree gint64 *ymap = NULL, *xmap = NULL;
  gint64 c, h, w;

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE (op, img, error, NULL);
  if (!gnn_vision_dimensions (img, &c, &h, &w, op, error))
    return NULL;
  ymap = window_map (0, h, h, error);
  xmap = ymap != NULL ? window_map (0, w, w, error) : NULL;
  if (xmap == NULL)
    return NULL;
  for (gint64 i = 0; horizontal && i < w; i++)
    xmap[i] = w - 1 - i;
  for (gint64 i = 0; !horizontal && i < h; i++)
    ymap[i] = h - 1 - i;
  return gnn_vision_gather (img, ymap, h, xmap, w, NULL, op, error);
}

/**
 * gnn_vision_hflip:
 * @img: an image or a tensor image
 * @error: return location for a #GError
 *
 * torchvision's `F.hflip(img)`: the columns in reverse order (a copy).
 *
 * Returns: (transfer full): the flipped image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_hflip (GnnTensor  *img,
                  GError    **error)
{
  return flip (img, TRUE, "hflip", error);
}

/**
 * gnn_vision_vflip:
 * @img: an image or a tensor image
 * @error: return location for a #GError
 *
 * torchvision's `F.vflip(img)`: the rows in reverse order (a copy).
 *
 * Returns: (transfer full): the flipped image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_vflip (GnnTensor  *img,
                  GError    **error)
{
  return flip (img, FALSE, "vflip", error);
}

/**
 * gnn_vision_pad:
 * @img: an image or a tensor image
 * @padding: (array length=n_padding): one value for every side, two (left
 *   and right, top and bottom) or four (left, top, right, bottom);
 *   negative values crop
 * @n_padding: 1, 2 or 4
 * @fill: (array length=n_fill) (nullable): the constant fill, one value or
 *   one per channel (none: 0)
 * @n_fill: the number of fill values
 * @padding_mode: how the border is filled
 * @error: return location for a #GError
 *
 * torchvision's `F.pad(img, padding, fill, padding_mode)`. A reflection
 * wider than the image repeats (as numpy's pad, torchvision's path for
 * images); torch refuses it for tensors, and so does this ("Padding size
 * should be less than the corresponding input dimension").
 *
 * Returns: (transfer full): the padded image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_pad (GnnTensor             *img,
                const gint64          *padding,
                gsize                  n_padding,
                const double          *fill,
                gsize                  n_fill,
                GnnVisionPaddingMode   padding_mode,
                GError               **error)
{
  g_autofree gint64 *ymap = NULL, *xmap = NULL;
  g_autofree double *fills = NULL;
  gint64 c, h, w, left, top, right, bottom, out_h, out_w;

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  g_return_val_if_fail (padding != NULL || n_padding == 0, NULL);
  GNN_CHECK_STORAGE ("pad", img, error, NULL);
  if (n_padding != 1 && n_padding != 2 && n_padding != 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Padding must be an int or a 1, 2, or 4 element tuple, not a %" G_GSIZE_FORMAT
                   " element tuple", n_padding);
      return NULL;
    }
  if (padding_mode > GNN_VISION_PADDING_MODE_SYMMETRIC)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Padding mode should be either constant, edge, reflect or symmetric");
      return NULL;
    }
  if (!gnn_vision_dimensions (img, &c, &h, &w, "pad", error))
    return NULL;
  left = padding[0];
  top = n_padding >= 2 ? padding[1] : padding[0];
  right = n_padding == 4 ? padding[2] : left;
  bottom = n_padding == 4 ? padding[3] : top;
  if (!GNN_IS_IMAGE (img) && padding_mode == GNN_VISION_PADDING_MODE_REFLECT &&
      (MAX (left, right) >= w || MAX (top, bottom) >= h))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "pad: Padding size should be less than the corresponding input dimension, "
                   "but got: padding (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") at dimension "
                   "%s of input of size %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT,
                   MAX (left, right) >= w ? left : top, MAX (left, right) >= w ? right : bottom,
                   MAX (left, right) >= w ? "W" : "H", h, w);
      return NULL;
    }
  if ((padding_mode != GNN_VISION_PADDING_MODE_CONSTANT) && (h == 0 || w == 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "pad: cannot pad an empty image by its edge values");
      return NULL;
    }
  ymap = pad_map (h, top, bottom, padding_mode, &out_h, error);
  xmap = ymap != NULL ? pad_map (w, left, right, padding_mode, &out_w, error) : NULL;
  fills = xmap != NULL ? gnn_vision_alloc (c, sizeof (double), error) : NULL;
  if (fills == NULL)
    return NULL;
  gnn_vision_fill_values (fill, n_fill, c, fills);
  return gnn_vision_gather (img, ymap, out_h, xmap, out_w, fills, "pad", error);
}

/**
 * gnn_vision_erase:
 * @img: a tensor image `[..., C, H, W]`
 * @i: the first row
 * @j: the first column
 * @h: the number of rows
 * @w: the number of columns
 * @v: the values, broadcastable to `[C, h, w]`
 * @inplace: whether to write into @img
 * @error: return location for a #GError
 *
 * torchvision's `F.erase(img, i, j, h, w, v, inplace)`: the rectangle
 * replaced by @v.
 *
 * Returns: (transfer full): the result (@img itself with @inplace), or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_erase (GnnTensor  *img,
                  gint64      i,
                  gint64      j,
                  gint64      h,
                  gint64      w,
                  GnnTensor  *v,
                  gboolean    inplace,
                  GError    **error)
{
  g_autoptr(GnnTensor) out = NULL, rows = NULL, region = NULL;
  gint64 c, ih, iw;

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (v), NULL);
  if (!gnn_vision_require_tensor (img, "erase", error) ||
      !gnn_vision_dimensions (img, &c, &ih, &iw, "erase", error))
    return NULL;
  GNN_CHECK_STORAGE ("erase", img, error, NULL);
  if (i < 0 || j < 0 || h < 0 || w < 0 || i + h > ih || j + w > iw)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "erase: the rectangle (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") is not inside the image (%"
                   G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")", i, j, h, w, ih, iw);
      return NULL;
    }
  out = inplace ? g_object_ref (img) : gnn_tensor_copy_checked (img, gnn_tensor_get_dtype (img),
                                                                 error);
  if (out == NULL)
    return NULL;
  rows = gnn_tensor_narrow (out, -2, i, h, error);
  region = rows != NULL ? gnn_tensor_narrow (rows, -1, j, w, error) : NULL;
  if (region == NULL || !gnn_tensor_copy_ (region, v, error))
    return NULL;
  return g_steal_pointer (&out);
}
