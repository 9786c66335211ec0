/* gnn-tensor-view.c: operations that return views sharing storage
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* Resolves one -1 in @shape against @numel; errors as PyTorch's infer_size. */
static gboolean
infer_shape (const gint64 *shape,
             guint         ndim,
             gint64        numel,
             gint64       *out,
             GError      **error)
{
  gint infer = -1;
  gint64 known = 1;

  if (ndim > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "too many dimensions: %u (at most %d)", ndim, GNN_MAX_DIMS);
      return FALSE;
    }
  for (guint d = 0; d < ndim; d++)
    {
      out[d] = shape[d];
      if (shape[d] == -1)
        {
          if (infer >= 0)
            {
              g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                                   "only one dimension can be inferred");
              return FALSE;
            }
          infer = (gint) d;
        }
      else if (shape[d] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "invalid shape dimension %" G_GINT64_FORMAT, shape[d]);
          return FALSE;
        }
      else if (!gnn_checked_mul (known, shape[d], &known))
        {
          g_autofree char *s = gnn_shape_to_string (shape, ndim);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "shape '%s' is invalid for input of size %" G_GINT64_FORMAT
                       " (numel: integer multiplication overflow)", s, numel);
          return FALSE;
        }
    }
  if (numel == known || (infer >= 0 && known > 0 && numel % known == 0))
    {
      if (infer >= 0)
        {
          /* zeros(0).view(-1, 0): any size fits the -1 */
          if (known == 0)
            {
              g_autofree char *s = gnn_shape_to_string (shape, ndim);
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "cannot reshape tensor of 0 elements into shape %s because the "
                           "unspecified dimension size -1 can be any value and is ambiguous", s);
              return FALSE;
            }
          out[infer] = numel / known;
        }
      return TRUE;
    }
  {
    g_autofree char *s = gnn_shape_to_string (shape, ndim);
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                 "shape '%s' is invalid for input of size %" G_GINT64_FORMAT, s, numel);
  }
  return FALSE;
}

/* PyTorch's computeStride: strides for viewing (old shape, strides) as
 * @new_shape without copying, or FALSE if impossible. */
static gboolean
compute_view_strides (GnnTensorPrivate *p,
                      const gint64     *new_shape,
                      guint             new_ndim,
                      gint64           *new_strides)
{
  gint view_d = (gint) new_ndim - 1;
  gint64 chunk_base_stride, tensor_numel = 1, view_numel = 1;

  if (p->numel == 0 || p->ndim == 0)
    {
      gnn_contiguous_strides (new_shape, new_ndim, new_strides);
      return TRUE;
    }
  chunk_base_stride = p->strides[p->ndim - 1];
  for (gint td = (gint) p->ndim - 1; td >= 0; td--)
    {
      tensor_numel *= p->shape[td];
      if (td == 0 ||
          (p->shape[td - 1] != 1 && p->strides[td - 1] != tensor_numel * chunk_base_stride))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1))
            {
              new_strides[view_d] = view_numel * chunk_base_stride;
              view_numel *= new_shape[view_d];
              view_d--;
            }
          if (view_numel != tensor_numel)
            return FALSE;
          if (td > 0)
            {
              chunk_base_stride = p->strides[td - 1];
              tensor_numel = 1;
              view_numel = 1;
            }
        }
    }
  return view_d == -1;
}

/**
 * gnn_tensor_view:
 * @self: a #GnnTensor
 * @shape: (array length=ndim) (nullable): the new shape; one entry may be -1
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Like `tensor.view(shape)`: the same elements with another shape, sharing
 * storage. Fails when the strides do not allow it (use
 * [method@Gnn.Tensor.reshape]).
 *
 * Returns: (transfer full): the view, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_view (GnnTensor    *self,
                 const gint64 *shape,
                 guint         ndim,
                 GError      **error)
{
  GnnTensorPrivate *p;
  gint64 new_shape[GNN_MAX_DIMS];
  gint64 new_strides[GNN_MAX_DIMS];

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  p = gnn_tensor_priv (self);
  if (!infer_shape (shape, ndim, p->numel, new_shape, error))
    return NULL;
  if (!compute_view_strides (p, new_shape, ndim, new_strides))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "view size is not compatible with input tensor's size and stride "
                           "(at least one dimension spans across two contiguous subspaces). "
                           "Use .reshape(...) instead.");
      return NULL;
    }
  return gnn_tensor_record (GNN_OP_VIEW, gnn_tensor_new_view_of (self, new_shape, new_strides, ndim, p->offset),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_reshape:
 * @self: a #GnnTensor
 * @shape: (array length=ndim) (nullable): the new shape; one entry may be -1
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Like `tensor.reshape(shape)`: a view when the strides allow it, else a
 * contiguous copy.
 *
 * Returns: (transfer full): the reshaped tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_reshape (GnnTensor    *self,
                    const gint64 *shape,
                    guint         ndim,
                    GError      **error)
{
  GnnTensorPrivate *p;
  gint64 new_shape[GNN_MAX_DIMS];
  gint64 new_strides[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) packed = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  GNN_CHECK_STORAGE ("reshape", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (!infer_shape (shape, ndim, p->numel, new_shape, error))
    return NULL;
  if (compute_view_strides (p, new_shape, ndim, new_strides))
    return gnn_tensor_record (GNN_OP_RESHAPE,
                              gnn_tensor_new_view_of (self, new_shape, new_strides, ndim, p->offset),
                              &self, 1, NULL);
  {
    GnnNoGradGuard *guard = gnn_no_grad_guard_new ();   /* one node for the whole reshape */

    packed = gnn_tensor_copy_checked (self, p->dtype, error);
    gnn_no_grad_guard_free (guard);
    if (packed == NULL)
      return NULL;
  }
  gnn_contiguous_strides (new_shape, ndim, new_strides);
  return gnn_tensor_record (GNN_OP_RESHAPE, gnn_tensor_new_view (packed, new_shape, new_strides, ndim, 0),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_flatten:
 * @self: a #GnnTensor
 * @start_dim: the first dimension to flatten
 * @end_dim: the last dimension to flatten (-1 for the last)
 * @error: return location for a #GError
 *
 * Like `torch.flatten(self, start_dim, end_dim)`.
 *
 * Returns: (transfer full): the flattened tensor (a view when possible), or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_flatten (GnnTensor *self,
                    gint       start_dim,
                    gint       end_dim,
                    GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS];
  guint s, e, nd = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_wrap_dim (start_dim, p->ndim, &s, error) ||
      !gnn_wrap_dim (end_dim, p->ndim, &e, error))
    return NULL;
  if (p->ndim == 0)
    {
      gint64 one = 1;
      return gnn_tensor_reshape (self, &one, 1, error);
    }
  if (s > e)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "flatten() has invalid args: start_dim cannot come after end_dim");
      return NULL;
    }
  for (guint d = 0; d < s; d++)
    shape[nd++] = p->shape[d];
  shape[nd] = 1;
  for (guint d = s; d <= e; d++)
    if (!gnn_checked_mul (shape[nd], p->shape[d], &shape[nd]))
      {
        /* an empty tensor such as [0, 2**32, 2**32] flattened from dim 1 */
        g_autofree char *ss = gnn_shape_to_string (p->shape, p->ndim);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "flatten: the size of dims %u to %u of shape %s overflows", s, e, ss);
        return NULL;
      }
  nd++;
  for (guint d = e + 1; d < p->ndim; d++)
    shape[nd++] = p->shape[d];
  return gnn_tensor_reshape (self, shape, nd, error);
}

/**
 * gnn_tensor_squeeze:
 * @self: a #GnnTensor
 * @dim: the dimension to remove if its size is 1
 * @error: return location for a #GError
 *
 * Like `tensor.squeeze(dim)`: removes @dim when its size is 1, otherwise
 * returns a view of the same shape.
 *
 * Returns: (transfer full): the view, or %NULL if @dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_squeeze (GnnTensor *self,
                    gint       dim,
                    GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint d, nd = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  for (guint i = 0; i < p->ndim; i++)
    {
      if (i == d && p->shape[i] == 1)
        continue;
      shape[nd] = p->shape[i];
      strides[nd++] = p->strides[i];
    }
  return gnn_tensor_record (GNN_OP_SQUEEZE, gnn_tensor_new_view_of (self, shape, strides, nd, p->offset),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_unsqueeze:
 * @self: a #GnnTensor
 * @dim: where to insert a dimension of size 1, in [-ndim-1, ndim]
 * @error: return location for a #GError
 *
 * Like `tensor.unsqueeze(dim)`.
 *
 * Returns: (transfer full): the view, or %NULL if @dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unsqueeze (GnnTensor *self,
                      gint       dim,
                      GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint d, nd = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim >= GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "too many dimensions: %u (at most %d)", p->ndim + 1, GNN_MAX_DIMS);
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim + 1, &d, error))
    return NULL;
  for (guint i = 0; i <= p->ndim; i++)
    {
      if (i == d)
        {
          shape[nd] = 1;
          strides[nd++] = i < p->ndim ? p->shape[i] * p->strides[i] : 1;
        }
      if (i < p->ndim)
        {
          shape[nd] = p->shape[i];
          strides[nd++] = p->strides[i];
        }
    }
  return gnn_tensor_record (GNN_OP_UNSQUEEZE, gnn_tensor_new_view_of (self, shape, strides, nd, p->offset),
                            &self, 1, NULL);
}

/**
 * gnn_tensor_narrow:
 * @self: a #GnnTensor
 * @dim: the dimension to narrow
 * @start: the first index kept (negative counts from the end)
 * @length: how many indices are kept
 * @error: return location for a #GError
 *
 * Like `tensor.narrow(dim, start, length)`.
 *
 * Returns: (transfer full): the view, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_narrow (GnnTensor *self,
                   gint       dim,
                   gint64     start,
                   gint64     length,
                   GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS];
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "narrow() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  if (start < -p->shape[d] || start > p->shape[d])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "start out of range (expected to be in range of [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")",
                   -p->shape[d], p->shape[d], start);
      return NULL;
    }
  if (start < 0)
    start += p->shape[d];
  /* length > size - start: start + length could overflow */
  if (length < 0 || length > p->shape[d] - start)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "start (%" G_GINT64_FORMAT ") + length (%" G_GINT64_FORMAT
                   ") exceeds dimension size (%" G_GINT64_FORMAT ").",
                   start, length, p->shape[d]);
      return NULL;
    }
  memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
  shape[d] = length;
  return gnn_tensor_record (GNN_OP_NARROW,
                            gnn_tensor_new_view_of (self, shape, p->strides, p->ndim,
                                                 p->offset + start * p->strides[d]),
                            &self, 1, &(GnnOpParams) { .dim = (gint) d, .start = start });
}

/**
 * gnn_tensor_slice:
 * @self: a #GnnTensor
 * @dim: the dimension to slice
 * @start: the first index (negative counts from the end; clamped to the size)
 * @end: the index to stop before (negative counts from the end; clamped)
 * @step: the distance between kept indices (positive)
 * @error: return location for a #GError
 *
 * The view `t[..., start:end:step, ...]` along @dim (torch's slicing):
 * strided, sharing @self's memory.
 *
 * Returns: (transfer full): the view, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_slice (GnnTensor *self,
                  gint       dim,
                  gint64     start,
                  gint64     end,
                  gint64     step,
                  GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS], size, length;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "slice() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (step <= 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "slice step must be positive");
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  size = p->shape[d];
  if (start < 0)
    start += size;
  if (end < 0)
    end += size;
  start = CLAMP (start, 0, size);
  end = CLAMP (end, start, size);
  length = (end - start + step - 1) / step;
  memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
  memcpy (strides, p->strides, sizeof (gint64) * p->ndim);
  shape[d] = length;
  strides[d] = p->strides[d] * step;
  return gnn_tensor_record (GNN_OP_NARROW,
                            gnn_tensor_new_view_of (self, shape, strides, p->ndim,
                                                    p->offset + start * p->strides[d]),
                            &self, 1,
                            &(GnnOpParams) { .dim = (gint) d, .start = start,
                                             .ints = { step }, .n_ints = 1 });
}

/**
 * gnn_tensor_select:
 * @self: a #GnnTensor
 * @dim: the dimension to index
 * @index: the index (negative counts from the end)
 * @error: return location for a #GError
 *
 * Like `tensor.select(dim, index)`: the slice at @index, without @dim.
 *
 * Returns: (transfer full): the view, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_select (GnnTensor *self,
                   gint       dim,
                   gint64     index,
                   GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint d, nd = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "select() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  if (index < -p->shape[d] || index >= p->shape[d])
    {
      g_autofree char *s = gnn_shape_to_string (p->shape, p->ndim);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "select(): index %" G_GINT64_FORMAT " out of range for tensor of size %s "
                   "at dimension %d", index, s, dim);
      return NULL;
    }
  if (index < 0)
    index += p->shape[d];
  for (guint i = 0; i < p->ndim; i++)
    if (i != d)
      {
        shape[nd] = p->shape[i];
        strides[nd++] = p->strides[i];
      }
  return gnn_tensor_record (GNN_OP_SELECT,
                            gnn_tensor_new_view_of (self, shape, strides, nd, p->offset + index * p->strides[d]),
                            &self, 1, &(GnnOpParams) { .dim = (gint) d, .start = index });
}

/**
 * gnn_tensor_index_select:
 * @self: a #GnnTensor
 * @dim: the dimension to index
 * @index: a 1-d int64 or int32 tensor of indices (negative count from the end)
 * @error: return location for a #GError
 *
 * Like `torch.index_select(self, dim, index)`: a new tensor holding the
 * slices of @self at the given indices, in that order.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_select (GnnTensor *self,
                         gint       dim,
                         GnnTensor *index,
                         GError   **error)
{
  GNN_CHECK_STORAGE ("index_select", self, error, NULL);
  GNN_CHECK_STORAGE ("index_select", index, error, NULL);
  GnnTensorPrivate *p, *ip;
  gint64 shape[GNN_MAX_DIMS];
  GnnTensor *out;
  GnnTensorPrivate *op;
  guint d, nd;
  gint64 n;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  p = gnn_tensor_priv (self);
  ip = gnn_tensor_priv (index);
  if (ip->dtype != GNN_DTYPE_I64 && ip->dtype != GNN_DTYPE_I32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "index_select(): Expected dtype int32 or int64 for index, got %s",
                   gnn_dtype_get_name (ip->dtype));
      return NULL;
    }
  if (ip->ndim > 1)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "index_select(): Index is supposed to be a vector");
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  nd = MAX (p->ndim, 1);
  n = ip->numel;
  for (guint i = 0; i < p->ndim; i++)
    shape[i] = p->shape[i];
  if (p->ndim == 0)
    shape[0] = 1;
  /* validate every index before allocating */
  for (gint64 k = 0; k < n; k++)
    {
      const guint8 *ptr = gnn_tensor_priv_data (ip) + k * (ip->ndim ? ip->strides[0] : 0) *
                          (gint64) gnn_dtype_get_size (ip->dtype);
      gint64 i = ip->dtype == GNN_DTYPE_I64 ? *(const gint64 *) ptr : *(const gint32 *) ptr;
      gint64 size = p->ndim ? p->shape[d] : 1;

      if (i < -size || i >= size)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "index out of range in self: index %" G_GINT64_FORMAT
                       " at position %" G_GINT64_FORMAT " for dimension %u with size %"
                       G_GINT64_FORMAT, i, k, d, size);
          return NULL;
        }
    }
  if (p->ndim > 0)
    shape[d] = n;
  out = gnn_tensor_new_contiguous_checked (p->dtype, shape, p->ndim ? nd : (ip->ndim ? 1 : 0), FALSE, error);
  if (out == NULL)
    return NULL;
  op = gnn_tensor_priv (out);
  for (gint64 k = 0; k < n; k++)
    {
      const guint8 *ptr = gnn_tensor_priv_data (ip) + k * (ip->ndim ? ip->strides[0] : 0) *
                          (gint64) gnn_dtype_get_size (ip->dtype);
      gint64 i = ip->dtype == GNN_DTYPE_I64 ? *(const gint64 *) ptr : *(const gint32 *) ptr;
      gint64 sub_shape[GNN_MAX_DIMS], src_strides[GNN_MAX_DIMS], dst_strides[GNN_MAX_DIMS];
      guint sn = 0;

      if (p->ndim == 0)
        {
          memcpy (gnn_tensor_priv_data (op) + k * (gint64) gnn_dtype_get_size (p->dtype),
                  gnn_tensor_priv_data (p), gnn_dtype_get_size (p->dtype));
          continue;
        }
      if (i < 0)
        i += p->shape[d];
      for (guint j = 0; j < p->ndim; j++)
        if (j != d)
          {
            sub_shape[sn] = p->shape[j];
            src_strides[sn] = p->strides[j];
            dst_strides[sn++] = op->strides[j];
          }
      gnn_strided_copy (p->dtype,
                        gnn_tensor_priv_data (op) + k * op->strides[d] * (gint64) gnn_dtype_get_size (p->dtype),
                        dst_strides, p->dtype,
                        gnn_tensor_priv_data (p) + i * p->strides[d] * (gint64) gnn_dtype_get_size (p->dtype),
                        src_strides, sub_shape, sn);
    }
  return gnn_tensor_record (GNN_OP_INDEX_SELECT, out, &self, 1,
                            &(GnnOpParams) { .dim = (gint) d, .extra = { index } });
}

/**
 * gnn_tensor_transpose:
 * @self: a #GnnTensor
 * @dim0: a dimension
 * @dim1: another dimension
 * @error: return location for a #GError
 *
 * Like `tensor.transpose(dim0, dim1)`: a view with the two dimensions swapped.
 *
 * Returns: (transfer full): the view, or %NULL if a dimension is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_transpose (GnnTensor *self,
                      gint       dim0,
                      gint       dim1,
                      GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint a, b;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_wrap_dim (dim0, p->ndim, &a, error) || !gnn_wrap_dim (dim1, p->ndim, &b, error))
    return NULL;
  memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
  memcpy (strides, p->strides, sizeof (gint64) * p->ndim);
  if (p->ndim > 0)
    {
      shape[a] = p->shape[b];
      shape[b] = p->shape[a];
      strides[a] = p->strides[b];
      strides[b] = p->strides[a];
    }
  return gnn_tensor_record (GNN_OP_TRANSPOSE, gnn_tensor_new_view_of (self, shape, strides, p->ndim, p->offset),
                            &self, 1, &(GnnOpParams) { .dims = { (gint) a, (gint) b }, .n_dims = 2 });
}

/**
 * gnn_tensor_permute:
 * @self: a #GnnTensor
 * @dims: (array length=n_dims): the new order of the dimensions
 * @n_dims: the number of entries in @dims, equal to the number of dimensions
 * @error: return location for a #GError
 *
 * Like `tensor.permute(dims)`.
 *
 * Returns: (transfer full): the view, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_permute (GnnTensor  *self,
                    const gint *dims,
                    guint       n_dims,
                    GError    **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  gboolean seen[GNN_MAX_DIMS] = { FALSE, };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  p = gnn_tensor_priv (self);
  if (n_dims != p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "permute(): number of dimensions in the tensor input does not match the "
                   "length of the desired ordering of dimensions i.e. input.dim() = %u is not "
                   "equal to len(dims) = %u", p->ndim, n_dims);
      return NULL;
    }
  for (guint i = 0; i < n_dims; i++)
    {
      guint d;

      if (!gnn_wrap_dim (dims[i], p->ndim, &d, error))
        return NULL;
      if (seen[d])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "permute(): duplicate dims are not allowed (dim %d repeated)", dims[i]);
          return NULL;
        }
      seen[d] = TRUE;
      shape[i] = p->shape[d];
      strides[i] = p->strides[d];
    }
  {
    GnnOpParams params = { .n_dims = n_dims };

    memcpy (params.dims, dims, sizeof (gint) * n_dims);
    return gnn_tensor_record (GNN_OP_PERMUTE, gnn_tensor_new_view_of (self, shape, strides, p->ndim, p->offset),
                              &self, 1, &params);
  }
}

/**
 * gnn_tensor_expand:
 * @self: a #GnnTensor
 * @shape: (array length=ndim): the target shape; -1 keeps a dimension's size
 * @ndim: the number of dimensions, at least that of @self
 * @error: return location for a #GError
 *
 * Like `tensor.expand(shape)`: a broadcast view where expanded dimensions
 * have stride 0.
 *
 * Returns: (transfer full): the view, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_expand (GnnTensor    *self,
                   const gint64 *shape,
                   guint         ndim,
                   GError      **error)
{
  GnnTensorPrivate *p;
  gint64 out_shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint lead;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  p = gnn_tensor_priv (self);
  if (ndim < p->ndim || ndim > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "expand: the number of sizes provided (%u) must be greater or equal to the "
                   "number of dimensions in the tensor (%u)", ndim, p->ndim);
      return NULL;
    }
  lead = ndim - p->ndim;
  for (guint d = 0; d < ndim; d++)
    {
      if (d < lead)
        {
          if (shape[d] < 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "The expanded size of the tensor (%" G_GINT64_FORMAT ") isn't allowed "
                           "in a leading, non-existing dimension %u", shape[d], d);
              return NULL;
            }
          out_shape[d] = shape[d];
          strides[d] = 0;
          continue;
        }
      {
        gint64 have = p->shape[d - lead];
        gint64 want = shape[d] == -1 ? have : shape[d];

        if (have == want)
          {
            out_shape[d] = have;
            strides[d] = p->strides[d - lead];
          }
        else if (have == 1 && want >= 0)
          {
            out_shape[d] = want;
            strides[d] = 0;
          }
        else
          {
            g_autofree char *ts = gnn_shape_to_string (shape, ndim);
            g_autofree char *ss = gnn_shape_to_string (p->shape, p->ndim);
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "The expanded size of the tensor (%" G_GINT64_FORMAT ") must match the "
                         "existing size (%" G_GINT64_FORMAT ") at non-singleton dimension %u.  "
                         "Target sizes: %s.  Tensor sizes: %s", want, have, d, ts, ss);
            return NULL;
          }
      }
    }
  /* expand([2**32, 2**32]) of one element: 2**64 elements wrap to 0 */
  if (!gnn_shape_validate (out_shape, ndim, p->dtype, NULL, error))
    return NULL;
  return gnn_tensor_record (GNN_OP_EXPAND, gnn_tensor_new_view_of (self, out_shape, strides, ndim, p->offset),
                            &self, 1, NULL);
}
