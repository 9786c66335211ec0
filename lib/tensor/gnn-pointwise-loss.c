/* gnn-pointwise-loss.c: the losses that are a function of one input
 * element and one target element, reduced in the same pass — l1, mse,
 * smooth_l1, huber, binary_cross_entropy (with a weight),
 * binary_cross_entropy_with_logits (weight, pos_weight), kl_div,
 * poisson_nll_loss, soft_margin_loss
 *
 * The operands are broadcast to one shape (input and target through
 * recorded expands, so their gradients sum back; weights through plain
 * views) and packed; each loss is one loop per dtype, the element losses
 * widened to double and summed in double. Their derivatives are in
 * lib/autograd/gnn-backward-loss.c. Built with -O3.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-nn-ops-private.h"

/* The element loss of @op at input x and target y (pos weight pw, settings
 * a0..a2), in double. */
#define SMOOTH_L1(d, beta) \
  ((beta) == 0 ? fabs (d) : fabs (d) < (beta) ? 0.5 * (d) * (d) / (beta) : fabs (d) - 0.5 * (beta))
#define HUBER(d, delta) \
  (fabs (d) < (delta) ? 0.5 * (d) * (d) : (delta) * (fabs (d) - 0.5 * (delta)))
/* PyTorch clamps both logs at -100 so that the loss stays finite */
#define BCE(x, y) \
  (-((y) * fmax (log (x), -100.0) + (1 - (y)) * fmax (log1p (-(x)), -100.0)))
/* (1 - y) x + (1 + (pw - 1) y) softplus (-x), softplus computed stably */
#define BCE_LOGITS(x, y, pw) \
  ((1 - (y)) * (x) + (1 + ((pw) - 1) * (y)) * (log1p (exp (-fabs (x))) + fmax (-(x), 0.0)))
/* xlogy (y, y) - y x, or exp (y) (y - x) for log targets */
#define KL_DIV(x, y, log_target) \
  ((log_target) ? exp (y) * ((y) - (x)) : ((y) == 0 ? 0.0 : (y) * log (y)) - (y) * (x))
/* Stirling's approximation of log (y!) for y > 1 */
#define STIRLING(y) ((y) > 1 ? (y) * log (y) - (y) + 0.5 * log (2 * G_PI * (y)) : 0.0)
#define POISSON(x, y, log_input, full, eps) \
  (((log_input) ? exp (x) - (y) * (x) : (x) - (y) * log ((x) + (eps))) + ((full) ? STIRLING (y) : 0.0))

#define LOSS_CASE(T, OP, EXPR)                                                     \
  case OP:                                                                      \
    for (gint64 i = 0; i < n; i++)                                              \
      {                                                                         \
        const double x = xv[i], y = yv[i];                                      \
        const double pw = pwv != NULL ? (double) pwv[i] : 1.0;                  \
        const double l = (EXPR) * (wv != NULL ? (double) wv[i] : 1.0);          \
        (void) pw;                                                              \
        if (out != NULL)                                                        \
          out[i] = (T) l;                                                       \
        else                                                                    \
          acc += l;                                                             \
      }                                                                         \
    break

/* Writes the element losses to @out, or returns their sum when @out is
 * NULL. */
#define LOSS_LOOPS(T)                                                           \
static double                                                                   \
loss_loop_##T (GnnOpKind op, gint64 n, const T *restrict xv, const T *restrict yv, \
               const T *restrict wv, const T *restrict pwv, const double *a,    \
               T *restrict out)                                                 \
{                                                                               \
  double acc = 0;                                                               \
                                                                                \
  switch (op)                                                                   \
    {                                                                           \
    LOSS_CASE (T, GNN_OP_L1_LOSS, fabs (x - y));                                   \
    LOSS_CASE (T, GNN_OP_MSE_LOSS, (x - y) * (x - y));                             \
    LOSS_CASE (T, GNN_OP_SMOOTH_L1_LOSS, SMOOTH_L1 (x - y, a[0]));                 \
    LOSS_CASE (T, GNN_OP_HUBER_LOSS, HUBER (x - y, a[0]));                         \
    LOSS_CASE (T, GNN_OP_BCE_LOSS, BCE (x, y));                                    \
    LOSS_CASE (T, GNN_OP_BCE_LOGITS_LOSS, BCE_LOGITS (x, y, pw));                  \
    LOSS_CASE (T, GNN_OP_KL_DIV_LOSS, KL_DIV (x, y, a[0] != 0));                   \
    LOSS_CASE (T, GNN_OP_POISSON_NLL_LOSS, POISSON (x, y, a[0] != 0, a[1] != 0, a[2])); \
    /* PyTorch's formula as written: large -y x overflows to inf as there */   \
    LOSS_CASE (T, GNN_OP_SOFT_MARGIN_LOSS, log1p (exp (-y * x)));                 \
    default:                                                                    \
      g_assert_not_reached ();                                                  \
    }                                                                           \
  return acc;                                                                   \
}

LOSS_LOOPS (float)
LOSS_LOOPS (double)

/* @t seen through a broadcast to @shape: @t itself, or (@record) its
 * recorded expand, or a plain view; then packed. NULL + error if the
 * shapes do not broadcast or the copy cannot be allocated. */
static GnnTensor *
broadcast_to (GnnTensor    *t,
              const gint64 *shape,
              guint         ndim,
              gboolean      record,
              GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 strides[GNN_MAX_DIMS];
  gint64 out_shape[GNN_MAX_DIMS];
  guint out_ndim;

  if (p->ndim == ndim && memcmp (p->shape, shape, sizeof (gint64) * ndim) == 0)
    return g_object_ref (t);
  if (record)
    return gnn_tensor_expand (t, shape, ndim, error);
  if (!gnn_broadcast_shapes (p->shape, p->ndim, shape, ndim, out_shape, &out_ndim, error))
    return NULL;
  if (out_ndim != ndim || memcmp (out_shape, shape, sizeof (gint64) * ndim) != 0)
    {
      g_autofree char *ts = gnn_shape_to_string (p->shape, p->ndim);
      g_autofree char *ss = gnn_shape_to_string (shape, ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "the weight of shape %s does not broadcast to the loss's shape %s", ts, ss);
      return NULL;
    }
  gnn_broadcast_strides (t, shape, ndim, strides);
  return gnn_tensor_new_view (t, shape, strides, ndim, p->offset);
}

static gpointer
data_or_null (GnnTensor *t)
{
  return t != NULL ? gnn_tensor_priv_data (gnn_tensor_priv (t)) : NULL;
}

GnnTensor *
gnn_tensor_pointwise_loss (GnnOpKind      op,
                           GnnTensor     *input,
                           GnnTensor     *target,
                           GnnTensor     *weight,
                           GnnTensor     *pos_weight,
                           const double  *args,
                           GnnReduction   reduction,
                           GError       **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (input), *tp = gnn_tensor_priv (target);
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) xc = NULL;
  g_autoptr(GnnTensor) yc = NULL;
  g_autoptr(GnnTensor) wv = NULL;
  g_autoptr(GnnTensor) pwv = NULL;
  g_autoptr(GnnTensor) wc = NULL;
  g_autoptr(GnnTensor) pwc = NULL;
  GnnOpParams params = { .n_ints = 1, .ints = { reduction } };
  GnnTensor *out;
  gint64 n;
  double total;

  for (guint i = 0; i < G_N_ELEMENTS (params.args); i++)
    params.args[i] = args != NULL ? args[i] : 0;
  if (!gnn_broadcast_shapes (ip->shape, ip->ndim, tp->shape, tp->ndim, shape, &ndim, error) ||
      (x = broadcast_to (input, shape, ndim, TRUE, error)) == NULL ||
      (y = broadcast_to (target, shape, ndim, TRUE, error)) == NULL ||
      (weight != NULL && (wv = broadcast_to (weight, shape, ndim, FALSE, error)) == NULL) ||
      (pos_weight != NULL && (pwv = broadcast_to (pos_weight, shape, ndim, FALSE,
                                                  error)) == NULL) ||
      (xc = gnn_tensor_contiguous_checked (x, error)) == NULL ||
      (yc = gnn_tensor_contiguous_checked (y, error)) == NULL ||
      (wv != NULL && (wc = gnn_tensor_contiguous_checked (wv, error)) == NULL) ||
      (pwv != NULL && (pwc = gnn_tensor_contiguous_checked (pwv, error)) == NULL))
    return NULL;

  n = gnn_tensor_priv (xc)->numel;
  out = reduction == GNN_REDUCTION_NONE
        ? gnn_tensor_new_contiguous_checked (ip->dtype, shape, ndim, FALSE, error)
        : gnn_tensor_new_contiguous_checked (ip->dtype, NULL, 0, FALSE, error);
  if (out == NULL)
    return NULL;
  if (ip->dtype == GNN_DTYPE_F32)
    total = loss_loop_float (op, n, data_or_null (xc), data_or_null (yc), data_or_null (wc),
                             data_or_null (pwc), params.args,
                             reduction == GNN_REDUCTION_NONE ? data_or_null (out) : NULL);
  else
    total = loss_loop_double (op, n, data_or_null (xc), data_or_null (yc), data_or_null (wc),
                              data_or_null (pwc), params.args,
                              reduction == GNN_REDUCTION_NONE ? data_or_null (out) : NULL);
  if (reduction == GNN_REDUCTION_MEAN)
    total /= (double) n;                       /* 0 / 0: NaN, as PyTorch's mean of nothing */
  else if (reduction == GNN_REDUCTION_BATCHMEAN && ndim > 0)
    total /= (double) shape[0];
  if (reduction != GNN_REDUCTION_NONE)
    gnn_dtype_write (ip->dtype, data_or_null (out), total);

  params.extra[0] = wc;
  params.extra[1] = pwc;
  return gnn_tensor_record (op, out, (GnnTensor *[]) { x, y }, 2, &params);
}
