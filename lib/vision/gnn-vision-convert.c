/* gnn-vision-convert.c: conversions between images and tensors, dtype
 * conversion and normalization (torchvision.transforms.functional)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

static gboolean
require_image (GnnTensor   *pic,
               const char  *op,
               GError     **error)
{
  if (GNN_IS_IMAGE (pic))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE,
               "%s: pic should be an image (GnnImage, torchvision's PIL Image). Got Tensor", op);
  return FALSE;
}

void
gnn_vision_planes_to_float (const GnnPlanes *src,
                            float           *dst,
                            double           divisor)
{
  float table[256];

  if (src->dtype == GNN_DTYPE_U8)
    for (int v = 0; v < 256; v++)   /* x / 255 in float32, as torch divides */
      table[v] = (float) v / (float) divisor;
  for (gint64 n = 0; n < src->n; n++)
    for (gint64 c = 0; c < src->c; c++)
      for (gint64 y = 0; y < src->h; y++)
        {
          const guint8 *row = src->data + (n * src->sn + c * src->sc + y * src->sh) * src->elsize;

          if (src->dtype == GNN_DTYPE_U8)
            for (gint64 x = 0; x < src->w; x++)
              *dst++ = table[row[x * src->sw]];
          else
            for (gint64 x = 0; x < src->w; x++)
              *dst++ = (float) (gnn_dtype_read (src->dtype, row + x * src->sw * src->elsize) /
                                divisor);
        }
}

/**
 * gnn_vision_to_tensor:
 * @pic: an image
 * @error: return location for a #GError
 *
 * torchvision's `F.to_tensor(pic)`: the image as a float32 tensor `[C, H,
 * W]` with values in [0, 1] (each value divided by 255 in float32, as
 * torch divides).
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set (@pic is
 *   not an image: torchvision's "pic should be PIL Image or ndarray")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_to_tensor (GnnTensor  *pic,
                      GError    **error)
{
  g_autoptr(GnnTensor) keep = NULL;
  GnnTensor *out;
  GnnPlanes src;
  gint64 shape[3];

  g_return_val_if_fail (GNN_IS_TENSOR (pic), NULL);
  if (!require_image (pic, "ToTensor", error) ||
      !gnn_planes_init (&src, pic, &keep, "ToTensor", error))
    return NULL;
  shape[0] = src.c;
  shape[1] = src.h;
  shape[2] = src.w;
  out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_F32, shape, 3, FALSE, error);
  if (out != NULL)
    gnn_vision_planes_to_float (&src, (float *) gnn_tensor_priv_data (gnn_tensor_priv (out)), 255.0);
  return out;
}

/* ToTensor then Normalize in one pass over a uint8 image (Compose fuses
 * the pair): each channel's 256 possible results are computed as the two
 * steps compute them, (v / 255 - m) / s in float32, and looked up, so the
 * values are the same bit for bit and the float [C, H, W] intermediate is
 * never written; @hflip reads the columns from the right (a horizontal
 * flip before, whose copy is then never made either). NULL without an
 * error when the pair does not apply (not a uint8 image, or a mean/std the
 * unfused Normalize refuses: it then gives the error). */
GnnTensor *
gnn_vision_to_normalized_tensor (GnnTensor    *pic,
                                 gboolean      hflip,
                                 const double *mean,
                                 gsize         n_mean,
                                 const double *std,
                                 gsize         n_std,
                                 GError      **error)
{
  g_autoptr(GnnTensor) keep = NULL;
  GnnTensor *out;
  GnnPlanes src;
  gint64 shape[3];
  float *dst, table[4][256];

  if (!GNN_IS_IMAGE (pic) || gnn_tensor_priv (pic)->dtype != GNN_DTYPE_U8 ||
      !gnn_planes_init (&src, pic, &keep, "ToTensor", NULL) ||
      src.c > 4 || n_mean == 0 || n_std == 0 || (n_mean != 1 && (gint64) n_mean != src.c) ||
      (n_std != 1 && (gint64) n_std != src.c))
    return NULL;
  for (gsize i = 0; i < n_std; i++)
    if ((float) std[i] == 0.0f)
      return NULL;
  shape[0] = src.c, shape[1] = src.h, shape[2] = src.w;
  out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_F32, shape, 3, FALSE, error);
  if (out == NULL)
    return NULL;
  dst = (float *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 c = 0; c < src.c; c++)
    {
      float fm = (float) mean[n_mean == 1 ? 0 : c], fs = (float) std[n_std == 1 ? 0 : c];

      for (int v = 0; v < 256; v++)
        table[c][v] = ((float) v / 255.0f - fm) / fs;
    }
  if (src.c == 3 && src.sc == 1 && src.sw == 3)
    /* an RGB image: its three planes from one read of each row */
    for (gint64 y = 0, plane = src.h * src.w; y < src.h; y++, dst += src.w)
      {
        const guint8 *row = src.data + y * src.sh;

        for (gint64 x = 0; x < src.w; x++)
          {
            const guint8 *px = row + 3 * (hflip ? src.w - 1 - x : x);

            dst[x] = table[0][px[0]];
            dst[plane + x] = table[1][px[1]];
            dst[2 * plane + x] = table[2][px[2]];
          }
      }
  else
    for (gint64 c = 0; c < src.c; c++)
      for (gint64 y = 0; y < src.h; y++)
        {
          const guint8 *row = src.data + c * src.sc + y * src.sh;

          if (hflip)
            for (gint64 x = src.w; x-- > 0;)
              *dst++ = table[c][row[x * src.sw]];
          else
            for (gint64 x = 0; x < src.w; x++)
              *dst++ = table[c][row[x * src.sw]];
        }
  return out;
}

/**
 * gnn_vision_pil_to_tensor:
 * @pic: an image
 * @error: return location for a #GError
 *
 * torchvision's `F.pil_to_tensor(pic)`: a copy of the image's values as a
 * uint8 tensor `[C, H, W]` — as torchvision's, a permuted view of an
 * `[H, W, C]` copy (not contiguous).
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_pil_to_tensor (GnnTensor  *pic,
                          GError    **error)
{
  g_autoptr(GnnTensor) copy = NULL;
  const gint perm[3] = { 2, 0, 1 };

  g_return_val_if_fail (GNN_IS_TENSOR (pic), NULL);
  if (!require_image (pic, "PILToTensor", error))
    return NULL;
  copy = gnn_tensor_copy_checked (pic, GNN_DTYPE_U8, error);
  if (copy == NULL)
    return NULL;
  return gnn_tensor_permute (copy, perm, 3, error);
}

/**
 * gnn_vision_to_image:
 * @pic: a tensor `[C, H, W]` with 1 to 4 channels, or `[H, W]`
 * @error: return location for a #GError
 *
 * torchvision's `F.to_pil_image(pic)`: a float tensor is scaled by 255 and
 * truncated to uint8 (`pic.mul(255).byte()`), a uint8 tensor copied; the
 * mode follows the number of channels (L, LA, RGB, RGBA).
 *
 * Returns: (transfer full): the image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnImage *
gnn_vision_to_image (GnnTensor  *pic,
                     GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) keep = NULL;
  g_autoptr(GnnImage) out = NULL;
  GnnPlanes src;
  guint8 *dst;

  g_return_val_if_fail (GNN_IS_TENSOR (pic), NULL);
  p = gnn_tensor_priv (pic);
  if (GNN_IS_IMAGE (pic))
    return gnn_image_convert (GNN_IMAGE (pic), gnn_image_get_mode (GNN_IMAGE (pic)), error);
  if (p->ndim < 2 || p->ndim > 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "to_pil_image: pic should be 2/3 dimensional. Got %u dimensions.", p->ndim);
      return NULL;
    }
  if (!gnn_planes_init (&src, pic, &keep, "to_pil_image", error))
    return NULL;
  if (src.c < 1 || src.c > 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "to_pil_image: pic should not have > 4 channels. Got %" G_GINT64_FORMAT
                   " channels.", src.c);
      return NULL;
    }
  if (p->dtype != GNN_DTYPE_U8 && p->dtype != GNN_DTYPE_F32 && p->dtype != GNN_DTYPE_F64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "to_pil_image: Input type %s is not supported", gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  out = gnn_image_new_uninitialized (src.h, src.w, src.c, FALSE, error);
  if (out == NULL)
    return NULL;
  dst = gnn_image_data (out);
  for (gint64 y = 0; y < src.h; y++)
    for (gint64 x = 0; x < src.w; x++)
      for (gint64 c = 0; c < src.c; c++)
        {
          const guint8 *at = src.data + (c * src.sc + y * src.sh + x * src.sw) * src.elsize;

          if (p->dtype == GNN_DTYPE_U8)
            *dst++ = *at;
          else if (p->dtype == GNN_DTYPE_F32)
            *dst++ = (guint8) (gint64) (*(const float *) at * 255.0f);
          else
            *dst++ = (guint8) (gint64) (*(const double *) at * 255.0);
        }
  return g_steal_pointer (&out);
}

static gboolean
dtype_is_float (GnnDType dtype)
{
  return dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64 || dtype == GNN_DTYPE_F16 ||
         dtype == GNN_DTYPE_BF16;
}

/* torchvision's _max_value: the largest value of an integer dtype, 1 for floats. */
static double
max_value (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_U8: return 255;
    case GNN_DTYPE_I8: return 127;
    case GNN_DTYPE_I16: return 32767;
    case GNN_DTYPE_I32: return 2147483647.0;
    case GNN_DTYPE_I64: return 9223372036854775807.0;
    case GNN_DTYPE_BOOL: return 1;
    default: return 1.0;
    }
}

static gint64
max_value_int (GnnDType dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_U8: return 255;
    case GNN_DTYPE_I8: return 127;
    case GNN_DTYPE_I16: return 32767;
    case GNN_DTYPE_I32: return G_MAXINT32;
    case GNN_DTYPE_I64: return G_MAXINT64;
    default: return 1;
    }
}

/* Each value of @image through @func into a new contiguous tensor of @dtype. */
typedef double (*ValueFunc) (double v, const double *k);

static GnnTensor *
map_values (GnnTensor     *image,
            GnnDType       dtype,
            ValueFunc      func,
            const double  *k,
            GError       **error)
{
  g_autoptr(GnnTensor) src = gnn_tensor_contiguous_checked (image, error);
  GnnTensorPrivate *sp, *dp;
  GnnTensor *out;
  const guint8 *s;
  guint8 *d;
  gsize ss, ds;

  if (src == NULL)
    return NULL;
  sp = gnn_tensor_priv (src);
  out = gnn_tensor_new_contiguous_checked (dtype, sp->shape, sp->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  dp = gnn_tensor_priv (out);
  s = gnn_tensor_priv_data (sp);
  d = gnn_tensor_priv_data (dp);
  ss = gnn_dtype_get_size (sp->dtype);
  ds = gnn_dtype_get_size (dtype);
  for (gint64 i = 0; i < sp->numel; i++)
    gnn_dtype_write (dtype, d + i * ds, func (gnn_dtype_read (sp->dtype, s + i * ss), k));
  return out;
}

/* float32 arithmetic where torch computes in float32 */
static double
float_to_int (double v, const double *k)
{
  return k[1] != 0 ? (double) ((float) v * (float) k[0]) : v * k[0];
}

static double
int_to_float (double v, const double *k)
{
  return k[1] != 0 ? (double) ((float) v / (float) k[0]) : v / k[0];
}

static double
int_div (double v, const double *k)
{
  return floor (v / k[0]);
}

static double
int_mul (double v, const double *k)
{
  return v * k[0];
}

/**
 * gnn_vision_convert_image_dtype:
 * @image: a tensor image
 * @dtype: the dtype of the result
 * @error: return location for a #GError
 *
 * torchvision's `F.convert_image_dtype(image, dtype)`: values rescaled from
 * the range of @image's dtype to that of @dtype (floats in [0, 1], integers
 * in [0, max]); float to integer multiplies by `max + 1 - 0.001` and
 * truncates; integer to integer shifts. The casts torchvision refuses
 * (float32 to int32 or int64, float64 to int64) are its error.
 *
 * Returns: (transfer full): the converted tensor (@image itself when the
 *   dtype is already @dtype), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_convert_image_dtype (GnnTensor  *image,
                                GnnDType    dtype,
                                GError    **error)
{
  GnnDType from;
  double k[2];

  g_return_val_if_fail (GNN_IS_TENSOR (image), NULL);
  if (!gnn_vision_require_tensor (image, "ConvertImageDtype", error))
    return NULL;
  GNN_CHECK_STORAGE ("ConvertImageDtype", image, error, NULL);
  from = gnn_tensor_get_dtype (image);
  if (from == dtype)
    return g_object_ref (image);
  if (dtype == GNN_DTYPE_BOOL || from == GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "ConvertImageDtype: no conversion between %s and %s images",
                   gnn_dtype_get_name (from), gnn_dtype_get_name (dtype));
      return NULL;
    }
  k[1] = from == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F32;
  if (dtype_is_float (from))
    {
      if (dtype_is_float (dtype))
        return gnn_tensor_to_dtype (image, dtype, error);
      if ((from == GNN_DTYPE_F32 && (dtype == GNN_DTYPE_I32 || dtype == GNN_DTYPE_I64)) ||
          (from == GNN_DTYPE_F64 && dtype == GNN_DTYPE_I64))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "The cast from torch.%s to torch.%s cannot be performed safely.",
                       gnn_dtype_get_name (from), gnn_dtype_get_name (dtype));
          return NULL;
        }
      k[0] = max_value (dtype) + 1.0 - 1e-3;
      k[1] = from == GNN_DTYPE_F32;
      return map_values (image, dtype, float_to_int, k, error);
    }
  if (dtype_is_float (dtype))
    {
      k[0] = max_value (from);
      k[1] = dtype == GNN_DTYPE_F32;
      return map_values (image, dtype, int_to_float, k, error);
    }
  {
    gint64 in_max = max_value_int (from), out_max = max_value_int (dtype);

    /* torch's (max + 1) // (max + 1) on Python floats */
    if (in_max > out_max)
      {
        k[0] = floor (((double) in_max + 1) / ((double) out_max + 1));
        return map_values (image, dtype, int_div, k, error);
      }
    k[0] = floor (((double) out_max + 1) / ((double) in_max + 1));
    return map_values (image, dtype, int_mul, k, error);
  }
}

/* One channel's values through (x - m) / s, in the tensor's dtype. */
static void
normalize_plane (const GnnPlanes *src,
                 const GnnPlanes *dst,
                 gint64           n,
                 gint64           c,
                 double           m,
                 double           s)
{
  for (gint64 y = 0; y < src->h; y++)
    {
      const guint8 *in = src->data + (n * src->sn + c * src->sc + y * src->sh) * src->elsize;
      guint8 *out = dst->data + (n * dst->sn + c * dst->sc + y * dst->sh) * dst->elsize;

      if (src->dtype == GNN_DTYPE_F32 && src->sw == 1 && dst->sw == 1)
        {
          const float *a = (const float *) in;
          float *b = (float *) out, fm = (float) m, fs = (float) s;

          for (gint64 x = 0; x < src->w; x++)   /* vectorized: division, as torch's div_ */
            b[x] = (a[x] - fm) / fs;
        }
      else if (src->dtype == GNN_DTYPE_F32)
        {
          float fm = (float) m, fs = (float) s;

          for (gint64 x = 0; x < src->w; x++)
            ((float *) out)[x * dst->sw] = (((const float *) in)[x * src->sw] - fm) / fs;
        }
      else if (src->dtype == GNN_DTYPE_F64)
        for (gint64 x = 0; x < src->w; x++)
          ((double *) out)[x * dst->sw] = (((const double *) in)[x * src->sw] - m) / s;
      else
        for (gint64 x = 0; x < src->w; x++)
          {
            /* half types: torch rounds after each operation */
            guint8 tmp[8];
            double v;

            gnn_dtype_write (src->dtype, tmp, gnn_dtype_read (src->dtype, in + x * src->sw * src->elsize) - m);
            v = gnn_dtype_read (src->dtype, tmp) / s;
            gnn_dtype_write (src->dtype, out + x * dst->sw * dst->elsize, v);
          }
    }
}

/**
 * gnn_vision_normalize:
 * @tensor: a float tensor image `[..., C, H, W]`
 * @mean: (array length=n_mean): the mean of each channel (or one for all)
 * @n_mean: the number of means
 * @std: (array length=n_std): the standard deviation of each channel (or
 *   one for all)
 * @n_std: the number of standard deviations
 * @inplace: whether to write the result into @tensor
 * @error: return location for a #GError
 *
 * torchvision's `F.normalize(tensor, mean, std, inplace)`: `(x - mean[c]) /
 * std[c]` for every channel c, computed in the tensor's dtype (mean and std
 * converted to it first) as torch's `sub_` and `div_` compute it.
 *
 * Returns: (transfer full): the result (@tensor itself with @inplace), or
 *   %NULL with @error set: torchvision's errors for an image or an integer
 *   tensor, fewer than 3 dimensions, a zero std, or a number of means or
 *   stds that is neither 1 nor C
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_normalize (GnnTensor     *tensor,
                      const double  *mean,
                      gsize          n_mean,
                      const double  *std,
                      gsize          n_std,
                      gboolean       inplace,
                      GError       **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) keep = NULL, keep_out = NULL, out = NULL;
  GnnPlanes src, dst;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  if (GNN_IS_IMAGE (tensor))
    return gnn_vision_require_tensor (tensor, "Normalize", error), NULL;
  GNN_CHECK_STORAGE ("Normalize", tensor, error, NULL);
  p = gnn_tensor_priv (tensor);
  if (!dtype_is_float (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "Input tensor should be a float tensor. Got torch.%s.",
                   gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (p->ndim < 3)
    {
      g_autofree char *shape = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected tensor to be a tensor image of size (..., C, H, W). Got "
                   "tensor.size() = torch.Size(%s)", shape);
      return NULL;
    }
  for (gsize i = 0; i < n_std; i++)
    {
      gboolean zero = p->dtype == GNN_DTYPE_F32 ? (float) std[i] == 0.0f : std[i] == 0.0;

      if (zero)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "std evaluated to zero after conversion to torch.%s, leading to "
                       "division by zero.", gnn_dtype_get_name (p->dtype));
          return NULL;
        }
    }
  if (!gnn_planes_init (&src, tensor, &keep, "Normalize", error))
    return NULL;
  if ((n_mean != 1 && (gint64) n_mean != src.c) || (n_std != 1 && (gint64) n_std != src.c) ||
      n_mean == 0 || n_std == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "The size of tensor a (%" G_GINT64_FORMAT ") must match the size of tensor b (%"
                   G_GSIZE_FORMAT ") at non-singleton dimension %u", src.c,
                   (n_mean != 1 && (gint64) n_mean != src.c) ? n_mean : n_std, p->ndim - 3);
      return NULL;
    }
  if (inplace && keep == NULL)
    {
      out = g_object_ref (tensor);
      dst = src;
    }
  else
    {
      out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
      if (out == NULL || !gnn_planes_init (&dst, out, &keep_out, "Normalize", error))
        return NULL;
    }
  for (gint64 n = 0; n < src.n; n++)
    for (gint64 c = 0; c < src.c; c++)
      normalize_plane (&src, &dst, n, c, mean[n_mean == 1 ? 0 : c], std[n_std == 1 ? 0 : c]);
  if (inplace && keep != NULL)
    {
      /* the input's leading dimensions did not collapse: copy back */
      if (!gnn_tensor_copy_values_ (tensor, out, error))
        return NULL;
      return g_object_ref (tensor);
    }
  return g_steal_pointer (&out);
}
