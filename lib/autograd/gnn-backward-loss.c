/* gnn-backward-loss.c: gradients of the elementwise losses
 * (lib/tensor/gnn-pointwise-loss.c) with respect to input and target, and
 * the names PyTorch gives their nodes
 *
 * d loss / d x and d loss / d y per element in double, times the weight,
 * the output gradient (one value when reduced) and 1/n for the mean. Built
 * with -O3.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "autograd/gnn-autograd-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return FALSE; } G_STMT_END

static inline double
sign (double d)
{
  return (d > 0) - (d < 0);
}

/* Both derivatives of one element: *dx, *dy. */
#define GRAD_CASE(T, OP, DX, DY)                                                   \
  case OP:                                                                      \
    for (gint64 i = 0; i < n; i++)                                              \
      {                                                                         \
        const double x = xv[i], y = yv[i];                                      \
        const double pw = pwv != NULL ? (double) pwv[i] : 1.0;                  \
        const double s = scale * (double) g[gs * i] * (wv != NULL ? (double) wv[i] : 1.0); \
        (void) pw;                                                              \
        if (gx != NULL)                                                         \
          gx[i] = (T) (s * (DX));                                               \
        if (gy != NULL)                                                         \
          gy[i] = (T) (s * (DY));                                               \
      }                                                                         \
    break

/* softplus (-x) = -log_sigmoid (x), stably */
#define SOFTPLUS_NEG(x) (log1p (exp (-fabs (x))) + fmax (-(x), 0.0))
#define SIGMOID(x) (1 / (1 + exp (-(x))))

#define GRAD_LOOPS(T)                                                           \
static void                                                                     \
grad_loop_##T (GnnOpKind op, gint64 n, const T *restrict xv, const T *restrict yv, \
               const T *restrict wv, const T *restrict pwv, const double *a,    \
               const T *restrict g, gint64 gs, double scale,                    \
               T *restrict gx, T *restrict gy)                                  \
{                                                                               \
  switch (op)                                                                   \
    {                                                                           \
    GRAD_CASE (T, GNN_OP_L1_LOSS, sign (x - y), -sign (x - y));                    \
    GRAD_CASE (T, GNN_OP_MSE_LOSS, 2 * (x - y), -2 * (x - y));                     \
    GRAD_CASE (T, GNN_OP_SMOOTH_L1_LOSS,                                           \
               a[0] == 0 || fabs (x - y) >= a[0] ? sign (x - y) : (x - y) / a[0], \
               a[0] == 0 || fabs (x - y) >= a[0] ? -sign (x - y) : (y - x) / a[0]); \
    GRAD_CASE (T, GNN_OP_HUBER_LOSS,                                               \
               fmin (fmax (x - y, -a[0]), a[0]), -fmin (fmax (x - y, -a[0]), a[0])); \
    /* PyTorch's: (x - y) / max ((1 - x) x, 1e-12); for the target, -logit (x) */ \
    GRAD_CASE (T, GNN_OP_BCE_LOSS, (x - y) / fmax ((1 - x) * x, 1e-12),         \
               log1p (-x) - log (x));                                           \
    GRAD_CASE (T, GNN_OP_BCE_LOGITS_LOSS, (pw * y + 1 - y) * SIGMOID (x) - pw * y, \
               -x + (pw - 1) * SOFTPLUS_NEG (x));                               \
    GRAD_CASE (T, GNN_OP_KL_DIV_LOSS, a[0] != 0 ? -exp (y) : -y,                   \
               a[0] != 0 ? exp (y) * (y - x + 1) : (y == 0 ? NAN : log (y) + 1) - x); \
    GRAD_CASE (T, GNN_OP_POISSON_NLL_LOSS,                                         \
               a[0] != 0 ? exp (x) - y : 1 - y / (x + a[2]),                    \
               (a[0] != 0 ? -x : -log (x + a[2])) + (a[1] != 0 && y > 1 ? log (y) + 0.5 / y : 0)); \
    /* PyTorch's: z = exp (-y x), -y z / (1 + z) */                              \
    GRAD_CASE (T, GNN_OP_SOFT_MARGIN_LOSS, -y * exp (-y * x) / (1 + exp (-y * x)), \
               -x * exp (-y * x) / (1 + exp (-y * x)));                         \
    default:                                                                    \
      g_assert_not_reached ();                                                  \
    }                                                                           \
}

GRAD_LOOPS (float)
GRAD_LOOPS (double)

static gpointer
data_or_null (GnnTensor *t)
{
  return t != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (t)) : NULL;
}

gboolean
gnn_backward_pointwise_loss (GnnNode    *node,
                             GnnTensor  *grad,
                             GnnTensor **grads,
                             GError    **error)
{
  const GnnMeta *m = &node->inputs[0];
  GnnReduction reduction = (GnnReduction) node->params.ints[0];
  gboolean want_x = gnn_node_needs_grad (node, 0), want_y = gnn_node_needs_grad (node, 1);
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) yc = NULL;
  g_autoptr(GnnTensor) gc = NULL;
  g_autoptr(GnnTensor) gx = NULL;
  g_autoptr(GnnTensor) gy = NULL;
  gint64 n = 1;
  double scale = 1;

  for (guint d = 0; d < m->ndim; d++)
    n *= m->shape[d];
  if (reduction == GNN_REDUCTION_MEAN)
    scale = 1.0 / (double) n;
  else if (reduction == GNN_REDUCTION_BATCHMEAN && m->ndim > 0)
    scale = 1.0 / (double) m->shape[0];
  TRY (xc = gnn_tensor_contiguous_checked (node->saved[0], error));
  TRY (yc = gnn_tensor_contiguous_checked (node->saved[1], error));
  TRY (gc = gnn_tensor_contiguous_checked (grad, error));
  if (want_x)
    TRY (gx = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, FALSE, error));
  if (want_y)
    TRY (gy = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, FALSE, error));
  if (m->dtype == GNN_DTYPE_F32)
    grad_loop_float (node->op, n, data_or_null (xc), data_or_null (yc),
                     data_or_null (node->params.extra[0]), data_or_null (node->params.extra[1]),
                     node->params.args, data_or_null (gc), reduction == GNN_REDUCTION_NONE,
                     scale, data_or_null (gx), data_or_null (gy));
  else
    grad_loop_double (node->op, n, data_or_null (xc), data_or_null (yc),
                      data_or_null (node->params.extra[0]), data_or_null (node->params.extra[1]),
                      node->params.args, data_or_null (gc), reduction == GNN_REDUCTION_NONE,
                      scale, data_or_null (gx), data_or_null (gy));
  grads[0] = g_steal_pointer (&gx);
  grads[1] = g_steal_pointer (&gy);
  return TRUE;
}

const char *
gnn_backward_loss_name (GnnOpKind          op,
                        const GnnOpParams *params)
{
  GnnReduction reduction = (GnnReduction) params->ints[0];

  switch (op)
    {
    case GNN_OP_L1_LOSS:              /* PyTorch composes: abs, then mean or sum */
      return reduction == GNN_REDUCTION_NONE ? "AbsBackward0"
             : reduction == GNN_REDUCTION_SUM ? "SumBackward0" : "MeanBackward0";
    case GNN_OP_KL_DIV_LOSS:          /* composed: xlogy (y, y) - y x (or exp (y) (y - x)), ... */
    case GNN_OP_POISSON_NLL_LOSS:
      if (reduction == GNN_REDUCTION_BATCHMEAN)
        return "DivBackward0";
      if (reduction == GNN_REDUCTION_NONE)
        return op == GNN_OP_POISSON_NLL_LOSS ? "SubBackward0"
               : params->args[0] != 0 ? "MulBackward0" : "SubBackward0";
      return reduction == GNN_REDUCTION_SUM ? "SumBackward0" : "MeanBackward0";
    case GNN_OP_MSE_LOSS: return "MseLossBackward0";
    case GNN_OP_SMOOTH_L1_LOSS: return "SmoothL1LossBackward0";
    case GNN_OP_HUBER_LOSS: return "HuberLossBackward0";
    case GNN_OP_SOFT_MARGIN_LOSS: return "SoftMarginLossBackward0";
    case GNN_OP_BCE_LOSS: return "BinaryCrossEntropyBackward0";
    case GNN_OP_BCE_LOGITS_LOSS: return "BinaryCrossEntropyWithLogitsBackward0";
    case GNN_OP_CTC_LOSS:             /* ints: blank, reduction, zero_infinity; PyTorch
                                       * reduces and zeroes with ops after the loss */
      reduction = (GnnReduction) params->ints[1];
      return reduction == GNN_REDUCTION_SUM ? "SumBackward0"
             : reduction == GNN_REDUCTION_MEAN ? "MeanBackward0"
             : params->ints[2] ? "WhereBackward0" : "CtcLossBackward0";
    case GNN_OP_NLL_LOSS:             /* 4-d inputs go through nll_loss2d */
      return params->ints[1] > 2 ? "NllLoss2DBackward0" : "NllLossBackward0";
    default: return NULL;
    }
}

/* --- nll_loss (lib/tensor/gnn-tensor-nll.c) ------------------------------------ */

#define NLL_GRAD_LOOP(T)                                                        \
  G_STMT_START {                                                                \
    const T *w = data_or_null (node->params.extra[1]);                          \
    const T *g = data_or_null (gc);                                             \
    T *gx = data_or_null (out);                                                 \
    for (gint64 b = 0; b < batch; b++)                                          \
      for (gint64 k = 0; k < inner; k++)                                        \
        {                                                                       \
          gint64 m = b * inner + k, c = t[m];                                   \
          if (c == ignore_index)                                                \
            continue;                                                           \
          gx[(b * classes + c) * inner + k] =                                   \
            (T) (-(w != NULL ? (double) w[c] : 1.0) * (double) g[none ? m : 0] * scale); \
        }                                                                       \
  } G_STMT_END

gboolean
gnn_backward_nll_loss (GnnNode    *node,
                       GnnTensor  *grad,
                       GnnTensor **grads,
                       GError    **error)
{
  const GnnMeta *m = &node->inputs[0];
  GnnReduction reduction = (GnnReduction) node->params.ints[0];
  gboolean none = reduction == GNN_REDUCTION_NONE;
  double scale = reduction == GNN_REDUCTION_MEAN ? 1.0 / node->params.scalar : 1.0;
  gint64 batch = m->ndim == 1 ? 1 : m->shape[0], classes = m->shape[m->ndim == 1 ? 0 : 1];
  gint64 inner = 1, ignore_index = node->params.ints[2];
  const gint64 *t = data_or_null (node->params.extra[0]);
  g_autoptr(GnnTensor) gc = NULL;
  GnnTensor *out;

  for (guint d = 2; d < m->ndim; d++)
    inner *= m->shape[d];
  TRY (gc = gnn_tensor_contiguous_checked (grad, error));
  TRY (out = gnn_tensor_new_contiguous_checked (m->dtype, m->shape, m->ndim, TRUE, error));
  if (m->dtype == GNN_DTYPE_F32)
    NLL_GRAD_LOOP (float);
  else
    NLL_GRAD_LOOP (double);
  grads[0] = out;
  return TRUE;
}
