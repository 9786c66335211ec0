/* gnn-tensor-create.c: the public tensor constructors (empty/zeros/full/
 * ones/arange, from data, wrapped memory, GBytes and C arrays)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* --- public creation ----------------------------------------------------- */

/* The factories' allocation: memory-less under the META default device. */
static GnnTensor *
new_on_default_device (GnnDType      dtype,
                       const gint64 *shape,
                       guint         ndim,
                       gboolean      zeroed,
                       GError      **error)
{
  gint64 numel;

  if (gnn_get_default_device () != GNN_DEVICE_META)
    return gnn_tensor_new_contiguous_checked (dtype, shape, ndim, zeroed, error);
  if (!gnn_shape_validate (shape, ndim, dtype, &numel, error))
    return NULL;
  return gnn_tensor_new_meta (GNN_TYPE_TENSOR, dtype, shape, ndim);
}

/**
 * gnn_tensor_empty:
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions (0 for a scalar)
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * Creates a contiguous tensor whose elements are not initialized.
 * Under the %GNN_DEVICE_META default device (see
 * [func@Gnn.set_default_device]) it is a meta tensor without memory.
 *
 * Returns: (transfer full): a new tensor, or %NULL if the shape is invalid
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_empty (const gint64 *shape,
                  guint         ndim,
                  GnnDType      dtype,
                  GError      **error)
{
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  return new_on_default_device (dtype, shape, ndim, FALSE, error);
}

/**
 * gnn_tensor_zeros:
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions (0 for a scalar)
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * Creates a contiguous tensor filled with zeros. A meta tensor under
 * the %GNN_DEVICE_META default device.
 *
 * Returns: (transfer full): a new tensor, or %NULL if the shape is invalid
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_zeros (const gint64 *shape,
                  guint         ndim,
                  GnnDType      dtype,
                  GError      **error)
{
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  return new_on_default_device (dtype, shape, ndim, TRUE, error);
}

/**
 * gnn_tensor_full:
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions (0 for a scalar)
 * @value: the value of every element
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * Creates a contiguous tensor filled with @value (converted to @dtype). A meta tensor under the %GNN_DEVICE_META default device.
 *
 * Returns: (transfer full): a new tensor, or %NULL if the shape is invalid
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_full (const gint64 *shape,
                 guint         ndim,
                 double        value,
                 GnnDType      dtype,
                 GError      **error)
{
  GnnTensor *self;

  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  self = new_on_default_device (dtype, shape, ndim, FALSE, error);
  if (self != NULL)
    gnn_tensor_fill_fresh (self, value);
  return self;
}

/**
 * gnn_tensor_ones:
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions (0 for a scalar)
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * Creates a contiguous tensor filled with ones.
 *
 * Returns: (transfer full): a new tensor, or %NULL if the shape is invalid
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ones (const gint64 *shape,
                 guint         ndim,
                 GnnDType      dtype,
                 GError      **error)
{
  return gnn_tensor_full (shape, ndim, 1.0, dtype, error);
}

/**
 * gnn_tensor_new_scalar:
 * @value: the value
 * @dtype: the element type
 *
 * Creates a 0-dimensional tensor holding @value.
 *
 * Returns: (transfer full): a new tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_scalar (double   value,
                       GnnDType dtype)
{
  GnnTensor *self;

  g_return_val_if_fail (gnn_dtype_get_size (dtype) != 0, NULL);
  self = gnn_tensor_new_contiguous (dtype, NULL, 0, FALSE);
  gnn_dtype_write (dtype, gnn_tensor_priv_data (gnn_tensor_priv (self)), value);
  return self;
}

/**
 * gnn_tensor_arange:
 * @start: the first value
 * @end: the bound, not included
 * @step: the difference between neighbours (not 0)
 * @dtype: the element type
 * @error: return location for a #GError
 *
 * Creates a 1-d tensor of the values from @start towards @end in steps of
 * @step, like `torch.arange (start, end, step, dtype=dtype)`.
 *
 * Returns: (transfer full): a new tensor, or %NULL on invalid arguments
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_arange (double   start,
                   double   end,
                   double   step,
                   GnnDType dtype,
                   GError **error)
{
  GnnTensor *self;
  guint8 *data;
  gsize elsize;
  gint64 n;
  double count;

  if (step == 0.0 || !isfinite (step) || !isfinite (start) || !isfinite (end))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "arange: step must be nonzero and bounds finite (start=%g, end=%g, step=%g)",
                   start, end, step);
      return NULL;
    }
  if ((step > 0 && start > end) || (step < 0 && start < end))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "upper bound and larger bound inconsistent with step sign "
                   "(start=%g, end=%g, step=%g)", start, end, step);
      return NULL;
    }
  count = ceil ((end - start) / step);
  if (count > (double) G_MAXINT32 * 64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "arange: too many elements (%g)", count);
      return NULL;
    }
  n = (gint64) count;
  self = gnn_tensor_new_contiguous_checked (dtype, &n, 1, FALSE, error);
  if (self == NULL)
    return NULL;
  data = gnn_tensor_priv_data (gnn_tensor_priv (self));
  elsize = gnn_dtype_get_size (dtype);
  for (gint64 i = 0; i < n; i++)
    gnn_dtype_write (dtype, data + i * elsize, start + (double) i * step);
  return self;
}

static gboolean
check_byte_count (gsize         n_bytes,
                  GnnDType      dtype,
                  const gint64 *shape,
                  guint         ndim,
                  gint64       *numel,
                  GError      **error)
{
  if (!gnn_shape_validate (shape, ndim, dtype, numel, error))
    return FALSE;
  if ((guint64) *numel * gnn_dtype_get_size (dtype) != n_bytes)
    {
      g_autofree char *s = gnn_shape_to_string (shape, ndim);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%" G_GSIZE_FORMAT " bytes do not fit shape %s of %s "
                   "(%" G_GINT64_FORMAT " elements of %" G_GSIZE_FORMAT " bytes)",
                   n_bytes, s, gnn_dtype_get_name (dtype), *numel, gnn_dtype_get_size (dtype));
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_tensor_new_from_data:
 * @data: (array length=n_bytes) (element-type guint8): the elements, packed in row-major order
 * @n_bytes: the size of @data in bytes; must equal numel × element size
 * @dtype: the element type of @data
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates a contiguous tensor holding a copy of @data.
 *
 * Returns: (transfer full): a new tensor, or %NULL if the sizes disagree
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_from_data (const guint8 *data,
                          gsize         n_bytes,
                          GnnDType      dtype,
                          const gint64 *shape,
                          guint         ndim,
                          GError      **error)
{
  GnnTensor *self;
  gint64 numel;

  g_return_val_if_fail (data != NULL || n_bytes == 0, NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  if (!check_byte_count (n_bytes, dtype, shape, ndim, &numel, error))
    return NULL;
  self = gnn_tensor_new_contiguous_checked (dtype, shape, ndim, FALSE, error);
  if (self != NULL && n_bytes > 0)
    memcpy (gnn_tensor_priv_data (gnn_tensor_priv (self)), data, n_bytes);
  return self;
}

/**
 * gnn_tensor_new_wrap: (skip)
 * @data: the elements, packed in row-major order, at least element-aligned
 * @n_bytes: the size of @data in bytes; must equal numel × element size
 * @dtype: the element type of @data
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions
 * @destroy: (nullable): called with @user_data when the last tensor using @data is gone
 * @user_data: data for @destroy
 * @error: return location for a #GError
 *
 * Creates a tensor that borrows @data without copying (a mapped file, a
 * shared-memory segment, an array owned by the caller). On error @destroy is
 * not called.
 *
 * Returns: (transfer full): a new tensor, or %NULL if the sizes disagree
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_wrap (gpointer       data,
                     gsize          n_bytes,
                     GnnDType       dtype,
                     const gint64  *shape,
                     guint          ndim,
                     GDestroyNotify destroy,
                     gpointer       user_data,
                     GError       **error)
{
  GnnStorage *storage;
  GnnTensor *self;
  gint64 strides[GNN_MAX_DIMS];
  gint64 numel;

  g_return_val_if_fail (data != NULL || n_bytes == 0, NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);
  if (!check_byte_count (n_bytes, dtype, shape, ndim, &numel, error))
    return NULL;
  if (((guintptr) data) % gnn_dtype_get_size (dtype) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "data at %p is not aligned for %s", data, gnn_dtype_get_name (dtype));
      return NULL;
    }
  storage = gnn_storage_new_wrap (data, n_bytes, destroy, user_data);
  gnn_contiguous_strides (shape, ndim, strides);
  self = gnn_tensor_new_with_storage (storage, dtype, shape, strides, ndim, 0);
  gnn_storage_unref (storage);
  return self;
}

/**
 * gnn_tensor_new_from_bytes:
 * @bytes: the elements, packed in row-major order
 * @dtype: the element type
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates a tensor that uses the memory of @bytes without copying, keeping
 * a reference to it. Should @bytes not be aligned for @dtype, the data is
 * copied instead.
 *
 * Returns: (transfer full): a new tensor, or %NULL if the sizes disagree
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_from_bytes (GBytes       *bytes,
                           GnnDType      dtype,
                           const gint64 *shape,
                           guint         ndim,
                           GError      **error)
{
  gsize size;
  gconstpointer data;
  gint64 numel;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (shape != NULL || ndim == 0, NULL);

  data = g_bytes_get_data (bytes, &size);
  if (!check_byte_count (size, dtype, shape, ndim, &numel, error))
    return NULL;
  if (data == NULL || ((guintptr) data) % gnn_dtype_get_size (dtype) != 0)
    return gnn_tensor_new_from_data (data, size, dtype, shape, ndim, error);
  /* Tensors are writable; GBytes promise immutability to other holders,
   * so writes through such a tensor are the caller's responsibility. */
  return gnn_tensor_new_wrap ((gpointer) data, size, dtype, shape, ndim,
                              (GDestroyNotify) g_bytes_unref, g_bytes_ref (bytes), error);
}

/* n_values × element size, checked: a wrapped byte count could match a
 * small shape and hide a bad @n_values. */
static GnnTensor *
from_values (gconstpointer  values,
             gsize          n_values,
             GnnDType       dtype,
             const gint64  *shape,
             guint          ndim,
             GError       **error)
{
  gsize n_bytes;

  if (!g_size_checked_mul (&n_bytes, n_values, gnn_dtype_get_size (dtype)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%" G_GSIZE_FORMAT " values of %s overflow the address space",
                   n_values, gnn_dtype_get_name (dtype));
      return NULL;
    }
  return gnn_tensor_new_from_data (values, n_bytes, dtype, shape, ndim, error);
}

/**
 * gnn_tensor_new_from_floats:
 * @values: (array length=n_values): the elements in row-major order
 * @n_values: the number of elements
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates a float32 tensor from an array of floats (convenient from bindings).
 *
 * Returns: (transfer full): a new tensor, or %NULL if @n_values does not fit @shape
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_from_floats (const float  *values,
                            gsize         n_values,
                            const gint64 *shape,
                            guint         ndim,
                            GError      **error)
{
  g_return_val_if_fail (values != NULL || n_values == 0, NULL);
  return from_values (values, n_values, GNN_DTYPE_F32, shape, ndim, error);
}

/**
 * gnn_tensor_new_from_doubles:
 * @values: (array length=n_values): the elements in row-major order
 * @n_values: the number of elements
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates a float64 tensor from an array of doubles.
 *
 * Returns: (transfer full): a new tensor, or %NULL if @n_values does not fit @shape
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_from_doubles (const double *values,
                             gsize         n_values,
                             const gint64 *shape,
                             guint         ndim,
                             GError      **error)
{
  g_return_val_if_fail (values != NULL || n_values == 0, NULL);
  return from_values (values, n_values, GNN_DTYPE_F64, shape, ndim, error);
}

/**
 * gnn_tensor_new_from_int64s:
 * @values: (array length=n_values): the elements in row-major order
 * @n_values: the number of elements
 * @shape: (array length=ndim) (nullable): the size of each dimension
 * @ndim: the number of dimensions
 * @error: return location for a #GError
 *
 * Creates an int64 tensor from an array of 64-bit integers.
 *
 * Returns: (transfer full): a new tensor, or %NULL if @n_values does not fit @shape
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_new_from_int64s (const gint64 *values,
                            gsize         n_values,
                            const gint64 *shape,
                            guint         ndim,
                            GError      **error)
{
  g_return_val_if_fail (values != NULL || n_values == 0, NULL);
  return from_values (values, n_values, GNN_DTYPE_I64, shape, ndim, error);
}
