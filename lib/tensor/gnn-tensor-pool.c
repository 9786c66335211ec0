/* gnn-tensor-pool.c: max and average pooling in 2-d (and 1-d through it)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-pool-window-private.h"

typedef struct
{
  gint64 planes, height, width, out_h, out_w;
  gint64 kh, kw, sh, sw, ph, pw, dh, dw;
} PoolGeom;

/* Validates a pooling call and fills @g and the output shape. */
static gboolean
pool_setup (const char *op,
            GnnTensor  *input,
            gint64      kernel_h,
            gint64      kernel_w,
            gint64     *stride_h,
            gint64     *stride_w,
            gint64      padding_h,
            gint64      padding_w,
            gint64      dilation_h,
            gint64      dilation_w,
            gboolean    ceil_mode,
            PoolGeom   *g,
            gint64     *out_shape,
            GError    **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input);
  gboolean non_empty = TRUE;

  for (guint d = ip->ndim == 4 ? 1 : 0; d < ip->ndim; d++)
    non_empty = non_empty && ip->shape[d] != 0;
  if ((ip->ndim != 3 && ip->ndim != 4) || !non_empty)
    {
      g_autofree char *is = gnn_shape_to_string (ip->shape, ip->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "non-empty 3D or 4D (batch mode) tensor expected for input, but got input of size %s",
                   is);
      return FALSE;
    }
  /* torch's avg_pool2d also takes int64 (a truncating mean) */
  if (!(ip->dtype == GNN_DTYPE_I64 && g_str_equal (op, "avg_pool2d")) && !gnn_check_float_dtype (op, input, error))
    return FALSE;
  if (kernel_h <= 0 || kernel_w <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "kernel size should be greater than zero, but got kH: %" G_GINT64_FORMAT
                   " kW: %" G_GINT64_FORMAT, kernel_h, kernel_w);
      return FALSE;
    }
  if (*stride_h == 0 && *stride_w == 0)
    *stride_h = kernel_h, *stride_w = kernel_w;
  if (*stride_h <= 0 || *stride_w <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "stride should be greater than zero, but got dH: %" G_GINT64_FORMAT
                   " dW: %" G_GINT64_FORMAT, *stride_h, *stride_w);
      return FALSE;
    }
  if (dilation_h <= 0 || dilation_w <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "dilation should be greater than zero, but got dilationH: %" G_GINT64_FORMAT
                   " dilationW: %" G_GINT64_FORMAT, dilation_h, dilation_w);
      return FALSE;
    }
  if (padding_h < 0 || padding_w < 0 || padding_h > kernel_h / 2 || padding_w > kernel_w / 2)
    {
      gboolean bad_h = padding_h < 0 || padding_h > kernel_h / 2;

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "pad should be at most half of kernel size, but got pad=%" G_GINT64_FORMAT
                   " and kernel_size=%" G_GINT64_FORMAT,
                   bad_h ? padding_h : padding_w, bad_h ? kernel_h : kernel_w);
      return FALSE;
    }

  g->planes = ip->shape[ip->ndim - 3] * (ip->ndim == 4 ? ip->shape[0] : 1);
  g->height = ip->shape[ip->ndim - 2];
  g->width = ip->shape[ip->ndim - 1];
  g->kh = kernel_h, g->kw = kernel_w;
  g->sh = *stride_h, g->sw = *stride_w;
  g->ph = padding_h, g->pw = padding_w;
  g->dh = dilation_h, g->dw = dilation_w;
  g->out_h = gnn_pool_out_size (g->height, kernel_h, padding_h, *stride_h, dilation_h, ceil_mode);
  g->out_w = gnn_pool_out_size (g->width, kernel_w, padding_w, *stride_w, dilation_w, ceil_mode);
  if (g->out_h < 1 || g->out_w < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Given input size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   "). Calculated output size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT "). Output size is too small",
                   ip->shape[ip->ndim - 3], g->height, g->width,
                   ip->shape[ip->ndim - 3], MAX (g->out_h, 0), MAX (g->out_w, 0));
      return FALSE;
    }
  memcpy (out_shape, ip->shape, sizeof (gint64) * ip->ndim);
  out_shape[ip->ndim - 2] = g->out_h;
  out_shape[ip->ndim - 1] = g->out_w;
  return TRUE;
}

/* Max over each window; padding never wins. PyTorch's rule picks the
 * winner: the first maximum in scan order, and a NaN (the last one)
 * propagates. The winner's index in the plane goes to @idx when given (-1
 * for a window with no tap inside the input), for the backward pass. */
#define DEFINE_MAX_POOL(T, suffix)                                                       \
static void                                                                              \
max_pool_##suffix (const PoolGeom *geom,                                                 \
                   const void     *src_,                                                 \
                   void           *dst_,                                                 \
                   void           *idx_)                                                 \
{                                                                                        \
  /* a copy: stores through idx (gint64) could alias *geom's fields */                   \
  gint64 *idx = idx_;                                                                    \
  const PoolGeom copy = *geom, *g = &copy;                                               \
  const T *src = src_;                                                                   \
  T *dst = dst_;                                                                         \
                                                                                         \
  for (gint64 p = 0; p < g->planes; p++)                                                 \
    {                                                                                    \
      const T *plane = src + p * g->height * g->width;                                   \
                                                                                         \
      for (gint64 oy = 0; oy < g->out_h; oy++)                                           \
        {                                                                                \
          gint64 y0 = oy * g->sh - g->ph, i0, i1;                                        \
                                                                                         \
          gnn_pool_window_taps (y0, g->dh, g->kh, g->height, &i0, &i1);                           \
          for (gint64 ox = 0; ox < g->out_w; ox++)                                       \
            {                                                                            \
              gint64 x0 = ox * g->sw - g->pw, j0, j1, best_i = -1;                       \
              T best = -INFINITY;                                                        \
                                                                                         \
              gnn_pool_window_taps (x0, g->dw, g->kw, g->width, &j0, &j1);                        \
              for (gint64 i = i0; i < i1; i++)                                           \
                for (gint64 j = j0; j < j1; j++)                                         \
                  {                                                                      \
                    gint64 at = (y0 + i * g->dh) * g->width + x0 + j * g->dw;            \
                    T v = plane[at];                                                     \
                                                                                         \
                    if (best_i < 0 || v > best || isnan (v))                             \
                      best = v, best_i = at;                                             \
                  }                                                                      \
              *dst++ = best;                                                             \
              if (idx != NULL)                                                           \
                *idx++ = best_i;                                                         \
            }                                                                            \
        }                                                                                \
    }                                                                                    \
}

DEFINE_MAX_POOL (float, f32)
DEFINE_MAX_POOL (double, f64)

/* float64 2×2 windows with stride 2 inside the input, indices wanted
 * (float32 has gnn-max-pool-2x2.c's vector loop): the general loop's rule
 * without its branches. With random activations every comparison is a coin
 * toss, and the general loop's mispredicted branches made max-pool forward
 * 13 % of a CNN training profile. gcc turns a select of floats into a branch, so the running
 * maximum is selected as its bit pattern (integer selects become cmov). */
#define MAX_POOL_TAKE(T, B, v, k)                                                           \
  G_STMT_START {                                                                         \
    T v_ = (v);                                                                          \
    B vb_, m_;                                                                           \
                                                                                         \
    memcpy (&vb_, &v_, sizeof vb_);                                                      \
    m_ = -(B) (int) ((v_ > best) | (v_ != v_));                                          \
    best_bits = (vb_ & m_) | (best_bits & ~m_);                                          \
    memcpy (&best, &best_bits, sizeof best);                                             \
    lane = ((B) (k) & m_) | (lane & ~m_);                                                \
  } G_STMT_END
#define DEFINE_MAX_POOL_2X2(T, B, suffix)                                                \
static void                                                                              \
max_pool_2x2_##suffix (const PoolGeom *geom,                                             \
                       const void     *src_,                                             \
                       void           *dst_,                                             \
                       void           *idx_)                                             \
{                                                                                        \
  gint64 *idx = idx_;                                                                    \
  const PoolGeom copy = *geom, *g = &copy;   /* see max_pool_##suffix */                 \
  const T *src = src_;                                                                   \
  T *dst = dst_;                                                                         \
                                                                                         \
  for (gint64 p = 0; p < g->planes; p++)                                                 \
    {                                                                                    \
      const T *plane = src + p * g->height * g->width;                                   \
                                                                                         \
      for (gint64 oy = 0; oy < g->out_h; oy++)                                           \
        {                                                                                \
          gint64 top = 2 * oy * g->width;                                                \
          const T *r0 = plane + top, *r1 = r0 + g->width;                                \
                                                                                         \
          for (gint64 ox = 0; ox < g->out_w; ox++)                                       \
            {                                                                            \
              T best = r0[2 * ox];                                                       \
              B best_bits, lane = 0;                                                     \
                                                                                         \
              memcpy (&best_bits, &best, sizeof best_bits);                              \
              MAX_POOL_TAKE (T, B, r0[2 * ox + 1], 1);                                   \
              MAX_POOL_TAKE (T, B, r1[2 * ox], 2);                                      \
              MAX_POOL_TAKE (T, B, r1[2 * ox + 1], 3);                                   \
              *dst++ = best;                                                             \
              *idx++ = top + 2 * ox + (gint64) (lane & 1) + (gint64) (lane >> 1) * g->width; \
            }                                                                            \
        }                                                                                \
    }                                                                                    \
}

DEFINE_MAX_POOL_2X2 (double, guint64, f64)

/* The same windows in float32: gnn-max-pool-2x2.c's vector loop, which
 * saves each window's winning lane (one byte, when @lane is not NULL)
 * instead of an index. */
static void
max_pool_2x2_lanes_f32 (const PoolGeom *g,
                        const void     *src,
                        void           *dst,
                        void           *lane)
{
  gnn_max_pool2d_2x2_f32 (g->planes, g->height, g->width, src, dst, lane);
}

/* Windows all inside, no indices: gnn-conv-kernels.c's loop. */
#define DEFINE_MAX_POOL_DENSE(suffix)                                           \
static void                                                                     \
max_pool_dense_##suffix (const PoolGeom *g, const void *src, void *dst, void *idx) \
{                                                                               \
  gnn_max_pool2d_dense_##suffix (g->planes, g->height, g->width, g->kh, g->kw,  \
                                 g->sh, g->sw, g->out_h, g->out_w, src, dst);   \
}

DEFINE_MAX_POOL_DENSE (f32)
DEFINE_MAX_POOL_DENSE (f64)

/* float32 windows with padding, no indices: gnn-max-pool-rows.c's loop. */
static void
max_pool_rows_f32 (const PoolGeom *g, const void *src, void *dst, void *idx)
{
  gnn_max_pool2d_rows_f32 (g->planes, g->height, g->width, g->kh, g->kw, g->sh, g->sw, g->ph, g->pw,
                           g->dh, g->dw, g->out_h, g->out_w, src, dst);
}

/* One max-pool loop over all planes, split among the threads by planes. */
typedef void (*MaxPoolKernel) (const PoolGeom *g, const void *src, void *dst, void *idx);

typedef struct
{
  MaxPoolKernel kernel;
  const PoolGeom *g;
  gsize elem_size, idx_size;
  const guint8 *src;
  guint8 *dst;
  guint8 *idx;
} MaxPoolJob;

static void
max_pool_range (gint64   p0,
                gint64   p1,
                gpointer data)
{
  const MaxPoolJob *job = data;
  PoolGeom sub = *job->g;
  gint64 in_plane = sub.height * sub.width, out_plane = sub.out_h * sub.out_w;

  sub.planes = p1 - p0;
  job->kernel (&sub, job->src + (gsize) (p0 * in_plane) * job->elem_size,
               job->dst + (gsize) (p0 * out_plane) * job->elem_size,
               job->idx != NULL ? job->idx + (gsize) (p0 * out_plane) * job->idx_size : NULL);
}

/* max_pool2d, with the winners' indices returned when @indices is given
 * (int64 positions in the plane, torch's return_indices=True: the vector
 * loop's lanes are then not enough). */
static GnnTensor *
max_pool2d (GnnTensor  *input,
            gint64      kernel_h,
            gint64      kernel_w,
            gint64      stride_h,
            gint64      stride_w,
            gint64      padding_h,
            gint64      padding_w,
            gint64      dilation_h,
            gint64      dilation_w,
            gboolean    ceil_mode,
            GnnTensor **indices,
            GError    **error)
{
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) idx_tensor = NULL;
  gint64 out_shape[4];
  PoolGeom g;
  GnnTensor *out;
  const guint8 *x;
  guint8 *o, *idx = NULL;
  gboolean inside, f32, two_by_two, lanes;
  MaxPoolKernel kernel;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE ("max_pool2d", input, error, NULL);

  if (!pool_setup ("max_pool2d", input, kernel_h, kernel_w, &stride_h, &stride_w,
                   padding_h, padding_w, dilation_h, dilation_w, ceil_mode, &g, out_shape, error))
    return NULL;
  inside = g.ph == 0 && g.pw == 0 && g.dh == 1 && g.dw == 1 &&
           (g.out_h - 1) * g.sh + g.kh <= g.height && (g.out_w - 1) * g.sw + g.kw <= g.width;
  two_by_two = inside && g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2;
  f32 = gnn_tensor_priv (input)->dtype == GNN_DTYPE_F32;
  /* 2×2/2 float32 windows save the winning lane (uint8, which the backward
   * recognizes), all others the winner's index in the plane */
  lanes = two_by_two && f32 && indices == NULL;
  out = gnn_tensor_new_contiguous_checked (gnn_tensor_priv (input)->dtype, out_shape,
                                           gnn_tensor_priv (input)->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  /* The winners, for backward when it will run, or for the caller. */
  if (indices != NULL || (!gnn_grad_mode_off && gnn_tensor_priv (input)->requires_grad))
    {
      idx_tensor = gnn_tensor_new_contiguous_checked (lanes ? GNN_DTYPE_U8 : GNN_DTYPE_I64, out_shape,
                                                      gnn_tensor_priv (input)->ndim, FALSE, error);
      if (idx_tensor == NULL)
        {
          g_object_unref (out);
          return NULL;
        }
      idx = gnn_tensor_priv_data (gnn_tensor_priv (idx_tensor));
    }
  xc = gnn_tensor_contiguous_checked (input, error);
  if (xc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  x = gnn_tensor_priv_data (gnn_tensor_priv (xc));
  o = gnn_tensor_priv_data (gnn_tensor_priv (out));
  /* 2×2/2 float32 windows: the vector loop, with lanes or without. Other
   * windows all inside the input: no indices wanted (no backward), the loop
   * without bounds checks; with indices, float64's branch-free 2×2/2 loop.
   * Other float32 windows without indices: the row loop (vector selects).
   * Anything else takes the general loop, which records indices too. */
  if (lanes)
    kernel = max_pool_2x2_lanes_f32;
  else if (inside && idx == NULL)
    kernel = f32 ? max_pool_dense_f32 : max_pool_dense_f64;
  else if (f32 && idx == NULL && gnn_max_pool2d_rows_fits (g.kw, g.sw, g.dw, g.out_w))
    kernel = max_pool_rows_f32;
  else if (two_by_two && !f32)
    kernel = max_pool_2x2_f64;
  else
    kernel = f32 ? max_pool_f32 : max_pool_f64;
  gnn_parallel_for (g.planes, gnn_parallel_grain (g.height * g.width), max_pool_range,
                    &(MaxPoolJob) { kernel, &g, f32 ? sizeof (float) : sizeof (double),
                                    lanes ? sizeof (guint8) : sizeof (gint64), x, o, idx });
  out = gnn_tensor_record (GNN_OP_MAX_POOL2D, out, &input, 1,
                           &(GnnOpParams) { .ints = { kernel_h, kernel_w, stride_h, stride_w, padding_h,
                                                      padding_w, dilation_h, dilation_w }, .n_ints = 8,
                                            .extra = { idx_tensor } });
  if (indices != NULL)
    *indices = g_steal_pointer (&idx_tensor);
  return out;
}

/**
 * gnn_tensor_max_pool2d:
 * @input: the input, `[N, C, H, W]` or `[C, H, W]`, float32 or float64
 * @kernel_h: the window height (> 0)
 * @kernel_w: the window width (> 0)
 * @stride_h: the vertical stride; 0 (with @stride_w 0) means @kernel_h
 * @stride_w: the horizontal stride; 0 (with @stride_h 0) means @kernel_w
 * @padding_h: the implicit -inf padding on the top and bottom (at most half
 *   of @kernel_h)
 * @padding_w: the implicit -inf padding on the left and right (at most half
 *   of @kernel_w)
 * @dilation_h: the vertical spacing between window taps (> 0)
 * @dilation_w: the horizontal spacing between window taps (> 0)
 * @ceil_mode: whether to round the output size up instead of down
 * @error: return location for a #GError
 *
 * 2-d max pooling, `torch.nn.functional.max_pool2d`. NaN inside a window
 * gives NaN.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error (with
 *   PyTorch's messages, e.g. "pad should be at most half of kernel size, but
 *   got pad=2 and kernel_size=3")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_pool2d (GnnTensor *input,
                       gint64     kernel_h,
                       gint64     kernel_w,
                       gint64     stride_h,
                       gint64     stride_w,
                       gint64     padding_h,
                       gint64     padding_w,
                       gint64     dilation_h,
                       gint64     dilation_w,
                       gboolean   ceil_mode,
                       GError   **error)
{
  return max_pool2d (input, kernel_h, kernel_w, stride_h, stride_w, padding_h, padding_w,
                     dilation_h, dilation_w, ceil_mode, NULL, error);
}

/**
 * gnn_tensor_max_pool2d_with_indices:
 * @input: the input, `[N, C, H, W]` or `[C, H, W]`, float32 or float64
 * @kernel_h: the window height (> 0)
 * @kernel_w: the window width (> 0)
 * @stride_h: the vertical stride; 0 (with @stride_w 0) means @kernel_h
 * @stride_w: the horizontal stride; 0 (with @stride_h 0) means @kernel_w
 * @padding_h: the implicit -inf padding on the top and bottom
 * @padding_w: the implicit -inf padding on the left and right
 * @dilation_h: the vertical spacing between window taps (> 0)
 * @dilation_w: the horizontal spacing between window taps (> 0)
 * @ceil_mode: whether to round the output size up instead of down
 * @indices: (out) (transfer full): the position of each maximum in its
 *   `H × W` plane (int64, the output's shape), as [method@Gnn.Tensor.max_unpool]
 *   takes them
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.max_pool2d] with torch's `return_indices=True`
 * (`torch.nn.functional.max_pool2d_with_indices`).
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_pool2d_with_indices (GnnTensor  *input,
                                    gint64      kernel_h,
                                    gint64      kernel_w,
                                    gint64      stride_h,
                                    gint64      stride_w,
                                    gint64      padding_h,
                                    gint64      padding_w,
                                    gint64      dilation_h,
                                    gint64      dilation_w,
                                    gboolean    ceil_mode,
                                    GnnTensor **indices,
                                    GError    **error)
{
  g_return_val_if_fail (indices != NULL, NULL);

  *indices = NULL;
  return max_pool2d (input, kernel_h, kernel_w, stride_h, stride_w, padding_h, padding_w,
                     dilation_h, dilation_w, ceil_mode, indices, error);
}

/* Mean over each window with PyTorch's divisor rules (an integer mean
 * truncates, as C++'s division; @ZERO_DIV for a window with no divisor). */
#define DEFINE_AVG_POOL(T, suffix, ZERO_DIV)                                                       \
static void                                                                              \
avg_pool_##suffix (const PoolGeom *g,                                                    \
                   gboolean        count_include_pad,                                    \
                   gint64          divisor_override,                                     \
                   const T        *src,                                                  \
                   T              *dst)                                                  \
{                                                                                        \
  for (gint64 p = 0; p < g->planes; p++)                                                 \
    {                                                                                    \
      const T *plane = src + p * g->height * g->width;                                   \
                                                                                         \
      for (gint64 oy = 0; oy < g->out_h; oy++)                                           \
        for (gint64 ox = 0; ox < g->out_w; ox++)                                         \
          {                                                                              \
            gint64 y0 = oy * g->sh - g->ph, x0 = ox * g->sw - g->pw;                     \
            gint64 y1 = MIN (y0 + g->kh, g->height + g->ph);                             \
            gint64 x1 = MIN (x0 + g->kw, g->width + g->pw);                              \
            gint64 pool_size = (y1 - y0) * (x1 - x0), divisor;                           \
            T sum = 0;                                                                   \
                                                                                         \
            y0 = MAX (y0, 0), x0 = MAX (x0, 0);                                          \
            y1 = MIN (y1, g->height), x1 = MIN (x1, g->width);                           \
            for (gint64 y = y0; y < y1; y++)                                             \
              for (gint64 x = x0; x < x1; x++)                                           \
                sum += plane[y * g->width + x];                                          \
            if (divisor_override != 0)                                                   \
              divisor = divisor_override;                                                \
            else if (count_include_pad)                                                  \
              divisor = pool_size;                                                       \
            else                                                                         \
              divisor = (y1 - y0) * (x1 - x0);                                           \
            *dst++ = divisor != 0 ? sum / (T) divisor : (ZERO_DIV);                      \
          }                                                                              \
    }                                                                                    \
}

DEFINE_AVG_POOL (float, f32, NAN)
DEFINE_AVG_POOL (double, f64, NAN)
DEFINE_AVG_POOL (gint64, i64, 0)

/**
 * gnn_tensor_avg_pool2d:
 * @input: the input, `[N, C, H, W]` or `[C, H, W]`, float32, float64 or
 *   int64 (whose mean truncates toward zero, as torch's)
 * @kernel_h: the window height (> 0)
 * @kernel_w: the window width (> 0)
 * @stride_h: the vertical stride; 0 (with @stride_w 0) means @kernel_h
 * @stride_w: the horizontal stride; 0 (with @stride_h 0) means @kernel_w
 * @padding_h: the implicit zero padding on the top and bottom (at most half
 *   of @kernel_h)
 * @padding_w: the implicit zero padding on the left and right (at most half
 *   of @kernel_w)
 * @ceil_mode: whether to round the output size up instead of down
 * @count_include_pad: whether the zero padding counts in the divisor
 * @divisor_override: a fixed divisor, or 0 to divide by the window size
 * @error: return location for a #GError
 *
 * 2-d average pooling, `torch.nn.functional.avg_pool2d`.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_avg_pool2d (GnnTensor *input,
                       gint64     kernel_h,
                       gint64     kernel_w,
                       gint64     stride_h,
                       gint64     stride_w,
                       gint64     padding_h,
                       gint64     padding_w,
                       gboolean   ceil_mode,
                       gboolean   count_include_pad,
                       gint64     divisor_override,
                       GError   **error)
{
  g_autoptr(GnnTensor) xc = NULL;
  gint64 out_shape[4];
  PoolGeom g;
  GnnTensor *out;
  const guint8 *x;
  guint8 *o;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE ("avg_pool2d", input, error, NULL);

  if (!pool_setup ("avg_pool2d", input, kernel_h, kernel_w, &stride_h, &stride_w,
                   padding_h, padding_w, 1, 1, ceil_mode, &g, out_shape, error))
    return NULL;
  out = gnn_tensor_new_contiguous_checked (gnn_tensor_priv (input)->dtype, out_shape,
                                           gnn_tensor_priv (input)->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  xc = gnn_tensor_contiguous_checked (input, error);
  if (xc == NULL)
    {
      g_object_unref (out);
      return NULL;
    }
  x = gnn_tensor_priv_data (gnn_tensor_priv (xc));
  o = gnn_tensor_priv_data (gnn_tensor_priv (out));
  if (gnn_tensor_priv (input)->dtype == GNN_DTYPE_F32)
    avg_pool_f32 (&g, count_include_pad, divisor_override, (const float *) x, (float *) o);
  else if (gnn_tensor_priv (input)->dtype == GNN_DTYPE_I64)
    avg_pool_i64 (&g, count_include_pad, divisor_override, (const gint64 *) x, (gint64 *) o);
  else
    avg_pool_f64 (&g, count_include_pad, divisor_override, (const double *) x, (double *) o);
  return gnn_tensor_record (GNN_OP_AVG_POOL2D, out, &input, 1,
                            &(GnnOpParams) { .ints = { kernel_h, kernel_w, stride_h, stride_w, padding_h,
                                                       padding_w, 1, 1, count_include_pad, divisor_override },
                                             .n_ints = 10 });
}

/* --- 1-d pooling: the 2-d kernels over [N, C, 1, L], as torch ------------ */

/* Runs @pool2d on @input with a height axis of 1 inserted before the last
 * one, then drops it: the node is torch's SqueezeBackward1 too. */
static GnnTensor *
through_2d (GnnTensor  *input,
            GnnTensor *(*pool2d) (GnnTensor *x, gpointer args, GError **error),
            gpointer    args,
            GError    **error)
{
  gint dim = (gint) gnn_tensor_priv (input)->ndim - 1;
  g_autoptr(GnnTensor) x = gnn_tensor_unsqueeze (input, dim, error);
  g_autoptr(GnnTensor) y = x != NULL ? pool2d (x, args, error) : NULL;

  return y != NULL ? gnn_tensor_squeeze (y, dim, error) : NULL;
}

typedef struct
{
  gint64      kernel, stride, padding, dilation;
  gboolean    ceil_mode, count_include_pad;
  GnnTensor **indices;   /* max: the winners' [N, C, 1, L] positions, or NULL */
} Pool1dArgs;

static GnnTensor *
max_pool2d_of (GnnTensor *x,
               gpointer   data,
               GError   **error)
{
  const Pool1dArgs *a = data;

  return max_pool2d (x, 1, a->kernel, 1, a->stride, 0, a->padding, 1, a->dilation, a->ceil_mode,
                     a->indices, error);
}

static GnnTensor *
avg_pool2d_of (GnnTensor *x,
               gpointer   data,
               GError   **error)
{
  const Pool1dArgs *a = data;

  return gnn_tensor_avg_pool2d (x, 1, a->kernel, 1, a->stride, 0, a->padding, a->ceil_mode,
                                a->count_include_pad, 0, error);
}

static GnnTensor *
max_pool1d (GnnTensor  *input,
            gint64      kernel_size,
            gint64      stride,
            gint64      padding,
            gint64      dilation,
            gboolean    ceil_mode,
            GnnTensor **indices,
            GError    **error)
{
  GnnTensorPrivate *p;
  Pool1dArgs a = { kernel_size, stride == 0 ? kernel_size : stride, padding, dilation, ceil_mode, FALSE,
                   indices };
  GnnTensor *out;
  gboolean empty = FALSE;
  gint64 out_len;

  p = gnn_tensor_priv (input);
  for (guint d = p->ndim == 3 ? 1 : 0; d < p->ndim; d++)
    empty = empty || p->shape[d] == 0;
  if ((p->ndim != 2 && p->ndim != 3) || empty)
    {
      g_autofree char *is = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                   "input, but got:%s", is);
      return NULL;
    }
  {
    const char *what = kernel_size <= 0 ? "kernel_size must be greater than zero"
                       : a.stride <= 0 ? "stride must be greater than zero"
                       : padding < 0 ? "padding must be non-negative"
                       : dilation <= 0 ? "dilation must be greater than zero" : NULL;
    gint64 value = kernel_size <= 0 ? kernel_size : a.stride <= 0 ? a.stride : padding < 0 ? padding : dilation;

    if (what != NULL)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "max_pool1d() %s, but got %" G_GINT64_FORMAT,
                     what, value);
        return NULL;
      }
  }
  if (padding > kernel_size / 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "max_pool1d() padding should be at most half of kernel size, but got padding=%"
                   G_GINT64_FORMAT " and kernel_size=%" G_GINT64_FORMAT, padding, kernel_size);
      return NULL;
    }
  out_len = gnn_pool_out_size (p->shape[p->ndim - 1], kernel_size, padding, a.stride, dilation, ceil_mode);
  if (out_len < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "max_pool1d() Invalid computed output size: %" G_GINT64_FORMAT, out_len);
      return NULL;
    }
  if (!gnn_check_float_dtype ("max_pool1d_impl", input, error))
    return NULL;
  if (out_len == 0)
    {
      gint64 shape[3];

      memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
      shape[p->ndim - 1] = 0;
      if (indices != NULL &&
          (*indices = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, shape, p->ndim, FALSE, error)) == NULL)
        return NULL;
      return gnn_tensor_new_contiguous_checked (p->dtype, shape, p->ndim, FALSE, error);
    }
  out = through_2d (input, max_pool2d_of, &a, error);
  if (out != NULL && indices != NULL)
    {
      /* [N, C, 1, L] -> [N, C, L]: the positions in a plane of height 1 are torch's 1-d ones */
      GnnTensor *flat = gnn_tensor_squeeze (*indices, (gint) p->ndim - 1, NULL);

      g_object_unref (*indices);
      *indices = flat;
    }
  else if (indices != NULL)
    g_clear_object (indices);
  return out;
}

/**
 * gnn_tensor_max_pool1d:
 * @input: the input, `[N, C, L]` or `[C, L]`, float32 or float64
 * @kernel_size: the window length (> 0)
 * @stride: the stride, or 0 for @kernel_size
 * @padding: the implicit -inf padding on both sides (at most half of
 *   @kernel_size)
 * @dilation: the spacing between window taps (> 0)
 * @ceil_mode: whether to round the output size up instead of down
 * @error: return location for a #GError
 *
 * 1-d max pooling, `torch.nn.functional.max_pool1d`; see
 * [method@Gnn.Tensor.max_pool2d]. A window longer than the input gives an
 * empty output, as torch's.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error (with
 *   PyTorch's messages, e.g. "max_pool1d() padding should be at most half of
 *   kernel size, but got padding=2 and kernel_size=3")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_pool1d (GnnTensor *input,
                       gint64     kernel_size,
                       gint64     stride,
                       gint64     padding,
                       gint64     dilation,
                       gboolean   ceil_mode,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE ("max_pool1d", input, error, NULL);

  return max_pool1d (input, kernel_size, stride, padding, dilation, ceil_mode, NULL, error);
}

/**
 * gnn_tensor_max_pool1d_with_indices:
 * @input: the input, `[N, C, L]` or `[C, L]`, float32 or float64
 * @kernel_size: the window length (> 0)
 * @stride: the stride, or 0 for @kernel_size
 * @padding: the implicit -inf padding on both sides (at most half of
 *   @kernel_size)
 * @dilation: the spacing between window taps (> 0)
 * @ceil_mode: whether to round the output size up instead of down
 * @indices: (out) (transfer full): the position of each maximum along
 *   its row (int64, the output's shape)
 * @error: return location for a #GError
 *
 * [method@Gnn.Tensor.max_pool1d] with torch's `return_indices=True`
 * (`torch.nn.functional.max_pool1d_with_indices`).
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_pool1d_with_indices (GnnTensor  *input,
                                    gint64      kernel_size,
                                    gint64      stride,
                                    gint64      padding,
                                    gint64      dilation,
                                    gboolean    ceil_mode,
                                    GnnTensor **indices,
                                    GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (indices != NULL, NULL);
  GNN_CHECK_STORAGE ("max_pool1d", input, error, NULL);

  *indices = NULL;
  return max_pool1d (input, kernel_size, stride, padding, dilation, ceil_mode, indices, error);
}

/**
 * gnn_tensor_avg_pool1d:
 * @input: the input, `[N, C, L]` or `[C, L]`, float32 or float64
 * @kernel_size: the window length (> 0)
 * @stride: the stride, or 0 for @kernel_size
 * @padding: the implicit zero padding on both sides (at most half of
 *   @kernel_size)
 * @ceil_mode: whether to round the output size up instead of down
 * @count_include_pad: whether the zero padding counts in the divisor
 * @error: return location for a #GError
 *
 * 1-d average pooling, `torch.nn.functional.avg_pool1d`, which torch (and
 * Gnn) computes as [method@Gnn.Tensor.avg_pool2d] over a height of 1: its
 * messages name the 2-d shapes.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_avg_pool1d (GnnTensor *input,
                       gint64     kernel_size,
                       gint64     stride,
                       gint64     padding,
                       gboolean   ceil_mode,
                       gboolean   count_include_pad,
                       GError   **error)
{
  GnnTensorPrivate *p;
  Pool1dArgs a = { kernel_size, stride == 0 ? kernel_size : stride, padding, 1, ceil_mode, count_include_pad,
                   NULL };

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  GNN_CHECK_STORAGE ("avg_pool1d", input, error, NULL);
  p = gnn_tensor_priv (input);
  if (p->ndim != 2 && p->ndim != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected 2 to 3 dimensions, but got %u-dimensional tensor for argument #1 'self' (while "
                   "checking arguments for avg_pool1d)", p->ndim);
      return NULL;
    }
  return through_2d (input, avg_pool2d_of, &a, error);
}
