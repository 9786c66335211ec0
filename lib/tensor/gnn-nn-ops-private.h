/* gnn-nn-ops-private.h: what the tensor ops behind torch.nn.functional
 * share inside lib/tensor: the one driver of the elementwise activations
 * with settings (leaky_relu, elu, softplus, hardtanh ...;
 * gnn-activation-kernels.c, public functions in gnn-tensor-activation.c,
 * derivatives in lib/autograd/gnn-backward-activation.c) and the
 * reduction dims of the norm
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* f (self) elementwise for an activation op (GNN_OP_LEAKY_RELU ..
 * GNN_OP_LOG_SIGMOID) with its settings @args (GnnOpParams.args: the
 * negative slope; alpha, scale, input scale; min, max; beta, threshold;
 * threshold, value): a new contiguous tensor, recorded for autograd.
 * Float32 and float64 only (torch's message otherwise). */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_activation  (GnnOpKind      op,
                                   GnnTensor     *self,
                                   const double  *args,
                                   GError       **error);

/* The same in place (torch's F.<name>_ / inplace=True): FALSE + error for a
 * non-float dtype, a tensor with overlapping elements, or a leaf that
 * requires grad. */
G_GNUC_INTERNAL
gboolean   gnn_tensor_activation_ (GnnOpKind      op,
                                   GnnTensor     *self,
                                   const double  *args,
                                   GError       **error);

/* Resolves reduction @dims (empty: all; negative counts from the end) into
 * a mask over @p's dims (gnn-tensor-reduce.c): FALSE + error for a dim out
 * of range or listed twice. */
G_GNUC_INTERNAL
gboolean    gnn_reduce_resolve_dims (GnnTensorPrivate *p,
                                     const gint       *dims,
                                     guint             n_dims,
                                     gboolean         *reduce,
                                     GError          **error);

/* An elementwise loss (GNN_OP_L1_LOSS .. GNN_OP_SOFT_MARGIN_LOSS) of
 * @input and @target broadcast together (same float dtype, checked by the
 * caller), times the optional @weight (and, for binary_cross_entropy with
 * logits, @pos_weight) broadcast to that shape, reduced by @reduction
 * (batchmean: the sum over the size of dimension 0). @args: smooth_l1's
 * beta, huber's delta, kl_div's log_target, poisson_nll_loss's log_input,
 * full, eps. Recorded for autograd with respect to input and target. */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_pointwise_loss (GnnOpKind      op,
                                      GnnTensor     *input,
                                      GnnTensor     *target,
                                      GnnTensor     *weight,
                                      GnnTensor     *pos_weight,
                                      const double  *args,
                                      GnnReduction   reduction,
                                      GError       **error);

/* nll_loss over class dim 1 of @input ([C], [N, C] or [N, C, d1, ...]) with
 * integer @target, checked in PyTorch's words; @reduction none, mean
 * (weighted by the targets' class weights) or sum. */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_nll_loss       (GnnTensor     *input,
                                      GnnTensor     *target,
                                      GnnTensor     *weight,
                                      gint64         ignore_index,
                                      GnnReduction   reduction,
                                      GError       **error);

/* multi_margin_loss / multilabel_margin_loss of [C], [N, C] or 0-d @input
 * with int64 @target, checked in PyTorch's words; recorded with respect to
 * @input (gnn-tensor-margin-loss.c). */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_multi_margin_loss (GnnTensor    *input,
                                         GnnTensor    *target,
                                         gint64        p,
                                         double        margin,
                                         GnnTensor    *weight,
                                         GnnReduction  reduction,
                                         GError      **error);
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_multilabel_margin_loss (GnnTensor    *input,
                                              GnnTensor    *target,
                                              GnnReduction  reduction,
                                              GError      **error);

/* ctc_loss of @log_probs ([T, N, C] or [T, C]) for @targets ([N, S] padded,
 * or the targets back to back), checked in PyTorch's words; recorded with
 * respect to @log_probs (gnn-tensor-ctc.c). */
G_GNUC_INTERNAL
GnnTensor *gnn_tensor_ctc_loss       (GnnTensor     *log_probs,
                                      GnnTensor     *targets,
                                      GnnTensor     *input_lengths,
                                      GnnTensor     *target_lengths,
                                      gint64         blank,
                                      GnnReduction   reduction,
                                      gboolean       zero_infinity,
                                      GError       **error);

/* One sample of a ctc_loss: its log-probabilities (the packed [T, N, C]
 * doubles), lengths and target. */
typedef struct
{
  const double *log_probs;
  gint64        batch, classes, blank, b;
  gint64        input_length, target_length;
  const gint64 *target;
} GnnCtcSample;

/* log_probs[t, b, c] */
static inline double
gnn_ctc_lp (const GnnCtcSample *x,
            gint64              t,
            gint64              c)
{
  return x->log_probs[(t * x->batch + x->b) * x->classes + c];
}

/* Sample @b of a batch whose targets are packed back to back (@lengths:
 * [2, N], input lengths then target lengths). */
G_GNUC_INTERNAL
void       gnn_ctc_sample            (GnnCtcSample  *x,
                                      const double  *log_probs,
                                      const gint64  *targets,
                                      const gint64  *lengths,
                                      gint64         batch,
                                      gint64         classes,
                                      gint64         blank,
                                      gint64         b);

/* The forward variables log α[t, s] (input_length × (2 target_length + 1))
 * into @la; returns the sample's negative log-likelihood (inf when the
 * target cannot be emitted). */
G_GNUC_INTERNAL
double     gnn_ctc_alpha             (const GnnCtcSample *x,
                                      double             *la);

/* The backward variables log β[t, s] into @lb. */
G_GNUC_INTERNAL
void       gnn_ctc_beta              (const GnnCtcSample *x,
                                      double             *lb);

G_END_DECLS
