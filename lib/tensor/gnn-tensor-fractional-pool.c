/* gnn-tensor-fractional-pool.c: fractional max pooling (Graham, 2014;
 * torch.nn.functional.fractional_max_pool2d / 3d): windows of a fixed size
 * at pseudo-random, increasing starts, one random sample per plane and axis
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"

/* The geometry as 3 axes (time, height, width); 2-d pooling has a time
 * axis of 1. */
typedef struct
{
  gint64 planes, batch, channels;
  gint64 in[3], out[3], k[3];
  guint  sample_of[3];   /* which of a plane's samples drives each axis */
  guint  n_samples;      /* 2 or 3 */
} FracGeom;

/* torch's generate_intervals, in the samples' precision (the starts depend
 * on its rounding). */
#define DEFINE_INTERVALS(T, suffix)                                              \
static void                                                                      \
intervals_##suffix (T sample, gint64 in, gint64 out, gint64 k, gint64 *seq)      \
{                                                                                \
  if (out > 1)                                                                   \
    {                                                                            \
      T alpha = (T) (in - k) / (T) (out - 1);                                    \
                                                                                 \
      for (gint64 i = 0; i < out - 1; i++)                                       \
        seq[i] = (gint64) (((T) i + sample) * alpha) - (gint64) (sample * alpha); \
    }                                                                            \
  if (out > 0)                                                                   \
    seq[out - 1] = in - k;                                                       \
}

/* The max over each window (the first maximum in scan order, a NaN
 * winning), its position in the plane's volume to @idx. */
#define DEFINE_FRACTIONAL_MAX(T, suffix)                                          \
DEFINE_INTERVALS (T, suffix)                                                      \
static void                                                                       \
fractional_max_##suffix (const FracGeom *g, const T *src, const T *samples,       \
                         T *dst, gint64 *idx, gint64 *seq)                        \
{                                                                                 \
  gint64 vol = g->in[0] * g->in[1] * g->in[2], area = g->in[1] * g->in[2];        \
  gint64 *seq_t = seq, *seq_h = seq + g->out[0], *seq_w = seq_h + g->out[1];      \
                                                                                  \
  for (gint64 pl = 0; pl < g->planes; pl++)                                       \
    {                                                                             \
      const T *s = samples + pl * g->n_samples;                                   \
      const T *plane = src + pl * vol;                                            \
                                                                                  \
      intervals_##suffix (g->n_samples == 3 ? s[g->sample_of[0]] : 0, g->in[0], g->out[0], g->k[0], seq_t); \
      intervals_##suffix (s[g->sample_of[1]], g->in[1], g->out[1], g->k[1], seq_h); \
      intervals_##suffix (s[g->sample_of[2]], g->in[2], g->out[2], g->k[2], seq_w); \
      for (gint64 ot = 0; ot < g->out[0]; ot++)                                   \
        for (gint64 oh = 0; oh < g->out[1]; oh++)                                 \
          for (gint64 ow = 0; ow < g->out[2]; ow++)                               \
            {                                                                     \
              gint64 best_i = seq_t[ot] * area + seq_h[oh] * g->in[2] + seq_w[ow]; \
              T best = -INFINITY;                                                 \
                                                                                  \
              for (gint64 t = seq_t[ot]; t < seq_t[ot] + g->k[0]; t++)            \
                for (gint64 h = seq_h[oh]; h < seq_h[oh] + g->k[1]; h++)          \
                  for (gint64 w = seq_w[ow]; w < seq_w[ow] + g->k[2]; w++)        \
                    {                                                             \
                      gint64 at = t * area + h * g->in[2] + w;                    \
                      T v = plane[at];                                            \
                                                                                  \
                      if (v > best || isnan (v))                                  \
                        best = v, best_i = at;                                    \
                    }                                                             \
              *dst++ = best;                                                      \
              *idx++ = best_i;                                                    \
            }                                                                     \
    }                                                                             \
}

DEFINE_FRACTIONAL_MAX (float, f32)
DEFINE_FRACTIONAL_MAX (double, f64)

/* The Python-level errors of torch's functional (which fire before its C++
 * checks): no size given, or a rank too small for input.size(-n). */
static gboolean
python_checks (guint          n,
               GnnTensor     *input,
               const gint64  *output_size,
               const double  *output_ratio,
               GnnTensor     *random_samples,
               GError       **error)
{
  guint ndim = gnn_tensor_priv (input)->ndim;
  guint need = output_size == NULL ? n : 0;

  if (output_size == NULL && output_ratio == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "fractional_max_pool%ud requires specifying either an output_size or an output_ratio", n);
      return FALSE;
    }
  if (random_samples == NULL && ndim >= need)
    need = n + 1;
  if (ndim < need && ndim > 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [-%u, %u], but got -%u)", ndim, ndim - 1,
                   need);
      return FALSE;
    }
  if (ndim < need)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension specified as -%u but tensor has no dimensions", need);
      return FALSE;
    }
  return TRUE;
}

/* torch's meta checks of fractional_max_pool2d / 3d, in its order and words
 * (plus the window and sample checks torch 1.13 lacks: it reads out of
 * bounds). */
static gboolean
setup (guint          n,
       GnnTensor     *input,
       const gint64  *kernel,
       const gint64  *size,
       GnnTensor     *random_samples,
       FracGeom      *g,
       gint64        *out_shape,
       GError       **error)
{
  static const char *const axis_names[3] = { "time", "height", "width" };
  GnnTensorPrivate *ip = gnn_tensor_priv (input);
  const char *fn = n == 2 ? "fractional_max_pool2d()" : "fractional_max_pool3d_out()";
  guint first = 3 - n;   /* the first real axis of the 3 */

  if (ip->ndim != n + 1 && ip->ndim != n + 2)
    {
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: Expected %uD or %uD tensor, but got: %s", fn, n + 1,
                   n + 2, is);
      return FALSE;
    }
  for (guint d = 1; d < ip->ndim; d++)
    if (ip->shape[d] <= 0)
      {
        g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s: Expected input to have non-zero size for non-batch dimensions, but got%s with "
                     "dimension %u being empty.", fn, is, d);
        return FALSE;
      }
  g->batch = ip->ndim == n + 2 ? ip->shape[0] : 1;
  g->channels = ip->shape[ip->ndim - n - 1];
  g->planes = g->batch * g->channels;
  g->n_samples = n;
  for (guint a = 0; a < 3; a++)
    {
      gboolean real = a >= first;

      g->in[a] = real ? ip->shape[ip->ndim - 3 + a] : 1;
      g->out[a] = real ? size[a - first] : 1;
      g->k[a] = real ? kernel[a - first] : 1;
      /* torch's 2-d kernel takes a plane's samples as (width, height) */
      g->sample_of[a] = n == 2 ? 2 - a : a;
    }
  for (guint a = first; a < 3; a++)
    /* in doubles: no overflow on any size; torch's 3-d check is strict */
    if ((double) g->out[a] + (double) g->k[a] - 1 > (double) g->in[a] - (n == 3))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s: pool %s %" G_GINT64_FORMAT " too large relative to input %s %" G_GINT64_FORMAT,
                     fn, axis_names[a], g->k[a], axis_names[a], g->in[a]);
        return FALSE;
      }
  memcpy (out_shape, ip->shape, sizeof (gint64) * ip->ndim);
  memcpy (out_shape + ip->ndim - n, size, sizeof (gint64) * n);
  for (guint d = 0; d < ip->ndim; d++)
    if (out_shape[d] < 0)
      {
        g_autofree char *os = gnn_shape_to_string (out_shape, ip->ndim);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "Trying to create tensor with negative dimension %"
                     G_GINT64_FORMAT ": %s", out_shape[d], os);
        return FALSE;
      }
  for (guint a = first; a < 3; a++)
    if (g->k[a] <= 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: kernel_size must be greater than zero, but got %" G_GINT64_FORMAT " for the %s",
                     fn, g->k[a], axis_names[a]);
        return FALSE;
      }
  if (!gnn_check_float_dtype (n == 2 ? "fractional_max_pool2d_out_frame" : "fractional_max_pool3d_out_frame",
                              input, error))
    return FALSE;
  if (random_samples != NULL)
    {
      GnnTensorPrivate *sp = gnn_tensor_priv (random_samples);

      if (sp->dtype != ip->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected scalar type %s but found %s",
                       gnn_torch_scalar_name (ip->dtype), gnn_torch_scalar_name (sp->dtype));
          return FALSE;
        }
      if (sp->ndim != 3 || sp->shape[0] != g->batch || sp->shape[1] != g->channels || sp->shape[2] != n)
        {
          g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "fractional_max_pool%ud: expected _random_samples of shape [%" G_GINT64_FORMAT ", %"
                       G_GINT64_FORMAT ", %u] (batch, channels, %u), but got %s", n, g->batch, g->channels, n,
                       n, ss);
          return FALSE;
        }
    }
  return TRUE;
}

static GnnTensor *
fractional_max_pool (guint          n,
                     GnnTensor     *input,
                     const gint64  *kernel,
                     const gint64  *output_size,
                     const double  *output_ratio,
                     GnnTensor     *random_samples,
                     GnnTensor    **indices,
                     GError       **error)
{
  GnnTensorPrivate *ip;
  g_autoptr(GnnTensor) samples = NULL;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) sc = NULL;
  g_autoptr(GnnTensor) idx = NULL;
  g_autofree gint64 *seq = NULL;
  gint64 size[3], out_shape[5];
  FracGeom g;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (kernel != NULL, NULL);
  g_return_val_if_fail (random_samples == NULL || GNN_IS_TENSOR (random_samples), NULL);
  if (indices != NULL)
    *indices = NULL;
  GNN_CHECK_STORAGE ("fractional_max_pool", input, error, NULL);
  if (random_samples != NULL)
    GNN_CHECK_STORAGE ("fractional_max_pool", random_samples, error, NULL);
  if (!python_checks (n, input, output_size, output_ratio, random_samples, error))
    return NULL;
  ip = gnn_tensor_priv (input);
  for (guint a = 0; a < n; a++)
    {
      /* Python's int (size * ratio), kept in range (a huge size fails the
       * window check, NaN counts as 0) */
      double scaled = output_ratio != NULL ? (double) ip->shape[ip->ndim - n + a] * output_ratio[a] : 0;

      size[a] = output_size != NULL ? output_size[a]
                                    : isnan (scaled) ? 0 : (gint64) CLAMP (scaled, -1e15, 1e15);
    }
  if (random_samples == NULL && ip->dtype != GNN_DTYPE_F32 && ip->dtype != GNN_DTYPE_F64)
    {
      /* torch.rand (..., dtype=input.dtype) refuses first */
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"check_uniform_bounds\" not implemented for '%s'",
                   gnn_torch_scalar_name (ip->dtype));
      return NULL;
    }
  if (!setup (n, input, kernel, size, random_samples, &g, out_shape, error))
    return NULL;
  if (random_samples == NULL)
    {
      /* torch.rand (N, C, n, dtype=input.dtype) from the default generator */
      const gint64 sshape[3] = { g.batch, g.channels, n };

      samples = gnn_tensor_new_contiguous_checked (ip->dtype, sshape, 3, FALSE, error);
      if (samples == NULL || !gnn_tensor_uniform_ (samples, 0.0, 1.0, NULL, error))
        return NULL;
      random_samples = samples;
    }
  out = gnn_tensor_new_contiguous_checked (ip->dtype, out_shape, ip->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  idx = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, out_shape, ip->ndim, FALSE, error);
  xc = idx != NULL ? gnn_tensor_contiguous_checked (input, error) : NULL;
  sc = xc != NULL ? gnn_tensor_contiguous_checked (random_samples, error) : NULL;
  if (sc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  seq = g_new (gint64, g.out[0] + g.out[1] + g.out[2] + 1);
  if (ip->dtype == GNN_DTYPE_F32)
    fractional_max_f32 (&g, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (sc),
                        gnn_tensor_data_or_null (out), gnn_tensor_data_or_null (idx), seq);
  else
    fractional_max_f64 (&g, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (sc),
                        gnn_tensor_data_or_null (out), gnn_tensor_data_or_null (idx), seq);
  out = gnn_tensor_record (GNN_OP_FRACTIONAL_MAX_POOL, out, &input, 1,
                           &(GnnOpParams) { .dim = (gint) n, .extra = { idx } });
  if (indices != NULL)
    *indices = g_steal_pointer (&idx);
  return out;
}

/**
 * gnn_tensor_fractional_max_pool2d:
 * @input: the input, `[N, C, H, W]` or `[C, H, W]`, float32 or float64
 * @kernel_size: (array fixed-size=2): the window (height, width), > 0
 * @output_size: (array fixed-size=2) (nullable): the output's (height,
 *   width), or %NULL to take @output_ratio
 * @output_ratio: (array fixed-size=2) (nullable): the output's size as a
 *   fraction of the input's, `int (size · ratio)` per axis (used when
 *   @output_size is %NULL)
 * @random_samples: (nullable): `[N, C, 2]` samples in [0, 1) of @input's
 *   dtype (torch's `_random_samples`: per plane, the width's then the
 *   height's), or %NULL to draw them from the default generator
 * @indices: (out) (optional) (transfer full): the position of each maximum
 *   in its `H × W` plane (int64, the output's shape), torch's
 *   `return_indices=True`
 * @error: return location for a #GError
 *
 * `torch.nn.functional.fractional_max_pool2d`: the max over windows of
 * @kernel_size whose starts grow by pseudo-random steps (torch's
 * `generate_intervals`, so that the same samples give torch's result).
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error (torch's
 *   messages, e.g. "fractional_max_pool2d(): pool height 2 too large
 *   relative to input height 7")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fractional_max_pool2d (GnnTensor     *input,
                                  const gint64  *kernel_size,
                                  const gint64  *output_size,
                                  const double  *output_ratio,
                                  GnnTensor     *random_samples,
                                  GnnTensor    **indices,
                                  GError       **error)
{
  return fractional_max_pool (2, input, kernel_size, output_size, output_ratio, random_samples, indices, error);
}

/**
 * gnn_tensor_fractional_max_pool3d:
 * @input: the input, `[N, C, T, H, W]` or `[C, T, H, W]`, float32 or
 *   float64
 * @kernel_size: (array fixed-size=3): the window (time, height, width), > 0
 * @output_size: (array fixed-size=3) (nullable): the output's (time,
 *   height, width), or %NULL to take @output_ratio
 * @output_ratio: (array fixed-size=3) (nullable): the output's size as a
 *   fraction of the input's (used when @output_size is %NULL)
 * @random_samples: (nullable): `[N, C, 3]` samples in [0, 1) of @input's
 *   dtype (per plane: time, height, width), or %NULL to draw them from the
 *   default generator
 * @indices: (out) (optional) (transfer full): the position of each maximum
 *   in its `T × H × W` volume (int64, the output's shape)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.fractional_max_pool3d`, as
 * [method@Gnn.Tensor.fractional_max_pool2d] over three axes.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fractional_max_pool3d (GnnTensor     *input,
                                  const gint64  *kernel_size,
                                  const gint64  *output_size,
                                  const double  *output_ratio,
                                  GnnTensor     *random_samples,
                                  GnnTensor    **indices,
                                  GError       **error)
{
  return fractional_max_pool (3, input, kernel_size, output_size, output_ratio, random_samples, indices, error);
}
