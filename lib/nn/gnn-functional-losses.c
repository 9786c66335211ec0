/* gnn-functional-losses.c: the regression and probabilistic losses of
 * torch.nn.functional — l1_loss, smooth_l1_loss, huber_loss,
 * binary_cross_entropy, kl_div, poisson_nll_loss, soft_margin_loss,
 * gaussian_nll_loss, multilabel_soft_margin_loss, ctc_loss — over the loss kernels of
 * lib/tensor, and composed of differentiable ops where PyTorch composes
 * (gaussian_nll_loss, multilabel_soft_margin_loss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gnn/gnn.h>

#include "nn/gnn-functional-private.h"
#include "tensor/gnn-nn-ops-private.h"
#include "tensor/gnn-dtype-check-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

/* The elementwise losses of input and target in their common dtype. */
static GnnTensor *
pointwise (GnnOpKind      op,
           const char    *kernel,
           GnnTensor     *input,
           GnnTensor     *target,
           const double  *args,
           GnnReduction   reduction,
           gboolean       batchmean_ok,
           GError       **error)
{
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;

  if (!gnn_functional_check_args (kernel, input, target, NULL, reduction, batchmean_ok, error) ||
      !gnn_functional_promote (kernel, input, target, &x, &y, error))
    return NULL;
  return gnn_tensor_pointwise_loss (op, x, y, NULL, NULL, args, reduction, error);
}

/**
 * gnn_l1_loss:
 * @input: the prediction
 * @target: the target, broadcastable with @input
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The mean absolute error, `torch.nn.functional.l1_loss`: `|input -
 * target|`, reduced; the two broadcast together in their common dtype.
 * Differentiable with respect to both.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes do not broadcast or neither is floating point
 *
 * Since: 0.1
 */
GnnTensor *
gnn_l1_loss (GnnTensor    *input,
             GnnTensor    *target,
             GnnReduction  reduction,
             GError      **error)
{
  return pointwise (GNN_OP_L1_LOSS, "l1_loss", input, target, NULL, reduction, FALSE, error);
}

/**
 * gnn_smooth_l1_loss:
 * @input: the prediction
 * @target: the target, broadcastable with @input
 * @reduction: how to reduce the per-element losses
 * @beta: where the loss changes from quadratic to linear (PyTorch's
 *   default is 1.0); 0 gives the L1 loss
 * @error: return location for a #GError
 *
 * `torch.nn.functional.smooth_l1_loss`: with d = input - target,
 * `0.5 d² / beta` where `|d| < beta`, else `|d| - 0.5 beta`, reduced.
 * Differentiable with respect to both.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set for a
 *   negative @beta ("smooth_l1_loss does not support negative values for
 *   beta."), shapes that do not broadcast or no floating operand
 *
 * Since: 0.1
 */
GnnTensor *
gnn_smooth_l1_loss (GnnTensor    *input,
                    GnnTensor    *target,
                    GnnReduction  reduction,
                    double        beta,
                    GError      **error)
{
  if (!(beta >= 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "smooth_l1_loss does not support negative values for beta.");
      return NULL;
    }
  return pointwise (GNN_OP_SMOOTH_L1_LOSS, "smooth_l1_cpu", input, target,
                    (const double[]) { beta, 0, 0, 0 }, reduction, FALSE, error);
}

/**
 * gnn_huber_loss:
 * @input: the prediction
 * @target: the target, broadcastable with @input
 * @reduction: how to reduce the per-element losses
 * @delta: where the loss changes from quadratic to linear (PyTorch's
 *   default is 1.0), positive
 * @error: return location for a #GError
 *
 * `torch.nn.functional.huber_loss`: with d = input - target, `0.5 d²`
 * where `|d| < delta`, else `delta (|d| - 0.5 delta)`, reduced.
 * Differentiable with respect to both.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set for a
 *   @delta not above 0 ("huber_loss does not support non-positive values
 *   for delta."), shapes that do not broadcast or no floating operand
 *
 * Since: 0.1
 */
GnnTensor *
gnn_huber_loss (GnnTensor    *input,
                GnnTensor    *target,
                GnnReduction  reduction,
                double        delta,
                GError      **error)
{
  if (!(delta > 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "huber_loss does not support non-positive values for delta.");
      return NULL;
    }
  return pointwise (GNN_OP_HUBER_LOSS, "huber_cpu", input, target,
                    (const double[]) { delta, 0, 0, 0 }, reduction, FALSE, error);
}

/* FALSE + PyTorch's message unless every element of @input is in [0, 1]. */
static gboolean
check_probabilities (GnnTensor  *input,
                     GError    **error)
{
  gsize n = 0;
  g_autofree double *v = gnn_tensor_to_doubles (input, &n);

  for (gsize i = 0; i < n; i++)
    if (!(v[i] >= 0 && v[i] <= 1))
      {
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                             "all elements of input should be between 0 and 1");
        return FALSE;
      }
  return TRUE;
}

/**
 * gnn_binary_cross_entropy:
 * @input: probabilities in [0, 1]
 * @target: the targets, of @input's shape and dtype
 * @weight: (nullable): a rescaling weight broadcast to the loss
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.binary_cross_entropy`:
 * `-w (t log p + (1 - t) log (1 - p))`, each log clamped at -100 as PyTorch
 * does, reduced. Differentiable with respect to @input (PyTorch's gradient
 * `(p - t) / max (p (1 - p), 1e-12)`, finite at 0 and 1) and @target.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set (PyTorch's
 *   messages) if the shapes differ, the dtypes differ, or an element of
 *   @input is outside [0, 1]
 *
 * Since: 0.1
 */
GnnTensor *
gnn_binary_cross_entropy (GnnTensor    *input,
                          GnnTensor    *target,
                          GnnTensor    *weight,
                          GnnReduction  reduction,
                          GError      **error)
{
  g_autoptr(GnnTensor) w = NULL;
  GnnDType dtype;

  if (!gnn_functional_check_args ("binary_cross_entropy", input, target, weight, reduction, FALSE,
                                  error) ||
      !gnn_functional_check_same_size (input, target, "Using a target size (%s) that is different "
                                       "to the input size (%s) is deprecated. Please ensure they "
                                       "have the same size.", error))
    return NULL;
  dtype = gnn_tensor_get_dtype (input);
  if (!gnn_check_float_dtype ("binary_cross_entropy", input, error))
    return NULL;
  if (gnn_tensor_get_dtype (target) != dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "Found dtype %s but expected %s",
                   gnn_torch_scalar_name (gnn_tensor_get_dtype (target)),
                   gnn_torch_scalar_name (dtype));
      return NULL;
    }
  if (!check_probabilities (input, error) ||
      !gnn_functional_weight_as (weight, dtype, &w, error))
    return NULL;
  return gnn_tensor_pointwise_loss (GNN_OP_BCE_LOSS, input, target, w, NULL, NULL, reduction,
                                    error);
}

/**
 * gnn_kl_div:
 * @input: log-probabilities
 * @target: probabilities (or log-probabilities with @log_target),
 *   broadcastable with @input
 * @reduction: how to reduce: %GNN_REDUCTION_BATCHMEAN (the sum over the
 *   batch size, the mathematical KL divergence), or none, mean (over every
 *   element, PyTorch's default) or sum
 * @log_target: whether @target holds log-probabilities
 * @error: return location for a #GError
 *
 * The Kullback-Leibler divergence, `torch.nn.functional.kl_div`:
 * `t (log t - input)` (0 where t = 0), or `exp (t) (t - input)` with
 * @log_target, reduced. Differentiable with respect to both.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes do not broadcast or neither is floating point
 *
 * Since: 0.1
 */
GnnTensor *
gnn_kl_div (GnnTensor    *input,
            GnnTensor    *target,
            GnnReduction  reduction,
            gboolean      log_target,
            GError      **error)
{
  return pointwise (GNN_OP_KL_DIV_LOSS, "kl_div", input, target,
                    (const double[]) { log_target, 0, 0, 0 }, reduction, TRUE, error);
}

/**
 * gnn_poisson_nll_loss:
 * @input: the expectation of the Poisson distribution (its log with
 *   @log_input)
 * @target: the observed counts, broadcastable with @input
 * @log_input: whether @input is the log of the rate (PyTorch's default)
 * @full: whether to add Stirling's approximation of `log (target!)`
 *   (for targets above 1)
 * @eps: keeps `log (input + eps)` finite when not @log_input (PyTorch's
 *   default is 1e-8)
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The negative log-likelihood of a Poisson distribution,
 * `torch.nn.functional.poisson_nll_loss`: `exp (input) - target × input`
 * with @log_input, else `input - target × log (input + eps)`, reduced.
 * Differentiable with respect to both.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes do not broadcast or neither is floating point
 *
 * Since: 0.1
 */
GnnTensor *
gnn_poisson_nll_loss (GnnTensor    *input,
                      GnnTensor    *target,
                      gboolean      log_input,
                      gboolean      full,
                      double        eps,
                      GnnReduction  reduction,
                      GError      **error)
{
  return pointwise (GNN_OP_POISSON_NLL_LOSS, "poisson_nll_loss", input, target,
                    (const double[]) { log_input, full, eps, 0 }, reduction, FALSE, error);
}

/**
 * gnn_soft_margin_loss:
 * @input: scores
 * @target: labels in {1, -1}, broadcastable with @input
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The two-class logistic loss `log (1 + exp (-target × input))`, reduced,
 * like `torch.nn.functional.soft_margin_loss`. Differentiable with respect
 * to @input; as in PyTorch, a @target that requires grad is refused while
 * grad mode is on.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes do not broadcast, neither is floating point, or @target requires
 *   grad (PyTorch's messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_soft_margin_loss (GnnTensor    *input,
                      GnnTensor    *target,
                      GnnReduction  reduction,
                      GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  if (gnn_is_grad_enabled () && gnn_tensor_get_requires_grad (target))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.");
      return NULL;
    }
  return pointwise (GNN_OP_SOFT_MARGIN_LOSS, "soft_margin_loss", input, target,
                    (const double[]) { 0, 0, 0, 0 }, reduction, FALSE, error);
}

/* PyTorch's check of gaussian_nll_loss's var: the input's shape, or that
 * shape without its last dim (unsqueezed here) or with it 1. */
static GnnTensor *
gaussian_var (GnnTensor  *input,
              GnnTensor  *var,
              GError    **error)
{
  guint in_ndim, v_ndim;
  const gint64 *in_shape = gnn_tensor_get_shape (input, &in_ndim);
  const gint64 *v_shape = gnn_tensor_get_shape (var, &v_ndim);
  gsize n = 0;
  g_autofree double *values = NULL;

  if (v_ndim == in_ndim && memcmp (v_shape, in_shape, sizeof (gint64) * in_ndim) == 0)
    ;
  else if (in_ndim > 0 && v_ndim == in_ndim - 1 &&
           memcmp (v_shape, in_shape, sizeof (gint64) * v_ndim) == 0)
    return gnn_tensor_unsqueeze (var, -1, error);
  else if (!(in_ndim > 0 && v_ndim == in_ndim && v_shape[v_ndim - 1] == 1 &&
             memcmp (v_shape, in_shape, sizeof (gint64) * (v_ndim - 1)) == 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "var is of incorrect size");
      return NULL;
    }
  values = gnn_tensor_to_doubles (var, &n);
  for (gsize i = 0; i < n; i++)
    if (values[i] < 0)
      {
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                             "var has negative entry/entries");
        return NULL;
      }
  return g_object_ref (var);
}

/**
 * gnn_gaussian_nll_loss:
 * @input: the expectations of the Gaussians
 * @target: samples, broadcastable with @input
 * @var: the variances: @input's shape, or that shape with the last
 *   dimension 1 or dropped (one variance per sample)
 * @full: whether to add the constant `0.5 log (2π)`
 * @eps: the smallest variance used (PyTorch's default is 1e-6); the
 *   gradient passes as if unclamped, as PyTorch's
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The Gaussian negative log-likelihood,
 * `torch.nn.functional.gaussian_nll_loss`:
 * `0.5 (log (max (var, eps)) + (input - target)² / max (var, eps))`,
 * reduced. Differentiable with respect to all three.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set (PyTorch's
 *   messages) for a @var of the wrong size or with a negative entry
 *
 * Since: 0.1
 */
GnnTensor *
gnn_gaussian_nll_loss (GnnTensor    *input,
                       GnnTensor    *target,
                       GnnTensor    *var,
                       gboolean      full,
                       double        eps,
                       GnnReduction  reduction,
                       GError      **error)
{
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) vt = NULL;
  g_autoptr(GnnTensor) delta = NULL;
  g_autoptr(GnnTensor) clamped = NULL;
  g_autoptr(GnnTensor) logv = NULL;
  g_autoptr(GnnTensor) d = NULL;
  g_autoptr(GnnTensor) d2 = NULL;
  g_autoptr(GnnTensor) ratio = NULL;
  g_autoptr(GnnTensor) sum = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GnnTensor) shifted = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (var), NULL);
  GNN_CHECK_STORAGE ("gaussian_nll_loss", var, error, NULL);
  if (!gnn_functional_check_args ("gaussian_nll_loss", input, target, NULL, reduction, FALSE,
                                  error) ||
      !gnn_functional_promote ("gaussian_nll_loss", input, target, &x, &y, error))
    return NULL;
  TRY (v = gaussian_var (x, var, error));
  TRY (vt = gnn_tensor_get_dtype (v) == gnn_tensor_get_dtype (x)
            ? g_object_ref (v) : gnn_tensor_to_dtype (v, gnn_tensor_get_dtype (x), error));
  {
    /* var clamped at eps in place of a clone under no_grad: the values
     * change, the gradient is the unclamped one */
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) at_least = NULL;

    TRY (at_least = gnn_tensor_threshold (vt, eps, eps, error));
    TRY (delta = gnn_tensor_sub (at_least, vt, error));
  }
  TRY (clamped = gnn_tensor_add (vt, delta, error));
  TRY (logv = gnn_tensor_log (clamped, error));
  TRY (d = gnn_tensor_sub (x, y, error));
  TRY (d2 = gnn_tensor_mul (d, d, error));
  TRY (ratio = gnn_tensor_div (d2, clamped, error));
  TRY (sum = gnn_tensor_add (logv, ratio, error));
  TRY (loss = gnn_tensor_mul_scalar (sum, 0.5, error));
  if (full)
    TRY (shifted = gnn_tensor_add_scalar (loss, 0.5 * log (2 * G_PI), error));
  else
    shifted = g_object_ref (loss);
  return gnn_functional_reduce (shifted, reduction, error);
}

/**
 * gnn_multilabel_soft_margin_loss:
 * @input: scores, `[N, C]` or `[C]`
 * @target: the labels in {0, 1}, broadcastable with @input
 * @weight: (nullable): a weight per class, broadcast to @input
 * @reduction: how to reduce the per-sample losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.multilabel_soft_margin_loss`: per sample, the mean
 * over the C classes of `-w (t log σ(x) + (1 - t) log σ(-x))`, reduced
 * over the samples. Differentiable with respect to @input and @target.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multilabel_soft_margin_loss (GnnTensor    *input,
                                 GnnTensor    *target,
                                 GnnTensor    *weight,
                                 GnnReduction  reduction,
                                 GError      **error)
{
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnTensor) elements = NULL;
  g_autoptr(GnnTensor) rows = NULL;
  g_autoptr(GnnTensor) per_sample = NULL;
  gint class_dim;

  if (!gnn_functional_check_args ("multilabel_soft_margin_loss", input, target, weight, reduction,
                                  FALSE, error) ||
      !gnn_functional_promote ("multilabel_soft_margin_loss", input, target, &x, &y, error) ||
      !gnn_functional_weight_as (weight, gnn_tensor_get_dtype (x), &w, error))
    return NULL;
  if (gnn_tensor_get_ndim (x) == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "multilabel_soft_margin_loss: expected an input of at least 1 dim");
      return NULL;
    }
  /* the elementwise part is binary_cross_entropy_with_logits' */
  TRY (elements = gnn_tensor_pointwise_loss (GNN_OP_BCE_LOGITS_LOSS, x, y, w, NULL, NULL,
                                             GNN_REDUCTION_NONE, error));
  class_dim = (gint) gnn_tensor_get_ndim (elements) - 1;
  TRY (rows = gnn_tensor_sum (elements, &class_dim, 1, FALSE, error));
  TRY (per_sample = gnn_tensor_mul_scalar (rows, 1.0 / (double) gnn_tensor_get_size (x, -1, NULL),
                                           error));
  return gnn_functional_reduce (per_sample, reduction, error);
}

/**
 * gnn_ctc_loss:
 * @log_probs: log-probabilities, `[T, N, C]` (time, batch, classes) or
 *   `[T, C]`, as log_softmax gives them
 * @targets: the target labels (integers, none of them @blank): `[N, S]`
 *   padded, or all targets back to back (`[sum (target_lengths)]`)
 * @input_lengths: each sample's number of time steps (integers, `[N]`), at
 *   most T
 * @target_lengths: each sample's target length (integers, `[N]`)
 * @blank: the blank label (PyTorch's default is 0)
 * @reduction: how to reduce: the mean is that of the losses each divided
 *   by its target length
 * @zero_infinity: whether infinite losses (targets the input is too short
 *   for) and their gradients become 0
 * @error: return location for a #GError
 *
 * The connectionist temporal classification loss,
 * `torch.nn.functional.ctc_loss(log_probs, targets, input_lengths,
 * target_lengths, blank, reduction, zero_infinity)`: the negative log of
 * the probability of every alignment of each target to its input,
 * computed by the forward recursion in log space. Differentiable with
 * respect to @log_probs, with PyTorch's gradient.
 *
 * Returns: (transfer full): the loss (`[N]` for %GNN_REDUCTION_NONE), or
 *   %NULL with @error set (PyTorch's messages) for bad shapes, lengths or a
 *   blank outside the classes
 *
 * Since: 0.1
 */
GnnTensor *
gnn_ctc_loss (GnnTensor    *log_probs,
              GnnTensor    *targets,
              GnnTensor    *input_lengths,
              GnnTensor    *target_lengths,
              gint64        blank,
              GnnReduction  reduction,
              gboolean      zero_infinity,
              GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input_lengths), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target_lengths), NULL);
  GNN_CHECK_STORAGE ("ctc_loss", input_lengths, error, NULL);
  GNN_CHECK_STORAGE ("ctc_loss", target_lengths, error, NULL);
  if (!gnn_functional_check_args ("ctc_loss", log_probs, targets, NULL, reduction, FALSE, error))
    return NULL;
  return gnn_tensor_ctc_loss (log_probs, targets, input_lengths, target_lengths, blank, reduction,
                              zero_infinity, error);
}
