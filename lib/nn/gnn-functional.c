/* gnn-functional.c: the classification and regression losses of
 * torch.nn.functional that Gnn had first — cross_entropy, nll_loss,
 * mse_loss, binary_cross_entropy_with_logits — over the loss kernels of
 * lib/tensor (nll_loss, the elementwise losses) and, where PyTorch
 * composes (cross_entropy's log_softmax, label smoothing and class
 * probabilities), differentiable tensor ops
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gnn/gnn.h>

#include "nn/gnn-functional-private.h"
#include "tensor/gnn-nn-ops-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

/**
 * gnn_nll_loss:
 * @input: log-probabilities, `[N, C]`, `[C]` or `[N, C, d1, ...]`
 * @target: class indices (int64), `[N]`, `[]` or `[N, d1, ...]`
 * @weight: (nullable): a weight per class, `[C]`
 * @ignore_index: a target value that contributes nothing (PyTorch's default is -100)
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The negative log-likelihood loss, `torch.nn.functional.nll_loss`: the mean
 * (weighted by `weight[target]`), sum or per-element values of
 * `-input[n, target[n]]`. Differentiable with respect to @input.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set for bad
 *   shapes ("Expected input batch_size (2) to match target batch_size (3).",
 *   "Expected target size [2, 4], got [2, 5]"), dtypes ("expected scalar
 *   type Long but found Int") or a target out of bounds ("Target 5 is out of
 *   bounds.")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_nll_loss (GnnTensor    *input,
              GnnTensor    *target,
              GnnTensor    *weight,
              gint64        ignore_index,
              GnnReduction  reduction,
              GError      **error)
{
  if (!gnn_functional_check_args ("nll_loss", input, target, weight, reduction, FALSE, error))
    return NULL;
  return gnn_tensor_nll_loss (input, target, weight, ignore_index, reduction, error);
}

/* @weight ([C]) shaped to broadcast along the class dim of an input of
 * @ndim dims: [1, C, 1, ...], or itself for a 1-d input. */
static GnnTensor *
class_weight_view (GnnTensor  *weight,
                   guint       ndim,
                   GError    **error)
{
  gint64 shape[GNN_MAX_DIMS];

  if (ndim <= 1)
    return g_object_ref (weight);
  for (guint d = 0; d < ndim; d++)
    shape[d] = d == 1 ? -1 : 1;
  return gnn_tensor_reshape (weight, shape, ndim, error);
}

/* "weight tensor should be defined either for all 3 classes ..." */
static gboolean
check_class_weight (GnnTensor  *weight,
                    gint64      classes,
                    GError    **error)
{
  guint ndim = 0;
  const gint64 *shape;

  if (weight == NULL)
    return TRUE;
  shape = gnn_tensor_get_shape (weight, &ndim);
  if (ndim == 1 && shape[0] == classes)
    return TRUE;
  {
    g_autoptr(GString) s = g_string_new ("[");

    for (guint d = 0; d < ndim; d++)
      g_string_append_printf (s, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, shape[d]);
    g_string_append_c (s, ']');
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "cross_entropy: weight tensor should be defined either for all %" G_GINT64_FORMAT
                 " classes or no classes but got weight tensor of shape: %s", classes, s->str);
  }
  return FALSE;
}

/* PyTorch's cross_entropy_loss_prob_target: -Σ w_c t_c logp_c with the
 * targets smoothed toward uniform, the mean over the samples. */
static GnnTensor *
cross_entropy_probabilities (GnnTensor    *logp,
                             GnnTensor    *target,
                             GnnTensor    *weight,
                             GnnReduction  reduction,
                             double        label_smoothing,
                             gint64        classes,
                             GError      **error)
{
  gint class_dim = gnn_tensor_get_ndim (logp) == 1 ? 0 : 1;
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) prod = NULL;
  g_autoptr(GnnTensor) weighted = NULL;
  g_autoptr(GnnTensor) total = NULL;

  if (label_smoothing > 0)
    {
      g_autoptr(GnnTensor) scaled = NULL;

      TRY (scaled = gnn_tensor_mul_scalar (target, 1.0 - label_smoothing, error));
      TRY (t = gnn_tensor_add_scalar (scaled, label_smoothing / (double) classes, error));
    }
  else
    t = g_object_ref (target);
  TRY (prod = gnn_tensor_mul (logp, t, error));
  if (weight != NULL)
    {
      g_autoptr(GnnTensor) wv = NULL;

      TRY (wv = class_weight_view (weight, gnn_tensor_get_ndim (logp), error));
      TRY (weighted = gnn_tensor_mul (prod, wv, error));
    }
  else
    weighted = g_object_ref (prod);
  if (reduction == GNN_REDUCTION_NONE)
    {
      g_autoptr(GnnTensor) rows = NULL;

      TRY (rows = gnn_tensor_sum (weighted, &class_dim, 1, FALSE, error));
      return gnn_tensor_neg (rows, error);
    }
  TRY (total = gnn_tensor_sum (weighted, NULL, 0, FALSE, error));
  if (reduction == GNN_REDUCTION_SUM)
    return gnn_tensor_neg (total, error);
  /* the mean over the samples; NaN for none */
  return gnn_tensor_mul_scalar (total,
                                -1.0 / ((double) gnn_tensor_get_numel (logp) / (double) classes),
                                error);
}

/* The label smoothing term of PyTorch's cross_entropy with class indices:
 * -Σ_c w_c logp_c per sample, 0 for ignored targets, reduced (the mean
 * over the weight of the non-ignored targets, as nll_loss's). */
static GnnTensor *
smoothing_term (GnnTensor    *logp,
                GnnTensor    *target,
                GnnTensor    *weight,
                gint64        ignore_index,
                GnnReduction  reduction,
                GError      **error)
{
  gint class_dim = gnn_tensor_get_ndim (logp) == 1 ? 0 : 1;
  GnnDType dtype = gnn_tensor_get_dtype (logp);
  g_autoptr(GnnTensor) weighted = NULL;
  g_autoptr(GnnTensor) rows = NULL;
  g_autoptr(GnnTensor) kept = NULL;
  g_autoptr(GnnTensor) ignored = NULL;
  g_autoptr(GnnTensor) keep = NULL;
  g_autoptr(GnnTensor) masked = NULL;
  g_autoptr(GnnTensor) total = NULL;
  g_autoptr(GnnTensor) ignore = gnn_tensor_new_scalar ((double) ignore_index, GNN_DTYPE_I64);

  if (weight != NULL)
    {
      g_autoptr(GnnTensor) wv = NULL;

      TRY (wv = class_weight_view (weight, gnn_tensor_get_ndim (logp), error));
      TRY (weighted = gnn_tensor_mul (logp, wv, error));
    }
  else
    weighted = g_object_ref (logp);
  TRY (rows = gnn_tensor_sum (weighted, &class_dim, 1, FALSE, error));
  TRY (ignored = gnn_tensor_ne (target, ignore, error));
  TRY (keep = gnn_tensor_to_dtype (ignored, dtype, error));
  TRY (kept = gnn_tensor_mul (rows, keep, error));
  TRY (masked = gnn_tensor_neg (kept, error));
  if (reduction == GNN_REDUCTION_NONE)
    return g_steal_pointer (&masked);
  TRY (total = gnn_tensor_sum (masked, NULL, 0, FALSE, error));
  if (reduction == GNN_REDUCTION_SUM)
    return g_steal_pointer (&total);
  {
    /* the denominator: Σ weight[t] (or the count) over non-ignored targets */
    g_autofree double *t = gnn_tensor_to_doubles (target, NULL);
    g_autofree double *w = weight != NULL ? gnn_tensor_to_doubles (weight, NULL) : NULL;
    gint64 n = gnn_tensor_get_numel (target);
    double denom = 0;

    for (gint64 i = 0; i < n; i++)
      if ((gint64) t[i] != ignore_index)
        denom += w != NULL ? w[(gint64) t[i]] : 1.0;
    return gnn_tensor_mul_scalar (total, 1.0 / denom, error);
  }
}

/**
 * gnn_cross_entropy:
 * @input: unnormalized scores (logits), `[N, C]`, `[C]` or `[N, C, d1, ...]`
 * @target: class indices (int64), `[N]`, `[]` or `[N, d1, ...]`; or class
 *   probabilities of @input's shape (floating point)
 * @weight: (nullable): a weight per class, `[C]`
 * @ignore_index: a target value that contributes nothing (PyTorch's default is -100)
 * @reduction: how to reduce the per-element losses
 * @label_smoothing: in [0, 1]: the share of the target mass spread evenly
 *   over all classes
 * @error: return location for a #GError
 *
 * The cross-entropy loss, `torch.nn.functional.cross_entropy`: log_softmax
 * over the class dim followed by nll_loss for class indices, with PyTorch's
 * label smoothing (for the mean reduction the smoothing term is divided by
 * the same total weight of the non-ignored targets as the nll term); for
 * class probabilities, `-Σ_c w_c p_c log_softmax (x)_c` (the probabilities
 * smoothed toward uniform first), the mean taken over the samples. Only
 * PyTorch's default @ignore_index (-100) is accepted with probabilities.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_cross_entropy (GnnTensor    *input,
                   GnnTensor    *target,
                   GnnTensor    *weight,
                   gint64        ignore_index,
                   GnnReduction  reduction,
                   double        label_smoothing,
                   GError      **error)
{
  g_autoptr(GnnTensor) logp = NULL;
  g_autoptr(GnnTensor) nll = NULL;
  g_autoptr(GnnTensor) smooth = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  guint ndim, tndim;
  const gint64 *shape, *tshape;
  gint64 classes;

  if (!gnn_functional_check_args ("cross_entropy", input, target, weight, reduction, FALSE, error))
    return NULL;
  if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "label_smoothing must be between 0.0 and 1.0. Got: %g", label_smoothing);
      return NULL;
    }
  shape = gnn_tensor_get_shape (input, &ndim);
  tshape = gnn_tensor_get_shape (target, &tndim);
  if (ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Expected 1 or more dimensions (got 0)");
      return NULL;
    }
  classes = shape[ndim == 1 ? 0 : 1];
  TRY (logp = gnn_tensor_log_softmax (input, ndim == 1 ? 0 : 1, error));

  /* class probabilities: a floating target of the input's shape */
  if (tndim == ndim && memcmp (shape, tshape, sizeof (gint64) * ndim) == 0 &&
      gnn_dtype_is_floating (gnn_tensor_get_dtype (target)))
    {
      g_autoptr(GnnTensor) t = NULL;
      g_autoptr(GnnTensor) w = NULL;

      if (ignore_index != -100)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "ignore_index is not supported for floating point target");
          return NULL;
        }
      if (!check_class_weight (weight, classes, error) ||
          !gnn_functional_weight_as (weight, gnn_tensor_get_dtype (input), &w, error))
        return NULL;
      TRY (t = gnn_tensor_get_dtype (target) == gnn_tensor_get_dtype (input)
               ? g_object_ref (target) : gnn_tensor_to_dtype (target,
                               gnn_tensor_get_dtype (input), error));
      return cross_entropy_probabilities (logp, t, w, reduction, label_smoothing, classes, error);
    }

  TRY (nll = gnn_tensor_nll_loss (logp, target, weight, ignore_index, reduction, error));
  if (label_smoothing == 0.0)
    return g_steal_pointer (&nll);
  TRY (smooth = smoothing_term (logp, target, weight, ignore_index, reduction, error));
  TRY (a = gnn_tensor_mul_scalar (nll, 1.0 - label_smoothing, error));
  TRY (b = gnn_tensor_mul_scalar (smooth, label_smoothing / (double) classes, error));
  return gnn_tensor_add (a, b, error);
}

/**
 * gnn_mse_loss:
 * @input: the prediction
 * @target: the target, broadcastable with @input
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * The mean squared error, `torch.nn.functional.mse_loss`:
 * `(input - target)²`, reduced. The two broadcast together (PyTorch warns
 * when their sizes differ) in their common dtype. Differentiable with
 * respect to both.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes do not broadcast or neither is floating point
 *
 * Since: 0.1
 */
GnnTensor *
gnn_mse_loss (GnnTensor    *input,
              GnnTensor    *target,
              GnnReduction  reduction,
              GError      **error)
{
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;

  if (!gnn_functional_check_args ("mse_loss", input, target, NULL, reduction, FALSE, error) ||
      !gnn_functional_promote ("mse_cpu", input, target, &x, &y, error))
    return NULL;
  return gnn_tensor_pointwise_loss (GNN_OP_MSE_LOSS, x, y, NULL, NULL, NULL, reduction, error);
}

/**
 * gnn_binary_cross_entropy_with_logits:
 * @input: logits
 * @target: targets in [0, 1], of the same shape and dtype
 * @weight: (nullable): a rescaling weight broadcast to the loss
 * @pos_weight: (nullable): a weight for positive examples, broadcast along
 *   the last dim (one per class)
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.binary_cross_entropy_with_logits`: sigmoid and binary
 * cross-entropy in one numerically stable expression,
 * `(1 - t) x + (1 + (pos_weight - 1) t) softplus (-x)`, times @weight.
 * Differentiable with respect to @input and @target.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes differ ("Target size (torch.Size([1, 4])) must be the same as
 *   input size (torch.Size([3, 4]))") or a weight does not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_binary_cross_entropy_with_logits (GnnTensor    *input,
                                      GnnTensor    *target,
                                      GnnTensor    *weight,
                                      GnnTensor    *pos_weight,
                                      GnnReduction  reduction,
                                      GError      **error)
{
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnTensor) pw = NULL;

  g_return_val_if_fail (pos_weight == NULL || GNN_IS_TENSOR (pos_weight), NULL);
  GNN_CHECK_STORAGE ("binary_cross_entropy_with_logits", pos_weight, error, NULL);
  if (!gnn_functional_check_args ("binary_cross_entropy_with_logits", input, target, weight,
                                  reduction, FALSE, error) ||
      !gnn_functional_check_same_size (input, target, "Target size (%s) must be the same as "
                                       "input size (%s)", error))
    return NULL;
  if (!gnn_functional_promote ("binary_cross_entropy_with_logits", input, target, &x, &y, error) ||
      !gnn_functional_weight_as (weight, gnn_tensor_get_dtype (x), &w, error) ||
      !gnn_functional_weight_as (pos_weight, gnn_tensor_get_dtype (x), &pw, error))
    return NULL;
  return gnn_tensor_pointwise_loss (GNN_OP_BCE_LOGITS_LOSS, x, y, w, pw, NULL, reduction, error);
}
