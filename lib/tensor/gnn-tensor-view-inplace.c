/* gnn-tensor-view-inplace.c: the in-place shape ops (unsqueeze_,
 * squeeze_, transpose_, t_) — @self takes the geometry of the view and
 * its place in the graph — and squeeze over every dim of size 1
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"

/* torch refuses in-place ops on a leaf that requires grad. */
static gboolean
check_not_leaf (GnnTensor *self,
                GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  if (gnn_grad_mode_off || !p->requires_grad || p->grad_fn != NULL)
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                       "a leaf Variable that requires grad is being used in an in-place "
                       "operation.");
  return FALSE;
}

/* @self becomes @view (a view of it): its geometry, and the view's node
 * as its history. Takes @view. */
static gboolean
become_view (GnnTensor *self,
             GnnTensor *view)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *vp;

  if (view == NULL)
    return FALSE;
  vp = gnn_tensor_priv (view);
  gnn_tensor_assign_storage (self, view);
  if (vp->grad_fn != NULL)
    {
      if (sp->grad_fn_destroy != NULL && sp->grad_fn != NULL)
        sp->grad_fn_destroy (sp->grad_fn);
      sp->grad_fn = vp->grad_fn;
      sp->grad_fn_destroy = vp->grad_fn_destroy;
      sp->grad_fn_output = vp->grad_fn_output;
      sp->requires_grad = TRUE;
      vp->grad_fn = NULL;
      vp->grad_fn_destroy = NULL;
    }
  g_object_unref (view);
  return TRUE;
}

/**
 * gnn_tensor_squeeze_all:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * A view without every dimension of size 1 (like `tensor.squeeze()`).
 *
 * Returns: (transfer full): the view
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_squeeze_all (GnnTensor *self,
                        GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint nd = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  for (guint i = 0; i < p->ndim; i++)
    if (p->shape[i] != 1)
      {
        shape[nd] = p->shape[i];
        strides[nd++] = p->strides[i];
      }
  return gnn_tensor_record (GNN_OP_SQUEEZE, gnn_tensor_new_view_of (self, shape, strides, nd, p->offset),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_squeeze_all_:
 * @self: the tensor to reshape in place
 * @error: return location for a #GError
 *
 * Removes every dimension of size 1 from @self itself (like
 * `tensor.squeeze_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set for a leaf that requires grad
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_squeeze_all_ (GnnTensor *self,
                         GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return check_not_leaf (self, error) && become_view (self, gnn_tensor_squeeze_all (self, error));
}

/**
 * gnn_tensor_squeeze_:
 * @self: the tensor to reshape in place
 * @dim: the dimension to remove if its size is 1
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.squeeze] (like `tensor.squeeze_(dim)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_squeeze_ (GnnTensor *self,
                     gint       dim,
                     GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return check_not_leaf (self, error) && become_view (self, gnn_tensor_squeeze (self, dim, error));
}

/**
 * gnn_tensor_unsqueeze_:
 * @self: the tensor to reshape in place
 * @dim: where to insert a dimension of size 1
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.unsqueeze] (like `tensor.unsqueeze_(dim)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_unsqueeze_ (GnnTensor *self,
                       gint       dim,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return check_not_leaf (self, error) &&
         become_view (self, gnn_tensor_unsqueeze (self, dim, error));
}

/**
 * gnn_tensor_transpose_:
 * @self: the tensor to reshape in place
 * @dim0: a dimension
 * @dim1: another dimension
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.transpose] (like `tensor.transpose_(dim0,
 * dim1)`).
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_transpose_ (GnnTensor *self,
                       gint       dim0,
                       gint       dim1,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return check_not_leaf (self, error) &&
         become_view (self, gnn_tensor_transpose (self, dim0, dim1, error));
}

/**
 * gnn_tensor_t_:
 * @self: a tensor of at most 2 dims, transposed in place
 * @error: return location for a #GError
 *
 * In-place transpose of a matrix (like `tensor.t_()`); vectors and 0-d
 * tensors stay as they are.
 *
 * Returns: %TRUE, or %FALSE with @error set for more than 2 dims
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_t_ (GnnTensor *self,
               GError   **error)
{
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  ndim = gnn_tensor_priv (self)->ndim;
  if (ndim > 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "t_() expects a tensor with <= 2 dimensions, but self is %uD", ndim);
      return FALSE;
    }
  if (ndim < 2)
    return TRUE;
  return gnn_tensor_transpose_ (self, 0, 1, error);
}
