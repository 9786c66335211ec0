/* gnn-backward-margin.c: gradients of the multi-class hinge losses
 * (lib/tensor/gnn-tensor-margin-loss.c) and of rrelu
 * (lib/tensor/gnn-tensor-rrelu.c), as PyTorch's CPU backward kernels
 * compute them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

static gpointer
data_of (GnnTensor *t)
{
  return t != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (t)) : NULL;
}

/* The output gradient of sample @f: one value unless the loss was kept
 * per sample. */
static inline double
grad_at (const double *g,
         gboolean      per_sample,
         gint64        f)
{
  return g[per_sample ? f : 0];
}

/* The output gradient in double (one value, or one per sample). */
static double *
grad_values (GnnTensor  *grad,
             GError    **error)
{
  g_autoptr(GnnTensor) gc = gnn_tensor_copy_checked (grad, GNN_DTYPE_F64, error);
  gint64 n = gc != NULL ? gnn_tensor_priv (gc)->numel : 0;

  return gc != NULL ? g_memdup2 (data_of (gc), sizeof (double) * MAX (n, 1)) : NULL;
}

#define MULTI_MARGIN_GRAD(T)                                                    \
  G_STMT_START {                                                                \
    const T *x = data_of (xc), *w = data_of (node->params.extra[1]);            \
    T *gx = data_of (out);                                                      \
    for (gint64 f = 0; f < nframe; f++)                                         \
      {                                                                         \
        const T *row = x + f * dim;                                             \
        T *grow = gx + f * dim;                                                 \
        gint64 c = t[f];                                                        \
        double xt = (double) row[c], gt = 0, go = grad_at (g, per_sample, f);   \
        for (gint64 d = 0; d < dim; d++)                                        \
          {                                                                     \
            double z = margin - xt + (double) row[d], h = 0;                    \
            if (d == c)                                                         \
              continue;                                                         \
            if (z > 0)                                                          \
              {                                                                 \
                h = (p == 1 ? scale : 2 * scale * z) * (w != NULL ? (double) w[c] : 1.0); \
                gt -= h;                                                        \
              }                                                                 \
            grow[d] = (T) (h * go);                                             \
          }                                                                     \
        grow[c] = (T) (gt * go);                                                \
      }                                                                         \
  } G_STMT_END

gboolean
gnn_backward_multi_margin_loss (GnnNode    *node,
                                GnnTensor  *grad,
                                GnnTensor **grads,
                                GError    **error)
{
  const GnnMeta *m = &node->inputs[0];
  GnnReduction reduction = (GnnReduction) node->params.ints[0];
  gint64 p = node->params.ints[1];
  gboolean per_sample = node->params.ints[2] != 0;
  double margin = node->params.scalar;
  gint64 nframe = m->ndim <= 1 ? 1 : m->shape[0], dim = m->ndim == 0 ? 1 : m->shape[m->ndim - 1];
  double scale = reduction == GNN_REDUCTION_MEAN ? 1.0 / ((double) nframe * dim) : 1.0 / dim;
  const gint64 *t = data_of (node->params.extra[0]);
  g_autoptr(GnnTensor) xc = NULL;
  g_autofree double *g = NULL;
  GnnTensor *out;

  if (!gnn_node_needs_grad (node, 0))
    return TRUE;
  TRY (xc = gnn_tensor_contiguous_checked (node->saved[0], error));
  TRY (g = grad_values (grad, error));
  TRY (out = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, TRUE, error));
  if (m->dtype == GNN_DTYPE_F32)
    MULTI_MARGIN_GRAD (float);
  else
    MULTI_MARGIN_GRAD (double);
  grads[0] = out;
  return TRUE;
}

#define MULTILABEL_GRAD(T)                                                      \
  G_STMT_START {                                                                \
    const T *x = data_of (xc);                                                  \
    T *gx = data_of (out);                                                      \
    for (gint64 f = 0; f < nframe; f++)                                         \
      {                                                                         \
        const T *row = x + f * dim;                                             \
        const guint8 *is = mask + f * dim;                                      \
        const gint64 *tr = t + f * dim;                                         \
        double go = grad_at (g, per_sample, f);                                 \
        for (gint64 d = 0; d < dim; d++)                                        \
          acc[d] = 0;                                                           \
        for (gint64 j = 0; j < dim && tr[j] >= 0; j++)                          \
          {                                                                     \
            double xt = (double) row[tr[j]];                                    \
            for (gint64 d = 0; d < dim; d++)                                    \
              if (!is[d] && 1 - xt + (double) row[d] > 0)                       \
                {                                                               \
                  acc[tr[j]] -= scale;                                          \
                  acc[d] += scale;                                              \
                }                                                               \
          }                                                                     \
        for (gint64 d = 0; d < dim; d++)                                        \
          gx[f * dim + d] = (T) (acc[d] * go);                                  \
      }                                                                         \
  } G_STMT_END

gboolean
gnn_backward_multilabel_margin_loss (GnnNode    *node,
                                     GnnTensor  *grad,
                                     GnnTensor **grads,
                                     GError    **error)
{
  const GnnMeta *m = &node->inputs[0];
  GnnReduction reduction = (GnnReduction) node->params.ints[0];
  gboolean per_sample = node->params.ints[1] != 0;
  gint64 nframe = m->ndim <= 1 ? 1 : m->shape[0], dim = m->ndim == 0 ? 1 : m->shape[m->ndim - 1];
  double scale = reduction == GNN_REDUCTION_MEAN ? 1.0 / ((double) nframe * dim) : 1.0 / dim;
  const gint64 *t = data_of (node->params.extra[0]);
  const guint8 *mask = data_of (node->params.extra[1]);
  g_autoptr(GnnTensor) xc = NULL;
  g_autofree double *g = NULL;
  g_autofree double *acc = NULL;
  GnnTensor *out;

  if (!gnn_node_needs_grad (node, 0))
    return TRUE;
  TRY (xc = gnn_tensor_contiguous_checked (node->saved[0], error));
  TRY (g = grad_values (grad, error));
  TRY (out = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, TRUE, error));
  if ((acc = g_try_new (double, MAX (dim, 1))) == NULL)
    {
      g_object_unref (out);
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_MEMORY, "not enough memory for the multilabel margin gradient");
      return FALSE;
    }
  if (m->dtype == GNN_DTYPE_F32)
    MULTILABEL_GRAD (float);
  else
    MULTILABEL_GRAD (double);
  grads[0] = out;
  return TRUE;
}

/* grad × the slopes rrelu drew (or the eval slope): PyTorch's
 * rrelu_with_noise_backward */
gboolean
gnn_backward_rrelu (GnnNode    *node,
                    GnnTensor  *grad,
                    GnnTensor **grads,
                    GError    **error)
{
  if (!gnn_node_needs_grad (node, 0))
    return TRUE;
  TRY (grads[0] = gnn_tensor_mul (grad, node->params.extra[0], error));
  return TRUE;
}
