/* gnn-tensor-diagonal.c: diagonals — the diagonal view, diag (a vector to
 * a matrix and back) and trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* The geometry of the @offset diagonal of dims @d1, @d2 of @p. */
static void
diagonal_geometry (GnnTensorPrivate *p,
                   gint64            offset,
                   guint             d1,
                   guint             d2,
                   gint64           *shape,
                   gint64           *strides,
                   guint            *ndim,
                   gint64           *start)
{
  gint64 len;
  guint n = 0;

  if (offset >= 0)
    len = MAX (0, MIN (p->shape[d1], p->shape[d2] - offset));
  else
    len = MAX (0, MIN (p->shape[d1] + offset, p->shape[d2]));
  *start = p->offset;
  if (len > 0)
    *start += offset >= 0 ? offset * p->strides[d2] : -offset * p->strides[d1];
  for (guint d = 0; d < p->ndim; d++)
    if (d != d1 && d != d2)
      {
        shape[n] = p->shape[d];
        strides[n++] = p->strides[d];
      }
  shape[n] = len;
  strides[n++] = p->strides[d1] + p->strides[d2];
  *ndim = n;
}

/**
 * gnn_tensor_diagonal:
 * @self: a #GnnTensor of at least 2 dims
 * @offset: which diagonal: 0 the main one, positive above, negative below
 * @dim1: the first dim of the matrices
 * @dim2: the second dim of the matrices
 * @error: return location for a #GError
 *
 * A view of the diagonal of @dim1 and @dim2 (like `torch.diagonal (self,
 * offset, dim1, dim2)`): those dims are removed and the diagonal becomes
 * the last dim.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diagonal (GnnTensor *self,
                     gint64     offset,
                     gint       dim1,
                     gint       dim2,
                     GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS], start;
  guint d1, d2, ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_wrap_dim (dim1, p->ndim, &d1, error) || !gnn_wrap_dim (dim2, p->ndim, &d2, error))
    return NULL;
  if (d1 == d2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "diagonal dimensions cannot be identical %d, %d", dim1, dim2);
      return NULL;
    }
  diagonal_geometry (p, offset, d1, d2, shape, strides, &ndim, &start);
  return gnn_tensor_record (GNN_OP_DIAGONAL, gnn_tensor_new_view_of (self, shape, strides, ndim, start),
                            &self, 1,
                            &(GnnOpParams) { .start = offset, .dims = { (gint) d1, (gint) d2 },
                                             .n_dims = 2 });
}

/**
 * gnn_tensor_diag:
 * @self: a 1-d or 2-d #GnnTensor
 * @diagonal: which diagonal (0: the main one, positive above, negative below)
 * @error: return location for a #GError
 *
 * Like `torch.diag`: a vector becomes a square matrix with it on the
 * @diagonal; a matrix gives a copy of that diagonal as a vector.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diag (GnnTensor *self,
                 gint64     diagonal,
                 GError   **error)
{
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("diag", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 2)
    {
      g_autoptr(GnnTensor) view = gnn_tensor_diagonal (self, diagonal, 0, 1, error);

      return view != NULL ? gnn_tensor_clone (view) : NULL;
    }
  if (p->ndim == 1)
    {
      gint64 n = p->shape[0] + ABS (diagonal);
      g_autoptr(GnnTensor) out = gnn_tensor_zeros ((gint64[]) { n, n }, 2, p->dtype, error);
      g_autoptr(GnnTensor) view = NULL;

      if (out == NULL)
        return NULL;
      /* the view is outside the graph: diag's own node records the op */
      {
        gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS], start;
        guint ndim;

        diagonal_geometry (gnn_tensor_priv (out), diagonal, 0, 1, shape, strides, &ndim, &start);
        view = gnn_tensor_new_view (out, shape, strides, ndim, start);
      }
      if (!gnn_tensor_copy_values_ (view, self, error))
        return NULL;
      return gnn_tensor_record (GNN_OP_DIAG_EMBED, g_steal_pointer (&out), &self, 1,
                                &(GnnOpParams) { .start = diagonal });
    }
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "diag(): Supports 1D or 2D tensors. Got "
                       "a tensor of another dimension");
  return NULL;
}

/**
 * gnn_tensor_trace:
 * @self: a 2-d #GnnTensor
 * @error: return location for a #GError
 *
 * The sum of the main diagonal (like `torch.trace`).
 *
 * Returns: (transfer full): a 0-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_trace (GnnTensor *self,
                  GError   **error)
{
  g_autoptr(GnnTensor) view = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_priv (self)->ndim != 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "trace: expected a matrix");
      return NULL;
    }
  view = gnn_tensor_diagonal (self, 0, 0, 1, error);
  return view != NULL ? gnn_tensor_sum (view, NULL, 0, FALSE, error) : NULL;
}
