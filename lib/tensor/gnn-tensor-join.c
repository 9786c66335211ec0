/* gnn-tensor-join.c: cat and stack
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* PyTorch skips 1-d empty tensors in cat whatever the other shapes are. */
static gboolean
is_legacy_empty (GnnTensorPrivate *p)
{
  return p->ndim == 1 && p->shape[0] == 0;
}

static gboolean
check_dtypes (const char  *op,
              GnnTensor  **tensors,
              guint        n_tensors,
              GError     **error)
{
  GnnDType dtype = gnn_tensor_priv (tensors[0])->dtype;

  for (guint i = 1; i < n_tensors; i++)
    {
      GnnDType di = gnn_tensor_priv (tensors[i])->dtype;

      if (di != dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "%s: expected all tensors to have the same dtype, got %s at entry 0 "
                       "and %s at entry %u", op, gnn_dtype_get_name (dtype),
                       gnn_dtype_get_name (di), i);
          return FALSE;
        }
    }
  return TRUE;
}

/* Copies @src into the slab of @dst that starts at @start along @dim. The
 * strided copy coalesces contiguous runs, so contiguous inputs go through
 * one memmove per outer index. */
static void
copy_into_slab (GnnTensorPrivate *dp,
                guint             dim,
                gint64            start,
                GnnTensorPrivate *sp)
{
  gsize es = gnn_dtype_get_size (dp->dtype);
  guint8 *d = gnn_tensor_priv_data (dp) + start * dp->strides[dim] * (gint64) es;

  gnn_strided_copy (dp->dtype, d, dp->strides, sp->dtype, gnn_tensor_priv_data (sp),
                    sp->strides, sp->shape, sp->ndim);
}

/**
 * gnn_tensor_cat:
 * @tensors: (array length=n_tensors): the tensors to join, all of one dtype
 * @n_tensors: the number of tensors (at least 1)
 * @dim: the dim to join along (may be negative)
 * @error: return location for a #GError
 *
 * Joins tensors along an existing dim, like `torch.cat (tensors, dim)`. All
 * tensors must have the same number of dims and the same sizes except in
 * @dim; as in PyTorch, 1-d tensors with no elements are skipped.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cat (GnnTensor **tensors,
                guint       n_tensors,
                gint        dim,
                GError    **error)
{
  GnnTensorPrivate *ref = NULL;
  gint64 shape[GNN_MAX_DIMS];
  guint d;
  gint64 start = 0;
  GnnTensor *out;
  GnnTensorPrivate *op;

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  if (n_tensors == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "torch.cat(): expected a non-empty list of Tensors");
      return NULL;
    }
  for (guint i = 0; i < n_tensors; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      GNN_CHECK_STORAGE ("cat", tensors[i], error, NULL);
      if (gnn_tensor_priv (tensors[i])->ndim == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "zero-dimensional tensor (at position %u) cannot be concatenated", i);
          return NULL;
        }
    }
  if (!check_dtypes ("cat", tensors, n_tensors, error))
    return NULL;

  /* the first tensor that is not a legacy empty one sets the shape */
  for (guint i = 0; i < n_tensors && ref == NULL; i++)
    if (!is_legacy_empty (gnn_tensor_priv (tensors[i])))
      ref = gnn_tensor_priv (tensors[i]);
  if (ref == NULL)
    {
      /* all are 1-d and empty: the result is too (after checking dim) */
      if (!gnn_wrap_dim (dim, 1, &d, error))
        return NULL;
      return gnn_tensor_new_contiguous_checked (gnn_tensor_priv (tensors[0])->dtype,
                                                (gint64[]) { 0 }, 1, FALSE, error);
    }
  if (!gnn_wrap_dim (dim, ref->ndim, &d, error))
    return NULL;

  memcpy (shape, ref->shape, sizeof (gint64) * ref->ndim);
  shape[d] = 0;
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);

      if (is_legacy_empty (p))
        continue;
      if (p->ndim != ref->ndim)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Tensors must have same number of dimensions: got %u and %u",
                       ref->ndim, p->ndim);
          return NULL;
        }
      for (guint e = 0; e < p->ndim; e++)
        if (e != d && p->shape[e] != ref->shape[e])
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "Sizes of tensors must match except in dimension %u. Expected size %"
                         G_GINT64_FORMAT " but got size %" G_GINT64_FORMAT
                         " for tensor number %u in the list.",
                         d, ref->shape[e], p->shape[e], i);
            return NULL;
          }
      if (!gnn_checked_add (shape[d], p->shape[d], &shape[d]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "cat: the total size along dimension %u overflows at tensor number %u "
                       "in the list", d, i);
          return NULL;
        }
    }

  out = gnn_tensor_new_contiguous_checked (ref->dtype, shape, ref->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  op = gnn_tensor_priv (out);
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);

      if (is_legacy_empty (p))
        continue;
      copy_into_slab (op, d, start, p);
      start += p->shape[d];
    }
  return gnn_tensor_record (GNN_OP_CAT, out, tensors, n_tensors, &(GnnOpParams) { .dim = dim });
}

/**
 * gnn_tensor_stack:
 * @tensors: (array length=n_tensors): the tensors to join, all of one shape
 *   and dtype
 * @n_tensors: the number of tensors (at least 1)
 * @dim: where the new dim goes, in `[-ndim - 1, ndim]`
 * @error: return location for a #GError
 *
 * Joins tensors along a new dim, like `torch.stack (tensors, dim)`.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_stack (GnnTensor **tensors,
                  guint       n_tensors,
                  gint        dim,
                  GError    **error)
{
  GnnTensorPrivate *first, *op;
  gint64 shape[GNN_MAX_DIMS];
  GnnTensor *out;
  guint d;

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  if (n_tensors == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "stack expects a non-empty TensorList");
      return NULL;
    }
  for (guint i = 0; i < n_tensors; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      GNN_CHECK_STORAGE ("stack", tensors[i], error, NULL);
    }
  first = gnn_tensor_priv (tensors[0]);
  if (!gnn_wrap_dim (dim, first->ndim + 1, &d, error))
    return NULL;
  for (guint i = 1; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);

      if (p->ndim != first->ndim ||
          memcmp (p->shape, first->shape, sizeof (gint64) * p->ndim) != 0)
        {
          g_autofree char *s0 = gnn_shape_to_string (first->shape, first->ndim);
          g_autofree char *si = gnn_shape_to_string (p->shape, p->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "stack expects each tensor to be equal size, but got %s at entry 0 "
                       "and %s at entry %u", s0, si, i);
          return NULL;
        }
    }
  if (!check_dtypes ("stack", tensors, n_tensors, error))
    return NULL;
  if (first->ndim + 1 > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "too many dimensions: %u (at most %d)", first->ndim + 1, GNN_MAX_DIMS);
      return NULL;
    }

  for (guint e = 0, s = 0; e <= first->ndim; e++)
    shape[e] = e == d ? (gint64) n_tensors : first->shape[s++];
  out = gnn_tensor_new_contiguous_checked (first->dtype, shape, first->ndim + 1, FALSE, error);
  if (out == NULL)
    return NULL;
  op = gnn_tensor_priv (out);

  /* each input fills the slice at index i of the new dim: view the output
   * without that dim and copy */
  {
    gint64 strides[GNN_MAX_DIMS];
    gsize es = gnn_dtype_get_size (first->dtype);

    for (guint e = 0, s = 0; e <= first->ndim; e++)
      if (e != d)
        strides[s++] = op->strides[e];
    for (guint i = 0; i < n_tensors; i++)
      {
        GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);

        gnn_strided_copy (first->dtype,
                          gnn_tensor_priv_data (op) + (gint64) i * op->strides[d] * (gint64) es,
                          strides, p->dtype, gnn_tensor_priv_data (p), p->strides,
                          p->shape, p->ndim);
      }
  }
  return gnn_tensor_record (GNN_OP_STACK, out, tensors, n_tensors, &(GnnOpParams) { .dim = dim });
}
