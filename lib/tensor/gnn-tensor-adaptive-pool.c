/* gnn-tensor-adaptive-pool.c: adaptive average and max pooling over 1 to 3
 * spatial dimensions (torch.nn.functional.adaptive_avg_pool1d/2d/3d,
 * adaptive_max_pool1d/2d/3d)
 *
 * Output position o of a dimension of size in → out covers the input
 * positions [floor (o · in / out), ceil ((o + 1) · in / out)). Planes (the
 * leading dimensions) are split among the threads; the spatial dimensions
 * are padded to three of size 1. The backward of both lives here too, for
 * the window arithmetic: lib/autograd/gnn-backward-resample.c calls it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-adaptive-pool-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-parallel-private.h"

static inline gint64
window_start (gint64 o, gint64 in, gint64 out)
{
  return o * in / out;
}

static inline gint64
window_end (gint64 o, gint64 in, gint64 out)
{
  return ((o + 1) * in + out - 1) / out;
}

void
gnn_adaptive_geom_init (GnnAdaptiveGeom *g,
                        const gint64    *in_shape,
                        const gint64    *out_shape,
                        guint            ndim,
                        guint            k)
{
  g->planes = 1;
  for (guint d = 0; d + k < ndim; d++)
    g->planes *= in_shape[d];
  for (guint d = 0; d < 3; d++)
    {
      gboolean used = d + k >= 3;

      g->in[d] = used ? in_shape[ndim - 3 + d] : 1;
      g->out[d] = used ? out_shape[ndim - 3 + d] : 1;
    }
}

typedef struct
{
  const GnnAdaptiveGeom *g;
  const void *src;
  void *dst;
  gint64 *idx;
  const gint64 *cidx;
} PoolJob;

/* Runs the statements given for each output position (a, b, c) with its
 * window [a0, a1) × [b0, b1) × [c0, c1). */
#define FOR_WINDOWS(g, ...)                                                               \
  for (gint64 a = 0; a < (g)->out[0]; a++)                                                \
    {                                                                                     \
      gint64 a0 = window_start (a, (g)->in[0], (g)->out[0]);                              \
      gint64 a1 = window_end (a, (g)->in[0], (g)->out[0]);                                \
                                                                                          \
      for (gint64 b = 0; b < (g)->out[1]; b++)                                            \
        {                                                                                 \
          gint64 b0 = window_start (b, (g)->in[1], (g)->out[1]);                          \
          gint64 b1 = window_end (b, (g)->in[1], (g)->out[1]);                            \
                                                                                          \
          for (gint64 c = 0; c < (g)->out[2]; c++)                                        \
            {                                                                             \
              gint64 c0 = window_start (c, (g)->in[2], (g)->out[2]);                      \
              gint64 c1 = window_end (c, (g)->in[2], (g)->out[2]);                        \
              __VA_ARGS__                                                                 \
            }                                                                             \
        }                                                                                 \
    }

#define DEFINE_ADAPTIVE(T, suffix)                                                        \
static void                                                                               \
avg_range_##suffix (gint64 p0, gint64 p1, gpointer data)                                  \
{                                                                                         \
  const PoolJob *j = data;                                                                \
  const GnnAdaptiveGeom *g = j->g;                                                        \
  gint64 in_plane = g->in[0] * g->in[1] * g->in[2];                                       \
  gint64 out_plane = g->out[0] * g->out[1] * g->out[2];                                   \
                                                                                          \
  for (gint64 p = p0; p < p1; p++)                                                        \
    {                                                                                     \
      const T *x = (const T *) j->src + p * in_plane;                                     \
      T *y = (T *) j->dst + p * out_plane;                                                \
                                                                                          \
      FOR_WINDOWS (g, {                                                                   \
        double sum = 0;                                                                   \
                                                                                          \
        for (gint64 i = a0; i < a1; i++)                                                  \
          for (gint64 jj = b0; jj < b1; jj++)                                             \
            for (gint64 l = c0; l < c1; l++)                                              \
              sum += x[(i * g->in[1] + jj) * g->in[2] + l];                               \
        *y++ = (T) (sum / (double) ((a1 - a0) * (b1 - b0) * (c1 - c0)));                  \
      })                                                                                  \
    }                                                                                     \
}                                                                                         \
                                                                                          \
static void                                                                               \
avg_back_range_##suffix (gint64 p0, gint64 p1, gpointer data)                             \
{                                                                                         \
  const PoolJob *j = data;                                                                \
  const GnnAdaptiveGeom *g = j->g;                                                        \
  gint64 in_plane = g->in[0] * g->in[1] * g->in[2];                                       \
  gint64 out_plane = g->out[0] * g->out[1] * g->out[2];                                   \
                                                                                          \
  memset ((T *) j->dst + p0 * in_plane, 0, sizeof (T) * (gsize) ((p1 - p0) * in_plane));  \
  for (gint64 p = p0; p < p1; p++)                                                        \
    {                                                                                     \
      const T *go = (const T *) j->src + p * out_plane;                                   \
      T *gx = (T *) j->dst + p * in_plane;                                                \
                                                                                          \
      FOR_WINDOWS (g, {                                                                   \
        T share = *go++ / (T) ((a1 - a0) * (b1 - b0) * (c1 - c0));                        \
                                                                                          \
        for (gint64 i = a0; i < a1; i++)                                                  \
          for (gint64 jj = b0; jj < b1; jj++)                                             \
            for (gint64 l = c0; l < c1; l++)                                              \
              gx[(i * g->in[1] + jj) * g->in[2] + l] += share;                            \
      })                                                                                  \
    }                                                                                     \
}                                                                                         \
                                                                                          \
/* The maximum of each window and its flat index in the plane; torch's    */             \
/* rule: a larger value or a NaN takes over (so the last NaN wins).        */            \
static void                                                                               \
max_range_##suffix (gint64 p0, gint64 p1, gpointer data)                                  \
{                                                                                         \
  const PoolJob *j = data;                                                                \
  const GnnAdaptiveGeom *g = j->g;                                                        \
  gint64 in_plane = g->in[0] * g->in[1] * g->in[2];                                       \
  gint64 out_plane = g->out[0] * g->out[1] * g->out[2];                                   \
                                                                                          \
  for (gint64 p = p0; p < p1; p++)                                                        \
    {                                                                                     \
      const T *x = (const T *) j->src + p * in_plane;                                     \
      T *y = (T *) j->dst + p * out_plane;                                                \
      gint64 *ix = j->idx + p * out_plane;                                                \
                                                                                          \
      FOR_WINDOWS (g, {                                                                   \
        gint64 best = (a0 * g->in[1] + b0) * g->in[2] + c0;                               \
        T bv = x[best];                                                                   \
                                                                                          \
        for (gint64 i = a0; i < a1; i++)                                                  \
          for (gint64 jj = b0; jj < b1; jj++)                                             \
            for (gint64 l = c0; l < c1; l++)                                              \
              {                                                                           \
                gint64 at = (i * g->in[1] + jj) * g->in[2] + l;                           \
                                                                                          \
                if (x[at] > bv || isnan (x[at]))                                          \
                  bv = x[at], best = at;                                                  \
              }                                                                           \
        *y++ = bv;                                                                        \
        *ix++ = best;                                                                     \
      })                                                                                  \
    }                                                                                     \
}                                                                                         \
                                                                                          \
static void                                                                               \
max_back_range_##suffix (gint64 p0, gint64 p1, gpointer data)                             \
{                                                                                         \
  const PoolJob *j = data;                                                                \
  const GnnAdaptiveGeom *g = j->g;                                                        \
  gint64 in_plane = g->in[0] * g->in[1] * g->in[2];                                       \
  gint64 out_plane = g->out[0] * g->out[1] * g->out[2];                                   \
                                                                                          \
  memset ((T *) j->dst + p0 * in_plane, 0, sizeof (T) * (gsize) ((p1 - p0) * in_plane));  \
  for (gint64 p = p0; p < p1; p++)                                                        \
    {                                                                                     \
      const T *go = (const T *) j->src + p * out_plane;                                   \
      const gint64 *ix = j->cidx + p * out_plane;                                         \
      T *gx = (T *) j->dst + p * in_plane;                                                \
                                                                                          \
      for (gint64 o = 0; o < out_plane; o++)                                              \
        gx[ix[o]] += go[o];                                                               \
    }                                                                                     \
}

DEFINE_ADAPTIVE (float, f32)
DEFINE_ADAPTIVE (double, f64)

static void
run (const GnnAdaptiveGeom *g,
     GnnParallelFunc        f32,
     GnnParallelFunc        f64,
     gboolean               is_f32,
     gint64                 per_plane,
     PoolJob               *job)
{
  if (g->planes > 0 && per_plane > 0)
    gnn_parallel_for (g->planes, gnn_parallel_grain (per_plane), is_f32 ? f32 : f64, job);
}

void
gnn_adaptive_avg_pool_backward (const GnnAdaptiveGeom *g,
                                GnnDType               dtype,
                                const void            *gout,
                                void                  *gin)
{
  run (g, avg_back_range_f32, avg_back_range_f64, dtype == GNN_DTYPE_F32,
       g->in[0] * g->in[1] * g->in[2], &(PoolJob) { .g = g, .src = gout, .dst = gin });
}

void
gnn_adaptive_max_pool_backward (const GnnAdaptiveGeom *g,
                                GnnDType               dtype,
                                const gint64          *indices,
                                const void            *gout,
                                void                  *gin)
{
  run (g, max_back_range_f32, max_back_range_f64, dtype == GNN_DTYPE_F32,
       g->in[0] * g->in[1] * g->in[2], &(PoolJob) { .g = g, .src = gout, .dst = gin, .cidx = indices });
}

/* torch's checks of an adaptive pooling of @k dimensions; fills the output
 * shape. */
static gboolean
adaptive_check (const char       *kind,
                GnnTensor        *input,
                const gint64     *output_size,
                guint             k,
                gboolean          max,
                gint64           *out_shape,
                GError          **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autofree char *name = g_strdup_printf ("adaptive_%s_pool%ud", kind, k);
  g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

  if (p->ndim != k + 1 && p->ndim != k + 2)
    {
      if (k == 1)
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Expected 2 to 3 dimensions, but got %u-dimensional tensor for argument #1 'self' "
                     "(while checking arguments for %s)", p->ndim, name);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s(): Expected %uD or %uD tensor, but got%s %s",
                     name, k + 1, k + 2, max ? ":" : "", is);
      return FALSE;
    }
  for (guint i = 0; i < k; i++)
    if (output_size[i] < 0)
      {
        /* torch pools one dimension as two, (1, size) */
        g_autoptr(GString) s = g_string_new (k == 1 ? "{1, " : "{");

        /* sic: torch 1.13's 3-d text drops the last space */
        for (guint j = 0; j < k; j++)
          g_string_append_printf (s, "%s%" G_GINT64_FORMAT, j == 0 ? "" : j == 2 ? "," : ", ", output_size[j]);
        g_string_append_c (s, '}');
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "adaptive_%s_pool2d: elements of output_size must be greater than or equal to 0 "
                     "but received %s", kind, s->str);   /* "2d" for every rank, as torch */
        return FALSE;
      }
  /* torch's average pooling of 1 or 2 dims takes empty channels */
  if (max || k == 3)
    for (guint d = p->ndim - k - 1; d < p->ndim; d++)
      if (p->shape[d] == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "adaptive_%s_pool%ud(): Expected input to have non-zero size for non-batch "
                       "dimensions, but input has sizes %s with dimension %u being empty",
                       kind, MAX (k, 2), is, d);
          return FALSE;
        }
  if (!gnn_check_float_dtype (k == 3 ? (max ? "adaptive_max_pool3d_cpu" : "adaptive_avg_pool3d_cpu")
                              : (max ? "adaptive_max_pool2d" : "adaptive_avg_pool2d"), input, error))
    return FALSE;
  memcpy (out_shape, p->shape, sizeof (gint64) * p->ndim);
  memcpy (out_shape + p->ndim - k, output_size, sizeof (gint64) * k);
  return TRUE;
}

/* The pooling @job of @input into a new tensor of @out_shape. */
static GnnTensor *
adaptive_run (GnnTensor       *input,
              const gint64    *out_shape,
              guint            k,
              GnnParallelFunc  f32,
              GnnParallelFunc  f64,
              PoolJob         *job,
              GnnAdaptiveGeom *g,
              GError         **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) out = gnn_tensor_new_contiguous_checked (p->dtype, out_shape, p->ndim, FALSE, error);

  if (out == NULL || (xc = gnn_tensor_contiguous_checked (input, error)) == NULL)
    return NULL;
  gnn_adaptive_geom_init (g, p->shape, out_shape, p->ndim, k);
  job->g = g;
  job->src = gnn_tensor_data_or_null (xc);
  job->dst = gnn_tensor_data_or_null (out);
  /* an empty window (input size 0 with output > 0) cannot happen: checked */
  run (g, f32, f64, p->dtype == GNN_DTYPE_F32, g->out[0] * g->out[1] * g->out[2] * 4, job);
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_adaptive_avg_pool2d:
 * @input: the input, `[N, C, H, W]` or unbatched `[C, H, W]`
 * @output_h: the output height
 * @output_w: the output width
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_avg_pool2d`: the 2-d case of
 * [method@Gnn.Tensor.adaptive_avg_pool].
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_avg_pool2d (GnnTensor  *input,
                                gint64      output_h,
                                gint64      output_w,
                                GError    **error)
{
  const gint64 size[2] = { output_h, output_w };

  return gnn_tensor_adaptive_avg_pool (input, size, 2, error);
}

/**
 * gnn_tensor_adaptive_avg_pool:
 * @input: the input, `[N, C, *spatial]` or unbatched `[C, *spatial]`,
 *   float32 or float64
 * @output_size: (array length=n_output_size): the output size of each
 *   spatial dimension (>= 0)
 * @n_output_size: the number of spatial dimensions, 1 to 3
 * @error: return location for a #GError
 *
 * Adaptive average pooling, `torch.nn.functional.adaptive_avg_pool1d/2d/3d`:
 * output position o of a dimension of size `in` is the mean of the input
 * positions `floor (o · in / out)` to `ceil ((o + 1) · in / out)`.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error (with
 *   PyTorch's messages, e.g. "adaptive_avg_pool2d(): Expected 3D or 4D
 *   tensor, but got [2, 2]")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_avg_pool (GnnTensor    *input,
                              const gint64 *output_size,
                              guint         n_output_size,
                              GError      **error)
{
  gint64 out_shape[GNN_MAX_DIMS];
  GnnAdaptiveGeom g;
  PoolJob job = { 0 };
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (output_size != NULL && n_output_size >= 1 && n_output_size <= 3, NULL);
  GNN_CHECK_STORAGE ("adaptive_avg_pool", input, error, NULL);

  if (!adaptive_check ("avg", input, output_size, n_output_size, FALSE, out_shape, error) ||
      (out = adaptive_run (input, out_shape, n_output_size, avg_range_f32, avg_range_f64, &job, &g, error)) == NULL)
    return NULL;
  /* torch takes the mean for 1×1 outputs, and names the node so */
  return gnn_tensor_record (GNN_OP_ADAPTIVE_AVG_POOL, out, &input, 1,
                            &(GnnOpParams) { .dim = (gint) n_output_size,
                                             .flag = n_output_size == 2 && output_size[0] == 1 &&
                                                     output_size[1] == 1 });
}

/**
 * gnn_tensor_adaptive_max_pool:
 * @input: the input, `[N, C, *spatial]` or unbatched `[C, *spatial]`,
 *   float32 or float64
 * @output_size: (array length=n_output_size): the output size of each
 *   spatial dimension (>= 0)
 * @n_output_size: the number of spatial dimensions, 1 to 3
 * @indices: (out) (optional) (transfer full): the position of each
 *   maximum, flattened over the spatial dimensions of its plane (int64, the
 *   output's shape), PyTorch's `return_indices=True`
 * @error: return location for a #GError
 *
 * Adaptive max pooling, `torch.nn.functional.adaptive_max_pool1d/2d/3d`,
 * over the windows of [method@Gnn.Tensor.adaptive_avg_pool]. A NaN in a
 * window is its maximum.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_max_pool (GnnTensor     *input,
                              const gint64  *output_size,
                              guint          n_output_size,
                              GnnTensor    **indices,
                              GError       **error)
{
  gint64 out_shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) idx = NULL;
  GnnAdaptiveGeom g;
  PoolJob job = { 0 };
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (output_size != NULL && n_output_size >= 1 && n_output_size <= 3, NULL);
  GNN_CHECK_STORAGE ("adaptive_max_pool", input, error, NULL);

  if (!adaptive_check ("max", input, output_size, n_output_size, TRUE, out_shape, error))
    return NULL;
  idx = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, out_shape, gnn_tensor_priv (input)->ndim, FALSE, error);
  if (idx == NULL)
    return NULL;
  job.idx = gnn_tensor_data_or_null (idx);
  out = adaptive_run (input, out_shape, n_output_size, max_range_f32, max_range_f64, &job, &g, error);
  if (out == NULL)
    return NULL;
  out = gnn_tensor_record (GNN_OP_ADAPTIVE_MAX_POOL, out, &input, 1,
                           &(GnnOpParams) { .dim = (gint) n_output_size, .extra = { idx } });
  if (indices != NULL)
    *indices = g_steal_pointer (&idx);
  return out;
}
