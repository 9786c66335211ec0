/* gnn-functional-margin.c: the margin losses of torch.nn.functional —
 * hinge_embedding_loss, margin_ranking_loss, cosine_embedding_loss,
 * triplet_margin_loss — composed of differentiable tensor ops as PyTorch
 * composes them (aten/src/ATen/native/Loss.cpp)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include <gnn/gnn.h>

#include "nn/gnn-functional-private.h"
#include "tensor/gnn-tensor-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

/* where (target == value (or != with @differ), a, 0) */
static GnnTensor *
where_target (GnnTensor  *target,
              double      value,
              gboolean    differ,
              GnnTensor  *a,
              GError    **error)
{
  g_autoptr(GnnTensor) v = gnn_tensor_new_scalar (value, gnn_tensor_get_dtype (target));
  g_autoptr(GnnTensor) zero = gnn_tensor_new_scalar (0.0, gnn_tensor_get_dtype (a));
  g_autoptr(GnnTensor) cond = NULL;

  TRY (cond = differ ? gnn_tensor_ne (target, v, error) : gnn_tensor_eq (target, v, error));
  return gnn_tensor_where (cond, a, zero, error);
}

/* max (margin - x, 0) elementwise, or max (x - margin, 0) with @minus. */
static GnnTensor *
hinge (GnnTensor  *x,
       double      margin,
       gboolean    minus,
       GError    **error)
{
  g_autoptr(GnnTensor) neg = NULL;
  g_autoptr(GnnTensor) shifted = NULL;

  if (minus)
    TRY (shifted = gnn_tensor_add_scalar (x, -margin, error));
  else
    {
      TRY (neg = gnn_tensor_neg (x, error));
      TRY (shifted = gnn_tensor_add_scalar (neg, margin, error));
    }
  return gnn_tensor_relu (shifted, error);
}

/**
 * gnn_hinge_embedding_loss:
 * @input: distances (or any scores)
 * @target: labels in {1, -1}, broadcastable with @input
 * @margin: the margin for the -1 labels (PyTorch's default is 1.0)
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.hinge_embedding_loss`: `x` where the label is 1,
 * `max (0, margin - x)` where it is -1 (both terms where it is neither),
 * reduced. Differentiable with respect to @input.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_hinge_embedding_loss (GnnTensor    *input,
                          GnnTensor    *target,
                          double        margin,
                          GnnReduction  reduction,
                          GError      **error)
{
  g_autoptr(GnnTensor) clamp = NULL;
  g_autoptr(GnnTensor) part_margin = NULL;
  g_autoptr(GnnTensor) part_self = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  if (!gnn_functional_check_reduction (reduction, FALSE, error))
    return NULL;
  TRY (clamp = hinge (input, margin, FALSE, error));
  TRY (part_margin = where_target (target, 1, TRUE, clamp, error));
  TRY (part_self = where_target (target, -1, TRUE, input, error));
  TRY (loss = gnn_tensor_add (part_margin, part_self, error));
  return gnn_functional_reduce (loss, reduction, error);
}

/**
 * gnn_margin_ranking_loss:
 * @input1: the first scores
 * @input2: the second scores, with as many dimensions
 * @target: 1 where @input1 should rank higher, -1 where @input2 should,
 *   with as many dimensions
 * @margin: the margin (PyTorch's default is 0)
 * @reduction: how to reduce the per-element losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.margin_ranking_loss`:
 * `max (0, -target × (input1 - input2) + margin)`, reduced (the three
 * broadcast together). Differentiable with respect to all three.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   numbers of dimensions differ (PyTorch's message) or the shapes do not
 *   broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_margin_ranking_loss (GnnTensor    *input1,
                         GnnTensor    *input2,
                         GnnTensor    *target,
                         double        margin,
                         GnnReduction  reduction,
                         GError      **error)
{
  g_autoptr(GnnTensor) diff = NULL;
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) prod = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input2), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  if (!gnn_functional_check_reduction (reduction, FALSE, error))
    return NULL;
  if (gnn_tensor_get_ndim (input1) != gnn_tensor_get_ndim (input2) ||
      gnn_tensor_get_ndim (input1) != gnn_tensor_get_ndim (target))
    {
      g_autofree char *s1 = gnn_functional_torch_size (input1);
      g_autofree char *s2 = gnn_functional_torch_size (input2);
      g_autofree char *st = gnn_functional_torch_size (target);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "margin_ranking_loss : All input tensors should have same dimension but got "
                   "sizes: input1: %s, input2: %s, target: %s ", s1, s2, st);
      return NULL;
    }
  TRY (diff = gnn_tensor_sub (input1, input2, error));
  TRY (t = gnn_tensor_get_dtype (target) == gnn_tensor_get_dtype (diff)
           ? g_object_ref (target) : gnn_tensor_to_dtype (target, gnn_tensor_get_dtype (diff),
                           error));
  TRY (prod = gnn_tensor_mul (t, diff, error));
  TRY (loss = hinge (prod, margin, FALSE, error));
  return gnn_functional_reduce (loss, reduction, error);
}

/* Σ a b over @dim (1 for 2-d inputs, 0 for 1-d). */
static GnnTensor *
dot (GnnTensor  *a,
     GnnTensor  *b,
     gint        dim,
     GError    **error)
{
  g_autoptr(GnnTensor) prod = NULL;

  TRY (prod = gnn_tensor_mul (a, b, error));
  return gnn_tensor_sum (prod, &dim, 1, FALSE, error);
}

/**
 * gnn_cosine_embedding_loss:
 * @input1: the first vectors, `[N, D]` (or `[D]` with a 0-d @target)
 * @input2: the second vectors, of the same shape
 * @target: 1 for pairs that should be similar, -1 for dissimilar ones, `[N]`
 *   (or 0-d)
 * @margin: the margin for dissimilar pairs, in [-1, 1] (PyTorch's default
 *   is 0)
 * @reduction: how to reduce the per-pair losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.cosine_embedding_loss`: with cos the cosine
 * similarity of the pair (`Σ x1 x2 / sqrt ((Σ x1² + 1e-12) (Σ x2² +
 * 1e-12))`), `1 - cos` for label 1 and `max (0, cos - margin)` for -1,
 * reduced. Differentiable with respect to both inputs.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set for inputs
 *   of the wrong number of dimensions (PyTorch's messages) or shapes that
 *   do not fit
 *
 * Since: 0.1
 */
GnnTensor *
gnn_cosine_embedding_loss (GnnTensor    *input1,
                           GnnTensor    *input2,
                           GnnTensor    *target,
                           double        margin,
                           GnnReduction  reduction,
                           GError      **error)
{
  guint tdim;
  gint dim;
  g_autoptr(GnnTensor) prod_sum = NULL;
  g_autoptr(GnnTensor) sq1 = NULL;
  g_autoptr(GnnTensor) sq2 = NULL;
  g_autoptr(GnnTensor) mag1 = NULL;
  g_autoptr(GnnTensor) mag2 = NULL;
  g_autoptr(GnnTensor) mags = NULL;
  g_autoptr(GnnTensor) denom = NULL;
  g_autoptr(GnnTensor) cos = NULL;
  g_autoptr(GnnTensor) neg_cos = NULL;
  g_autoptr(GnnTensor) pos = NULL;
  g_autoptr(GnnTensor) neg = NULL;
  g_autoptr(GnnTensor) out_pos = NULL;
  g_autoptr(GnnTensor) out_neg = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input2), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (target), NULL);
  if (!gnn_functional_check_reduction (reduction, FALSE, error))
    return NULL;
  tdim = gnn_tensor_get_ndim (target);
  if (tdim > 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "0D or 1D target tensor expected, multi-target not supported");
      return NULL;
    }
  if (gnn_tensor_get_ndim (input1) != tdim + 1 || gnn_tensor_get_ndim (input2) != tdim + 1)
    {
      GnnTensorPrivate *p1 = gnn_tensor_priv (input1), *p2 = gnn_tensor_priv (input2);
      g_autofree char *s1 = gnn_shape_to_string (p1->shape, p1->ndim);
      g_autofree char *s2 = gnn_shape_to_string (p2->shape, p2->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%uD target tensor expects %uD input tensors, but found inputs with sizes "
                   "%s and %s.", tdim, tdim + 1, s1, s2);
      return NULL;
    }
  dim = (gint) tdim;
  TRY (prod_sum = dot (input1, input2, dim, error));
  TRY (sq1 = dot (input1, input1, dim, error));
  TRY (sq2 = dot (input2, input2, dim, error));
  TRY (mag1 = gnn_tensor_add_scalar (sq1, 1e-12, error));
  TRY (mag2 = gnn_tensor_add_scalar (sq2, 1e-12, error));
  TRY (mags = gnn_tensor_mul (mag1, mag2, error));
  TRY (denom = gnn_tensor_sqrt (mags, error));
  TRY (cos = gnn_tensor_div (prod_sum, denom, error));
  TRY (neg_cos = gnn_tensor_neg (cos, error));
  TRY (pos = gnn_tensor_add_scalar (neg_cos, 1.0, error));
  TRY (neg = hinge (cos, margin, TRUE, error));
  TRY (out_pos = where_target (target, 1, FALSE, pos, error));
  TRY (out_neg = where_target (target, -1, FALSE, neg, error));
  TRY (loss = gnn_tensor_add (out_pos, out_neg, error));
  return gnn_functional_reduce (loss, reduction, error);
}

/**
 * gnn_triplet_margin_loss:
 * @anchor: the anchors, `[N, D]` or `[D]`
 * @positive: the positive examples, with as many dimensions
 * @negative: the negative examples, with as many dimensions
 * @margin: the margin (PyTorch's default is 1.0)
 * @p: the order of the distance's norm (PyTorch's default is 2)
 * @eps: added to the differences (PyTorch's default is 1e-6)
 * @swap: whether to use the distance between positive and negative when
 *   it is smaller (the distance swap of Balntas et al.)
 * @reduction: how to reduce the per-triplet losses
 * @error: return location for a #GError
 *
 * `torch.nn.functional.triplet_margin_loss`:
 * `max (0, margin + d (a, p) - d (a, n))` with d the pairwise distance
 * ([func@Gnn.pairwise_distance]), reduced. Differentiable with respect to
 * all three.
 *
 * Returns: (transfer full): the loss, or %NULL with @error set if the
 *   numbers of dimensions differ ("All inputs should have same dimension
 *   but got 2D, 1D and 2D inputs.") or the shapes do not broadcast
 *
 * Since: 0.1
 */
GnnTensor *
gnn_triplet_margin_loss (GnnTensor    *anchor,
                         GnnTensor    *positive,
                         GnnTensor    *negative,
                         double        margin,
                         double        p,
                         double        eps,
                         gboolean      swap,
                         GnnReduction  reduction,
                         GError      **error)
{
  guint an, pn, nn;
  g_autoptr(GnnTensor) dist_pos = NULL;
  g_autoptr(GnnTensor) dist_neg = NULL;
  g_autoptr(GnnTensor) nearest = NULL;
  g_autoptr(GnnTensor) gap = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (anchor), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (positive), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (negative), NULL);
  if (!gnn_functional_check_reduction (reduction, FALSE, error))
    return NULL;
  an = gnn_tensor_get_ndim (anchor), pn = gnn_tensor_get_ndim (positive);
  nn = gnn_tensor_get_ndim (negative);
  if (an != pn || pn != nn)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "All inputs should have same dimension but got %uD, %uD and %uD inputs.",
                   an, pn, nn);
      return NULL;
    }
  TRY (dist_pos = gnn_pairwise_distance (anchor, positive, p, eps, FALSE, error));
  TRY (dist_neg = gnn_pairwise_distance (anchor, negative, p, eps, FALSE, error));
  if (swap)
    {
      g_autoptr(GnnTensor) dist_swap = NULL;
      g_autoptr(GnnTensor) closer = NULL;

      TRY (dist_swap = gnn_pairwise_distance (positive, negative, p, eps, FALSE, error));
      TRY (closer = gnn_tensor_lt (dist_swap, dist_neg, error));
      TRY (nearest = gnn_tensor_where (closer, dist_swap, dist_neg, error));
    }
  else
    nearest = g_object_ref (dist_neg);
  TRY (gap = gnn_tensor_sub (dist_pos, nearest, error));
  TRY (loss = hinge (gap, -margin, TRUE, error));
  return gnn_functional_reduce (loss, reduction, error);
}
