/* gnn-tensor-index-put.c: torch's index_put_ (self[i0, i1, ...] = values,
 * or += with accumulate)
 *
 * The index tensors (int64, or bool / uint8 masks standing for their
 * nonzero positions) address the leading dims of self; they broadcast
 * together to the shape I, and values broadcast to I + self.shape[k:].
 * The positions become one int64 vector into self's leading dims merged,
 * and the write is index_copy_ or (accumulate) index_add_ along dim 0 of
 * that merged view — duplicates summed, as torch's accumulate does — so
 * autograd and the version counter follow those ops' C kernels. Every check
 * comes first: on error self is unchanged.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-tensor-record-private.h"

#define MAX_INDICES GNN_MAX_DIMS

/* The index tensors with masks replaced by their positions (one int64
 * tensor per dim a mask covers); FALSE with torch's IndexError texts. */
static gboolean
expand_masks (GnnTensor  *self,
              GnnTensor **indices,
              guint       n_indices,
              GnnTensor **out,
              guint      *n_out,
              GError    **error)
{
  guint n = 0, self_ndim = gnn_tensor_priv (self)->ndim;

  for (guint i = 0; i < n_indices; i++)
    {
      GnnTensorPrivate *ip;

      g_return_val_if_fail (GNN_IS_TENSOR (indices[i]), FALSE);
      ip = gnn_tensor_priv (indices[i]);
      if (ip->dtype == GNN_DTYPE_I64)
        {
          if (n + 1 > self_ndim)
            goto too_many;
          out[n++] = g_object_ref (indices[i]);
          continue;
        }
      if (ip->dtype != GNN_DTYPE_BOOL && ip->dtype != GNN_DTYPE_U8)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "tensors used as indices must be long, byte or bool tensors");
          return FALSE;
        }
      if (n + ip->ndim > self_ndim)
        goto too_many;
      for (guint d = 0; d < ip->ndim; d++)
        if (ip->shape[d] != gnn_tensor_priv (self)->shape[n + d])
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                         "The shape of the mask [%" G_GINT64_FORMAT "] at index %u does not "
                         "match the shape of the indexed tensor [%" G_GINT64_FORMAT "] at index %u",
                         ip->shape[d], d, gnn_tensor_priv (self)->shape[n + d], n + d);
            return FALSE;
          }
      {
        g_autoptr(GnnTensor) nz = gnn_tensor_nonzero (indices[i], error);

        if (nz == NULL)
          return FALSE;
        for (guint d = 0; d < ip->ndim; d++)
          {
            g_autoptr(GnnTensor) col = gnn_tensor_select (nz, 1, d, error);

            if (col == NULL || (out[n++] = gnn_tensor_contiguous (col)) == NULL)
              return FALSE;
          }
      }
    }
  *n_out = n;
  return TRUE;

too_many:
  g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
               "too many indices for tensor of dimension %u (got %u)", self_ndim, n_indices);
  return FALSE;
}

/* The flat positions (int64, shape @ishape) into @self's leading @n dims
 * merged; FALSE when an index is out of range. */
static GnnTensor *
flat_positions (GnnTensor     *self,
                GnnTensor    **idx,
                guint          n,
                const gint64  *ishape,
                guint          indim,
                GError       **error)
{
  const gint64 *shape = gnn_tensor_priv (self)->shape;
  gint64 strides[MAX_INDICES][GNN_MAX_DIMS], place[MAX_INDICES], counter[GNN_MAX_DIMS] = { 0 };
  g_autoptr(GnnTensor) out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, ishape, indim,
                                                                 FALSE, error);
  gint64 *ov, total = 1;

  if (out == NULL)
    return NULL;
  ov = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (guint j = 0; j < n; j++)
    gnn_broadcast_strides (idx[j], ishape, indim, strides[j]);
  for (guint j = n; j-- > 0;)
    {
      place[j] = j + 1 == n ? 1 : place[j + 1] * shape[j + 1];
    }
  for (guint d = 0; d < indim; d++)
    total *= ishape[d];
  for (gint64 e = 0; e < total; e++)
    {
      gint64 flat = 0;

      for (guint j = 0; j < n; j++)
        {
          GnnTensorPrivate *ip = gnn_tensor_priv (idx[j]);
          const gint64 *iv = (const gint64 *) gnn_tensor_priv_data (ip) + ip->offset;
          gint64 at = 0, v;

          for (guint d = 0; d < indim; d++)
            at += counter[d] * strides[j][d];
          v = iv[at];
          if (v < -shape[j] || v >= shape[j])
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "index %" G_GINT64_FORMAT " is out of bounds for dimension %u with "
                           "size %" G_GINT64_FORMAT, v, j, shape[j]);
              return NULL;
            }
          flat += (v < 0 ? v + shape[j] : v) * place[j];
        }
      ov[e] = flat;
      for (guint d = indim; d-- > 0;)
        {
          if (++counter[d] < ishape[d])
            break;
          counter[d] = 0;
        }
    }
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_index_put_:
 * @self: the tensor written into
 * @indices: (array length=n_indices): int64 index tensors for the leading
 *   dims of @self (broadcast together), or bool / uint8 masks (their
 *   nonzero positions, one dim each of the mask's)
 * @n_indices: the number of @indices (at least 1)
 * @values: the values, of @self's dtype, broadcastable to the indexing
 *   result's shape
 * @accumulate: add to the elements (repeated positions add up) instead of
 *   overwriting them
 * @error: return location for a #GError
 *
 * `Tensor.index_put_ (indices, values, accumulate=False)`: self[indices] =
 * values, or += with @accumulate. Differentiable in @self and @values (an
 * in-place op: a leaf that requires grad is refused). Errors are torch's
 * (an index out of range, more indices than dims, mismatched dtypes or
 * shapes) and leave @self unchanged.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_index_put_ (GnnTensor  *self,
                       GnnTensor **indices,
                       guint       n_indices,
                       GnnTensor  *values,
                       gboolean    accumulate,
                       GError    **error)
{
  GnnTensorPrivate *sp;
  GnnTensor *idx[MAX_INDICES] = { NULL };
  guint n = 0, indim = 0;
  gint64 ishape[GNN_MAX_DIMS], rshape[GNN_MAX_DIMS], vshape[GNN_MAX_DIMS], merged[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) positions = NULL;
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) expanded = NULL;
  g_autoptr(GnnTensor) source = NULL;
  g_autoptr(GnnTensor) target = NULL;
  gint64 count = 1, lead = 1;
  gboolean ok = FALSE;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (values), FALSE);
  g_return_val_if_fail (indices != NULL || n_indices == 0, FALSE);
  GNN_CHECK_STORAGE ("index_put_", self, error, FALSE);
  GNN_CHECK_STORAGE ("index_put_", values, error, FALSE);
  sp = gnn_tensor_priv (self);
  if (n_indices == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "index_put_: at least one index is needed");
      return FALSE;
    }
  if (gnn_tensor_priv (values)->dtype != sp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "Index put requires the source and destination dtypes match, got %s for the "
                   "destination and %s for the source.", gnn_torch_scalar_name (sp->dtype),
                   gnn_torch_scalar_name (gnn_tensor_priv (values)->dtype));
      return FALSE;
    }
  if (!expand_masks (self, indices, n_indices, idx, &n, error))
    goto out;
  /* the index shapes broadcast together */
  memcpy (ishape, gnn_tensor_priv (idx[0])->shape, sizeof (gint64) * gnn_tensor_priv (idx[0])->ndim);
  indim = gnn_tensor_priv (idx[0])->ndim;
  for (guint j = 1; j < n; j++)
    {
      GnnTensorPrivate *ip = gnn_tensor_priv (idx[j]);

      if (!gnn_broadcast_shapes (ishape, indim, ip->shape, ip->ndim, ishape, &indim, NULL))
        {
          GString *shapes = g_string_new (NULL);

          for (guint k = 0; k < n; k++)
            {
              g_autofree char *s = gnn_shape_to_string (gnn_tensor_priv (idx[k])->shape,
                                                        gnn_tensor_priv (idx[k])->ndim);
              g_string_append_printf (shapes, "%s%s", k > 0 ? ", " : "", s);
            }
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "shape mismatch: indexing tensors could not be broadcast together with "
                       "shapes %s", shapes->str);
          g_string_free (shapes, TRUE);
          goto out;
        }
    }
  if (indim + (sp->ndim - n) > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "index_put_: the indexing result has more "
                   "than %d dims", GNN_MAX_DIMS);
      goto out;
    }
  for (guint d = 0; d < indim; d++)
    count *= ishape[d];
  for (guint d = 0; d < n; d++)
    lead *= sp->shape[d];
  memcpy (rshape, ishape, sizeof (gint64) * indim);
  memcpy (rshape + indim, sp->shape + n, sizeof (gint64) * (sp->ndim - n));
  {
    GnnTensorPrivate *vp = gnn_tensor_priv (values);
    gint64 tmp[GNN_MAX_DIMS];
    guint tmp_ndim;

    if (vp->ndim > indim + sp->ndim - n ||
        !gnn_broadcast_shapes (vp->shape, vp->ndim, rshape, indim + sp->ndim - n, tmp, &tmp_ndim,
                               NULL) ||
        memcmp (tmp, rshape, sizeof (gint64) * tmp_ndim) != 0)
      {
        g_autofree char *vs = gnn_shape_to_string (vp->shape, vp->ndim);
        g_autofree char *rs = gnn_shape_to_string (rshape, indim + sp->ndim - n);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                     "result of shape %s", vs, rs);
        goto out;
      }
  }
  if ((positions = flat_positions (self, idx, n, ishape, indim, error)) == NULL)
    goto out;
  /* every check done: from here on only the write can fail (memory) */
  if ((flat = gnn_tensor_reshape (positions, &count, 1, error)) == NULL ||
      (expanded = gnn_tensor_expand (values, rshape, indim + sp->ndim - n, error)) == NULL)
    goto out;
  vshape[0] = count;
  memcpy (vshape + 1, sp->shape + n, sizeof (gint64) * (sp->ndim - n));
  merged[0] = lead;
  memcpy (merged + 1, sp->shape + n, sizeof (gint64) * (sp->ndim - n));
  if ((source = gnn_tensor_reshape (expanded, vshape, sp->ndim - n + 1, error)) == NULL)
    goto out;
  if (!gnn_grad_mode_off && sp->requires_grad && sp->grad_fn == NULL)
    {
      /* refused as torch refuses it, not with the merged view's message */
      g_set_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD,
                   "a leaf Variable that requires grad is being used in an in-place operation.");
      goto out;
    }
  {
    /* one node on self, torch's IndexPutBackward0 (not the merged view's
     * index_add_ / index_copy_, which would leave CopySlices on self) */
    GnnOpParams params = { .dim = (gint) n, .flag = accumulate, .n_ints = indim };
    gboolean grad_was_off = gnn_grad_mode_off;

    memcpy (params.ints, ishape, sizeof (gint64) * indim);
    params.extra[0] = flat;
    if (!gnn_tensor_record_inplace_full (GNN_OP_INDEX_PUT, self, &values, 1, &params, error))
      goto out;
    gnn_grad_mode_off = TRUE;
    target = gnn_tensor_view (self, merged, sp->ndim - n + 1, NULL);
    if (target != NULL)
      ok = accumulate ? gnn_tensor_index_add_ (target, 0, flat, source, 1.0, error)
                      : gnn_tensor_index_copy_ (target, 0, flat, source, error);
    else
      {
        /* leading dims that no view merges: written out of place, copied in */
        g_autoptr(GnnTensor) packed = gnn_tensor_reshape (self, merged, sp->ndim - n + 1, error);
        g_autoptr(GnnTensor) updated = NULL;
        g_autoptr(GnnTensor) back = NULL;

        ok = packed != NULL &&
             (updated = accumulate ? gnn_tensor_index_add (packed, 0, flat, source, 1.0, error)
                                   : gnn_tensor_index_copy (packed, 0, flat, source, error)) != NULL &&
             (back = gnn_tensor_reshape (updated, sp->shape, sp->ndim, error)) != NULL &&
             gnn_tensor_copy_ (self, back, error);
      }
    gnn_grad_mode_off = grad_was_off;
  }

out:
  for (guint j = 0; j < n; j++)
    g_object_unref (idx[j]);
  return ok;
}

/**
 * gnn_tensor_index_put:
 * @self: a tensor
 * @indices: (array length=n_indices): as [method@Gnn.Tensor.index_put_]
 * @n_indices: the number of @indices
 * @values: as [method@Gnn.Tensor.index_put_]
 * @accumulate: as [method@Gnn.Tensor.index_put_]
 * @error: return location for a #GError
 *
 * `torch.index_put (self, indices, values, accumulate=False)`: a copy of
 * @self with [method@Gnn.Tensor.index_put_] applied.
 *
 * Returns: (transfer full): the new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_put (GnnTensor  *self,
                      GnnTensor **indices,
                      guint       n_indices,
                      GnnTensor  *values,
                      gboolean    accumulate,
                      GError    **error)
{
  g_autoptr(GnnTensor) out = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("index_put", self, error, NULL);
  out = gnn_tensor_clone (self);
  if (out == NULL || !gnn_tensor_index_put_ (out, indices, n_indices, values, accumulate, error))
    return NULL;
  return g_steal_pointer (&out);
}
