/* gnn-tensor-elements.c: a tensor's element values read and written from C —
 * its data pointer and bytes, packed float/double copies, item and single
 * elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"

/**
 * gnn_tensor_get_data: (skip)
 * @self: a #GnnTensor
 *
 * Returns a pointer to the first element. Elements are laid out as the
 * strides say; check [method@Gnn.Tensor.is_contiguous] or call
 * [method@Gnn.Tensor.contiguous] before treating it as a packed array.
 *
 * Returns: (transfer none) (nullable): the address of element 0, or %NULL
 *   for a meta tensor (which has no memory)
 *
 * Since: 0.1
 */
gpointer
gnn_tensor_get_data (GnnTensor *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_priv_is_meta (gnn_tensor_priv (self)))
    return NULL;
  return gnn_tensor_priv_data (gnn_tensor_priv (self));
}

/**
 * gnn_tensor_get_bytes:
 * @self: a #GnnTensor
 *
 * Returns the elements packed in row-major order. For a contiguous tensor
 * the bytes share its storage (no copy; they keep the storage alive);
 * otherwise they are a packed copy.
 *
 * Returns: (transfer full) (nullable): the elements, or %NULL if memory for
 *   the packed copy cannot be allocated or @self is a meta tensor
 *
 * Since: 0.1
 */
GBytes *
gnn_tensor_get_bytes (GnnTensor *self)
{
  g_autoptr(GnnTensor) packed = NULL;
  GnnTensorPrivate *priv;
  gsize nbytes;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_priv_is_meta (gnn_tensor_priv (self)))
    return NULL;
  packed = gnn_tensor_contiguous (self);
  if (packed == NULL)
    return NULL;
  priv = gnn_tensor_priv (packed);
  nbytes = (gsize) priv->numel * gnn_dtype_get_size (priv->dtype);
  return g_bytes_new_with_free_func (gnn_tensor_priv_data (priv), nbytes,
                                     (GDestroyNotify) gnn_storage_unref,
                                     gnn_storage_ref (priv->storage));
}

static gpointer
to_packed_array (GnnTensor *self,
                 GnnDType   dtype,
                 gsize     *n_values)
{
  GnnTensorPrivate *priv = gnn_tensor_priv (self);
  gsize elsize = gnn_dtype_get_size (dtype);
  guint8 *out = g_try_malloc (MAX ((gsize) priv->numel * elsize, 1));
  gint64 strides[GNN_MAX_DIMS];

  /* an expanded view can be far larger than its storage */
  if (out == NULL || gnn_tensor_priv_is_meta (priv))
    {
      g_free (out);
      out = NULL;
      if (n_values != NULL)
        *n_values = 0;
      return NULL;
    }

  gnn_contiguous_strides (priv->shape, priv->ndim, strides);
  gnn_strided_copy (dtype, out, strides, priv->dtype, gnn_tensor_priv_data (priv),
                    priv->strides, priv->shape, priv->ndim);
  if (n_values != NULL)
    *n_values = (gsize) priv->numel;
  return out;
}

/**
 * gnn_tensor_to_floats:
 * @self: a #GnnTensor
 * @n_values: (out): the number of elements
 *
 * Copies the elements, converted to float, in row-major order.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the
 *   elements, or %NULL (with @n_values set to 0) if memory for the copy
 *   cannot be allocated, as for a huge expanded view, or @self is a meta
 *   tensor
 *
 * Since: 0.1
 */
float *
gnn_tensor_to_floats (GnnTensor *self,
                      gsize     *n_values)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return to_packed_array (self, GNN_DTYPE_F32, n_values);
}

/**
 * gnn_tensor_to_doubles:
 * @self: a #GnnTensor
 * @n_values: (out): the number of elements
 *
 * Copies the elements, converted to double, in row-major order.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the
 *   elements, or %NULL (with @n_values set to 0) if memory for the copy
 *   cannot be allocated, as for a huge expanded view, or @self is a meta
 *   tensor
 *
 * Since: 0.1
 */
double *
gnn_tensor_to_doubles (GnnTensor *self,
                       gsize     *n_values)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return to_packed_array (self, GNN_DTYPE_F64, n_values);
}

/**
 * gnn_tensor_item:
 * @self: a #GnnTensor with exactly one element
 * @error: return location for a #GError
 *
 * Reads the only element of a one-element tensor, like `tensor.item()`.
 *
 * Returns: the only element as a double, or 0 with @error set when the
 *   tensor has more or fewer than one element
 *
 * Since: 0.1
 */
double
gnn_tensor_item (GnnTensor *self,
                 GError   **error)
{
  GnnTensorPrivate *priv;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0.0);
  GNN_CHECK_STORAGE ("item", self, error, 0.0);
  priv = gnn_tensor_priv (self);
  if (priv->numel != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "a Tensor with %" G_GINT64_FORMAT " elements cannot be converted to Scalar",
                   priv->numel);
      return 0.0;
    }
  return gnn_dtype_read (priv->dtype, gnn_tensor_priv_data (priv));
}

static guint8 *
element_address (GnnTensor    *self,
                 const gint64 *index,
                 guint         n_index,
                 GError      **error)
{
  GnnTensorPrivate *priv = gnn_tensor_priv (self);
  gint64 offset = priv->offset;

  GNN_CHECK_STORAGE ("element access", self, error, NULL);
  if (n_index != priv->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "expected %u indices for a tensor of %u dimensions, got %u",
                   priv->ndim, priv->ndim, n_index);
      return NULL;
    }
  for (guint d = 0; d < n_index; d++)
    {
      gint64 i = index[d] < 0 ? index[d] + priv->shape[d] : index[d];

      if (i < 0 || i >= priv->shape[d])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "index %" G_GINT64_FORMAT " is out of bounds for dimension %u with size %"
                       G_GINT64_FORMAT, index[d], d, priv->shape[d]);
          return NULL;
        }
      offset += i * priv->strides[d];
    }
  return priv->storage->data + offset * (gint64) gnn_dtype_get_size (priv->dtype);
}

/**
 * gnn_tensor_get_element:
 * @self: a #GnnTensor
 * @index: (array length=n_index): one index per dimension; negative counts from the end
 * @n_index: the number of indices, equal to the number of dimensions
 * @error: return location for a #GError
 *
 * Reads one element, converted to a double.
 *
 * Returns: the element at @index as a double, or 0 with @error set
 *
 * Since: 0.1
 */
double
gnn_tensor_get_element (GnnTensor    *self,
                        const gint64 *index,
                        guint         n_index,
                        GError      **error)
{
  guint8 *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), 0.0);
  g_return_val_if_fail (index != NULL || n_index == 0, 0.0);
  p = element_address (self, index, n_index, error);
  return p ? gnn_dtype_read (gnn_tensor_priv (self)->dtype, p) : 0.0;
}

/**
 * gnn_tensor_set_element:
 * @self: a #GnnTensor
 * @index: (array length=n_index): one index per dimension; negative counts from the end
 * @n_index: the number of indices, equal to the number of dimensions
 * @value: the new value, converted to the tensor's dtype
 * @error: return location for a #GError
 *
 * Writes one element, converted to the tensor's dtype. Like every in-place
 * write it moves the tensor's version ([method@Gnn.Tensor.get_version]);
 * a tensor that requires grad is written only with grad mode off.
 *
 * Returns: %TRUE, or %FALSE with @error set if @index is out of range or
 *   @self requires grad while grad mode is on (%GNN_ERROR_AUTOGRAD)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_set_element (GnnTensor    *self,
                        const gint64 *index,
                        guint         n_index,
                        double        value,
                        GError      **error)
{
  GnnTensorPrivate *priv;
  guint8 *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (index != NULL || n_index == 0, FALSE);
  GNN_CHECK_STORAGE ("set_element", self, error, FALSE);
  p = element_address (self, index, n_index, error);
  if (p == NULL)
    return FALSE;
  priv = gnn_tensor_priv (self);
  if (!gnn_grad_mode_off && priv->requires_grad)
    {
      /* one element has no node of its own: refused like torch's leaf, and
       * for a tensor in the graph, rather than a silently wrong gradient */
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                           priv->grad_fn == NULL
                           ? "a leaf Variable that requires grad is being used in an in-place operation."
                           : "set_element: a tensor in the autograd graph cannot be written one "
                             "element at a time; write it under no_grad or fill_ a view");
      return FALSE;
    }
  gnn_tensor_priv_bump_version (priv);
  gnn_dtype_write (priv->dtype, p, value);
  return TRUE;
}
