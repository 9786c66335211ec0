/* gnn-vision-color.c: greyscale, brightness, contrast, saturation and hue
 * — PIL's 8-bit arithmetic on images (ImageEnhance's blends, its HSV
 * conversion), torchvision's tensor formulas on tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "core/gnn-format-private.h"
#include "vision/gnn-vision-private.h"
#include "vision/gnn-image-private.h"

/* A float as Python's repr() writes it ("0.5", "2.0"). */
static char *
py_repr (double v)
{
  g_autofree char *s = gnn_format_double_shortest (v);

  if (strpbrk (s, ".eni") == NULL)
    return g_strconcat (s, ".0", NULL);
  return g_steal_pointer (&s);
}

/* --- images (PIL) ------------------------------------------------------------------ */

/* Image.blend(degenerate, img, alpha): in1 + alpha × (in2 − in1) in float,
 * truncated, clipped when extrapolating; @degenerate may be NULL (black)
 * or one value per channel (@constant). */
static GnnTensor *
pil_blend (GnnImage      *img,
           GnnImage      *degenerate,
           const guint8  *constant,
           double         factor,
           GError       **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (GNN_TENSOR (img));
  GnnTensorPrivate *dp = degenerate != NULL ? gnn_tensor_priv (GNN_TENSOR (degenerate)) : NULL;
  gint64 h = p->shape[0], w = p->shape[1], c = p->shape[2];
  gboolean alpha_kept = c == 2 || c == 4;
  g_autoptr(GnnImage) out = gnn_image_new_uninitialized (h, w, c, FALSE, error);
  float alpha = (float) factor;
  guint8 *dst;

  if (out == NULL)
    return NULL;
  dst = gnn_image_data (out);
  for (gint64 y = 0; y < h; y++)
    for (gint64 x = 0; x < w; x++)
      for (gint64 ch = 0; ch < c; ch++)
        {
          const guint8 *at = gnn_tensor_priv_data (p) + y * p->strides[0] + x * p->strides[1];
          int in2 = at[ch * p->strides[2]], in1;

          if (alpha_kept && ch == c - 1)
            in1 = in2;   /* the degenerate image carries the image's alpha */
          else if (dp != NULL)
            in1 = gnn_tensor_priv_data (dp)[y * dp->strides[0] + x * dp->strides[1] +
                                            ch * dp->strides[2]];
          else
            in1 = constant != NULL ? constant[ch] : 0;
          if (factor == 0.0)
            *dst++ = (guint8) in1;
          else if (factor == 1.0)
            *dst++ = (guint8) in2;
          else if (factor >= 0 && factor <= 1.0)
            *dst++ = (guint8) ((float) in1 + alpha * (float) (in2 - in1));
          else
            {
              float t = (float) in1 + alpha * (float) (in2 - in1);

              *dst++ = t <= 0.0f ? 0 : t >= 255.0f ? 255 : (guint8) t;
            }
        }
  return GNN_TENSOR (g_steal_pointer (&out));
}

/* ImageStat.Stat(img.convert("L")).mean[0], rounded as ImageEnhance.Contrast does. */
static guint8
pil_mean_luminance (GnnImage *img)
{
  g_autoptr(GnnImage) gray = gnn_image_convert (img, GNN_IMAGE_MODE_L, NULL);
  const guint8 *d = gnn_image_data (gray);
  gint64 n = gnn_image_get_width (gray) * gnn_image_get_height (gray);
  guint64 hist[256] = { 0 };
  double sum = 0;

  for (gint64 i = 0; i < n; i++)
    hist[d[i]]++;
  for (int v = 0; v < 256; v++)
    sum += (double) v * (double) hist[v];
  return n > 0 ? (guint8) (int) (sum / (double) n + 0.5) : 0;
}

static inline guint8
clip8 (int v)
{
  return v <= 0 ? 0 : v >= 255 ? 255 : (guint8) v;
}

/* PIL's Convert.c rgb2hsv_row and hsv2rgb, following colorsys.py. */
static void
pil_rgb2hsv (const guint8 *in, guint8 *out)
{
  guint8 r = in[0], g = in[1], b = in[2];
  guint8 maxc = MAX (r, MAX (g, b)), minc = MIN (r, MIN (g, b));

  out[2] = maxc;
  if (minc == maxc)
    {
      out[0] = out[1] = 0;
      return;
    }
  {
    float cr = (float) (maxc - minc), s = cr / (float) maxc;
    float rc = (float) (maxc - r) / cr, gc = (float) (maxc - g) / cr, bc = (float) (maxc - b) / cr;
    float h;

    if (r == maxc)
      h = bc - gc;
    else if (g == maxc)
      h = (float) (2.0 + rc - bc);
    else
      h = (float) (4.0 + gc - rc);
    h = (float) fmod (h / 6.0 + 1.0, 1.0);
    out[0] = clip8 ((int) (h * 255.0));
    out[1] = clip8 ((int) (s * 255.0));
  }
}

static void
pil_hsv2rgb (const guint8 *in, guint8 *out)
{
  guint8 h = in[0], s = in[1], v = in[2];

  if (s == 0)
    {
      out[0] = out[1] = out[2] = v;
      return;
    }
  {
    int i = (int) floor ((float) h * 6.0 / 255.0);
    float f = (float) ((float) h * 6.0 / 255.0 - (float) i);
    float fs = (float) ((float) s / 255.0);
    guint8 p = clip8 ((int) round ((float) v * (1.0 - fs)));
    guint8 q = clip8 ((int) round ((float) v * (1.0 - fs * f)));
    guint8 t = clip8 ((int) round ((float) v * (1.0 - fs * (1.0 - f))));

    switch (i % 6)
      {
      case 0: out[0] = v; out[1] = t; out[2] = p; break;
      case 1: out[0] = q; out[1] = v; out[2] = p; break;
      case 2: out[0] = p; out[1] = v; out[2] = t; break;
      case 3: out[0] = p; out[1] = q; out[2] = v; break;
      case 4: out[0] = t; out[1] = p; out[2] = v; break;
      default: out[0] = v; out[1] = p; out[2] = q; break;
      }
  }
}

/* F_pil.adjust_hue: the H channel of PIL's HSV shifted by uint8(hue × 255)
 * with wrap-around; the result has PIL's HSV → mode conversion (alpha 255). */
static GnnTensor *
pil_hue (GnnImage  *img,
         double     hue_factor,
         GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (GNN_TENSOR (img));
  gint64 h = p->shape[0], w = p->shape[1], c = p->shape[2];
  g_autoptr(GnnImage) out = NULL;
  guint8 shift = (guint8) (gint64) (hue_factor * 255);
  guint8 *dst;

  if (c < 3)
    return g_object_ref (GNN_TENSOR (img));
  out = gnn_image_new_uninitialized (h, w, c, FALSE, error);
  if (out == NULL)
    return NULL;
  dst = gnn_image_data (out);
  for (gint64 y = 0; y < h; y++)
    for (gint64 x = 0; x < w; x++, dst += c)
      {
        const guint8 *at = gnn_tensor_priv_data (p) + y * p->strides[0] + x * p->strides[1];
        guint8 rgb[3] = { at[0], at[p->strides[2]], at[2 * p->strides[2]] }, hsv[3];

        pil_rgb2hsv (rgb, hsv);
        hsv[0] = (guint8) (hsv[0] + shift);
        pil_hsv2rgb (hsv, dst);
        if (c == 4)
          dst[3] = 255;
      }
  return GNN_TENSOR (g_steal_pointer (&out));
}

/* --- tensors (torchvision's _functional_tensor.py) ----------------------------------------- */

/* Values through a per-pixel function of the channels: @func reads c
 * values (as float32 or float64 arithmetic asks) and writes c_out. */
typedef void (*PixelFunc) (const double *in, double *out, gint64 c, const double *k, gboolean f32);

static double
max_value (GnnDType dtype)
{
  return dtype == GNN_DTYPE_U8 ? 255.0 : 1.0;
}

static gboolean
check_tensor_dtype (GnnTensor   *img,
                    const char  *op,
                    GError     **error)
{
  GnnDType d = gnn_tensor_get_dtype (img);

  if (d == GNN_DTYPE_U8 || d == GNN_DTYPE_F32 || d == GNN_DTYPE_F64)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: tensor images of dtype %s are not "
               "supported (uint8, float32 or float64)", op, gnn_dtype_get_name (d));
  return FALSE;
}

/* float32 arithmetic for uint8 and float32 images, float64 for float64 */
#define F(x) (f32 ? (double) (float) (x) : (x))

static GnnTensor *
map_pixels (GnnTensor     *img,
            gint64         c_out,
            PixelFunc      func,
            const double  *k,
            const char    *op,
            GError       **error)
{
  g_autoptr(GnnTensor) keep = NULL, keep_out = NULL, out = NULL;
  GnnPlanes src, dst;
  gboolean f32;
  double in[4], res[4];

  if (!gnn_planes_init (&src, img, &keep, op, error))
    return NULL;
  out = gnn_vision_new_like (img, c_out, src.h, src.w, src.dtype, FALSE, error);
  if (out == NULL || !gnn_planes_init (&dst, out, &keep_out, op, error))
    return NULL;
  f32 = src.dtype != GNN_DTYPE_F64;
  for (gint64 n = 0; n < src.n; n++)
    for (gint64 y = 0; y < src.h; y++)
      for (gint64 x = 0; x < src.w; x++)
        {
          const guint8 *at = src.data + (n * src.sn + y * src.sh + x * src.sw) * src.elsize;
          guint8 *to = dst.data + (n * dst.sn + y * dst.sh + x * dst.sw) * dst.elsize;

          for (gint64 ch = 0; ch < src.c; ch++)
            in[ch] = gnn_planes_read (&src, at + ch * src.sc * src.elsize);
          func (in, res, src.c, k, f32);
          for (gint64 ch = 0; ch < c_out; ch++)
            gnn_dtype_write (dst.dtype, to + ch * dst.sc * dst.elsize, res[ch]);
        }
  return g_steal_pointer (&out);
}

/* (0.2989 r + 0.587 g + 0.114 b).to(dtype): truncated for uint8 */
static double
tensor_gray (const double *in, gboolean f32, gboolean u8)
{
  /* torch casts the Python scalar to the tensor's float type first */
  double l = F (F (F (F (0.2989) * in[0]) + F (F (0.587) * in[1])) + F (F (0.114) * in[2]));

  return u8 ? trunc (l) : l;
}

/* k[0]: output channels, k[1]: uint8 */
static void
gray_pixel (const double *in, double *out, gint64 c, const double *k, gboolean f32)
{
  double l = c == 3 ? tensor_gray (in, f32, k[1] != 0) : in[0];

  for (gint64 i = 0; i < (gint64) k[0]; i++)
    out[i] = l;
}

/* _blend(img, other, ratio): (ratio img + (1 - ratio) other).clamp(0, bound),
 * truncated for uint8. k[0] ratio, k[1] bound, k[2] uint8, k[3] a constant
 * other (contrast's mean) or NAN for the grey of the pixel (saturation). */
static void
blend_pixel (const double *in, double *out, gint64 c, const double *k, gboolean f32)
{
  double other = isnan (k[3]) ? tensor_gray (in, f32, k[2] != 0) : k[3];
  double r = F (k[0]), q = F (1.0 - k[0]);

  for (gint64 i = 0; i < c; i++)
    {
      double v = F (F (r * in[i]) + F (q * other));

      v = CLAMP (v, 0.0, k[1]);
      out[i] = k[2] != 0 ? trunc (v) : v;
    }
}

static double
py_mod1 (double a, gboolean f32)
{
  double m = F (fmod (a, 1.0));

  if (m != 0 && m < 0)
    m = F (m + 1.0);
  return m;
}

/* adjust_hue on one pixel: _rgb2hsv, the shift, _hsv2rgb. k[0] hue, k[1] uint8 */
static void
hue_pixel (const double *in, double *out, gint64 c, const double *k, gboolean f32)
{
  double r = in[0], g = in[1], b = in[2];
  double maxc, minc, cr, s, div, rc, gc, bc, h, i, f, p, q, t, v;
  gboolean eqc;

  if (k[1] != 0)
    {
      r = F (r / 255.0);
      g = F (g / 255.0);
      b = F (b / 255.0);
    }
  maxc = MAX (r, MAX (g, b));
  minc = MIN (r, MIN (g, b));
  eqc = maxc == minc;
  cr = F (maxc - minc);
  s = F (cr / (eqc ? 1.0 : maxc));
  div = eqc ? 1.0 : cr;
  rc = F (F (maxc - r) / div);
  gc = F (F (maxc - g) / div);
  bc = F (F (maxc - b) / div);
  if (maxc == r)
    h = F (bc - gc);
  else if (maxc == g)
    h = F (F (2.0 + rc) - bc);
  else
    h = F (F (4.0 + gc) - rc);
  h = F (fmod (F (F (h / 6.0) + 1.0), 1.0));
  h = py_mod1 (F (h + F (k[0])), f32);
  v = maxc;
  i = floor (F (h * 6.0));
  f = F (F (h * 6.0) - i);
  p = CLAMP (F (v * F (1.0 - s)), 0.0, 1.0);
  q = CLAMP (F (v * F (1.0 - F (s * f))), 0.0, 1.0);
  t = CLAMP (F (v * F (1.0 - F (s * F (1.0 - f)))), 0.0, 1.0);
  switch (((int) i % 6 + 6) % 6)
    {
    case 0: out[0] = v; out[1] = t; out[2] = p; break;
    case 1: out[0] = q; out[1] = v; out[2] = p; break;
    case 2: out[0] = p; out[1] = v; out[2] = t; break;
    case 3: out[0] = p; out[1] = q; out[2] = v; break;
    case 4: out[0] = t; out[1] = p; out[2] = v; break;
    default: out[0] = v; out[1] = p; out[2] = q; break;
    }
  if (k[1] != 0)
    for (int j = 0; j < 3; j++)
      out[j] = trunc (F (out[j] * 255.0));
}

#undef F

/* The mean grey level of each plane group [C, H, W] (contrast), in float32
 * for uint8 and float32 images. */
static gboolean
tensor_mean_gray (GnnTensor   *img,
                  double     **means,
                  GError     **error)
{
  g_autoptr(GnnTensor) keep = NULL;
  GnnPlanes src;
  gboolean f32;

  if (!gnn_planes_init (&src, img, &keep, "adjust_contrast", error))
    return FALSE;
  f32 = src.dtype != GNN_DTYPE_F64;
  *means = gnn_vision_alloc (src.n, sizeof (double), error);
  if (*means == NULL)
    return FALSE;
  for (gint64 n = 0; n < src.n; n++)
    {
      double sum = 0;

      for (gint64 y = 0; y < src.h; y++)
        for (gint64 x = 0; x < src.w; x++)
          {
            const guint8 *at = src.data + (n * src.sn + y * src.sh + x * src.sw) * src.elsize;
            double in[3];

            for (gint64 ch = 0; ch < MIN (src.c, 3); ch++)
              in[ch] = gnn_planes_read (&src, at + ch * src.sc * src.elsize);
            sum += src.c == 3 ? tensor_gray (in, f32, src.dtype == GNN_DTYPE_U8) : in[0];
          }
      (*means)[n] = src.h * src.w > 0 ? sum / (double) (src.h * src.w) : 0;
      if (f32)
        (*means)[n] = (float) (*means)[n];
    }
  return TRUE;
}

/* --- the public functions ------------------------------------------------------------ */

/**
 * gnn_vision_rgb_to_grayscale:
 * @img: an image, or a tensor image of 1 or 3 channels
 * @num_output_channels: 1 or 3
 * @error: return location for a #GError
 *
 * torchvision's `F.rgb_to_grayscale(img, num_output_channels)` (and
 * `to_grayscale` for images): an image converted to L as PIL converts it
 * (`image.convert("L")`, then copied into 3 channels); a tensor as
 * `0.2989 r + 0.587 g + 0.114 b` in its float type, truncated for uint8.
 *
 * Returns: (transfer full): the grey image, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_rgb_to_grayscale (GnnTensor  *img,
                             guint       num_output_channels,
                             GError    **error)
{
  gint64 c, h, w;
  double k[2];

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE ("rgb_to_grayscale", img, error, NULL);
  if (num_output_channels != 1 && num_output_channels != 3)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "num_output_channels should be either 1 or 3");
      return NULL;
    }
  if (GNN_IS_IMAGE (img))
    {
      g_autoptr(GnnImage) gray = gnn_image_convert (GNN_IMAGE (img), GNN_IMAGE_MODE_L, error);

      if (gray == NULL || num_output_channels == 1)
        return GNN_TENSOR (g_steal_pointer (&gray));
      return GNN_TENSOR (gnn_image_convert (gray, GNN_IMAGE_MODE_RGB, error));
    }
  if (!gnn_vision_dimensions (img, &c, &h, &w, "rgb_to_grayscale", error) ||
      !gnn_vision_require_channels (c, TRUE, "rgb_to_grayscale", error) ||
      !check_tensor_dtype (img, "rgb_to_grayscale", error))
    return NULL;
  k[0] = num_output_channels;
  k[1] = gnn_tensor_get_dtype (img) == GNN_DTYPE_U8;
  return map_pixels (img, num_output_channels, gray_pixel, k, "rgb_to_grayscale", error);
}

static gboolean
check_factor (GnnTensor   *img,
              double       factor,
              const char  *name,
              const char  *op,
              GError     **error)
{
  gint64 c, h, w;

  if (GNN_IS_IMAGE (img))
    return TRUE;
  if (factor < 0)
    {
      g_autofree char *s = py_repr (factor);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s (%s) is not non-negative.", name, s);
      return FALSE;
    }
  return gnn_vision_dimensions (img, &c, &h, &w, op, error) &&
         gnn_vision_require_channels (c, TRUE, op, error) && check_tensor_dtype (img, op, error);
}

/**
 * gnn_vision_adjust_brightness:
 * @img: an image, or a tensor image of 1 or 3 channels
 * @brightness_factor: 0 gives black, 1 the image, 2 twice as bright
 * @error: return location for a #GError
 *
 * torchvision's `F.adjust_brightness`: a blend with black — PIL's
 * `ImageEnhance.Brightness` for images, `(f x).clamp(0, max)` for tensors.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_adjust_brightness (GnnTensor  *img,
                              double      brightness_factor,
                              GError    **error)
{
  gint64 c, h, w;
  double k[4];

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE ("adjust_brightness", img, error, NULL);
  if (!check_factor (img, brightness_factor, "brightness_factor", "adjust_brightness", error))
    return NULL;
  if (GNN_IS_IMAGE (img))
    return pil_blend (GNN_IMAGE (img), NULL, NULL, brightness_factor, error);
  k[0] = brightness_factor;
  k[1] = max_value (gnn_tensor_get_dtype (img));
  k[2] = gnn_tensor_get_dtype (img) == GNN_DTYPE_U8;
  k[3] = 0.0;
  gnn_vision_dimensions (img, &c, &h, &w, "adjust_brightness", NULL);
  return map_pixels (img, c, blend_pixel, k, "adjust_brightness", error);
}

/**
 * gnn_vision_adjust_contrast:
 * @img: an image, or a tensor image of 1 or 3 channels
 * @contrast_factor: 0 gives a grey image of the mean, 1 the image
 * @error: return location for a #GError
 *
 * torchvision's `F.adjust_contrast`: a blend with the mean grey level —
 * PIL's `ImageEnhance.Contrast` for images (the mean rounded to an
 * integer), the float mean of the grey tensor for tensors.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_adjust_contrast (GnnTensor  *img,
                            double      contrast_factor,
                            GError    **error)
{
  g_autofree double *means = NULL;
  g_autoptr(GnnTensor) keep = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *plane_in, *plane_out;
  GnnPlanes src;
  double k[4];

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE ("adjust_contrast", img, error, NULL);
  if (!check_factor (img, contrast_factor, "contrast_factor", "adjust_contrast", error))
    return NULL;
  if (GNN_IS_IMAGE (img))
    {
      guint8 m = pil_mean_luminance (GNN_IMAGE (img));
      guint8 constant[4] = { m, m, m, m };

      return pil_blend (GNN_IMAGE (img), NULL, constant, contrast_factor, error);
    }
  if (!tensor_mean_gray (img, &means, error) ||
      !gnn_planes_init (&src, img, &keep, "adjust_contrast", error))
    return NULL;
  k[0] = contrast_factor;
  k[1] = max_value (src.dtype);
  k[2] = src.dtype == GNN_DTYPE_U8;
  if (src.n == 1)
    {
      k[3] = means[0];
      return map_pixels (img, src.c, blend_pixel, k, "adjust_contrast", error);
    }
  /* a mean per leading index: blend each [C, H, W] with its own */
  {
    g_autoptr(GnnTensor) flat = NULL;
    const gint64 shape4[4] = { src.n, src.c, src.h, src.w };
    g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_object_unref);

    flat = gnn_tensor_reshape (keep != NULL ? keep : img, shape4, 4, error);
    if (flat == NULL)
      return NULL;
    for (gint64 n = 0; n < src.n; n++)
      {
        plane_in = gnn_tensor_select (flat, 0, n, error);
        k[3] = means[n];
        plane_out = plane_in != NULL ? map_pixels (plane_in, src.c, blend_pixel, k,
                                                   "adjust_contrast", error) : NULL;
        g_clear_object (&plane_in);
        if (plane_out == NULL)
          return NULL;
        g_ptr_array_add (parts, plane_out);
      }
    out = gnn_tensor_stack ((GnnTensor **) parts->pdata, parts->len, 0, error);
    if (out == NULL)
      return NULL;
    return gnn_tensor_reshape (out, gnn_tensor_get_shape (img, NULL), gnn_tensor_get_ndim (img),
                               error);
  }
}

/**
 * gnn_vision_adjust_saturation:
 * @img: an image, or a tensor image of 1 or 3 channels
 * @saturation_factor: 0 gives the grey image, 1 the image
 * @error: return location for a #GError
 *
 * torchvision's `F.adjust_saturation`: a blend with the grey image — PIL's
 * `ImageEnhance.Color` for images; one-channel tensors come back as they
 * are (as PIL leaves L images).
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_adjust_saturation (GnnTensor  *img,
                              double      saturation_factor,
                              GError    **error)
{
  gint64 c, h, w;
  double k[4];

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE ("adjust_saturation", img, error, NULL);
  if (!check_factor (img, saturation_factor, "saturation_factor", "adjust_saturation", error))
    return NULL;
  if (GNN_IS_IMAGE (img))
    {
      GnnImageMode mode = gnn_image_get_mode (GNN_IMAGE (img));
      g_autoptr(GnnImage) gray = gnn_image_convert (GNN_IMAGE (img), mode == GNN_IMAGE_MODE_LA ||
                                                    mode == GNN_IMAGE_MODE_RGBA
                                                      ? GNN_IMAGE_MODE_LA : GNN_IMAGE_MODE_L,
                                                    error);
      g_autoptr(GnnImage) degenerate = gray != NULL ? gnn_image_convert (gray, mode, error) : NULL;

      if (degenerate == NULL)
        return NULL;
      return pil_blend (GNN_IMAGE (img), degenerate, NULL, saturation_factor, error);
    }
  gnn_vision_dimensions (img, &c, &h, &w, "adjust_saturation", NULL);
  if (c == 1)
    return g_object_ref (img);
  k[0] = saturation_factor;
  k[1] = max_value (gnn_tensor_get_dtype (img));
  k[2] = gnn_tensor_get_dtype (img) == GNN_DTYPE_U8;
  k[3] = NAN;
  return map_pixels (img, c, blend_pixel, k, "adjust_saturation", error);
}

/**
 * gnn_vision_adjust_hue:
 * @img: an image, or a tensor image of 1 or 3 channels
 * @hue_factor: the shift of the hue channel, in [-0.5, 0.5]
 * @error: return location for a #GError
 *
 * torchvision's `F.adjust_hue`: the hue rotated — through PIL's 8-bit HSV
 * for images (the shift `uint8(hue × 255)` wrapping around), through
 * torchvision's float HSV for tensors. Grey images come back as they are.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_vision_adjust_hue (GnnTensor  *img,
                       double      hue_factor,
                       GError    **error)
{
  gint64 c, h, w;
  double k[2];

  g_return_val_if_fail (GNN_IS_TENSOR (img), NULL);
  GNN_CHECK_STORAGE ("adjust_hue", img, error, NULL);
  if (!(hue_factor >= -0.5 && hue_factor <= 0.5))
    {
      g_autofree char *s = py_repr (hue_factor);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "hue_factor (%s) is not in [-0.5, 0.5].", s);
      return NULL;
    }
  if (GNN_IS_IMAGE (img))
    return pil_hue (GNN_IMAGE (img), hue_factor, error);
  if (!gnn_vision_dimensions (img, &c, &h, &w, "adjust_hue", error) ||
      !gnn_vision_require_channels (c, TRUE, "adjust_hue", error) ||
      !check_tensor_dtype (img, "adjust_hue", error))
    return NULL;
  if (c == 1)
    return g_object_ref (img);
  k[0] = hue_factor;
  k[1] = gnn_tensor_get_dtype (img) == GNN_DTYPE_U8;
  return map_pixels (img, 3, hue_pixel, k, "adjust_hue", error);
}
