/* gnn-backward-layer-norm.c: layer norm's gradient in the operands' dtype
 *
 * For float32 and float64 the gradient is computed row by row in the
 * input's own dtype (statistics and row sums in double, as the forward
 * computes them), rows split among the intra-op threads; the weight and
 * bias gradients are summed per block of rows, then over the blocks in
 * order. gnn_backward_layer_norm (gnn-backward-nn.c) keeps the generic
 * path for the rest. Built with -O3 (a kernel source).
 *
 *   xhat = (x - mean) rstd,  gh = g w,
 *   dx = rstd (gh - mean (gh) - xhat mean (gh xhat)),
 *   dw = Σ_rows g xhat,  db = Σ_rows g
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>
#include <gnn/gnn-threads.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-parallel-private.h"

typedef struct
{
  gint64        inner, rows_per_block, outer;
  double        eps;
  const void   *x, *g, *w;
  void         *dx;
  double       *dw, *db;   /* [blocks, inner] partial sums, or NULL */
} LayerNormJob;

#define DEFINE_LAYER_NORM_BACKWARD(TAG, T)                                      \
static void                                                                     \
block_##TAG (gint64 b0, gint64 b1, gpointer data)                               \
{                                                                               \
  const LayerNormJob *j = data;                                                 \
  gint64 n = j->inner;                                                          \
  const T *w = j->w;                                                            \
                                                                                \
  for (gint64 blk = b0; blk < b1; blk++)                                        \
    {                                                                           \
      gint64 r0 = blk * j->rows_per_block;                                      \
      gint64 r1 = MIN (r0 + j->rows_per_block, j->outer);                       \
      double *dw = j->dw != NULL ? j->dw + blk * n : NULL;                      \
      double *db = j->db != NULL ? j->db + blk * n : NULL;                      \
                                                                                \
      for (gint64 r = r0; r < r1; r++)                                          \
        {                                                                       \
          const T *x = (const T *) j->x + r * n, *g = (const T *) j->g + r * n; \
          T *dx = j->dx != NULL ? (T *) j->dx + r * n : NULL;                   \
          double mean = 0, var = 0, m_gh = 0, m_ghx = 0;                        \
          T rstd, tmean, a, c;                                                  \
                                                                                \
          for (gint64 i = 0; i < n; i++)                                        \
            mean += x[i];                                                       \
          mean /= (double) n;                                                   \
          for (gint64 i = 0; i < n; i++)                                        \
            var += (x[i] - mean) * (x[i] - mean);                               \
          rstd = (T) (1.0 / sqrt (var / (double) n + j->eps));                  \
          tmean = (T) mean;                                                     \
          for (gint64 i = 0; i < n; i++)                                        \
            {                                                                   \
              T xh = (x[i] - tmean) * rstd;                                     \
              T gh = w != NULL ? g[i] * w[i] : g[i];                            \
                                                                                \
              m_gh += gh;                                                       \
              m_ghx += (double) (gh * xh);                                      \
              if (dw != NULL)                                                   \
                dw[i] += (double) (g[i] * xh);                                  \
              if (db != NULL)                                                   \
                db[i] += g[i];                                                  \
            }                                                                   \
          if (dx == NULL)                                                       \
            continue;                                                           \
          a = (T) (m_gh / (double) n);                                          \
          c = (T) (m_ghx / (double) n);                                         \
          for (gint64 i = 0; i < n; i++)                                        \
            {                                                                   \
              T xh = (x[i] - tmean) * rstd;                                     \
              T gh = w != NULL ? g[i] * w[i] : g[i];                            \
                                                                                \
              dx[i] = rstd * (gh - a - xh * c);                                 \
            }                                                                   \
        }                                                                       \
    }                                                                           \
}                                                                               \
                                                                                \
static void                                                                     \
sum_blocks_##TAG (const double *parts, gint64 blocks, gint64 n, T *out)         \
{                                                                               \
  for (gint64 i = 0; i < n; i++)                                                \
    {                                                                           \
      double s = 0;                                                             \
                                                                                \
      for (gint64 b = 0; b < blocks; b++)                                       \
        s += parts[b * n + i];                                                  \
      out[i] = (T) s;                                                           \
    }                                                                           \
}

DEFINE_LAYER_NORM_BACKWARD (f32, float)
DEFINE_LAYER_NORM_BACKWARD (f64, double)

static GnnTensor *
new_like (const GnnMeta *m,
          gboolean       wanted,
          GError       **error)
{
  if (!wanted)
    return NULL;
  return gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, FALSE, error);
}

/* TRUE when handled (FALSE + @error on failure, then *handled is TRUE). */
gboolean
gnn_backward_layer_norm_native (GnnNode    *node,
                                GnnTensor  *grad,
                                GnnTensor **grads,
                                gboolean   *handled,
                                GError    **error)
{
  const GnnMeta *im = &node->inputs[0];
  GnnDType dtype = im->dtype;
  gboolean want_x = gnn_node_needs_grad (node, 0);
  gboolean want_w = node->n_inputs > 1 && gnn_node_needs_grad (node, 1);
  gboolean want_b = node->n_inputs > 2 && gnn_node_needs_grad (node, 2);
  GnnTensor *weight = node->n_inputs > 1 ? node->saved[1] : NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) g = NULL;
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnTensor) dx = NULL;
  g_autoptr(GnnTensor) dw = NULL;
  g_autoptr(GnnTensor) db = NULL;
  g_autofree double *dw_parts = NULL;
  g_autofree double *db_parts = NULL;
  LayerNormJob job = { 0 };
  gint64 inner = 1, total = 1, blocks;

  if ((dtype != GNN_DTYPE_F32 && dtype != GNN_DTYPE_F64) || node->saved[0] == NULL ||
      gnn_tensor_get_dtype (grad) != dtype ||
      (weight != NULL && gnn_tensor_get_dtype (weight) != dtype))
    return FALSE;
  *handled = TRUE;
  for (guint d = 0; d < node->params.n_ints; d++)
    inner *= node->params.ints[d];
  for (guint d = 0; d < im->ndim; d++)
    total *= im->shape[d];
  if ((x = gnn_tensor_contiguous_checked (node->saved[0], error)) == NULL ||
      (g = gnn_tensor_contiguous_checked (grad, error)) == NULL ||
      (weight != NULL && (w = gnn_tensor_contiguous_checked (weight, error)) == NULL))
    return FALSE;
  if ((want_x && (dx = new_like (im, TRUE, error)) == NULL) ||
      (want_w && (dw = new_like (&node->inputs[1], TRUE, error)) == NULL) ||
      (want_b && (db = new_like (&node->inputs[2], TRUE, error)) == NULL))
    return FALSE;

  job.inner = inner;
  job.outer = inner > 0 ? total / inner : 0;
  job.eps = node->params.scalar;
  blocks = MIN ((gint64) MAX (gnn_get_num_threads (), 1),
                MAX (job.outer * inner / GNN_PARALLEL_GRAIN_ELEMS, 1));
  blocks = MAX (MIN (blocks, job.outer), 1);
  job.rows_per_block = (job.outer + blocks - 1) / MAX (blocks, 1);
  job.x = gnn_tensor_get_data (x);
  job.g = gnn_tensor_get_data (g);
  job.w = w != NULL ? gnn_tensor_get_data (w) : NULL;
  job.dx = dx != NULL ? gnn_tensor_get_data (dx) : NULL;
  if (want_w)
    job.dw = dw_parts = g_try_new0 (double, MAX (blocks * inner, 1));
  if (want_b)
    job.db = db_parts = g_try_new0 (double, MAX (blocks * inner, 1));
  if ((want_w && dw_parts == NULL) || (want_b && db_parts == NULL))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY,
                           "layer_norm backward: cannot allocate the weight gradient's partial sums");
      return FALSE;
    }
  if (job.outer > 0 && inner > 0)
    gnn_parallel_for (blocks, 1, dtype == GNN_DTYPE_F32 ? block_f32 : block_f64, &job);
  if (dtype == GNN_DTYPE_F32)
    {
      if (want_w)
        sum_blocks_f32 (dw_parts, blocks, inner, gnn_tensor_get_data (dw));
      if (want_b)
        sum_blocks_f32 (db_parts, blocks, inner, gnn_tensor_get_data (db));
    }
  else
    {
      if (want_w)
        sum_blocks_f64 (dw_parts, blocks, inner, gnn_tensor_get_data (dw));
      if (want_b)
        sum_blocks_f64 (db_parts, blocks, inner, gnn_tensor_get_data (db));
    }
  grads[0] = g_steal_pointer (&dx);
  if (node->n_inputs > 1)
    grads[1] = g_steal_pointer (&dw);
  if (node->n_inputs > 2)
    grads[2] = g_steal_pointer (&db);
  return TRUE;
}
