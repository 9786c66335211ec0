/* gnn-functional-vector.c: normalize, cosine_similarity and
 * pairwise_distance, composed of differentiable tensor ops as PyTorch
 * composes them, and one_hot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gnn/gnn.h>

#include "tensor/gnn-tensor-private.h"

#define TRY(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

/**
 * gnn_normalize:
 * @input: a floating-point #GnnTensor
 * @p: the order of the norm (PyTorch's default is 2)
 * @dim: the dimension to normalize (negative counts from the end; PyTorch's
 *   default is 1)
 * @eps: the smallest norm divided by (PyTorch's default is 1e-12)
 * @error: return location for a #GError
 *
 * Divides @input by its @p-norm along @dim, like
 * `torch.nn.functional.normalize(input, p, dim, eps)`:
 * `x / max (‖x‖_p, eps)`. Differentiable (a vector of zeros gets the
 * gradient `1 / eps`, as in PyTorch).
 *
 * Returns: (transfer full): a tensor of @input's shape, or %NULL with @error
 *   set for a non-float @input or a @dim out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_normalize (GnnTensor  *input,
               double      p,
               gint        dim,
               double      eps,
               GError    **error)
{
  g_autoptr(GnnTensor) norm = NULL;
  g_autoptr(GnnTensor) denom = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  TRY (norm = gnn_tensor_norm (input, p, &dim, 1, TRUE, error));
  /* clamp_min (eps): PyTorch's gradient is 0 below eps, as threshold's */
  TRY (denom = gnn_tensor_threshold (norm, eps, eps, error));
  return gnn_tensor_div (input, denom, error);
}

/* ‖x‖ along @dim (kept), at least @eps, with the gradient of the unclamped
 * norm: PyTorch clamps a clone of the norm in place under no_grad. */
static GnnTensor *
clamped_norm (GnnTensor  *x,
              gint        dim,
              double      eps,
              GError    **error)
{
  g_autoptr(GnnTensor) norm = NULL;
  g_autoptr(GnnTensor) delta = NULL;

  TRY (norm = gnn_tensor_norm (x, 2, &dim, 1, TRUE, error));
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) clamped = NULL;

    TRY (clamped = gnn_tensor_threshold (norm, eps, eps, error));
    TRY (delta = gnn_tensor_sub (clamped, norm, error));
  }
  return gnn_tensor_add (norm, delta, error);
}

/* Both operands expanded to their broadcast shape (views, recorded). */
static gboolean
broadcast_pair (GnnTensor  *a,
                GnnTensor  *b,
                GnnTensor **a_out,
                GnnTensor **b_out,
                GError    **error)
{
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;
  GnnTensorPrivate *ap = gnn_tensor_priv (a), *bp = gnn_tensor_priv (b);

  if (!gnn_broadcast_shapes (ap->shape, ap->ndim, bp->shape, bp->ndim, shape, &ndim, error))
    return FALSE;
  *a_out = gnn_tensor_expand (a, shape, ndim, error);
  if (*a_out == NULL)
    return FALSE;
  *b_out = gnn_tensor_expand (b, shape, ndim, error);
  if (*b_out == NULL)
    {
      g_clear_object (a_out);
      return FALSE;
    }
  return TRUE;
}

/* PyTorch's message for integer operands of the distance functions. */
static gboolean
check_floating_pair (GnnTensor  *x1,
                     GnnTensor  *x2,
                     GError    **error)
{
  GnnDType a = gnn_tensor_get_dtype (x1), b = gnn_tensor_get_dtype (x2);

  if (!gnn_dtype_is_floating (a) && !gnn_dtype_is_floating (b))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected common dtype to be floating point, yet common dtype is %s",
                   gnn_dtype_get_name (a));
      return FALSE;
    }
  return gnn_check_same_dtype ("cosine_similarity", x1, x2, error);
}

/**
 * gnn_cosine_similarity:
 * @x1: a floating-point #GnnTensor
 * @x2: a tensor of the same dtype, broadcastable with @x1
 * @dim: the dimension of the vectors (negative counts from the end;
 *   PyTorch's default is 1)
 * @eps: the smallest norm divided by (PyTorch's default is 1e-8)
 * @error: return location for a #GError
 *
 * The cosine of the angle between the vectors along @dim, like
 * `torch.nn.functional.cosine_similarity(x1, x2, dim, eps)`, computed as
 * PyTorch 1.13 does: `Σ (x1 / max (‖x1‖, eps)) (x2 / max (‖x2‖, eps))`.
 * Differentiable with respect to both.
 *
 * Returns: (transfer full): the similarities (the broadcast shape without
 *   @dim), or %NULL with @error set for shapes that do not broadcast, a
 *   @dim out of range or non-float operands
 *
 * Since: 0.1
 */
GnnTensor *
gnn_cosine_similarity (GnnTensor  *x1,
                       GnnTensor  *x2,
                       gint        dim,
                       double      eps,
                       GError    **error)
{
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) na = NULL;
  g_autoptr(GnnTensor) nb = NULL;
  g_autoptr(GnnTensor) ua = NULL;
  g_autoptr(GnnTensor) ub = NULL;
  g_autoptr(GnnTensor) prod = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (x1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (x2), NULL);
  if (!check_floating_pair (x1, x2, error) || !broadcast_pair (x1, x2, &a, &b, error))
    return NULL;
  TRY (na = clamped_norm (a, dim, eps, error));
  TRY (nb = clamped_norm (b, dim, eps, error));
  TRY (ua = gnn_tensor_div (a, na, error));
  TRY (ub = gnn_tensor_div (b, nb, error));
  TRY (prod = gnn_tensor_mul (ua, ub, error));
  return gnn_tensor_sum (prod, &dim, 1, FALSE, error);
}

/**
 * gnn_pairwise_distance:
 * @x1: a floating-point #GnnTensor, `[N, D]` or `[D]`
 * @x2: a tensor of the same dtype, broadcastable with @x1
 * @p: the order of the norm (PyTorch's default is 2)
 * @eps: added to the differences (PyTorch's default is 1e-6)
 * @keepdim: whether the vector dimension stays with size 1
 * @error: return location for a #GError
 *
 * The @p-norm distance between the vectors of the last dimension, like
 * `torch.nn.functional.pairwise_distance(x1, x2, p, eps, keepdim)`:
 * `‖x1 - x2 + eps‖_p`. Differentiable with respect to both.
 *
 * Returns: (transfer full): the distances, or %NULL with @error set for
 *   shapes that do not broadcast or non-float operands
 *
 * Since: 0.1
 */
GnnTensor *
gnn_pairwise_distance (GnnTensor  *x1,
                       GnnTensor  *x2,
                       double      p,
                       double      eps,
                       gboolean    keepdim,
                       GError    **error)
{
  g_autoptr(GnnTensor) diff = NULL;
  g_autoptr(GnnTensor) shifted = NULL;
  gint last = -1;

  g_return_val_if_fail (GNN_IS_TENSOR (x1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (x2), NULL);
  if (!check_floating_pair (x1, x2, error))
    return NULL;
  TRY (diff = gnn_tensor_sub (x1, x2, error));
  TRY (shifted = gnn_tensor_add_scalar (diff, eps, error));
  return gnn_tensor_norm (shifted, p, &last, 1, keepdim, error);
}

/**
 * gnn_one_hot:
 * @tensor: class indices (int64)
 * @num_classes: the number of classes, or -1 for the largest index + 1
 * @error: return location for a #GError
 *
 * One-hot encodes @tensor, like
 * `torch.nn.functional.one_hot(tensor, num_classes)`: an int64 tensor of
 * @tensor's shape plus a last dimension of @num_classes, 1 at each index
 * and 0 elsewhere.
 *
 * Returns: (transfer full): the encoding, or %NULL with @error set (in
 *   PyTorch's words) for a non-int64 @tensor, a negative index, an index
 *   not below @num_classes, or an empty @tensor with @num_classes -1
 *
 * Since: 0.1
 */
GnnTensor *
gnn_one_hot (GnnTensor  *tensor,
             gint64      num_classes,
             GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) packed = NULL;
  gint64 shape[GNN_MAX_DIMS + 1], largest = -1;
  const gint64 *idx;
  GnnTensor *out;
  gint64 *o;

  g_return_val_if_fail (GNN_IS_TENSOR (tensor), NULL);
  GNN_CHECK_STORAGE ("one_hot", tensor, error, NULL);
  p = gnn_tensor_priv (tensor);
  if (p->dtype != GNN_DTYPE_I64)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "one_hot is only applicable to index tensor.");
      return NULL;
    }
  if (p->ndim >= GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "one_hot: the result would have more than %d dimensions", GNN_MAX_DIMS);
      return NULL;
    }
  if ((packed = gnn_tensor_contiguous_checked (tensor, error)) == NULL)
    return NULL;
  idx = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (packed));
  if (p->numel == 0 && num_classes == -1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Can not infer total number of classes from empty tensor.");
      return NULL;
    }
  for (gint64 k = 0; k < p->numel; k++)
    {
      if (idx[k] < 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                               "Class values must be non-negative.");
          return NULL;
        }
      largest = MAX (largest, idx[k]);
    }
  if (num_classes == -1)
    num_classes = largest + 1;
  else if (largest >= num_classes)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "Class values must be smaller than num_classes.");
      return NULL;
    }
  if (num_classes < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "one_hot: num_classes must be -1 or non-negative, got %" G_GINT64_FORMAT,
                   num_classes);
      return NULL;
    }
  memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
  shape[p->ndim] = num_classes;
  out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, shape, p->ndim + 1, TRUE, error);
  if (out == NULL)
    return NULL;
  o = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 k = 0; k < p->numel; k++)
    o[k * num_classes + idx[k]] = 1;
  return out;
}
