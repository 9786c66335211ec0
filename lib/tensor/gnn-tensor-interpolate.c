/* gnn-tensor-interpolate.c: resampling (torch.nn.functional.interpolate)
 *
 * Every mode but 'area' is separable: along each resampled dimension an
 * output position reads a few input positions with weights (nearest: one
 * with weight 1, linear: two, cubic: four), computed here with torch's
 * coordinate rules; gnn-resample-kernels.c sums the products over the
 * dimensions. The backward runs the same taps in reverse. 'area' is
 * adaptive average pooling, as in torch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "core/gnn-format-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-resample-private.h"

static const char *const mode_names[] = {
  "nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact",
};

/* torch's area_pixel_compute_scale. */
static double
pixel_scale (gint64    in,
             gint64    out,
             gboolean  align_corners,
             double    scale)
{
  if (align_corners)
    return out > 1 ? (double) (in - 1) / (double) (out - 1) : 0.0;
  return scale > 0 ? 1.0 / scale : (double) in / (double) out;
}

/* torch's area_pixel_compute_source_index. */
static double
source_index (double   scale,
              gint64   dst,
              gboolean align_corners,
              gboolean cubic)
{
  double src;

  if (align_corners)
    return scale * (double) dst;
  src = scale * ((double) dst + 0.5) - 0.5;
  return !cubic && src < 0 ? 0.0 : src;
}

/* torch's cubic convolution weights (A = -0.75) for the fraction @t. */
static void
cubic_weights (double  t,
               double *w)
{
  const double a = -0.75;
  double x1 = t, x2 = 1.0 - t;

  w[0] = ((a * (x1 + 1.0) - 5.0 * a) * (x1 + 1.0) + 8.0 * a) * (x1 + 1.0) - 4.0 * a;
  w[1] = ((a + 2.0) * x1 - (a + 3.0)) * x1 * x1 + 1.0;
  w[2] = ((a + 2.0) * x2 - (a + 3.0)) * x2 * x2 + 1.0;
  w[3] = ((a * (x2 + 1.0) - 5.0 * a) * (x2 + 1.0) + 8.0 * a) * (x2 + 1.0) - 4.0 * a;
}

/* The taps of one dimension from @in to @out positions. */
static void
dimension_taps (GnnResample        *r,
                guint               d,
                GnnInterpolateMode  mode,
                gboolean            align_corners,
                double              user_scale)
{
  gint64 in = r->in[d], out = r->out[d];
  guint taps = mode == GNN_INTERPOLATE_MODE_BICUBIC ? 4
               : mode == GNN_INTERPOLATE_MODE_NEAREST || mode == GNN_INTERPOLATE_MODE_NEAREST_EXACT ? 1 : 2;
  gint64 *index = g_new (gint64, MAX (out * taps, 1));
  double *weight = g_new (double, MAX (out * taps, 1));

  r->taps[d] = taps;
  r->index[d] = index;
  r->weight[d] = weight;
  for (gint64 o = 0; o < out; o++)
    {
      gint64 *ix = index + o * taps;
      double *w = weight + o * taps;

      if (taps == 1)
        {
          /* torch computes nearest indices in float */
          float scale = user_scale > 0 ? (float) (1.0 / user_scale) : (float) in / (float) out;
          gboolean exact = mode == GNN_INTERPOLATE_MODE_NEAREST_EXACT;

          if (!exact && out == in)
            ix[0] = o;
          else if (!exact && out == 2 * in)
            ix[0] = o >> 1;
          else
            ix[0] = MIN ((gint64) floorf ((exact ? (float) o + 0.5f : (float) o) * scale), in - 1);
          w[0] = 1.0;
        }
      else if (taps == 2)
        {
          double real = source_index (pixel_scale (in, out, align_corners, user_scale), o, align_corners, FALSE);
          gint64 i0 = MIN ((gint64) real, in - 1);
          double lambda = CLAMP (real - (double) i0, 0.0, 1.0);

          ix[0] = i0, ix[1] = i0 + (i0 < in - 1 ? 1 : 0);
          w[0] = 1.0 - lambda, w[1] = lambda;
        }
      else
        {
          double real = source_index (pixel_scale (in, out, align_corners, user_scale), o, align_corners, TRUE);
          double floor_real = floor (real);

          cubic_weights (real - floor_real, w);
          for (guint t = 0; t < 4; t++)
            ix[t] = CLAMP ((gint64) floor_real - 1 + (gint64) t, 0, in - 1);
        }
    }
}

void
gnn_resample_init (GnnResample        *r,
                   GnnInterpolateMode  mode,
                   gboolean            align_corners,
                   const gint64       *in_shape,
                   const gint64       *out_shape,
                   guint               ndim,
                   guint               k,
                   const double       *scales)
{
  memset (r, 0, sizeof *r);
  r->outer = 1;
  for (guint d = 0; d + k < ndim; d++)
    r->outer *= in_shape[d];
  for (guint d = 0; d < 3; d++)
    {
      if (d + k < 3)
        {
          r->in[d] = r->out[d] = 1;
          r->taps[d] = 1;
          r->index[d] = g_new0 (gint64, 1);
          r->weight[d] = g_new (double, 1);
          r->weight[d][0] = 1.0;
          continue;
        }
      /* resampled: dimension ndim - 3 + d of the tensor */
      r->in[d] = in_shape[ndim - 3 + d];
      r->out[d] = out_shape[ndim - 3 + d];
      dimension_taps (r, d, mode, align_corners, scales[d + k - 3]);
    }
}

void
gnn_resample_clear (GnnResample *r)
{
  for (guint d = 0; d < 3; d++)
    {
      g_clear_pointer (&r->index[d], g_free);
      g_clear_pointer (&r->weight[d], g_free);
    }
}

/* "(D: 3, H: 4, W: 5)"-style sizes of torch's upsample checks. */
static char *
axes_text (const gint64 *v,
           guint         k)
{
  static const char *const names[] = { "D", "H", "W" };
  GString *s = g_string_new ("(");

  for (guint i = 0; i < k; i++)
    g_string_append_printf (s, "%s%s: %" G_GINT64_FORMAT, i > 0 ? ", " : "", names[3 - k + i], v[i]);
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

static gboolean
check_mode (GnnTensorPrivate    *p,
            GnnInterpolateMode   mode,
            gboolean             align_corners,
            GError             **error)
{
  static const guint needs[] = { 0, 3, 4, 4, 5, 0, 0 };

  if ((guint) mode >= G_N_ELEMENTS (mode_names) || p->ndim < 3 || p->ndim > 5)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "Input Error: Only 3D, 4D and 5D input Tensors supported (got %uD) for the modes: "
                   "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)",
                   p->ndim, (guint) mode < G_N_ELEMENTS (mode_names) ? mode_names[mode] : "?");
      return FALSE;
    }
  if (align_corners && (mode == GNN_INTERPOLATE_MODE_NEAREST || mode == GNN_INTERPOLATE_MODE_AREA ||
                        mode == GNN_INTERPOLATE_MODE_NEAREST_EXACT))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "align_corners option can only be set with the interpolating modes: "
                           "linear | bilinear | bicubic | trilinear");
      return FALSE;
    }
  if (needs[mode] != 0 && p->ndim != needs[mode])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "Got %uD input, but %s mode needs %uD input",
                   p->ndim, mode_names[mode], needs[mode]);
      return FALSE;
    }
  return TRUE;
}

/* The output sizes (and the scales the kernels use) from @size or
 * @scale_factor, with torch's checks. */
static gboolean
output_sizes (GnnTensorPrivate *p,
              const gint64     *size,
              guint             n_size,
              const double     *scale_factor,
              guint             n_scale,
              gboolean          recompute_scale_factor,
              gint64           *out,
              double           *scales,
              GError          **error)
{
  guint k = p->ndim - 2;
  const gint64 *in = p->shape + 2;

  if ((n_size == 0) == (n_scale == 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           n_size == 0 ? "either size or scale_factor should be defined"
                                       : "only one of size or scale_factor should be defined");
      return FALSE;
    }
  if ((n_size > 1 && n_size != k) || (n_scale > 1 && n_scale != k))
    {
      g_autofree char *is = gnn_shape_to_string (in, k);
      GString *given = g_string_new ("(");

      for (guint i = 0; i < MAX (n_size, n_scale); i++)
        {
          if (n_size > 0)
            g_string_append_printf (given, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", size[i]);
          else
            {
              g_autofree char *v = gnn_format_double_shortest (scale_factor[i]);

              g_string_append_printf (given, "%s%s", i > 0 ? ", " : "", v);
            }
        }
      g_string_append_c (given, ')');
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Input and %s must have the same number of spatial dimensions, but got input with "
                   "spatial dimensions of %s and %s of %s. Please provide input tensor in (N, C, d1, d2, "
                   "...,dK) format and %s in (%s) format.",
                   n_size > 0 ? "output" : "scale_factor", is,
                   n_size > 0 ? "output size" : "scale_factor of shape", given->str,
                   n_size > 0 ? "output size" : "scale_factor",
                   n_size > 0 ? "o1, o2, ...,oK" : "s1, s2, ...,sK");
      g_string_free (given, TRUE);
      return FALSE;
    }
  for (guint i = 0; i < k; i++)
    {
      if (n_size > 0)
        {
          out[i] = size[n_size == 1 ? 0 : i];
          scales[i] = 0.0;
        }
      else
        {
          double s = scale_factor[n_scale == 1 ? 0 : i], o = floor ((double) in[i] * s);

          out[i] = isfinite (o) && fabs (o) < (double) G_MAXINT32 ? (gint64) o : -1;
          scales[i] = recompute_scale_factor ? 0.0 : s;
        }
    }
  for (guint i = 0; i < k; i++)
    if (in[i] <= 0 || out[i] <= 0)
      {
        g_autofree char *it = axes_text (in, k);
        g_autofree char *ot = axes_text (out, k);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Input and output sizes should be greater than 0, but got input %s output %s", it, ot);
        return FALSE;
      }
  return TRUE;
}

/**
 * gnn_tensor_interpolate:
 * @input: the input, `[N, C, d1 … dk]` with 1 to 3 spatial dimensions,
 *   float32 or float64
 * @size: (array length=n_size) (nullable): the output size, one per
 *   spatial dimension or one for all; give either @size or @scale_factor
 * @n_size: the length of @size
 * @scale_factor: (array length=n_scale_factor) (nullable): the multiplier
 *   of each spatial size (the output has `floor (in · scale)` positions),
 *   one per spatial dimension or one for all
 * @n_scale_factor: the length of @scale_factor
 * @mode: the interpolation: %GNN_INTERPOLATE_MODE_LINEAR needs 3-d input,
 *   bilinear and bicubic 4-d, trilinear 5-d
 * @align_corners: for the linear and cubic modes, whether the corner
 *   pixels of input and output are aligned (their centres otherwise);
 *   must be %FALSE for the others
 * @recompute_scale_factor: with @scale_factor, whether the coordinates
 *   follow the output size instead of the given factor
 * @error: return location for a #GError
 *
 * Resamples the spatial dimensions of @input, `torch.nn.functional.
 * interpolate (input, size, scale_factor, mode, align_corners,
 * recompute_scale_factor)` (no antialiasing).
 *
 * Errors use PyTorch's messages, e.g. "Got 4D input, but linear mode needs
 * 3D input" (%GNN_ERROR_NOT_SUPPORTED) or "either size or scale_factor
 * should be defined".
 *
 * Returns: (transfer full): the resampled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_interpolate (GnnTensor          *input,
                        const gint64       *size,
                        guint               n_size,
                        const double       *scale_factor,
                        guint               n_scale_factor,
                        GnnInterpolateMode  mode,
                        gboolean            align_corners,
                        gboolean            recompute_scale_factor,
                        GError            **error)
{
  g_autoptr(GnnTensor) xc = NULL;
  GnnTensorPrivate *p;
  gint64 out_shape[5];
  double scales[3] = { 0 };
  GnnResample r;
  GnnTensor *out;
  guint k;
  GnnOpParams params = { .n_ints = 5 };

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (size != NULL || n_size == 0, NULL);
  g_return_val_if_fail (scale_factor != NULL || n_scale_factor == 0, NULL);
  GNN_CHECK_STORAGE ("interpolate", input, error, NULL);

  p = gnn_tensor_priv (input);
  if (!check_mode (p, mode, align_corners, error))
    return NULL;
  k = p->ndim - 2;
  memcpy (out_shape, p->shape, sizeof (gint64) * 2);
  if (!output_sizes (p, size, n_size, scale_factor, n_scale_factor, recompute_scale_factor,
                     out_shape + 2, scales, error))
    return NULL;
  if (mode == GNN_INTERPOLATE_MODE_AREA)
    return gnn_tensor_adaptive_avg_pool (input, out_shape + 2, k, error);
  if (!gnn_check_float_dtype (mode == GNN_INTERPOLATE_MODE_NEAREST || mode == GNN_INTERPOLATE_MODE_NEAREST_EXACT
                              ? "compute_indices_weights_nearest"
                              : mode == GNN_INTERPOLATE_MODE_BICUBIC ? "upsample_bicubic2d"
                              : "compute_indices_weights_linear", input, error))
    return NULL;
  out = gnn_tensor_new_contiguous_checked (p->dtype, out_shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  if ((xc = gnn_tensor_contiguous_checked (input, error)) == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  /* the taps are sized by the output's dimensions: none for an empty batch */
  if (gnn_tensor_priv (out)->numel > 0)
    {
      gnn_resample_init (&r, mode, align_corners, p->shape, out_shape, p->ndim, k, scales);
      if (p->dtype == GNN_DTYPE_F32)
        gnn_resample_f32 (&r, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out));
      else
        gnn_resample_f64 (&r, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out));
      gnn_resample_clear (&r);
    }
  params.dim = (gint) k;
  params.ints[0] = mode;
  params.ints[1] = align_corners;
  /* the scales, bit for bit, for the backward's taps */
  memcpy (params.ints + 2, scales, sizeof scales);
  return gnn_tensor_record (GNN_OP_INTERPOLATE, out, &input, 1, &params);
}
