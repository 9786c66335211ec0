/* gnn-tensor-shape.c: shapes, strides and the internal constructors built
 * on them; every size is computed through gnn_shape_numel_checked() (lib/core)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tensor/gnn-tensor-private.h"

void
gnn_contiguous_strides (const gint64 *shape,
                        guint         ndim,
                        gint64       *strides_out)
{
  gint64 stride = 1;

  /* cannot overflow for a valid shape (see gnn_shape_numel_checked) */
  for (gint d = (gint) ndim - 1; d >= 0; d--)
    {
      strides_out[d] = stride;
      stride *= MAX (shape[d], 1);
    }
}

GnnTensor *
gnn_tensor_new_with_storage (GnnStorage   *storage,
                             GnnDType      dtype,
                             const gint64 *shape,
                             const gint64 *strides,
                             guint         ndim,
                             gint64        offset)
{
  GnnTensor *self;
  GnnTensorPrivate *priv;
  gint64 numel;

  /* Callers validated the shape (gnn_shape_validate); a wrapped count here
   * would make every later kernel read out of bounds. */
  if (!gnn_shape_numel_checked (shape, ndim, 1, &numel))
    g_error ("gnn: internal error: unchecked tensor shape whose element count overflows");
  self = gnn_tensor_object_new (GNN_TYPE_TENSOR);
  priv = gnn_tensor_priv (self);
  priv->storage = gnn_storage_ref (storage);
  priv->dtype = dtype;
  priv->ndim = ndim;
  priv->offset = offset;
  for (guint d = 0; d < ndim; d++)
    {
      priv->shape[d] = shape[d];
      priv->strides[d] = strides[d];
    }
  priv->numel = numel;
  return self;
}

GnnTensor *
gnn_tensor_new_view (GnnTensor    *base,
                     const gint64 *shape,
                     const gint64 *strides,
                     guint         ndim,
                     gint64        offset)
{
  GnnTensorPrivate *bp = gnn_tensor_priv (base);

  return gnn_tensor_new_with_storage (bp->storage, bp->dtype, shape, strides, ndim, offset);
}

GnnTensor *
gnn_tensor_new_view_of (GnnTensor    *src,
                        const gint64 *shape,
                        const gint64 *strides,
                        guint         ndim,
                        gint64        offset)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (src);
  GnnTensor *view = gnn_tensor_new_view (src, shape, strides, ndim, offset);

  gnn_tensor_priv (view)->view_base = g_object_ref (sp->view_base != NULL ? sp->view_base : src);
  return view;
}

GnnTensor *
gnn_tensor_new_contiguous (GnnDType      dtype,
                           const gint64 *shape,
                           guint         ndim,
                           gboolean      zeroed)
{
  g_autoptr (GError) error = NULL;
  GnnTensor *self = gnn_tensor_new_contiguous_checked (dtype, shape, ndim, zeroed, &error);

  /* Only for shapes of tensors that already exist in memory (gradients,
   * optimizer state); operations whose result can be larger than their
   * inputs use the _checked form and report GNN_ERROR_MEMORY. */
  if (self == NULL)
    g_error ("gnn: %s", error->message);
  return self;
}

gboolean
gnn_shape_validate (const gint64 *shape,
                    guint         ndim,
                    GnnDType      dtype,
                    gint64       *numel_out,
                    GError      **error)
{
  gint64 numel;
  gsize elsize = gnn_dtype_get_size (dtype);

  if (elsize == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "invalid dtype %d", (int) dtype);
      return FALSE;
    }
  if (ndim > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "too many dimensions: %u (at most %d)", ndim, GNN_MAX_DIMS);
      return FALSE;
    }
  if (ndim > 0 && shape == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "shape is NULL but ndim is %u", ndim);
      return FALSE;
    }
  for (guint d = 0; d < ndim; d++)
    if (shape[d] < 0)
      {
        g_autofree char *s = gnn_shape_to_string (shape, ndim);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "negative dimension %" G_GINT64_FORMAT " at dim %u of shape %s",
                     shape[d], d, s);
        return FALSE;
      }
  if (!gnn_shape_numel_checked (shape, ndim, elsize, &numel))
    {
      g_autofree char *s = gnn_shape_to_string (shape, ndim);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "shape %s is too large: its size in bytes overflows", s);
      return FALSE;
    }
  if (numel_out != NULL)
    *numel_out = numel;
  return TRUE;
}

void
gnn_set_alloc_error (GError      **error,
                     gsize         nbytes,
                     const gint64 *shape,
                     guint         ndim)
{
  g_autofree char *s = gnn_shape_to_string (shape, ndim);

  g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
               "cannot allocate %" G_GSIZE_FORMAT " bytes for a tensor of shape %s", nbytes, s);
}

GnnTensor *
gnn_tensor_new_contiguous_checked (GnnDType      dtype,
                                   const gint64 *shape,
                                   guint         ndim,
                                   gboolean      zeroed,
                                   GError      **error)
{
  GnnTensor *self;
  GnnStorage *storage;
  gint64 strides[GNN_MAX_DIMS];
  gint64 numel;
  gsize nbytes;

  if (!gnn_shape_validate (shape, ndim, dtype, &numel, error))
    return NULL;
  nbytes = (gsize) numel * gnn_dtype_get_size (dtype);
  storage = gnn_storage_new (nbytes, zeroed);
  if (storage == NULL)
    {
      gnn_set_alloc_error (error, nbytes, shape, ndim);
      return NULL;
    }
  gnn_contiguous_strides (shape, ndim, strides);
  self = gnn_tensor_new_with_storage (storage, dtype, shape, strides, ndim, 0);
  gnn_storage_unref (storage);
  return self;
}

char *
gnn_shape_to_string (const gint64 *shape,
                     guint         ndim)
{
  GString *s = g_string_new ("[");

  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (s, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, shape[d]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

gboolean
gnn_wrap_dim (gint    dim,
              guint   ndim,
              guint  *out,
              GError **error)
{
  gint n = MAX ((gint) ndim, 1);   /* a 0-d tensor accepts -1 and 0 */

  if (dim < -n || dim >= n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                   -n, n - 1, dim);
      return FALSE;
    }
  *out = (guint) (dim < 0 ? dim + n : dim);
  return TRUE;
}

gboolean
gnn_broadcast_shapes (const gint64 *a,
                      guint         a_ndim,
                      const gint64 *b,
                      guint         b_ndim,
                      gint64       *out,
                      guint        *out_ndim,
                      GError      **error)
{
  guint nd = MAX (a_ndim, b_ndim);

  for (guint i = 0; i < nd; i++)
    {
      gint64 sa = i < a_ndim ? a[a_ndim - 1 - i] : 1;
      gint64 sb = i < b_ndim ? b[b_ndim - 1 - i] : 1;

      if (sa != sb && sa != 1 && sb != 1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "The size of tensor a (%" G_GINT64_FORMAT ") must match the size of "
                       "tensor b (%" G_GINT64_FORMAT ") at non-singleton dimension %u",
                       sa, sb, nd - 1 - i);
          return FALSE;
        }
      out[nd - 1 - i] = sa == 1 ? sb : sa;
    }
  *out_ndim = nd;
  return TRUE;
}

void
gnn_broadcast_strides (GnnTensor    *self,
                       const gint64 *shape,
                       guint         ndim,
                       gint64       *strides_out)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  guint lead = ndim - p->ndim;

  for (guint d = 0; d < ndim; d++)
    {
      if (d < lead)
        strides_out[d] = 0;
      else
        {
          guint sd = d - lead;
          strides_out[d] = (p->shape[sd] == 1 && shape[d] != 1) ? 0 : p->strides[sd];
        }
    }
}

gboolean
gnn_check_same_dtype (const char *op,
                      GnnTensor  *a,
                      GnnTensor  *b,
                      GError    **error)
{
  GnnDType da = gnn_tensor_priv (a)->dtype;
  GnnDType db = gnn_tensor_priv (b)->dtype;

  if (da == db)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "%s: expected both tensors to have the same dtype, got %s and %s",
               op, gnn_dtype_get_name (da), gnn_dtype_get_name (db));
  return FALSE;
}
