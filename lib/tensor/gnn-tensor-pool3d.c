/* gnn-tensor-pool3d.c: 3-d max and average pooling
 * (torch.nn.functional.max_pool3d / avg_pool3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-pool3d-private.h"
#include "tensor/gnn-pool-window-private.h"

void
gnn_pool3d_geom_from_params (GnnPool3dGeom *g,
                             const gint64  *ints,
                             const gint64  *in_shape,
                             guint          in_ndim,
                             const gint64  *out_shape)
{
  g->planes = in_shape[in_ndim - 4] * (in_ndim == 5 ? in_shape[0] : 1);
  for (guint a = 0; a < 3; a++)
    {
      g->in[a] = in_shape[in_ndim - 3 + a];
      g->out[a] = out_shape[in_ndim - 3 + a];
      g->k[a] = ints[a], g->s[a] = ints[3 + a], g->p[a] = ints[6 + a], g->d[a] = ints[9 + a];
    }
  g->count_include_pad = ints[12] != 0;
  g->divisor_override = ints[13];
}

/* torch's pool3d_shape_check, in its order and words. */
static gboolean
setup (const char    *op,
       GnnTensor     *input,
       const gint64  *kernel,
       gint64        *stride,
       const gint64  *padding,
       const gint64  *dilation,
       gboolean       ceil_mode,
       GnnPool3dGeom *g,
       gint64        *out_shape,
       GError       **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input);
  gboolean avg = g_str_has_prefix (op, "avg");

  if (ip->ndim != 4 && ip->ndim != 5)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "non-empty 4D or 5D (batch mode) tensor expected for input");
      return FALSE;
    }
  for (guint d = ip->ndim - 4; d < ip->ndim; d++)
    if (ip->shape[d] == 0)
      {
        g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s_out_cpu_template(): Expected input's non-batch dimensions to have positive length, "
                     "but input has a shape of %s and non-batch dimension %u has length zero!",
                     avg ? "avg_pool3d" : "max_pool3d_with_indices", is, d - (ip->ndim - 4));
        return FALSE;
      }
  /* torch's avg_pool3d also takes int64 (a truncating mean) */
  if (!(avg && ip->dtype == GNN_DTYPE_I64) &&
      !gnn_check_float_dtype (avg ? "avg_pool3d_out_frame" : "max_pool3d_with_indices_cpu", input, error))
    return FALSE;
  if (stride[0] == 0 && stride[1] == 0 && stride[2] == 0)
    memcpy (stride, kernel, sizeof (gint64) * 3);
  for (guint a = 0; a < 3; a++)
    if (stride[a] == 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "stride should not be zero");
        return FALSE;
      }
  if (kernel[0] <= 0 || kernel[1] <= 0 || kernel[2] <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "kernel size should be greater than zero, but got kT: %" G_GINT64_FORMAT " kH: %"
                   G_GINT64_FORMAT " kW: %" G_GINT64_FORMAT, kernel[0], kernel[1], kernel[2]);
      return FALSE;
    }
  if (stride[0] < 0 || stride[1] < 0 || stride[2] < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "stride should be greater than zero, but got dT: %" G_GINT64_FORMAT " dH: %"
                   G_GINT64_FORMAT " dW: %" G_GINT64_FORMAT, stride[0], stride[1], stride[2]);
      return FALSE;
    }
  if (dilation[0] <= 0 || dilation[1] <= 0 || dilation[2] <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "dilation should be greater than zero, but got dilationT: %" G_GINT64_FORMAT
                   " dilationH: %" G_GINT64_FORMAT " dilationW: %" G_GINT64_FORMAT,
                   dilation[0], dilation[1], dilation[2]);
      return FALSE;
    }
  for (guint a = 0; a < 3; a++)
    if (padding[a] < 0 || padding[a] > kernel[a] / 2)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "pad should be at most half of kernel size, but got pad=%" G_GINT64_FORMAT
                     " and kernel_size=%" G_GINT64_FORMAT, padding[a], kernel[a]);
        return FALSE;
      }
  g->planes = ip->shape[ip->ndim - 4] * (ip->ndim == 5 ? ip->shape[0] : 1);
  for (guint a = 0; a < 3; a++)
    {
      g->in[a] = ip->shape[ip->ndim - 3 + a];
      g->k[a] = kernel[a], g->s[a] = stride[a], g->p[a] = padding[a], g->d[a] = dilation[a];
      g->out[a] = gnn_pool_out_size (g->in[a], kernel[a], padding[a], stride[a], dilation[a], ceil_mode);
    }
  if (avg && (g->in[0] < kernel[0] || g->in[1] < kernel[1] || g->in[2] < kernel[2]))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "input image (T: %" G_GINT64_FORMAT " H: %" G_GINT64_FORMAT " W: %" G_GINT64_FORMAT
                   ") smaller than kernel size (kT: %" G_GINT64_FORMAT " kH: %" G_GINT64_FORMAT " kW: %"
                   G_GINT64_FORMAT ")", g->in[0], g->in[1], g->in[2], kernel[0], kernel[1], kernel[2]);
      return FALSE;
    }
  if (g->out[0] < 1 || g->out[1] < 1 || g->out[2] < 1)
    {
      gint64 c = ip->shape[ip->ndim - 4];

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Given input size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT "). Calculated output size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT "x%" G_GINT64_FORMAT "). Output size is too small",
                   c, g->in[0], g->in[1], g->in[2], c, MAX (g->out[0], 0), MAX (g->out[1], 0),
                   MAX (g->out[2], 0));
      return FALSE;
    }
  memcpy (out_shape, ip->shape, sizeof (gint64) * ip->ndim);
  memcpy (out_shape + ip->ndim - 3, g->out, sizeof (gint64) * 3);
  return TRUE;
}

/* The max over each window (padding never wins; the first maximum in scan
 * order, a NaN propagating), its flattened position in the volume to @idx. */
#define DEFINE_MAX_POOL3D(T, suffix)                                                       \
static void                                                                                \
max_pool3d_##suffix (const GnnPool3dGeom *g, const T *src, T *dst, gint64 *idx)            \
{                                                                                          \
  gint64 vol = g->in[0] * g->in[1] * g->in[2];                                             \
                                                                                           \
  for (gint64 pl = 0; pl < g->planes; pl++)                                                \
    for (gint64 ot = 0; ot < g->out[0]; ot++)                                              \
      for (gint64 oh = 0; oh < g->out[1]; oh++)                                            \
        for (gint64 ow = 0; ow < g->out[2]; ow++)                                          \
          {                                                                                \
            gint64 t0 = ot * g->s[0] - g->p[0], h0 = oh * g->s[1] - g->p[1];               \
            gint64 w0 = ow * g->s[2] - g->p[2], best_i = -1, i0, i1, j0, j1, l0, l1;       \
            T best = -INFINITY;                                                            \
                                                                                           \
            gnn_pool_window_taps (t0, g->d[0], g->k[0], g->in[0], &i0, &i1);                        \
            gnn_pool_window_taps (h0, g->d[1], g->k[1], g->in[1], &j0, &j1);                        \
            gnn_pool_window_taps (w0, g->d[2], g->k[2], g->in[2], &l0, &l1);                        \
            for (gint64 i = i0; i < i1; i++)                                               \
              for (gint64 j = j0; j < j1; j++)                                             \
                for (gint64 l = l0; l < l1; l++)                                           \
                  {                                                                        \
                    gint64 at = ((t0 + i * g->d[0]) * g->in[1] + h0 + j * g->d[1]) * g->in[2] \
                                + w0 + l * g->d[2];                                        \
                    T v = src[pl * vol + at];                                              \
                                                                                           \
                    if (best_i < 0 || v > best || isnan (v))                               \
                      best = v, best_i = at;                                               \
                  }                                                                        \
            *dst++ = best;                                                                 \
            *idx++ = best_i;                                                               \
          }                                                                                \
}

DEFINE_MAX_POOL3D (float, f32)
DEFINE_MAX_POOL3D (double, f64)

gint64
gnn_pool3d_avg_divisor (const GnnPool3dGeom *g,
                        gint64               ot,
                        gint64               oh,
                        gint64               ow,
                        gint64              *lo,
                        gint64              *hi)
{
  const gint64 o[3] = { ot, oh, ow };
  gint64 pool_size = 1, inside = 1;

  for (guint a = 0; a < 3; a++)
    {
      gint64 start = o[a] * g->s[a] - g->p[a];
      gint64 end = MIN (start + g->k[a], g->in[a] + g->p[a]);

      if (!gnn_checked_mul (pool_size, end - start, &pool_size))
        pool_size = G_MAXINT64;
      lo[a] = MAX (start, 0), hi[a] = MIN (end, g->in[a]);
      inside *= hi[a] - lo[a];
    }
  if (g->divisor_override != 0)
    return g->divisor_override;
  return g->count_include_pad ? pool_size : inside;
}

/* An integer mean truncates, as C++'s division; @ZERO_DIV for a window
 * with no divisor. */
#define DEFINE_AVG_POOL3D(T, suffix, ZERO_DIV)                                                       \
static void                                                                                \
avg_pool3d_##suffix (const GnnPool3dGeom *g, const T *src, T *dst)                         \
{                                                                                          \
  gint64 vol = g->in[0] * g->in[1] * g->in[2];                                             \
                                                                                           \
  for (gint64 pl = 0; pl < g->planes; pl++)                                                \
    for (gint64 ot = 0; ot < g->out[0]; ot++)                                              \
      for (gint64 oh = 0; oh < g->out[1]; oh++)                                            \
        for (gint64 ow = 0; ow < g->out[2]; ow++)                                          \
          {                                                                                \
            gint64 lo[3], hi[3], divisor = gnn_pool3d_avg_divisor (g, ot, oh, ow, lo, hi); \
            T sum = 0;                                                                     \
                                                                                           \
            for (gint64 t = lo[0]; t < hi[0]; t++)                                         \
              for (gint64 h = lo[1]; h < hi[1]; h++)                                       \
                for (gint64 w = lo[2]; w < hi[2]; w++)                                     \
                  sum += src[pl * vol + (t * g->in[1] + h) * g->in[2] + w];                \
            *dst++ = divisor != 0 ? sum / (T) divisor : (ZERO_DIV);                        \
          }                                                                                \
}

DEFINE_AVG_POOL3D (float, f32, NAN)
DEFINE_AVG_POOL3D (double, f64, NAN)
DEFINE_AVG_POOL3D (gint64, i64, 0)

static GnnTensor *
pool3d (gboolean       avg,
        GnnTensor     *input,
        const gint64  *kernel,
        const gint64  *stride_in,
        const gint64  *padding,
        const gint64  *dilation,
        gboolean       ceil_mode,
        gboolean       count_include_pad,
        gint64         divisor_override,
        GnnTensor    **indices,
        GError       **error)
{
  static const gint64 ones[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) idx = NULL;
  gint64 out_shape[5], stride[3];
  GnnPool3dGeom g;
  GnnTensor *out;
  GnnOpParams params = { .n_ints = 14 };
  gboolean f32;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (kernel != NULL && stride_in != NULL && padding != NULL, NULL);
  GNN_CHECK_STORAGE (avg ? "avg_pool3d" : "max_pool3d", input, error, NULL);

  memcpy (stride, stride_in, sizeof stride);
  if (!setup (avg ? "avg_pool3d" : "max_pool3d", input, kernel, stride, padding, avg ? ones : dilation,
              ceil_mode, &g, out_shape, error))
    return NULL;
  g.count_include_pad = count_include_pad;
  g.divisor_override = divisor_override;
  f32 = gnn_tensor_priv (input)->dtype == GNN_DTYPE_F32;
  out = gnn_tensor_new_contiguous_checked (gnn_tensor_priv (input)->dtype, out_shape,
                                           gnn_tensor_priv (input)->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  if (!avg)
    idx = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, out_shape, gnn_tensor_priv (input)->ndim, FALSE,
                                             error);
  xc = avg || idx != NULL ? gnn_tensor_contiguous_checked (input, error) : NULL;
  if (xc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  if (avg && f32)
    avg_pool3d_f32 (&g, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out));
  else if (avg && gnn_tensor_priv (input)->dtype == GNN_DTYPE_I64)
    avg_pool3d_i64 (&g, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out));
  else if (avg)
    avg_pool3d_f64 (&g, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out));
  else if (f32)
    max_pool3d_f32 (&g, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out), gnn_tensor_data_or_null (idx));
  else
    max_pool3d_f64 (&g, gnn_tensor_data_or_null (xc), gnn_tensor_data_or_null (out), gnn_tensor_data_or_null (idx));
  for (guint a = 0; a < 3; a++)
    {
      params.ints[a] = g.k[a], params.ints[3 + a] = g.s[a];
      params.ints[6 + a] = g.p[a], params.ints[9 + a] = g.d[a];
    }
  params.ints[12] = count_include_pad, params.ints[13] = divisor_override;
  params.extra[0] = idx;
  out = gnn_tensor_record (avg ? GNN_OP_AVG_POOL3D : GNN_OP_MAX_POOL3D, out, &input, 1, &params);
  if (indices != NULL)
    *indices = g_steal_pointer (&idx);
  return out;
}

/**
 * gnn_tensor_max_pool3d:
 * @input: the input, `[N, C, D, H, W]` or `[C, D, H, W]`, float32 or float64
 * @kernel_size: (array fixed-size=3): the window (depth, height, width), > 0
 * @stride: (array fixed-size=3): the strides; all 0 means @kernel_size
 * @padding: (array fixed-size=3): the implicit -inf padding (at most half
 *   the window)
 * @dilation: (array fixed-size=3): the spacing between window taps (> 0)
 * @ceil_mode: whether to round the output size up instead of down
 * @indices: (out) (optional) (transfer full): the position of each
 *   maximum in its `D × H × W` volume (int64, the output's shape), torch's
 *   `return_indices=True`
 * @error: return location for a #GError
 *
 * 3-d max pooling, `torch.nn.functional.max_pool3d`.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error (torch's
 *   messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_pool3d (GnnTensor     *input,
                       const gint64  *kernel_size,
                       const gint64  *stride,
                       const gint64  *padding,
                       const gint64  *dilation,
                       gboolean       ceil_mode,
                       GnnTensor    **indices,
                       GError       **error)
{
  g_return_val_if_fail (dilation != NULL, NULL);

  if (indices != NULL)
    *indices = NULL;
  return pool3d (FALSE, input, kernel_size, stride, padding, dilation, ceil_mode, FALSE, 0, indices, error);
}

/**
 * gnn_tensor_avg_pool3d:
 * @input: the input, `[N, C, D, H, W]` or `[C, D, H, W]`, float32, float64
 *   or int64 (whose mean truncates toward zero, as torch's)
 * @kernel_size: (array fixed-size=3): the window (depth, height, width), > 0
 * @stride: (array fixed-size=3): the strides; all 0 means @kernel_size
 * @padding: (array fixed-size=3): the implicit zero padding (at most half
 *   the window)
 * @ceil_mode: whether to round the output size up instead of down
 * @count_include_pad: whether the zero padding counts in the divisor
 * @divisor_override: a fixed divisor, or 0 to divide by the window size
 * @error: return location for a #GError
 *
 * 3-d average pooling, `torch.nn.functional.avg_pool3d`.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_avg_pool3d (GnnTensor     *input,
                       const gint64  *kernel_size,
                       const gint64  *stride,
                       const gint64  *padding,
                       gboolean       ceil_mode,
                       gboolean       count_include_pad,
                       gint64         divisor_override,
                       GError       **error)
{
  return pool3d (TRUE, input, kernel_size, stride, padding, NULL, ceil_mode, count_include_pad,
                 divisor_override, NULL, error);
}
