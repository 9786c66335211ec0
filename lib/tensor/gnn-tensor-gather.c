/* gnn-tensor-gather.c: gather, scatter, scatter_add (an index tensor of the
 * input's rank, one position per element) and index_add, index_fill,
 * index_copy (a 1-d index of whole slices along a dimension)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-elementwise-private.h"
#include "tensor/gnn-pointwise-private.h"
#include "tensor/gnn-index-walk-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* --- gather, scatter ------------------------------------------------------------ */

static GnnTensor *
gather_values (GnnTensor  *self,
               gint        dim,
               GnnTensor  *index,
               guint      *dim_out,
               GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *ip = gnn_tensor_priv (index);
  GnnTensor *out;
  guint d;

  if (!gnn_wrap_dim (dim, sp->ndim, &d, error) ||
      !gnn_check_index_geometry ("gather", self, d, index, NULL, error))
    return NULL;
  out = gnn_tensor_new_contiguous_checked (sp->dtype, ip->shape, ip->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  /* the index values are checked as the walk reads them */
  if (!gnn_index_walk (GNN_INDEX_GATHER, self, d, index, out, NULL, error))
    {
      g_object_unref (out);
      return NULL;
    }
  *dim_out = d;
  return out;
}

/**
 * gnn_tensor_gather:
 * @self: a #GnnTensor
 * @dim: the dimension to pick along
 * @index: an int64 tensor of @self's rank, no larger than @self apart from @dim
 * @error: return location for a #GError
 *
 * Picks elements along @dim (like `torch.gather (self, dim, index)`):
 * `out[i][j] = self[i][index[i][j]]` for dim 1, and so on; the result has
 * @index's shape. The gradient is scattered back onto the picked elements
 * (added where an element was picked twice).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error
 *   set (torch's messages for a bad index dtype, rank, size or value)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_gather (GnnTensor *self,
                   gint       dim,
                   GnnTensor *index,
                   GError   **error)
{
  guint d = 0;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  GNN_CHECK_STORAGE ("gather", self, error, NULL);
  GNN_CHECK_STORAGE ("gather", index, error, NULL);
  out = gather_values (self, dim, index, &d, error);
  return gnn_tensor_record (GNN_OP_GATHER, out, &self, 1,
                            &(GnnOpParams) { .dim = (gint) d, .extra = { index } });
}

/* The checks of scatter / scatter_add but the index values (checked as
 * they are used, or first for an in-place scatter); @src may be a wrapped
 * number. */
static gboolean
check_scatter (const char *name,
               GnnTensor  *self,
               gint        dim,
               GnnTensor  *index,
               GnnTensor  *src,
               guint      *d,
               GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *rp = gnn_tensor_priv (src);
  gboolean value = rp->wrapped_number;

  if (!gnn_wrap_dim (dim, sp->ndim, d, error))
    return FALSE;
  if (!value && rp->dtype != sp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s(): Expected self.dtype to be equal to src.dtype", name);
      return FALSE;
    }
  return gnn_check_index_geometry (name, self, *d, index, value ? NULL : src, error);
}

/* Writes the scatter into @target: @self in place (@base NULL), or a
 * fresh tensor that the walk fills from @base. */
static gboolean
scatter_into (GnnIndexWalk walk,
              GnnTensor   *target,
              guint        d,
              GnnTensor   *index,
              GnnTensor   *src,
              GnnTensor   *base,
              GError     **error)
{
  g_autoptr(GnnTensor) values = gnn_ew_cast (src, gnn_tensor_priv (target)->dtype, error);

  return values != NULL && gnn_index_walk (walk, target, d, index, values, base, error);
}

static GnnTensor *
scatter_op (GnnIndexWalk walk,
            GnnOpKind    kind,
            const char  *name,
            GnnTensor   *self,
            gint         dim,
            GnnTensor   *index,
            GnnTensor   *src,
            GError     **error)
{
  guint d = 0;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (src), NULL);
  GNN_CHECK_STORAGE (name, self, error, NULL);
  GNN_CHECK_STORAGE (name, index, error, NULL);
  GNN_CHECK_STORAGE (name, src, error, NULL);
  if (!check_scatter (name, self, dim, index, src, &d, error))
    return NULL;
  /* unset: the walk copies self into it, block by block */
  out = gnn_tensor_new_contiguous_checked (gnn_tensor_priv (self)->dtype,
                                           gnn_tensor_priv (self)->shape,
                                           gnn_tensor_priv (self)->ndim, FALSE, error);
  if (out == NULL || !scatter_into (walk, out, d, index, src, self, error))
    {
      g_clear_object (&out);
      return NULL;
    }
  return gnn_tensor_record (kind, out, (GnnTensor *[]) { self, src }, 2,
                            &(GnnOpParams) { .dim = (gint) d, .extra = { index } });
}

static gboolean
scatter_inplace (GnnIndexWalk walk,
                 GnnOpKind    kind,
                 const char  *name,
                 GnnTensor   *self,
                 gint         dim,
                 GnnTensor   *index,
                 GnnTensor   *src,
                 GError     **error)
{
  guint d = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (index), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (src), FALSE);
  GNN_CHECK_STORAGE (name, self, error, FALSE);
  GNN_CHECK_STORAGE (name, index, error, FALSE);
  GNN_CHECK_STORAGE (name, src, error, FALSE);
  if (!check_scatter (name, self, dim, index, src, &d, error) ||
      !gnn_check_index_bounds (index, d, gnn_tensor_priv (self)->ndim > 0
                                         ? gnn_tensor_priv (self)->shape[d] : 1, error) ||
      !gnn_check_no_internal_overlap (self, error) ||
      !gnn_tensor_record_inplace_full (kind, self, &src, 1,
                                       &(GnnOpParams) { .dim = (gint) d, .extra = { index } },
                                       error))
    return FALSE;
  return scatter_into (walk, self, d, index, src, NULL, error);
}

/**
 * gnn_tensor_scatter:
 * @self: a #GnnTensor
 * @dim: the dimension to write along
 * @index: an int64 tensor of @self's rank
 * @src: the values: a tensor of @self's dtype and rank, at least as large
 *   as @index, or a wrapped number written at every indexed position
 * @error: return location for a #GError
 *
 * A copy of @self with `out[i][index[i][j]] = src[i][j]` for dim 1, and so
 * on (like `torch.scatter (self, dim, index, src)`); where two positions
 * write one element, the last one wins.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_scatter (GnnTensor *self,
                    gint       dim,
                    GnnTensor *index,
                    GnnTensor *src,
                    GError   **error)
{
  return scatter_op (GNN_INDEX_SCATTER, GNN_OP_SCATTER, "scatter", self, dim, index, src, error);
}

/**
 * gnn_tensor_scatter_:
 * @self: the tensor to update
 * @dim: the dimension to write along
 * @index: an int64 tensor of @self's rank
 * @src: the values (a tensor or a wrapped number)
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.scatter] (like `self.scatter_(dim, index, src)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_scatter_ (GnnTensor *self,
                     gint       dim,
                     GnnTensor *index,
                     GnnTensor *src,
                     GError   **error)
{
  return scatter_inplace (GNN_INDEX_SCATTER, GNN_OP_SCATTER, "scatter", self, dim, index, src,
                          error);
}

/**
 * gnn_tensor_scatter_add:
 * @self: a #GnnTensor
 * @dim: the dimension to write along
 * @index: an int64 tensor of @self's rank
 * @src: a tensor of @self's dtype and rank, at least as large as @index
 * @error: return location for a #GError
 *
 * A copy of @self with `out[i][index[i][j]] += src[i][j]` for dim 1, and
 * so on (like `torch.scatter_add`): every position adds, repeated indices
 * accumulate.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_scatter_add (GnnTensor *self,
                        gint       dim,
                        GnnTensor *index,
                        GnnTensor *src,
                        GError   **error)
{
  return scatter_op (GNN_INDEX_SCATTER_ADD, GNN_OP_SCATTER_ADD, "scatter_add", self, dim, index,
                     src, error);
}

/**
 * gnn_tensor_scatter_add_:
 * @self: the tensor to update
 * @dim: the dimension to write along
 * @index: an int64 tensor of @self's rank
 * @src: a tensor of @self's dtype and rank
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.scatter_add] (like `self.scatter_add_(dim,
 * index, src)`).
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_scatter_add_ (GnnTensor *self,
                         gint       dim,
                         GnnTensor *index,
                         GnnTensor *src,
                         GError   **error)
{
  return scatter_inplace (GNN_INDEX_SCATTER_ADD, GNN_OP_SCATTER_ADD, "scatter_add", self, dim,
                          index, src, error);
}

/* --- index_add, index_fill, index_copy ----------------------------------------------- */

typedef enum
{
  SLICES_ADD,
  SLICES_COPY,
  SLICES_FILL,
} SliceOp;

/* The index as int64 values in [0, size), checked with torch's messages. */
static gint64 *
slice_indices (const char *name,
               GnnTensor  *index,
               guint       dim,
               gint64      size,
               gint64     *n,
               GError    **error)
{
  GnnTensorPrivate *ip = gnn_tensor_priv (index);
  g_autoptr(GnnTensor) as64 = NULL;
  gint64 *values;

  if (ip->dtype != GNN_DTYPE_I64 && ip->dtype != GNN_DTYPE_I32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s(): Expected dtype int32/int64 for index", name);
      return NULL;
    }
  if (ip->ndim > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s(): Index is supposed to be a vector", name);
      return NULL;
    }
  as64 = gnn_tensor_copy_checked (index, GNN_DTYPE_I64, error);
  if (as64 == NULL)
    return NULL;
  *n = ip->numel;
  values = g_memdup2 (gnn_tensor_priv_data (gnn_tensor_priv (as64)),
                      sizeof (gint64) * (gsize) MAX (*n, 1));
  for (gint64 k = 0; k < *n; k++)
    {
      if (values[k] < -size || values[k] >= size)
        {
          if (g_str_equal (name, "index_add_"))
            g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "index out of range in self");
          else
            g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                         "index %" G_GINT64_FORMAT " is out of bounds for dimension %u with size %"
                         G_GINT64_FORMAT, values[k], dim, size);
          g_free (values);
          return NULL;
        }
      if (values[k] < 0)
        values[k] += size;
    }
  return values;
}

/* @source must be @self's shape with @n entries along @dim. */
static gboolean
check_source (const char *name,
              GnnTensor  *self,
              guint       dim,
              GnnTensor  *source,
              gint64      n,
              GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self), *rp = gnn_tensor_priv (source);
  gint64 size = rp->ndim > 0 ? rp->shape[MIN (dim, rp->ndim - 1)] : 1;

  if (rp->dtype != sp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s(): self (%s) and source (%s) must have the same scalar type", name,
                   gnn_torch_scalar_name (sp->dtype), gnn_torch_scalar_name (rp->dtype));
      return FALSE;
    }
  if (size != n || MAX (rp->ndim, 1) != MAX (sp->ndim, 1))
    {
      if (g_str_equal (name, "index_add_"))
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "index_add_(): Number of indices (%" G_GINT64_FORMAT ") should be equal to "
                     "source.size(dim): (%" G_GINT64_FORMAT "), for dim: %u", n, size, dim);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s(): Number of indices (%" G_GINT64_FORMAT ") should be equal to "
                     "source.size(dim) (%" G_GINT64_FORMAT ")", name, n, size);
      return FALSE;
    }
  for (guint d = 0; d < sp->ndim; d++)
    if (d != dim && rp->shape[d] != sp->shape[d])
      {
        g_autofree char *ss = gnn_shape_to_string (sp->shape, sp->ndim);
        g_autofree char *rs = gnn_shape_to_string (rp->shape, rp->ndim);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s(): source %s does not match self %s apart from dimension %u",
                     name, rs, ss, dim);
        return FALSE;
      }
  return TRUE;
}

/* The slice of @t at @k along @dim, a view outside the graph. */
static GnnTensor *
slice_view (GnnTensor *t,
            guint      dim,
            gint64     k)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
  guint n = 0;

  if (p->ndim == 0)
    return gnn_tensor_new_view (t, shape, strides, 0, p->offset);
  for (guint d = 0; d < p->ndim; d++)
    if (d != dim)
      {
        shape[n] = p->shape[d];
        strides[n++] = p->strides[d];
      }
  return gnn_tensor_new_view (t, shape, strides, n, p->offset + k * p->strides[dim]);
}

/* Applies @op to the slices of @target picked by @idx; @values are @n
 * slices of @target's dtype (ADD, COPY) or a 0-d value (FILL). */
static gboolean
apply_slices (SliceOp        op,
              GnnTensor     *target,
              guint          dim,
              const gint64  *idx,
              gint64         n,
              GnnTensor     *values,
              GError       **error)
{
  for (gint64 k = 0; k < n; k++)
    {
      g_autoptr(GnnTensor) dst = slice_view (target, dim, idx[k]);
      g_autoptr(GnnTensor) src = op == SLICES_FILL ? g_object_ref (values)
                                                   : slice_view (values, dim, k);

      if (op == SLICES_ADD)
        {
          if (!gnn_ew_binary_ (&gnn_op_add, dst, src, GNN_N_OPS, NULL, error))
            return FALSE;
        }
      else if (!gnn_tensor_copy_values_ (dst, src, error))
        return FALSE;
    }
  return TRUE;
}

/* index_add / index_copy / index_fill into @target (self, or its copy). */
static gboolean
index_slices (SliceOp     op,
              const char *name,
              GnnTensor  *target,
              GnnTensor  *self,
              guint       dim,
              GnnTensor  *index,
              GnnTensor  *values,
              double      alpha,
              GError    **error)
{
  GnnTensorPrivate *sp = gnn_tensor_priv (self);
  g_autofree gint64 *idx = NULL;
  g_autoptr(GnnTensor) prepared = NULL;
  gint64 n = 0;

  idx = slice_indices (name, index, dim, sp->ndim > 0 ? sp->shape[dim] : 1, &n, error);
  if (idx == NULL)
    return FALSE;
  if (op == SLICES_FILL)
    {
      if (gnn_tensor_priv (values)->ndim != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "index_fill_ only supports a 0-dimensional value tensor, but got tensor "
                       "with %u dimension(s).", gnn_tensor_priv (values)->ndim);
          return FALSE;
        }
      prepared = gnn_ew_cast (values, sp->dtype, error);
    }
  else if (!check_source (name, self, dim, values, n, error))
    return FALSE;
  else if (op == SLICES_ADD && alpha != 1.0)
    {
      g_autoptr(GnnTensor) factor = gnn_tensor_new_scalar (alpha, sp->dtype);

      prepared = gnn_ew_binary (&gnn_op_mul, values, factor, error);
    }
  else if (gnn_tensor_shares_storage (values, target))
    prepared = gnn_tensor_copy_checked (values, sp->dtype, error);
  else
    prepared = g_object_ref (values);
  return prepared != NULL && apply_slices (op, target, dim, idx, n, prepared, error);
}

static GnnTensor *
index_op (SliceOp     op,
          GnnOpKind   kind,
          const char *name,
          GnnTensor  *self,
          gint        dim,
          GnnTensor  *index,
          GnnTensor  *values,
          double      alpha,
          GError    **error)
{
  guint d;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (index), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (values), NULL);
  GNN_CHECK_STORAGE (name, self, error, NULL);
  GNN_CHECK_STORAGE (name, index, error, NULL);
  GNN_CHECK_STORAGE (name, values, error, NULL);
  if (!gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, &d, error))
    return NULL;
  out = gnn_tensor_copy_checked (self, gnn_tensor_priv (self)->dtype, error);
  if (out == NULL || !index_slices (op, name, out, self, d, index, values, alpha, error))
    {
      g_clear_object (&out);
      return NULL;
    }
  return gnn_tensor_record (kind, out, (GnnTensor *[]) { self, values }, 2,
                            &(GnnOpParams) { .dim = (gint) d, .scalar = alpha,
                                             .extra = { index } });
}

static gboolean
index_op_ (SliceOp     op,
           GnnOpKind   kind,
           const char *name,
           GnnTensor  *self,
           gint        dim,
           GnnTensor  *index,
           GnnTensor  *values,
           double      alpha,
           GError    **error)
{
  guint d;
  g_autoptr(GnnTensor) scratch = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (index), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (values), FALSE);
  GNN_CHECK_STORAGE (name, self, error, FALSE);
  GNN_CHECK_STORAGE (name, index, error, FALSE);
  GNN_CHECK_STORAGE (name, values, error, FALSE);
  if (!gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, &d, error) ||
      !gnn_check_no_internal_overlap (self, error))
    return FALSE;
  /* validate on a scratch copy first so that @self stays unchanged on error */
  scratch = gnn_tensor_copy_checked (self, gnn_tensor_priv (self)->dtype, error);
  if (scratch == NULL || !index_slices (op, name, scratch, self, d, index, values, alpha, error))
    return FALSE;
  return gnn_ew_assign_ (self, scratch, kind, &values, 1,
                         &(GnnOpParams) { .dim = (gint) d, .scalar = alpha, .extra = { index } },
                         error);
}

/**
 * gnn_tensor_index_add:
 * @self: a #GnnTensor
 * @dim: the dimension of the slices
 * @index: a 1-d int64 or int32 tensor of slice positions in @self
 * @source: @self's dtype and shape, with one slice per entry of @index along @dim
 * @alpha: the factor of @source
 * @error: return location for a #GError
 *
 * A copy of @self with `alpha · source`'s slices added at the positions
 * @index names along @dim (like `torch.index_add (self, dim, index,
 * source, alpha=alpha)`); repeated positions accumulate.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_add (GnnTensor *self,
                      gint       dim,
                      GnnTensor *index,
                      GnnTensor *source,
                      double     alpha,
                      GError   **error)
{
  return index_op (SLICES_ADD, GNN_OP_INDEX_ADD, "index_add_", self, dim, index, source, alpha,
                   error);
}

/**
 * gnn_tensor_index_add_:
 * @self: the tensor to update
 * @dim: the dimension of the slices
 * @index: a 1-d int64 or int32 tensor of slice positions in @self
 * @source: the slices to add
 * @alpha: the factor of @source
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.index_add].
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_index_add_ (GnnTensor *self,
                       gint       dim,
                       GnnTensor *index,
                       GnnTensor *source,
                       double     alpha,
                       GError   **error)
{
  return index_op_ (SLICES_ADD, GNN_OP_INDEX_ADD, "index_add_", self, dim, index, source, alpha,
                    error);
}

/**
 * gnn_tensor_index_copy:
 * @self: a #GnnTensor
 * @dim: the dimension of the slices
 * @index: a 1-d int64 or int32 tensor of slice positions in @self
 * @source: @self's dtype and shape, with one slice per entry of @index along @dim
 * @error: return location for a #GError
 *
 * A copy of @self whose slices at the positions @index names along @dim
 * are @source's (like `torch.index_copy`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_copy (GnnTensor *self,
                       gint       dim,
                       GnnTensor *index,
                       GnnTensor *source,
                       GError   **error)
{
  return index_op (SLICES_COPY, GNN_OP_INDEX_COPY, "index_copy_", self, dim, index, source, 1.0,
                   error);
}

/**
 * gnn_tensor_index_copy_:
 * @self: the tensor to update
 * @dim: the dimension of the slices
 * @index: a 1-d int64 or int32 tensor of slice positions in @self
 * @source: the slices to copy
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.index_copy].
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_index_copy_ (GnnTensor *self,
                        gint       dim,
                        GnnTensor *index,
                        GnnTensor *source,
                        GError   **error)
{
  return index_op_ (SLICES_COPY, GNN_OP_INDEX_COPY, "index_copy_", self, dim, index, source, 1.0,
                    error);
}

/**
 * gnn_tensor_index_fill:
 * @self: a #GnnTensor
 * @dim: the dimension of the slices
 * @index: a 1-d int64 or int32 tensor of slice positions in @self
 * @value: a 0-d tensor or a wrapped number
 * @error: return location for a #GError
 *
 * A copy of @self whose slices at the positions @index names along @dim
 * hold @value (like `torch.index_fill`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_index_fill (GnnTensor *self,
                       gint       dim,
                       GnnTensor *index,
                       GnnTensor *value,
                       GError   **error)
{
  return index_op (SLICES_FILL, GNN_OP_INDEX_FILL, "index_fill_", self, dim, index, value, 1.0,
                   error);
}

/**
 * gnn_tensor_index_fill_:
 * @self: the tensor to update
 * @dim: the dimension of the slices
 * @index: a 1-d int64 or int32 tensor of slice positions in @self
 * @value: a 0-d tensor or a wrapped number
 * @error: return location for a #GError
 *
 * In-place [method@Gnn.Tensor.index_fill].
 *
 * Returns: %TRUE, or %FALSE with @error set (@self unchanged)
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_index_fill_ (GnnTensor *self,
                        gint       dim,
                        GnnTensor *index,
                        GnnTensor *value,
                        GError   **error)
{
  return index_op_ (SLICES_FILL, GNN_OP_INDEX_FILL, "index_fill_", self, dim, index, value, 1.0,
                    error);
}
