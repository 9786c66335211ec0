/* gnn-backward-nn.c: gradients of pooling and normalization
 *
 * max_pool2d works in the operands' own dtype (float32 or float64): it
 * sends each window's gradient to the winner forward recorded. The others
 * (and any other dtype) work on double copies of the operands: simple
 * loops, exact enough for float32 and float64. (Convolutions are in
 * gnn-backward-conv.c.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-conv-kernels-private.h"
#include "tensor/gnn-norm-kernels-private.h"
#include "tensor/gnn-parallel-private.h"

/* Hands @values (taken) to grads[@i] when input @i exists and needs a
 * gradient, or frees them. */
static void
set_grad (GnnNode    *node,
          GnnTensor **grads,
          guint       i,
          double     *values)
{
  if (i < node->n_inputs && gnn_node_needs_grad (node, i))
    grads[i] = gnn_ag_from_doubles (values, &node->inputs[i]);
  else
    g_free (values);
}

/* set_grad() for (input, weight, bias) gradients. */
static void
set_grads (GnnNode    *node,
           GnnTensor **grads,
           double     *gx,
           double     *gw,
           double     *gb)
{
  set_grad (node, grads, 0, gx);
  set_grad (node, grads, 1, gw);
  set_grad (node, grads, 2, gb);
}

typedef struct
{
  gint64 planes, h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw;
} Pool;

static void
pool_geometry (GnnNode *node,
               Pool    *p)
{
  const GnnMeta *im = &node->inputs[0];
  const gint64 *q = node->params.ints;

  p->planes = im->shape[im->ndim - 3] * (im->ndim == 4 ? im->shape[0] : 1);
  p->h = im->shape[im->ndim - 2], p->w = im->shape[im->ndim - 1];
  p->oh = node->out.shape[node->out.ndim - 2], p->ow = node->out.shape[node->out.ndim - 1];
  p->kh = q[0], p->kw = q[1], p->sh = q[2], p->sw = q[3], p->ph = q[4], p->pw = q[5];
  p->dh = q[6], p->dw = q[7];
}

/* Each output's gradient goes to the input element that won its window,
 * whose index in the plane (-1: no tap inside the input) forward saved in
 * params.extra[0] with PyTorch's rule (the first maximum in scan order; a
 * NaN wins): no window is scanned again. Planes [p0, p1) of @gx are zeroed
 * here, range by range, rather than in a pass of their own. (float32 2×2/2
 * windows save each window's winning lane instead, a uint8 tensor, for
 * gnn-max-pool-2x2.c's backward below.) */
#define DEFINE_MAX_POOL_BACKWARD(T, suffix)                                              \
static void                                                                              \
max_pool2d_backward_##suffix (const Pool *p, gint64 p0, gint64 p1, const gint64 *idx,    \
                              const T *g, T *gx)                                         \
{                                                                                        \
  memset (gx + p0 * p->h * p->w, 0, sizeof (T) * (gsize) ((p1 - p0) * p->h * p->w));    \
  for (gint64 pl = p0; pl < p1; pl++)                                                    \
    {                                                                                    \
      const gint64 *iplane = idx + pl * p->oh * p->ow;                                   \
      const T *gplane = g + pl * p->oh * p->ow;                                          \
      T *gxplane = gx + pl * p->h * p->w;                                                \
                                                                                         \
      for (gint64 o = 0; o < p->oh * p->ow; o++)                                         \
        if (iplane[o] >= 0)                                                              \
          gxplane[iplane[o]] += gplane[o];                                               \
    }                                                                                    \
}

DEFINE_MAX_POOL_BACKWARD (float, f32)
DEFINE_MAX_POOL_BACKWARD (double, f64)

typedef struct
{
  const Pool *p;
  gboolean f32;
  const gint64 *idx;
  const void *g;
  void *gx;
} MaxPoolBackwardJob;

static void
max_pool2d_backward_range (gint64   p0,
                           gint64   p1,
                           gpointer data)
{
  const MaxPoolBackwardJob *job = data;

  if (job->f32)
    max_pool2d_backward_f32 (job->p, p0, p1, job->idx, job->g, job->gx);
  else
    max_pool2d_backward_f64 (job->p, p0, p1, job->idx, job->g, job->gx);
}

static void
max_pool2d_backward (const Pool   *p,
                     gboolean      f32,
                     const gint64 *idx,
                     const void   *g,
                     void         *gx)
{
  gnn_parallel_for (p->planes, gnn_parallel_grain (p->h * p->w),
                    max_pool2d_backward_range, &(MaxPoolBackwardJob) { p, f32, idx, g, gx });
}

typedef struct
{
  const Pool *p;
  const guint8 *lane;
  const float *g;
  float *gx;
} MaxPoolLanesJob;

static void
max_pool2d_2x2_backward_range (gint64   p0,
                               gint64   p1,
                               gpointer data)
{
  const MaxPoolLanesJob *job = data;
  gint64 in_plane = job->p->h * job->p->w, out_plane = job->p->oh * job->p->ow;

  gnn_max_pool2d_2x2_backward_f32 (p1 - p0, job->p->h, job->p->w, job->lane + p0 * out_plane,
                                   job->g + p0 * out_plane, job->gx + p0 * in_plane);
}

static void
max_pool2d_2x2_backward (const Pool   *p,
                         const guint8 *lane,
                         const float  *g,
                         float        *gx)
{
  gnn_parallel_for (p->planes, gnn_parallel_grain (p->h * p->w),
                    max_pool2d_2x2_backward_range, &(MaxPoolLanesJob) { p, lane, g, gx });
}

gboolean
gnn_backward_max_pool2d (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  Pool p;
  GnnDType dtype = node->inputs[0].dtype;
  g_autoptr(GnnTensor) ic = gnn_tensor_contiguous (node->params.extra[0]);
  const gint64 *idx = gnn_tensor_data_or_null (ic);
  g_autofree double *g = NULL;
  double *gx;

  pool_geometry (node, &p);
  if (gnn_tensor_priv (ic)->dtype == GNN_DTYPE_U8)
    {
      /* float32 2×2/2 windows: forward saved the winning lanes */
      g_autoptr(GnnTensor) g32 = gnn_tensor_to_dtype (grad, GNN_DTYPE_F32, error);
      g_autoptr(GnnTensor) gc = g32 != NULL ? gnn_tensor_contiguous_checked (g32, error) : NULL;
      GnnTensor *out;

      if (gc == NULL)
        return FALSE;
      out = gnn_tensor_new_contiguous (dtype, node->inputs[0].shape, node->inputs[0].ndim, FALSE);
      max_pool2d_2x2_backward (&p, gnn_tensor_data_or_null (ic), gnn_tensor_data_or_null (gc), gnn_tensor_data_or_null (out));
      grads[0] = out;
      return TRUE;
    }
  if ((dtype == GNN_DTYPE_F32 || dtype == GNN_DTYPE_F64) && gnn_tensor_priv (grad)->dtype == dtype)
    {
      g_autoptr(GnnTensor) gc = gnn_tensor_contiguous_checked (grad, error);
      GnnTensor *out;

      if (gc == NULL)
        return FALSE;
      /* uninitialized: the ranges zero it */
      out = gnn_tensor_new_contiguous (dtype, node->inputs[0].shape, node->inputs[0].ndim, FALSE);
      max_pool2d_backward (&p, dtype == GNN_DTYPE_F32, idx, gnn_tensor_data_or_null (gc), gnn_tensor_data_or_null (out));
      grads[0] = out;
      return TRUE;
    }
  g = gnn_ag_doubles (grad);
  gx = g_new (double, MAX (p.planes * p.h * p.w, 1));
  max_pool2d_backward (&p, FALSE, idx, g, gx);
  grads[0] = gnn_ag_from_doubles (gx, &node->inputs[0]);
  return TRUE;
}

gboolean
gnn_backward_avg_pool2d (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  Pool p;
  gboolean count_include_pad = node->params.ints[8] != 0;
  gint64 divisor_override = node->params.ints[9];
  g_autofree double *g = gnn_ag_doubles (grad);
  double *gx;

  pool_geometry (node, &p);
  gx = g_new0 (double, MAX (p.planes * p.h * p.w, 1));
  for (gint64 pl = 0; pl < p.planes; pl++)
    for (gint64 oy = 0; oy < p.oh; oy++)
      for (gint64 ox = 0; ox < p.ow; ox++)
        {
          gint64 y0 = oy * p.sh - p.ph, x0 = ox * p.sw - p.pw;
          gint64 y1 = MIN (y0 + p.kh, p.h + p.ph), x1 = MIN (x0 + p.kw, p.w + p.pw);
          gint64 pool_size = (y1 - y0) * (x1 - x0), divisor;
          double share;

          y0 = MAX (y0, 0), x0 = MAX (x0, 0);
          y1 = MIN (y1, p.h), x1 = MIN (x1, p.w);
          if (divisor_override != 0)
            divisor = divisor_override;
          else if (count_include_pad)
            divisor = pool_size;
          else
            divisor = (y1 - y0) * (x1 - x0);
          if (divisor == 0)
            continue;
          share = g[(pl * p.oh + oy) * p.ow + ox] / (double) divisor;
          for (gint64 y = y0; y < y1; y++)
            for (gint64 xx = x0; xx < x1; xx++)
              gx[pl * p.h * p.w + y * p.w + xx] += share;
        }
  grads[0] = gnn_ag_from_doubles (gx, &node->inputs[0]);
  return TRUE;
}

/* The normalization gradient, as layer_norm (groups = rows) and batch_norm
 * (groups = channels) below compute it: for one group of @count elements
 * with mean @mean and inverse std @rstd, xhat = (x - mean) rstd and, with
 * gh = g * w,
 *   dx = rstd (gh - mean (gh) - xhat mean (gh xhat))     (batch statistics)
 *   dx = rstd gh                                          (fixed statistics) */

static gboolean
layer_norm_backward_doubles (GnnNode    *node,
                             GnnTensor  *grad,
                             GnnTensor **grads,
                             GError    **error)
{
  const GnnMeta *im = &node->inputs[0];
  double eps = node->params.scalar;
  gint64 inner = 1, outer, total = 1;
  g_autofree double *x = gnn_ag_doubles (node->saved[0]);
  g_autofree double *wv = node->saved[1] != NULL ? gnn_ag_doubles (node->saved[1]) : NULL;
  g_autofree double *g = gnn_ag_doubles (grad);
  double *gx, *gw, *gb;

  for (guint d = 0; d < node->params.n_ints; d++)
    inner *= node->params.ints[d];
  for (guint d = 0; d < im->ndim; d++)
    total *= im->shape[d];
  outer = inner > 0 ? total / inner : 0;
  gx = g_new0 (double, MAX (total, 1));
  gw = g_new0 (double, MAX (inner, 1));
  gb = g_new0 (double, MAX (inner, 1));

  for (gint64 r = 0; r < outer; r++)
    {
      const double *xr = x + r * inner, *gr = g + r * inner;
      double mean = 0, var = 0, rstd, m_gh = 0, m_ghx = 0;

      for (gint64 i = 0; i < inner; i++)
        mean += xr[i];
      mean /= (double) inner;
      for (gint64 i = 0; i < inner; i++)
        var += (xr[i] - mean) * (xr[i] - mean);
      rstd = 1.0 / sqrt (var / (double) inner + eps);
      for (gint64 i = 0; i < inner; i++)
        {
          double xh = (xr[i] - mean) * rstd, gh = gr[i] * (wv ? wv[i] : 1.0);

          m_gh += gh;
          m_ghx += gh * xh;
          gw[i] += gr[i] * xh;
          gb[i] += gr[i];
        }
      m_gh /= (double) inner;
      m_ghx /= (double) inner;
      for (gint64 i = 0; i < inner; i++)
        {
          double xh = (xr[i] - mean) * rstd, gh = gr[i] * (wv ? wv[i] : 1.0);

          gx[r * inner + i] = rstd * (gh - m_gh - xh * m_ghx);
        }
    }

  set_grads (node, grads, gx, gw, gb);
  return TRUE;
}

/* @t packed in @dtype, or NULL for NULL (not recorded). */
static GnnTensor *
packed_or_null (GnnTensor  *t,
                GnnDType    dtype,
                GError    **error)
{
  if (t == NULL)
    return NULL;
  return gnn_tensor_priv (t)->dtype == dtype ? gnn_tensor_contiguous_checked (t, error)
                                             : gnn_tensor_copy_checked (t, dtype, error);
}

/* A contiguous @dtype tensor of input @i's shape when it needs a
 * gradient, else NULL. */
static GnnTensor *
grad_for (GnnNode  *node,
          guint     i,
          GnnDType  dtype)
{
  const GnnMeta *m = &node->inputs[i];

  return i < node->n_inputs && gnn_node_needs_grad (node, i)
         ? gnn_tensor_new_contiguous (dtype, m->shape, m->ndim, FALSE) : NULL;
}

/* Hands @t (taken) to grads[@i] in the dtype of input @i. */
static void
give_grad (GnnNode    *node,
           GnnTensor **grads,
           guint       i,
           GnnTensor  *t)
{
  if (t == NULL || i >= node->n_inputs)
    {
      g_clear_object (&t);
      return;
    }
  if (gnn_tensor_priv (t)->dtype != node->inputs[i].dtype)
    {
      grads[i] = gnn_tensor_to_dtype (t, node->inputs[i].dtype, NULL);
      g_object_unref (t);
    }
  else
    grads[i] = t;
}

/* The gradients of a normalization over @geom (batch norm: groups 0) of
 * the saved input and weight: batch statistics recomputed from the input,
 * or the running ones forward used in evaluation (@training FALSE); the
 * loops are the forward's (lib/tensor/gnn-norm-kernels.c). */
static gboolean
norm_backward (GnnNode      *node,
               GnnTensor    *grad,
               GnnTensor   **grads,
               GnnNormGeom  *geom,
               gboolean      training,
               GError      **error)
{
  const GnnMeta *im = &node->inputs[0];
  GnnDType dtype = im->dtype;
  gboolean f32 = dtype == GNN_DTYPE_F32;
  double eps = node->params.scalar;
  gint64 total = 1, stats = gnn_norm_n_stats (geom);
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnTensor) go = NULL;
  g_autoptr(GnnTensor) gx = NULL;
  g_autoptr(GnnTensor) gw = NULL;
  g_autoptr(GnnTensor) gb = NULL;
  g_autofree double *mean = NULL;
  g_autofree double *var = NULL;

  for (guint d = 0; d < im->ndim; d++)
    total *= im->shape[d];
  geom->s = geom->n * geom->c > 0 ? total / (geom->n * geom->c) : 0;
  if ((x = packed_or_null (node->saved[0], dtype, error)) == NULL ||
      (node->saved[1] != NULL && (w = packed_or_null (node->saved[1], dtype, error)) == NULL) ||
      (go = packed_or_null (grad, dtype, error)) == NULL)
    return FALSE;
  if (training)
    {
      mean = g_new (double, MAX (stats, 1));
      var = g_new (double, MAX (stats, 1));
      if (f32)
        gnn_norm_stats_f32 (geom, gnn_tensor_data_or_null (x), mean, var);
      else
        gnn_norm_stats_f64 (geom, gnn_tensor_data_or_null (x), mean, var);
    }
  else
    {
      mean = gnn_ag_doubles (node->params.extra[0]);
      var = gnn_ag_doubles (node->params.extra[1]);
    }
  gx = grad_for (node, 0, dtype);
  gw = grad_for (node, 1, dtype);
  gb = grad_for (node, 2, dtype);
  if (f32)
    gnn_norm_backward_f32 (geom, gnn_tensor_data_or_null (x), gnn_tensor_data_or_null (go), mean, var, eps,
                           gnn_tensor_data_or_null (w), training, gnn_tensor_data_or_null (gx),
                           gnn_tensor_data_or_null (gw), gnn_tensor_data_or_null (gb));
  else
    gnn_norm_backward_f64 (geom, gnn_tensor_data_or_null (x), gnn_tensor_data_or_null (go), mean, var, eps,
                           gnn_tensor_data_or_null (w), training, gnn_tensor_data_or_null (gx),
                           gnn_tensor_data_or_null (gw), gnn_tensor_data_or_null (gb));
  give_grad (node, grads, 0, g_steal_pointer (&gx));
  give_grad (node, grads, 1, g_steal_pointer (&gw));
  give_grad (node, grads, 2, g_steal_pointer (&gb));
  return TRUE;
}

gboolean
gnn_backward_layer_norm (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  gboolean handled = FALSE;
  gboolean ok = gnn_backward_layer_norm_native (node, grad, grads, &handled, error);

  if (handled)
    return ok;
  return layer_norm_backward_doubles (node, grad, grads, error);
}

gboolean
gnn_backward_batch_norm (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  GnnNormGeom geom = { node->inputs[0].shape[0], node->inputs[0].shape[1], 0, 0 };

  return norm_backward (node, grad, grads, &geom, node->params.flag, error);
}

gboolean
gnn_backward_group_norm (GnnNode    *node,
                         GnnTensor  *grad,
                         GnnTensor **grads,
                         GError    **error)
{
  GnnNormGeom geom = { node->inputs[0].shape[0], node->inputs[0].shape[1], 0, node->params.ints[0] };

  return norm_backward (node, grad, grads, &geom, TRUE, error);
}
