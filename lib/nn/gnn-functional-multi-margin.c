/* gnn-functional-multi-margin.c: torch.nn.functional's multi_margin_loss and
 * multilabel_margin_loss (kernels of their own in lib/tensor, as PyTorch's),
 * and triplet_margin_with_distance_loss, composed of differentiable ops
 * around a distance function as PyTorch composes it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gnn/gnn.h>

#include "nn/gnn-functional-private.h"
#include "tensor/gnn-nn-ops-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

/**
 * gnn_multi_margin_loss:
 * @input: class scores, `[N, C]`, `[C]` or 0-d
 * @target: the class of each sample (int64), `[N]` (or `[1]` / 0-d)
 * @p: 1 or 2, the power of the hinge (PyTorch's default is 1)
 * @margin: the margin (PyTorch's default is 1)
 * @weight: (nullable): a weight per class (one-dimensional, C values, the
 *   input's dtype)
 * @reduction: how to reduce the per-sample losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.multi_margin_loss`: per sample, the sum over the
 * classes `i ≠ y` of `w[y] max (0, margin - x[y] + x[i])^p`, divided by C,
 * then reduced. Differentiable with respect to @input
 * (`MultiMarginLossBackward0`).
 *
 * Returns: (transfer full): the loss, or %NULL with @error set (PyTorch's
 *   messages: "only p == 1 and p == 2 supported", "target out of range",
 *   "inconsistent target size, got: [2]", ...)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multi_margin_loss (GnnTensor    *input,
                       GnnTensor    *target,
                       gint64        p,
                       double        margin,
                       GnnTensor    *weight,
                       GnnReduction  reduction,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  g_return_val_if_fail (weight == NULL || GNN_IS_TENSOR (weight), NULL);
  if (!gnn_functional_check_reduction (reduction, FALSE, error))
    return NULL;
  if (p != 1 && p != 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "only p == 1 and p == 2 supported");
      return NULL;
    }
  if (weight != NULL && gnn_tensor_get_ndim (weight) != 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "weight must be one-dimensional");
      return NULL;
    }
  return gnn_tensor_multi_margin_loss (input, target, p, margin, weight, reduction, error);
}

/**
 * gnn_multilabel_margin_loss:
 * @input: class scores, `[N, C]`, `[C]` or 0-d
 * @target: the classes of each sample (int64), of the input's shape: the
 *   first ones are the sample's classes, up to the first -1
 * @reduction: how to reduce the per-sample losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.multilabel_margin_loss`: per sample, the sum over
 * its classes `j` and the other classes `i` of `max (0, 1 - x[j] + x[i])`,
 * divided by C, then reduced. Differentiable with respect to @input
 * (`MultilabelMarginLossBackward0`).
 *
 * Returns: (transfer full): the loss, or %NULL with @error set (PyTorch's
 *   messages: "argument #2 'target' is out of range", "inconsistent size
 *   [2, 4] for argument #2 'target'", ...)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_multilabel_margin_loss (GnnTensor    *input,
                            GnnTensor    *target,
                            GnnReduction  reduction,
                            GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  if (!gnn_functional_check_reduction (reduction, FALSE, error))
    return NULL;
  return gnn_tensor_multilabel_margin_loss (input, target, reduction, error);
}

/* The distance of @a and @b: @func's, or pairwise_distance's (p 2). */
static GnnTensor *
distance (GnnDistanceFunc  func,
          gpointer         user_data,
          GnnTensor       *a,
          GnnTensor       *b,
          GError         **error)
{
  GnnTensor *d;
  GError *local = NULL;

  if (func == NULL)
    return gnn_pairwise_distance (a, b, 2.0, 1e-6, FALSE, error);
  d = func (a, b, user_data, &local);
  if (d == NULL)
    {
      if (local == NULL)
        local = g_error_new_literal (GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                     "triplet_margin_with_distance_loss: the distance function "
                                     "returned no tensor");
      g_propagate_error (error, local);
      return NULL;
    }
  g_clear_error (&local);
  if (!GNN_IS_TENSOR (d))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "triplet_margin_with_distance_loss: the distance function must "
                           "return a tensor");
      return NULL;
    }
  return d;
}

/**
 * gnn_triplet_margin_with_distance_loss:
 * @anchor: the anchors
 * @positive: the positive examples
 * @negative: the negative examples
 * @distance_function: (nullable) (scope call) (closure user_data): the
 *   distance of two tensors; %NULL for [func@Gnn.pairwise_distance] (p 2)
 * @user_data: the data given to @distance_function
 * @margin: the margin (PyTorch's default is 1.0)
 * @swap: whether to use the distance between positive and negative when
 *   it is smaller (the distance swap)
 * @reduction: how to reduce the per-triplet losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.triplet_margin_with_distance_loss`:
 * `clamp (d (a, p) - d (a, n) + margin, min=0)`, reduced, with d the
 * distance function, composed of differentiable ops as PyTorch composes it
 * (so gradients reach the three inputs through whatever @distance_function
 * does).
 *
 * Returns: (transfer full): the loss, or %NULL with @error set (the
 *   distance function's error, or shapes that do not broadcast)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_triplet_margin_with_distance_loss (GnnTensor       *anchor,
                                       GnnTensor       *positive,
                                       GnnTensor       *negative,
                                       GnnDistanceFunc  distance_function,
                                       gpointer         user_data,
                                       double           margin,
                                       gboolean         swap,
                                       GnnReduction     reduction,
                                       GError         **error)
{
  g_autoptr(GnnTensor) dist_pos = NULL;
  g_autoptr(GnnTensor) dist_neg = NULL;
  g_autoptr(GnnTensor) nearest = NULL;
  g_autoptr(GnnTensor) gap = NULL;
  g_autoptr(GnnTensor) shifted = NULL;
  g_autoptr(GnnTensor) zero = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (anchor), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (positive), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (negative), NULL);
  if (!gnn_functional_check_reduction (reduction, FALSE, error))
    return NULL;
  TRY (dist_pos = distance (distance_function, user_data, anchor, positive, error));
  TRY (dist_neg = distance (distance_function, user_data, anchor, negative, error));
  if (swap)
    {
      g_autoptr(GnnTensor) dist_swap = NULL;

      TRY (dist_swap = distance (distance_function, user_data, positive, negative, error));
      TRY (nearest = gnn_tensor_minimum (dist_neg, dist_swap, error));
    }
  else
    nearest = g_object_ref (dist_neg);
  TRY (gap = gnn_tensor_sub (dist_pos, nearest, error));
  TRY (shifted = gnn_tensor_add_scalar (gap, margin, error));
  zero = gnn_tensor_new_wrapped_number (0.0);
  TRY (loss = gnn_tensor_clamp (shifted, zero, NULL, error));
  return gnn_functional_reduce (loss, reduction, error);
}
