/* gnn-tensor-blocks.c: ops that lay tensors out in blocks or pick
 * elements by flat position — kron, block_diag, diag_embed, rot90, take,
 * masked_scatter
 *
 * kron composes reshapes and a broadcast product as torch does (its node
 * is the last reshape's); the others are recorded as their own nodes with
 * gradients in lib/autograd/gnn-backward-blocks.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-promote-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-elementwise-private.h"

/**
 * gnn_tensor_kron:
 * @self: a #GnnTensor
 * @other: a #GnnTensor
 * @error: return location for a #GError
 *
 * The Kronecker product (like `torch.kron`): the shorter shape is padded
 * with leading 1s and the result's size along each dim is the product of
 * the two sizes; block (i, j, …) is `self[i, j, …] · other`.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_kron (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  GnnTensorPrivate *a, *b;
  gint64 as[GNN_MAX_DIMS], bs[GNN_MAX_DIMS], rs[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) av = NULL;
  g_autoptr(GnnTensor) bv = NULL;
  g_autoptr(GnnTensor) prod = NULL;
  guint n, pa, pb;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  a = gnn_tensor_priv (self);
  b = gnn_tensor_priv (other);
  n = MAX (a->ndim, b->ndim);
  if (2 * n > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "kron: at most %d dimensions are supported, got %u", GNN_MAX_DIMS / 2, n);
      return NULL;
    }
  pa = n - a->ndim;
  pb = n - b->ndim;
  for (guint i = 0; i < n; i++)
    {
      as[2 * i] = i >= pa ? a->shape[i - pa] : 1;
      as[2 * i + 1] = 1;
      bs[2 * i] = 1;
      bs[2 * i + 1] = i >= pb ? b->shape[i - pb] : 1;
      rs[i] = as[2 * i] * bs[2 * i + 1];
    }
  if ((av = gnn_tensor_reshape (self, as, 2 * n, error)) == NULL ||
      (bv = gnn_tensor_reshape (other, bs, 2 * n, error)) == NULL ||
      (prod = gnn_tensor_mul (av, bv, error)) == NULL)
    return NULL;
  return gnn_tensor_reshape (prod, rs, n, error);
}

/**
 * gnn_tensor_block_diag:
 * @tensors: (array length=n_tensors): 0-d, 1-d or 2-d tensors
 * @n_tensors: the number of @tensors
 * @error: return location for a #GError
 *
 * The block-diagonal matrix of @tensors (like `torch.block_diag`): a 0-d
 * tensor is a 1×1 block, a 1-d one a row; the blocks run down the
 * diagonal, zeros elsewhere, in the promoted dtype.
 *
 * Returns: (transfer full): a new 2-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_block_diag (GnnTensor **tensors,
                       guint       n_tensors,
                       GError    **error)
{
  gint64 rows = 0, cols = 0;
  GnnDType dtype;
  g_autoptr(GnnTensor) out = NULL;

  g_return_val_if_fail (n_tensors == 0 || tensors != NULL, NULL);
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);

      GNN_CHECK_STORAGE ("block_diag", tensors[i], error, NULL);
      if (p->ndim > 2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                       "Input %u has %u dimensions", i, p->ndim);
          return NULL;
        }
      rows += p->ndim == 2 ? p->shape[0] : 1;
      cols += p->ndim == 0 ? 1 : p->shape[p->ndim - 1];
    }
  dtype = n_tensors > 0 ? gnn_result_type_n (tensors, n_tensors) : GNN_DTYPE_F32;
  if ((out = gnn_tensor_new_contiguous_checked (dtype, (gint64[]) { rows, cols }, 2, TRUE,
                                                 error)) == NULL)
    return NULL;
  rows = cols = 0;
  for (guint i = 0; i < n_tensors; i++)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (tensors[i]);
      gint64 r = p->ndim == 2 ? p->shape[0] : 1, c = p->ndim == 0 ? 1 : p->shape[p->ndim - 1];
      g_autoptr(GnnTensor) band = gnn_tensor_narrow (out, 0, rows, r, NULL);
      g_autoptr(GnnTensor) block = gnn_tensor_narrow (band, 1, cols, c, NULL);
      g_autoptr(GnnTensor) src = gnn_tensor_reshape (tensors[i], (gint64[]) { r, c }, 2, NULL);

      gnn_no_grad_push ();
      if (r * c > 0 && !gnn_tensor_copy_ (block, src, error))
        {
          gnn_no_grad_pop ();
          return NULL;
        }
      gnn_no_grad_pop ();
      rows += r;
      cols += c;
    }
  return gnn_tensor_record (GNN_OP_BLOCK_DIAG, g_steal_pointer (&out), tensors, n_tensors, NULL);
}

/**
 * gnn_tensor_diag_embed:
 * @self: a #GnnTensor (its last dim goes onto the diagonals)
 * @offset: which diagonal: 0 the main one, > 0 above it, < 0 below
 * @dim1: the first dim of the diagonals in the result (may be negative)
 * @dim2: the second dim of the diagonals in the result (may be negative)
 * @error: return location for a #GError
 *
 * Zeros with the last dim of @self on the (@dim1, @dim2) diagonals (like
 * `torch.diag_embed`); the result has one dim more than @self.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diag_embed (GnnTensor *self,
                       gint64     offset,
                       gint       dim1,
                       gint       dim2,
                       GError   **error)
{
  GnnTensorPrivate *p;
  gint64 shape[GNN_MAX_DIMS], n;
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) diagonal = NULL;
  guint d1, d2, nd, k = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("diag_embed", self, error, NULL);
  p = gnn_tensor_priv (self);
  nd = p->ndim + 1;
  if (nd > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "diag_embed: too many dimensions");
      return NULL;
    }
  if (!gnn_wrap_dim (dim1, nd, &d1, error) || !gnn_wrap_dim (dim2, nd, &d2, error))
    return NULL;
  if (d1 == d2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "diagonal dimensions cannot be identical %d, %d", dim1, dim2);
      return NULL;
    }
  n = (p->ndim > 0 ? p->shape[p->ndim - 1] : 1) + (offset < 0 ? -offset : offset);
  for (guint i = 0; i < nd; i++)
    shape[i] = i == d1 || i == d2 ? n : p->shape[k++];
  if ((out = gnn_tensor_new_contiguous_checked (p->dtype, shape, nd, TRUE, error)) == NULL ||
      (diagonal = gnn_tensor_diagonal (out, offset, (gint) d1, (gint) d2, error)) == NULL)
    return NULL;
  gnn_no_grad_push ();
  if (!gnn_tensor_copy_ (diagonal, self, error))
    {
      gnn_no_grad_pop ();
      return NULL;
    }
  gnn_no_grad_pop ();
  return gnn_tensor_record (GNN_OP_DIAG_EMBED_ND, g_steal_pointer (&out), &self, 1,
                            &(GnnOpParams) { .start = offset, .dims = { (gint) d1, (gint) d2 },
                                             .n_dims = 2 });
}

/* rot90's values: k quarter turns from dims[0] towards dims[1], not recorded */
static GnnTensor *
rot90_values (GnnTensor  *self,
                  gint64      k,
                  guint       d0,
                  guint       d1,
                  GError    **error)
{
  g_autoptr(GnnTensor) flipped = NULL;

  k = ((k % 4) + 4) % 4;
  if (k == 0)
    return gnn_tensor_copy_checked (self, gnn_tensor_priv (self)->dtype, error);
  if (k == 2)
    return gnn_tensor_flip (self, (gint[]) { (gint) d0, (gint) d1 }, 2, error);
  flipped = gnn_tensor_flip (self, (gint[]) { (gint) (k == 1 ? d1 : d0) }, 1, error);
  return flipped != NULL ? gnn_tensor_transpose (flipped, (gint) d0, (gint) d1, error) : NULL;
}

/**
 * gnn_tensor_rot90:
 * @self: a #GnnTensor of at least 2 dims
 * @k: the number of quarter turns (negative: the other way)
 * @dims: (array length=n_dims): the two dims of the plane to turn in
 * @n_dims: 2
 * @error: return location for a #GError
 *
 * Rotates @self by 90° @k times in the plane of @dims, from the first dim
 * towards the second (like `torch.rot90`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 *   (torch's messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rot90 (GnnTensor  *self,
                  gint64      k,
                  const gint *dims,
                  guint       n_dims,
                  GError    **error)
{
  GnnTensorPrivate *p;
  GnnTensor *out;
  guint d0, d1;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (n_dims == 0 || dims != NULL, NULL);
  GNN_CHECK_STORAGE ("rot90", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (n_dims != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "expected total rotation dims == 2, but got dims = %u", n_dims);
      return NULL;
    }
  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "expected total dims >= 2, but got total dims = %u", p->ndim);
      return NULL;
    }
  if (dims[0] == dims[1] || (guint) ABS (dims[0] - dims[1]) == p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "expected rotation dims to be different, but got dim0 = %d and dim1 = %d",
                   dims[0], dims[1]);
      return NULL;
    }
  if (dims[0] >= (gint) p->ndim || dims[0] < -(gint) p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "Rotation dim0 out of range, dim0 = %d", dims[0]);
      return NULL;
    }
  if (dims[1] >= (gint) p->ndim || dims[1] < -(gint) p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "Rotation dim1 out of range, dim1 = %d", dims[1]);
      return NULL;
    }
  gnn_wrap_dim (dims[0], p->ndim, &d0, NULL);
  gnn_wrap_dim (dims[1], p->ndim, &d1, NULL);
  gnn_no_grad_push ();
  out = rot90_values (self, k, d0, d1, error);
  gnn_no_grad_pop ();
  return gnn_tensor_record (GNN_OP_ROT90, out, &self, 1,
                            &(GnnOpParams) { .start = k, .dims = { (gint) d0, (gint) d1 },
                                             .n_dims = 2 });
}

/**
 * gnn_tensor_take:
 * @self: a #GnnTensor
 * @index: int64 positions into @self flattened (negative ones count from the end)
 * @error: return location for a #GError
 *
 * The elements of @self at the flat positions @index (like `torch.take`),
 * in @index's shape.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_take (GnnTensor *self,
                 GnnTensor *index,
                 GError   **error)
{
  GnnTensorPrivate *p, *ip;
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) flat_index = NULL;
  g_autoptr(GnnTensor) picked = NULL;
  g_autofree gint64 *pos = NULL;
  gsize n = 0;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (index), NULL);
  GNN_CHECK_STORAGE ("take", self, error, NULL);
  GNN_CHECK_STORAGE ("take", index, error, NULL);
  p = gnn_tensor_priv (self);
  ip = gnn_tensor_priv (index);
  if (ip->dtype != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "take(): Expected a long tensor for index, but got %s",
                   gnn_torch_scalar_name (ip->dtype));
      return NULL;
    }
  {
    g_autofree double *v = gnn_tensor_to_doubles (index, &n);

    pos = g_new (gint64, MAX (n, 1));
    for (gsize i = 0; i < n; i++)
      {
        gint64 j = (gint64) v[i];

        if (j < -p->numel || j >= p->numel)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                         "out of range: tried to access index %" G_GINT64_FORMAT
                         " on a tensor of %" G_GINT64_FORMAT " elements.", j, p->numel);
            return NULL;
          }
        pos[i] = j < 0 ? j + p->numel : j;
      }
  }
  flat_index = gnn_tensor_new_from_int64s (pos, n, (gint64[]) { (gint64) n }, 1, error);
  gnn_no_grad_push ();
  flat = flat_index ? gnn_tensor_reshape (self, (gint64[]) { p->numel }, 1, error) : NULL;
  picked = flat ? gnn_tensor_index_select (flat, 0, flat_index, error) : NULL;
  out = picked ? gnn_tensor_reshape (picked, ip->shape, ip->ndim, error) : NULL;
  gnn_no_grad_pop ();
  return gnn_tensor_record (GNN_OP_TAKE, out, &self, 1,
                            &(GnnOpParams) { .extra = { flat_index } });
}

/* masked_scatter's values: @self (broadcast with @mask) with the elements
 * under @mask replaced by the first elements of @source, in order */
static GnnTensor *
masked_scatter_values (GnnTensor  *self,
                       GnnTensor  *mask,
                       GnnTensor  *source,
                       GnnTensor **mask_out,
                       GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self), *mp = gnn_tensor_priv (mask);
  GnnTensorPrivate *sp = gnn_tensor_priv (source);
  gint64 shape[GNN_MAX_DIMS];
  guint ndim;
  g_autoptr(GnnTensor) values = NULL;
  g_autoptr(GnnTensor) expanded = NULL;
  g_autoptr(GnnTensor) m = NULL;
  g_autoptr(GnnTensor) src = NULL;
  g_autofree double *mv = NULL;
  gsize n = 0, size = gnn_dtype_get_size (p->dtype);
  gint64 taken = 0;
  guint8 *o;
  const guint8 *s;

  if (p->dtype != sp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "masked_scatter: expected self and source to have same dtypes but got%s and %s",
                   gnn_torch_scalar_name (p->dtype), gnn_torch_scalar_name (sp->dtype));
      return NULL;
    }
  if (!gnn_broadcast_shapes (p->shape, p->ndim, mp->shape, mp->ndim, shape, &ndim, error) ||
      (expanded = gnn_tensor_expand (self, shape, ndim, error)) == NULL ||
      (values = gnn_tensor_copy_checked (expanded, p->dtype, error)) == NULL ||
      (m = gnn_tensor_expand (mask, shape, ndim, error)) == NULL ||
      (src = gnn_tensor_contiguous_checked (source, error)) == NULL)
    return NULL;
  mv = gnn_tensor_to_doubles (m, &n);
  o = gnn_tensor_priv_data (gnn_tensor_priv (values));
  s = gnn_tensor_priv_data (gnn_tensor_priv (src));
  for (gsize i = 0; i < n; i++)
    if (mv[i] != 0)
      {
        if (taken >= sp->numel)
          {
            g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                                 "Number of elements of source < number of ones in mask");
            return NULL;
          }
        memcpy (o + i * size, s + taken++ * (gint64) size, size);
      }
  if (mask_out != NULL)
    *mask_out = gnn_tensor_to_dtype (m, GNN_DTYPE_BOOL, NULL);
  return g_steal_pointer (&values);
}

/**
 * gnn_tensor_masked_scatter:
 * @self: a #GnnTensor
 * @mask: where to write (bool; other dtypes: nonzero), broadcastable with @self
 * @source: the values, of @self's dtype, taken in order
 * @error: return location for a #GError
 *
 * @self with the elements under @mask replaced by consecutive elements of
 * @source (like `torch.masked_scatter`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_masked_scatter (GnnTensor *self,
                           GnnTensor *mask,
                           GnnTensor *source,
                           GError   **error)
{
  g_autoptr(GnnTensor) m = NULL;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (mask) && GNN_IS_TENSOR (source), NULL);
  GNN_CHECK_STORAGE ("masked_scatter", self, error, NULL);
  GNN_CHECK_STORAGE ("masked_scatter", mask, error, NULL);
  GNN_CHECK_STORAGE ("masked_scatter", source, error, NULL);
  out = masked_scatter_values (self, mask, source, &m, error);
  return gnn_tensor_record (GNN_OP_MASKED_SCATTER, out, (GnnTensor *[]) { self, source }, 2,
                            &(GnnOpParams) { .extra = { m } });
}

/**
 * gnn_tensor_masked_scatter_:
 * @self: the tensor to update
 * @mask: where to write, broadcastable to @self's shape
 * @source: the values, of @self's dtype, taken in order
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.masked_scatter] (like `self.masked_scatter_()`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_masked_scatter_ (GnnTensor *self,
                            GnnTensor *mask,
                            GnnTensor *source,
                            GError   **error)
{
  g_autoptr(GnnTensor) m = NULL;
  g_autoptr(GnnTensor) values = NULL;
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (mask) && GNN_IS_TENSOR (source), FALSE);
  GNN_CHECK_STORAGE ("masked_scatter_", self, error, FALSE);
  GNN_CHECK_STORAGE ("masked_scatter_", mask, error, FALSE);
  GNN_CHECK_STORAGE ("masked_scatter_", source, error, FALSE);
  if ((values = masked_scatter_values (self, mask, source, &m, error)) == NULL)
    return FALSE;
  p = gnn_tensor_priv (self);
  if (gnn_tensor_priv (values)->ndim != p->ndim ||
      memcmp (gnn_tensor_priv (values)->shape, p->shape, sizeof (gint64) * p->ndim) != 0)
    {
      g_autofree char *ms = gnn_shape_to_string (gnn_tensor_priv (mask)->shape,
                                                 gnn_tensor_priv (mask)->ndim);
      g_autofree char *ss = gnn_shape_to_string (p->shape, p->ndim);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "masked_scatter_: the mask of shape %s does not broadcast to self's shape %s",
                   ms, ss);
      return FALSE;
    }
  return gnn_ew_assign_ (self, values, GNN_OP_MASKED_SCATTER, &source, 1,
                         &(GnnOpParams) { .extra = { m } }, error);
}
