/* gnn-backward-ctc.c: the gradient of ctc_loss with respect to the
 * log-probabilities, PyTorch's formula (aten/src/ATen/native/LossCTC.cpp):
 *
 *   grad[t, b, c] = (exp (lp) - exp (log Σ_{s: l'_s = c} α_t(s) β_t(s) + nll - lp)) g_b
 *
 * for t below the sample's input length (0 beyond it, and for the whole
 * sample when zero_infinity finds an infinite loss); g_b is the output
 * gradient, divided by N × max (target_length, 1) for the mean. The α and β
 * recursions are lib/tensor/gnn-tensor-ctc.c's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "autograd/gnn-autograd-private.h"
#include "tensor/gnn-nn-ops-private.h"

static inline double
logaddexp (double a,
           double b)
{
  double m = fmax (a, b);

  return m == -INFINITY ? -INFINITY : m + log (exp (a - m) + exp (b - m));
}

/* The gradient of one sample into @out (the packed [T, N, C] doubles). */
static void
sample_gradient (const GnnCtcSample *x,
                 double              g,
                 gboolean            zero_infinity,
                 double             *out)
{
  gint64 L = 2 * x->target_length + 1;
  g_autofree double *la = g_new (double, MAX (x->input_length, 1) * L);
  g_autofree double *lb = g_new (double, MAX (x->input_length, 1) * L);
  g_autofree double *acc = g_new (double, x->classes);
  double nll = gnn_ctc_alpha (x, la);

  if (zero_infinity && isinf (nll))
    return;
  gnn_ctc_beta (x, lb);
  for (gint64 t = 0; t < x->input_length; t++)
    {
      for (gint64 c = 0; c < x->classes; c++)
        acc[c] = -INFINITY;
      for (gint64 s = 0; s < L; s++)
        {
          gint64 l = s % 2 == 0 ? x->blank : x->target[s / 2];

          acc[l] = logaddexp (acc[l], la[t * L + s] + lb[t * L + s]);
        }
      for (gint64 c = 0; c < x->classes; c++)
        {
          double lp = gnn_ctc_lp (x, t, c);

          out[(t * x->batch + x->b) * x->classes + c] = (exp (lp) - exp (acc[c] + nll - lp)) * g;
        }
    }
}

gboolean
gnn_backward_ctc_loss (GnnNode    *node,
                       GnnTensor  *grad,
                       GnnTensor **grads,
                       GError    **error)
{
  const GnnMeta *m = &node->inputs[0];
  gint64 blank = node->params.ints[0];
  GnnReduction reduction = (GnnReduction) node->params.ints[1];
  gboolean zero_infinity = node->params.ints[2] != 0, batched = node->params.ints[3] != 0;
  gint64 T = m->shape[0], batch = batched ? m->shape[1] : 1, classes = m->shape[m->ndim - 1];
  g_autofree double *lp = gnn_ag_doubles (node->saved[0]);
  g_autofree double *g = gnn_tensor_to_doubles (grad, NULL);
  const gint64 *targets = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (node->params.extra[0]));
  const gint64 *lengths = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (node->params.extra[1]));
  double *out = g_new0 (double, MAX (T * batch * classes, 1));

  for (gint64 b = 0; b < batch; b++)
    {
      GnnCtcSample x;
      double gb = reduction == GNN_REDUCTION_NONE ? g[b] : g[0];

      if (reduction == GNN_REDUCTION_MEAN)
        gb /= (double) batch * (double) MAX (lengths[batch + b], 1);
      gnn_ctc_sample (&x, lp, targets, lengths, batch, classes, blank, b);
      sample_gradient (&x, gb, zero_infinity, out);
    }
  (void) error;
  grads[0] = gnn_ag_from_doubles (out, m);
  return TRUE;
}
