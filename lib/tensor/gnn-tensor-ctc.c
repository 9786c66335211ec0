/* gnn-tensor-ctc.c: the connectionist temporal classification loss
 * (torch.nn.functional.ctc_loss): the forward (alpha) and backward (beta)
 * recursions of Graves et al. in log space over the target with blanks
 * interleaved, as PyTorch's CPU kernel computes them (in double here); the
 * gradient's loop is in lib/autograd/gnn-backward-ctc.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* The label at position s of the extended target (blank, l1, blank, l2, ...). */
static inline gint64
label (const gint64 *target,
       gint64        s,
       gint64        blank)
{
  return s % 2 == 0 ? blank : target[s / 2];
}

static inline double
logaddexp3 (double a,
            double b,
            double c)
{
  double m = fmax (a, fmax (b, c));

  if (m == -INFINITY)
    return -INFINITY;
  return log (exp (a - m) + exp (b - m) + exp (c - m)) + m;
}

double
gnn_ctc_alpha (const GnnCtcSample *x,
               double             *la)
{
  gint64 L = 2 * x->target_length + 1;

  for (gint64 s = 0; s < L * MAX (x->input_length, 1); s++)
    la[s] = -INFINITY;
  if (x->input_length == 0)
    return x->target_length == 0 ? 0.0 : INFINITY;
  la[0] = gnn_ctc_lp (x, 0, x->blank);
  if (L > 1)
    la[1] = gnn_ctc_lp (x, 0, x->target[0]);
  for (gint64 t = 1; t < x->input_length; t++)
    for (gint64 s = 0; s < L; s++)
      {
        gint64 l = label (x->target, s, x->blank);
        double a1 = la[(t - 1) * L + s];
        double a2 = s > 0 ? la[(t - 1) * L + s - 1] : -INFINITY;
        double a3 = s > 1 && l != label (x->target, s - 2, x->blank) ? la[(t - 1) * L + s - 2]
                                                                      : -INFINITY;

        la[t * L + s] = logaddexp3 (a1, a2, a3) + gnn_ctc_lp (x, t, l);
      }
  {
    gint64 last = (x->input_length - 1) * L;
    double end = la[last + L - 1], before = L > 1 ? la[last + L - 2] : -INFINITY;

    return -logaddexp3 (end, before, -INFINITY);
  }
}

void
gnn_ctc_beta (const GnnCtcSample *x,
              double             *lb)
{
  gint64 L = 2 * x->target_length + 1, T = x->input_length;

  for (gint64 s = 0; s < L * MAX (T, 1); s++)
    lb[s] = -INFINITY;
  if (T == 0)
    return;
  lb[(T - 1) * L + L - 1] = gnn_ctc_lp (x, T - 1, x->blank);
  if (L > 1)
    lb[(T - 1) * L + L - 2] = gnn_ctc_lp (x, T - 1, x->target[x->target_length - 1]);
  for (gint64 t = T - 2; t >= 0; t--)
    for (gint64 s = L - 1; s >= 0; s--)
      {
        gint64 l = label (x->target, s, x->blank);
        double b1 = lb[(t + 1) * L + s];
        double b2 = s < L - 1 ? lb[(t + 1) * L + s + 1] : -INFINITY;
        double b3 = s < L - 2 && l != label (x->target, s + 2, x->blank) ? lb[(t + 1) * L + s + 2]
                                                                          : -INFINITY;

        lb[t * L + s] = logaddexp3 (b1, b2, b3) + gnn_ctc_lp (x, t, l);
      }
}

void
gnn_ctc_sample (GnnCtcSample   *x,
                const double   *log_probs,
                const gint64   *targets,
                const gint64   *lengths,
                gint64          batch,
                gint64          classes,
                gint64          blank,
                gint64          b)
{
  gint64 offset = 0;

  for (gint64 i = 0; i < b; i++)
    offset += lengths[batch + i];
  x->log_probs = log_probs;
  x->batch = batch, x->classes = classes, x->blank = blank, x->b = b;
  x->input_length = lengths[b];
  x->target_length = lengths[batch + b];
  x->target = targets + offset;
}

/* PyTorch's argument checks of ctc_loss_cpu, in its words. */
static gboolean
check_lengths (const gint64  *in_len,
               const gint64  *tl,
               gint64         batch,
               gint64         max_input,
               gint64         target_size,
               gboolean       concatenated,
               GError       **error)
{
  gint64 total = 0;

  for (gint64 b = 0; b < batch; b++)
    {
      if (tl[b] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Expected target_lengths to have value at least 0, but got value %"
                       G_GINT64_FORMAT " (while checking arguments for ctc_loss_cpu)", tl[b]);
          return FALSE;
        }
      if (!concatenated && tl[b] > target_size)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Expected tensor to have size at least %" G_GINT64_FORMAT " at dimension 1, "
                       "but got size %" G_GINT64_FORMAT " for argument #2 'targets' (while checking "
                       "arguments for ctc_loss_cpu)", tl[b], target_size);
          return FALSE;
        }
      total += tl[b];
    }
  if (concatenated && total != target_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Expected tensor to have size %" G_GINT64_FORMAT " at dimension 0, but got size %"
                   G_GINT64_FORMAT " for argument #2 'targets' (while checking arguments for "
                   "ctc_loss_cpu)", total, target_size);
      return FALSE;
    }
  for (gint64 b = 0; b < batch; b++)
    if (in_len[b] < 0 || in_len[b] > max_input)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "Expected input_lengths to have value at %s %" G_GINT64_FORMAT ", but got value %"
                     G_GINT64_FORMAT " (while checking arguments for ctc_loss_cpu)",
                     in_len[b] < 0 ? "least" : "most", in_len[b] < 0 ? 0 : max_input, in_len[b]);
        return FALSE;
      }
  return TRUE;
}

/* @t (integer, @n elements) as int64 values, or NULL + error. */
static gint64 *
int64_values (GnnTensor   *t,
              const char  *what,
              gint64       n,
              GError     **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  g_autofree double *v = NULL;
  gint64 *out;

  if (gnn_dtype_is_floating (p->dtype) || p->dtype == GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "ctc_loss: %s must be integers, got dtype %s", what, gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (p->ndim > 1 || p->numel != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s must be of size batch_size", what);
      return NULL;
    }
  v = gnn_tensor_to_doubles (t, NULL);
  out = g_new (gint64, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    out[i] = (gint64) v[i];
  return out;
}

GnnTensor *
gnn_tensor_ctc_loss (GnnTensor    *log_probs,
                     GnnTensor    *targets,
                     GnnTensor    *input_lengths,
                     GnnTensor    *target_lengths,
                     gint64        blank,
                     GnnReduction  reduction,
                     gboolean      zero_infinity,
                     GError      **error)
{
  GnnTensorPrivate *lp = gnn_tensor_priv (log_probs), *tp = gnn_tensor_priv (targets);
  gboolean batched = lp->ndim == 3;
  gint64 T, batch, classes;
  g_autofree gint64 *in_len = NULL;
  g_autofree gint64 *tl = NULL;
  g_autofree double *lpv = NULL;
  g_autofree double *tv = NULL;
  g_autofree double *losses = NULL;
  g_autoptr(GnnTensor) lengths = NULL;
  g_autoptr(GnnTensor) packed_targets = NULL;
  g_autofree gint64 *off_data = NULL;
  GnnOpParams params = { .n_ints = 4, .ints = { blank, reduction, zero_infinity, batched } };
  gint64 *len_data, *tgt, n_targets = 0;
  double total = 0;
  GnnTensor *out;

  if (lp->ndim != 2 && lp->ndim != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ctc_loss: expected log_probs of 3 dimensions (T, N, C) or 2 (T, C), got %u",
                   lp->ndim);
      return NULL;
    }
  if (!gnn_check_float_dtype ("ctc_loss_cpu", log_probs, error))
    return NULL;
  T = lp->shape[0];
  batch = batched ? lp->shape[1] : 1;
  classes = lp->shape[lp->ndim - 1];
  if (blank < 0 || blank >= classes)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "blank must be in label range");
      return NULL;
    }
  if ((in_len = int64_values (input_lengths, "input_lengths", batch, error)) == NULL ||
      (tl = int64_values (target_lengths, "target_lengths", batch, error)) == NULL)
    return NULL;
  if (gnn_dtype_is_floating (tp->dtype) || tp->dtype == GNN_DTYPE_BOOL ||
      tp->ndim > 2 || (batched && tp->ndim == 2 && tp->shape[0] != batch) ||
      (!batched && tp->ndim != 1))
    {
      g_autofree char *ts = gnn_shape_to_string (tp->shape, tp->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ctc_loss: expected integer targets of shape (N, S) or (sum (target_lengths)), "
                   "got dtype %s and shape %s", gnn_dtype_get_name (tp->dtype), ts);
      return NULL;
    }
  if (!check_lengths (in_len, tl, batch, T, tp->shape[tp->ndim - 1],
                      batched && tp->ndim == 1, error))
    return NULL;

  /* saved for the backward: lengths [2, N] (input, target) and the targets
   * packed back to back (sample b's at the sum of the lengths before it) */
  lengths = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, (const gint64[]) { 2, batch }, 2,
                                               FALSE, error);
  if (lengths == NULL)
    return NULL;
  len_data = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (lengths));
  off_data = g_new (gint64, MAX (batch, 1));
  tv = gnn_tensor_to_doubles (targets, NULL);
  for (gint64 b = 0; b < batch; b++)
    {
      len_data[b] = in_len[b], len_data[batch + b] = tl[b];
      off_data[b] = n_targets;
      n_targets += tl[b];
    }
  packed_targets = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64,
                                                      (const gint64[]) { MAX (n_targets, 1) }, 1,
                                                      FALSE, error);
  if (packed_targets == NULL)
    return NULL;
  tgt = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (packed_targets));
  for (gint64 b = 0; b < batch; b++)
    for (gint64 i = 0; i < tl[b]; i++)
      {
        gint64 v = (gint64) tv[batched && tp->ndim == 2 ? b * tp->shape[1] + i : off_data[b] + i];

        if (v < 0 || v >= classes)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "ctc_loss: target %" G_GINT64_FORMAT
                         " is out of the label range [0, %" G_GINT64_FORMAT ")", v, classes);
            return NULL;
          }
        tgt[off_data[b] + i] = v;
      }

  lpv = gnn_tensor_to_doubles (log_probs, NULL);
  losses = g_new (double, batch);
  for (gint64 b = 0; b < batch; b++)
    {
      GnnCtcSample x;
      g_autofree double *la = NULL;

      gnn_ctc_sample (&x, lpv, tgt, len_data, batch, classes, blank, b);
      la = g_new (double, MAX (x.input_length, 1) * (2 * x.target_length + 1));
      losses[b] = gnn_ctc_alpha (&x, la);
      if (zero_infinity && isinf (losses[b]))
        losses[b] = 0;
      total += reduction == GNN_REDUCTION_MEAN ? losses[b] / (double) MAX (tl[b], 1) : losses[b];
    }
  if (reduction == GNN_REDUCTION_NONE)
    out = gnn_tensor_new_contiguous_checked (lp->dtype, &batch, batched ? 1 : 0, FALSE, error);
  else
    out = gnn_tensor_new_contiguous_checked (lp->dtype, NULL, 0, FALSE, error);
  if (out == NULL)
    return NULL;
  if (reduction == GNN_REDUCTION_NONE)
    for (gint64 b = 0; b < batch; b++)
      gnn_dtype_write (lp->dtype, gnn_tensor_priv_data (gnn_tensor_priv (out)) +
                       b * (gint64) gnn_dtype_get_size (lp->dtype), losses[b]);
  else
    gnn_dtype_write (lp->dtype, gnn_tensor_priv_data (gnn_tensor_priv (out)),
                     reduction == GNN_REDUCTION_MEAN ? total / (double) batch : total);
  params.extra[0] = packed_targets;
  params.extra[1] = lengths;
  return gnn_tensor_record (GNN_OP_CTC_LOSS, out, &log_probs, 1, &params);
}
