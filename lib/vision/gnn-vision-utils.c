/* gnn-vision-utils.c: image grids and saving them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

/* torchvision's norm_ip: clamp to [low, high], then (x - low) / max(high
 * - low, 1e-5), in the tensor's float type. */
static void
norm_range (float  *x,
            gint64  n,
            double  low,
            double  high)
{
  float lo = (float) low, hi = (float) high, d = (float) MAX (high - low, 1e-5);

  for (gint64 i = 0; i < n; i++)
    x[i] = (CLAMP (x[i], lo, hi) - lo) / d;
}

static void
min_max (const float *x,
         gint64       n,
         double      *low,
         double      *high)
{
  float lo = n > 0 ? x[0] : 0, hi = lo;

  for (gint64 i = 1; i < n; i++)
    {
      lo = MIN (lo, x[i]);
      hi = MAX (hi, x[i]);
    }
  *low = lo;
  *high = hi;
}

/* The batch [N, C, H, W] of torchvision's make_grid: 2-d and 3-d tensors
 * made one image, one channel repeated into three. */
static GnnTensor *
as_batch (GnnTensor  *tensor,
          GError    **error)
{
  g_autoptr(GnnTensor) t = g_object_ref (tensor);
  guint nd = gnn_tensor_get_ndim (t);
  const gint64 *shape;

  if (nd < 2 || nd > 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "make_grid: expected a tensor of 2 to 4 dimensions, got %u", nd);
      return NULL;
    }
  while (gnn_tensor_get_ndim (t) < 4)
    {
      GnnTensor *u;

      shape = gnn_tensor_get_shape (t, &nd);
      if (nd == 3 && shape[0] == 1)
        {
          GnnTensor *three[3] = { t, t, t };
          g_autoptr(GnnTensor) cat = gnn_tensor_cat (three, 3, 0, error);

          if (cat == NULL)
            return NULL;
          g_object_unref (t);
          t = g_steal_pointer (&cat);
        }
      u = gnn_tensor_unsqueeze (t, 0, error);
      if (u == NULL)
        return NULL;
      g_object_unref (t);
      t = u;
    }
  shape = gnn_tensor_get_shape (t, NULL);
  if (shape[1] == 1)
    {
      GnnTensor *three[3] = { t, t, t };
      GnnTensor *cat = gnn_tensor_cat (three, 3, 1, error);

      if (cat == NULL)
        return NULL;
      g_object_unref (t);
      t = cat;
    }
  return g_steal_pointer (&t);
}

/**
 * gnn_vision_make_grid:
 * @tensor: images `[N, C, H, W]` (or one image `[C, H, W]` or `[H, W]`)
 * @nrow: the number of images in a row of the grid
 * @padding: the space between the images and around them
 * @normalize: whether to scale the values to [0, 1] (by @value_range, or
 *   by the minimum and maximum)
 * @value_range: (array length=n_value_range) (nullable): the (min, max) to
 *   scale from
 * @n_value_range: 0 or 2
 * @scale_each: with @normalize, whether each image is scaled by its own
 *   minimum and maximum
 * @pad_value: the value of the padding
 * @error: return location for a #GError
 *
 * torchvision's `utils.make_grid(tensor, nrow=8, padding=2,
 * normalize=False, value_range=None, scale_each=False, pad_value=0.0)`:
 * the images side by side in a `[C, H', W']` tensor of @tensor's dtype,
 * single-channel images repeated into three channels.
 *
 * Returns: (transfer full): the grid, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_make_grid (GnnTensor     *tensor,
                      gint64         nrow,
                      gint64         padding,
                      gboolean       normalize,
                      const double  *value_range,
                      gsize          n_value_range,
                      gboolean       scale_each,
                      double         pad_value,
                      GError       **error)
{
  g_autoptr(GnnTensor) batch = NULL, grid = NULL;
  const gint64 *shape;
  gint64 nmaps, xmaps, ymaps, height, width, gshape[3];

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  GNN_CHECK_STORAGE ("make_grid", tensor, error, NULL);
  if (n_value_range != 0 && n_value_range != 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "value_range has to be a tuple (min, max) if specified. min and max "
                           "are numbers");
      return NULL;
    }
  if (nrow < 1 || padding < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "make_grid: nrow must be positive and padding not negative (got %"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT ")", nrow, padding);
      return NULL;
    }
  batch = as_batch (tensor, error);
  if (batch == NULL)
    return NULL;
  if (normalize)
    {
      /* a float32 copy (torchvision clones; its arithmetic is float32 here) */
      GnnTensor *copy = gnn_tensor_copy_checked (batch, gnn_tensor_get_dtype (batch), error);
      float *x;
      gint64 n, per;

      if (copy == NULL)
        return NULL;
      g_object_unref (batch);
      batch = copy;
      if (gnn_tensor_get_dtype (batch) != GNN_DTYPE_F32)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "make_grid: normalize needs a float32 tensor, got %s",
                       gnn_dtype_get_name (gnn_tensor_get_dtype (batch)));
          return NULL;
        }
      x = (float *) gnn_tensor_priv_data (gnn_tensor_priv (batch));
      n = gnn_tensor_get_numel (batch);
      per = n / MAX (gnn_tensor_get_shape (batch, NULL)[0], 1);
      for (gint64 k = 0; k < (scale_each ? n / MAX (per, 1) : 1); k++)
        {
          float *part = scale_each ? x + k * per : x;
          gint64 count = scale_each ? per : n;
          double lo, hi;

          if (n_value_range == 2)
            {
              lo = value_range[0];
              hi = value_range[1];
            }
          else
            min_max (part, count, &lo, &hi);
          norm_range (part, count, lo, hi);
        }
    }
  shape = gnn_tensor_get_shape (batch, NULL);
  if (shape[0] == 1)
    return gnn_tensor_select (batch, 0, 0, error);
  nmaps = shape[0];
  xmaps = MIN (nrow, nmaps);
  ymaps = (nmaps + xmaps - 1) / xmaps;
  height = shape[2] + padding;
  width = shape[3] + padding;
  gshape[0] = shape[1];
  gshape[1] = height * ymaps + padding;
  gshape[2] = width * xmaps + padding;
  grid = gnn_tensor_full (gshape, 3, pad_value, gnn_tensor_get_dtype (batch), error);
  if (grid == NULL)
    return NULL;
  for (gint64 k = 0; k < nmaps; k++)
    {
      gint64 y = k / xmaps, x = k % xmaps;
      g_autoptr(GnnTensor) rows = gnn_tensor_narrow (grid, 1, y * height + padding, height - padding,
                                                     error);
      g_autoptr(GnnTensor) cell = rows != NULL ? gnn_tensor_narrow (rows, 2, x * width + padding,
                                                                     width - padding, error) : NULL;
      g_autoptr(GnnTensor) image = cell != NULL ? gnn_tensor_select (batch, 0, k, error) : NULL;

      if (image == NULL || !gnn_tensor_copy_ (cell, image, error))
        return NULL;
    }
  return g_steal_pointer (&grid);
}

/**
 * gnn_vision_grid_image:
 * @tensor: images `[N, C, H, W]` (or one image) with values in [0, 1]
 * @nrow: see [func@Gnn.vision_make_grid]
 * @padding: see [func@Gnn.vision_make_grid]
 * @normalize: see [func@Gnn.vision_make_grid]
 * @value_range: (array length=n_value_range) (nullable): see
 *   [func@Gnn.vision_make_grid]
 * @n_value_range: 0 or 2
 * @scale_each: see [func@Gnn.vision_make_grid]
 * @pad_value: see [func@Gnn.vision_make_grid]
 * @error: return location for a #GError
 *
 * The image torchvision's `save_image` writes: the grid scaled to [0, 255]
 * (`grid * 255 + 0.5`, clamped, truncated to bytes).
 *
 * Returns: (transfer full): the image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnImage *
gnn_vision_grid_image (GnnTensor     *tensor,
                       gint64         nrow,
                       gint64         padding,
                       gboolean       normalize,
                       const double  *value_range,
                       gsize          n_value_range,
                       gboolean       scale_each,
                       double         pad_value,
                       GError       **error)
{
  g_autoptr(GnnTensor) grid = gnn_vision_make_grid (tensor, nrow, padding, normalize, value_range,
                                                    n_value_range, scale_each, pad_value, error);
  g_autoptr(GnnTensor) keep = NULL;
  g_autoptr(GnnImage) image = NULL;
  GnnPlanes src;
  guint8 *dst;

  if (grid == NULL || !gnn_planes_init (&src, grid, &keep, "save_image", error))
    return NULL;
  if (gnn_tensor_get_ndim (grid) != 3 || src.c < 1 || src.c > 4 || src.c == 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "save_image: cannot write an image of %" G_GINT64_FORMAT " channels", src.c);
      return NULL;
    }
  image = gnn_image_new_uninitialized (src.h, src.w, src.c, FALSE, error);
  if (image == NULL)
    return NULL;
  dst = gnn_image_data (image);
  for (gint64 y = 0; y < src.h; y++)
    for (gint64 x = 0; x < src.w; x++)
      for (gint64 c = 0; c < src.c; c++)
        {
          double v = gnn_planes_read (&src, src.data + (c * src.sc + y * src.sh + x * src.sw) *
                                                       src.elsize);
          float f = (float) v * 255.0f + 0.5f;

          *dst++ = (guint8) CLAMP (f, 0.0f, 255.0f);
        }
  return g_steal_pointer (&image);
}

/**
 * gnn_vision_save_image:
 * @tensor: images `[N, C, H, W]` (or one image) with values in [0, 1]
 * @path: (type filename): the file to write
 * @format: (nullable): "png" or "jpeg", or %NULL for @path's extension
 * @nrow: see [func@Gnn.vision_make_grid]
 * @padding: see [func@Gnn.vision_make_grid]
 * @normalize: see [func@Gnn.vision_make_grid]
 * @value_range: (array length=n_value_range) (nullable): see
 *   [func@Gnn.vision_make_grid]
 * @n_value_range: 0 or 2
 * @scale_each: see [func@Gnn.vision_make_grid]
 * @pad_value: see [func@Gnn.vision_make_grid]
 * @error: return location for a #GError
 *
 * torchvision's `utils.save_image(tensor, fp, format=None, **kwargs)`:
 * [func@Gnn.vision_grid_image] written through GdkPixbuf.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_vision_save_image (GnnTensor     *tensor,
                       const char    *path,
                       const char    *format,
                       gint64         nrow,
                       gint64         padding,
                       gboolean       normalize,
                       const double  *value_range,
                       gsize          n_value_range,
                       gboolean       scale_each,
                       double         pad_value,
                       GError       **error)
{
  g_autoptr(GnnImage) image = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  image = gnn_vision_grid_image (tensor, nrow, padding, normalize, value_range, n_value_range,
                                 scale_each, pad_value, error);
  return image != NULL && gnn_image_save (image, path, format, error);
}
