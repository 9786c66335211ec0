/* gnn-tensor-borrow.c: tensors over memory the caller owns, and the address
 * of a tensor's memory, for bindings that share memory with their own arrays
 * (numpy's `t.numpy()` and `torch.from_numpy` share, they do not copy)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>

#include "tensor/gnn-tensor-private.h"

/**
 * gnn_tensor_get_data_address:
 * @self: a #GnnTensor
 *
 * Gets the address of the tensor's element 0 as an integer, for bindings
 * that view a tensor's memory in place (numpy's `__array_interface__`).
 * Element (i, j, …) lies at that address plus (i × stride 0 + j × stride 1
 * + …) × the element size ([method@Gnn.Tensor.get_strides]). The memory
 * stays valid while a tensor sharing it lives: keep one with the view (a
 * [method@Gnn.Tensor.detach] of @self shares its storage even if @self is
 * later given another, e.g. by [method@Gnn.Module.to_dtype]).
 *
 * Returns: the address of element 0, or 0 for a meta tensor
 *
 * Since: 0.1
 */
guint64
gnn_tensor_get_data_address (GnnTensor *self)
{
  GnnTensorPrivate *priv;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0);
  priv = gnn_tensor_priv (self);
  if (gnn_tensor_priv_is_meta (priv))
    return 0;
  return (guint64) (guintptr) gnn_tensor_priv_data (priv);
}

/* The bytes from element 0 to just past the last element: @extent, or FALSE
 * with @error for negative strides or an extent that overflows. */
static gboolean
borrowed_extent (GnnDType      dtype,
                 const gint64 *shape,
                 const gint64 *strides,
                 guint         ndim,
                 gint64        numel,
                 gsize        *extent,
                 GError      **error)
{
  gsize elsize = gnn_dtype_get_size (dtype);
  guint64 last = 0;

  for (guint d = 0; d < ndim; d++)
    {
      guint64 step;

      if (strides[d] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "new_from_address: stride %" G_GINT64_FORMAT " of dimension %u is "
                       "negative (tensors with negative strides are not supported)",
                       strides[d], d);
          return FALSE;
        }
      if (numel == 0)
        continue;
      if (!g_uint64_checked_mul (&step, (guint64) (shape[d] - 1), (guint64) strides[d]) ||
          !g_uint64_checked_add (&last, last, step))
        goto overflow;
    }
  if (numel == 0)
    {
      *extent = 0;
      return TRUE;
    }
  if (!g_uint64_checked_add (&last, last, 1) ||
      !g_uint64_checked_mul (&last, last, elsize) || last > G_MAXSIZE)
    goto overflow;
  *extent = (gsize) last;
  return TRUE;

overflow:
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "new_from_address: the strides reach beyond the address space");
  return FALSE;
}

/**
 * gnn_tensor_new_from_address:
 * @address: the address of element 0, as an integer (0 only when the
 *   tensor has no elements)
 * @dtype: the element type
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions
 * @strides: (array length=n_strides) (nullable): the distance between
 *   neighbours along each dimension, in elements, non-negative; %NULL for
 *   row-major contiguous elements
 * @n_strides: the number of strides: @ndim, or 0 with %NULL @strides
 * @owner: (nullable): an object that owns the memory; the tensor's storage
 *   keeps a reference to it until the last tensor using the memory is gone
 * @error: return location for a #GError
 *
 * Creates a tensor over memory the caller owns, without copying: writes
 * through the tensor change that memory and the other way round. This is
 * how a binding shares an array's memory (Python's `Gnn.from_numpy`,
 * `torch.from_numpy`), keeping the array alive through @owner (any object
 * whose lifetime keeps the memory valid). The memory must be writable and
 * aligned for @dtype, and hold every element the shape and strides reach.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set for a
 *   bad shape, negative or mismatched strides, a misaligned or null address
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_from_address (guint64        address,
                             GnnDType       dtype,
                             const gint64  *shape,
                             guint          ndim,
                             const gint64  *strides,
                             guint          n_strides,
                             GObject       *owner,
                             GError       **error)
{
  gint64 contiguous[GNN_MAX_DIMS];
  GnnStorage *storage;
  GnnTensor *self;
  gint64 numel;
  gsize extent;

  g_return_val_if_fail (owner == NULL || G_IS_OBJECT (owner), NULL);
  if (!gnn_shape_validate (shape, ndim, dtype, &numel, error))
    return NULL;
  if (strides == NULL && n_strides == 0)
    {
      gnn_contiguous_strides (shape, ndim, contiguous);
      strides = contiguous;
    }
  else if (strides == NULL || n_strides != ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "new_from_address: %u strides given for %u dimensions", n_strides, ndim);
      return NULL;
    }
  if (!borrowed_extent (dtype, shape, strides, ndim, numel, &extent, error))
    return NULL;
  if (numel > 0 && address == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "new_from_address: the address is null");
      return NULL;
    }
  if (address % gnn_dtype_get_size (dtype) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "new_from_address: address 0x%" G_GINT64_MODIFIER "x is not aligned for %s",
                   address, gnn_dtype_get_name (dtype));
      return NULL;
    }
  if (address > (guint64) UINTPTR_MAX - extent)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "new_from_address: the elements reach beyond the address space");
      return NULL;
    }
  storage = gnn_storage_new_wrap ((gpointer) (guintptr) address, extent,
                                  owner != NULL ? g_object_unref : NULL,
                                  owner != NULL ? g_object_ref (owner) : NULL);
  self = gnn_tensor_new_with_storage (storage, dtype, shape, strides, ndim, 0);
  gnn_storage_unref (storage);
  return self;
}
