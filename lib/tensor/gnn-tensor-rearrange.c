/* gnn-tensor-rearrange.c: ops that move elements without computing —
 * flip, roll, tril/triu, repeat — and the splits into views (split,
 * split_with_sizes, chunk, unbind)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-reduce-private.h"

/* --- flip ------------------------------------------------------------------------ */

static GnnTensor *
flip_values (GnnTensor  *self,
             const gint *dims,
             guint       n_dims,
             GnnOpParams *params,
             GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gboolean flip[GNN_MAX_DIMS] = { FALSE, };
  gint64 strides[GNN_MAX_DIMS], offset = 0;
  GnnTensor *out;
  GnnTensorPrivate *op;

  for (guint i = 0; i < n_dims; i++)
    {
      guint d;

      if (!gnn_wrap_dim (dims[i], p->ndim, &d, error))
        return NULL;
      if (flip[d])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "dim %u appears multiple times in the list of dims", d);
          return NULL;
        }
      flip[d] = TRUE;
      params->dims[params->n_dims++] = (gint) d;
    }
  out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, FALSE, error);
  if (out == NULL)
    return NULL;
  op = gnn_tensor_priv (out);
  /* read through negative strides from the last element of each flipped dim */
  for (guint d = 0; d < p->ndim; d++)
    {
      strides[d] = flip[d] ? -p->strides[d] : p->strides[d];
      if (flip[d] && p->shape[d] > 0)
        offset += (p->shape[d] - 1) * p->strides[d];
    }
  gnn_strided_copy (p->dtype, gnn_tensor_priv_data (op), op->strides, p->dtype,
                    gnn_tensor_priv_data (p) + offset * (gint64) gnn_dtype_get_size (p->dtype),
                    strides, p->shape, p->ndim);
  return out;
}

/**
 * gnn_tensor_flip:
 * @self: a #GnnTensor
 * @dims: (array length=n_dims): the dims to reverse (may be negative)
 * @n_dims: the number of dims
 * @error: return location for a #GError
 *
 * The elements in reverse order along @dims (like `torch.flip (self,
 * dims)`), copied.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL if a dim is
 *   out of range or listed twice
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_flip (GnnTensor  *self,
                 const gint *dims,
                 guint       n_dims,
                 GError    **error)
{
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("flip", self, error, NULL);
  return gnn_tensor_record (GNN_OP_FLIP, flip_values (self, dims, n_dims, &params, error),
                            &self, 1, &params);
}

/* --- roll ------------------------------------------------------------------------ */

/* One dim: out[(i + shift) mod n] = x[i]; @x and @out contiguous. */
static void
roll_dim (GnnTensor *x,
          GnnTensor *out,
          guint      d,
          gint64     shift)
{
  GnnTensorPrivate *xp = gnn_tensor_priv (x), *op = gnn_tensor_priv (out);
  gint64 n = xp->shape[d], shape[GNN_MAX_DIMS];
  gsize size = gnn_dtype_get_size (xp->dtype);
  gint64 s = ((shift % n) + n) % n;

  memcpy (shape, xp->shape, sizeof (gint64) * xp->ndim);
  /* x[0, n - s) -> out[s, n) */
  shape[d] = n - s;
  gnn_strided_copy (xp->dtype, gnn_tensor_priv_data (op) + s * op->strides[d] * (gint64) size,
                    op->strides, xp->dtype, gnn_tensor_priv_data (xp), xp->strides, shape,
                    xp->ndim);
  /* x[n - s, n) -> out[0, s) */
  shape[d] = s;
  gnn_strided_copy (xp->dtype, gnn_tensor_priv_data (op), op->strides, xp->dtype,
                    gnn_tensor_priv_data (xp) + (n - s) * xp->strides[d] * (gint64) size,
                    xp->strides, shape, xp->ndim);
}

static GnnTensor *
roll_values (GnnTensor    *self,
             const gint64 *shifts,
             guint         n_shifts,
             const gint   *dims,
             guint         n_dims,
             GnnOpParams  *params,
             GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) cur = NULL;

  if (n_shifts == 0 || (n_dims > 0 && n_shifts != n_dims) || (n_dims == 0 && n_shifts != 1) ||
      n_shifts > G_N_ELEMENTS (params->ints))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "shifts and dimensions must align. shifts: %u, dims:%u", n_shifts, n_dims);
      return NULL;
    }
  cur = gnn_tensor_copy_checked (self, p->dtype, error);
  if (cur == NULL)
    return NULL;
  if (n_dims == 0)
    {
      /* the flattened tensor, shape restored */
      g_autoptr(GnnTensor) flat = gnn_tensor_new_view (cur, &p->numel, (gint64[]) { 1 }, 1, 0);
      g_autoptr(GnnTensor) rolled = gnn_tensor_new_contiguous (p->dtype, &p->numel, 1, FALSE);

      if (p->numel > 0)
        roll_dim (flat, rolled, 0, shifts[0]);
      params->ints[0] = shifts[0];
      params->n_ints = 1;
      return gnn_tensor_new_view (rolled, p->shape, gnn_tensor_priv (cur)->strides, p->ndim, 0);
    }
  for (guint i = 0; i < n_dims; i++)
    {
      guint d;
      GnnTensor *next;

      if (!gnn_wrap_dim (dims[i], p->ndim, &d, error))
        return NULL;
      params->dims[i] = (gint) d;
      params->ints[i] = shifts[i];
      next = gnn_tensor_new_contiguous (p->dtype, p->shape, p->ndim, FALSE);
      if (p->numel > 0)
        roll_dim (cur, next, d, shifts[i]);
      g_object_unref (cur);
      cur = next;
    }
  params->n_dims = n_dims;
  params->n_ints = n_shifts;
  return g_steal_pointer (&cur);
}

/**
 * gnn_tensor_roll:
 * @self: a #GnnTensor
 * @shifts: (array length=n_shifts): how far to shift along each dim
 * @n_shifts: the number of shifts
 * @dims: (array length=n_dims) (nullable): the dims to roll; none: the
 *   flattened tensor, rolled by one shift and reshaped back
 * @n_dims: the number of dims (0, or @n_shifts)
 * @error: return location for a #GError
 *
 * Rotates the elements along @dims (like `torch.roll (self, shifts,
 * dims)`): an element shifted past the end comes back at the start.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error
 *   set ("shifts and dimensions must align", a bad dim)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_roll (GnnTensor    *self,
                 const gint64 *shifts,
                 guint         n_shifts,
                 const gint   *dims,
                 guint         n_dims,
                 GError      **error)
{
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (shifts != NULL || n_shifts == 0, NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  GNN_CHECK_STORAGE ("roll", self, error, NULL);
  return gnn_tensor_record (GNN_OP_ROLL,
                            roll_values (self, shifts, n_shifts, dims, n_dims, &params, error),
                            &self, 1, &params);
}

/* --- tril, triu --------------------------------------------------------------------- */

static GnnTensor *
triangle_values (GnnTensor  *self,
                 gint64      diagonal,
                 gboolean    lower,
                 GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnTensor *out;
  gint64 rows, cols, batch;
  gsize size;
  guint8 *o;

  if (p->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [-%u, %d], but got -2)",
                   MAX (p->ndim, 1), (gint) MAX (p->ndim, 1) - 1);
      return NULL;
    }
  out = gnn_tensor_copy_checked (self, p->dtype, error);
  if (out == NULL)
    return NULL;
  rows = p->shape[p->ndim - 2];
  cols = p->shape[p->ndim - 1];
  batch = rows * cols > 0 ? p->numel / (rows * cols) : 0;
  size = gnn_dtype_get_size (p->dtype);
  o = gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 b = 0; b < batch; b++)
    for (gint64 i = 0; i < rows; i++)
      for (gint64 j = 0; j < cols; j++)
        if (lower ? j - i > diagonal : j - i < diagonal)
          memset (o + ((b * rows + i) * cols + j) * (gint64) size, 0, size);
  return out;
}

/**
 * gnn_tensor_tril:
 * @self: a #GnnTensor of at least 2 dims (a batch of matrices)
 * @diagonal: which diagonal bounds the kept part (0: the main one,
 *   positive: above it, negative: below)
 * @error: return location for a #GError
 *
 * The lower triangle of each matrix, zeros above @diagonal (like
 * `torch.tril`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tril (GnnTensor *self,
                 gint64     diagonal,
                 GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("tril", self, error, NULL);
  return gnn_tensor_record (GNN_OP_TRIL, triangle_values (self, diagonal, TRUE, error), &self, 1,
                            &(GnnOpParams) { .start = diagonal });
}

/**
 * gnn_tensor_triu:
 * @self: a #GnnTensor of at least 2 dims (a batch of matrices)
 * @diagonal: which diagonal bounds the kept part
 * @error: return location for a #GError
 *
 * The upper triangle of each matrix, zeros below @diagonal (like
 * `torch.triu`).
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_triu (GnnTensor *self,
                 gint64     diagonal,
                 GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("triu", self, error, NULL);
  return gnn_tensor_record (GNN_OP_TRIU, triangle_values (self, diagonal, FALSE, error), &self, 1,
                            &(GnnOpParams) { .start = diagonal });
}

/* --- repeat ---------------------------------------------------------------------------- */

static GnnTensor *
repeat_values (GnnTensor    *self,
               const gint64 *repeats,
               guint         n,
               GnnOpParams  *params,
               GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gint64 shape2[GNN_MAX_DIMS], strides2[GNN_MAX_DIMS], shape[GNN_MAX_DIMS];
  guint lead;
  GnnTensor *out;

  if (n < p->ndim)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Number of dimensions of repeat dims can not be smaller than number of "
                           "dimensions of tensor");
      return NULL;
    }
  if (2 * n > GNN_MAX_DIMS || n > G_N_ELEMENTS (params->ints))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "repeat: at most %d dims are supported, got %u", GNN_MAX_DIMS / 2, n);
      return NULL;
    }
  lead = n - p->ndim;
  /* [r0, s0, r1, s1, ...]: each size behind a stride-0 dim of its repeats */
  for (guint i = 0; i < n; i++)
    {
      gint64 s = i < lead ? 1 : p->shape[i - lead];

      if (repeats[i] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": [%"
                       G_GINT64_FORMAT "]", repeats[i], repeats[i]);
          return NULL;
        }
      shape2[2 * i] = repeats[i];
      strides2[2 * i] = 0;
      shape2[2 * i + 1] = s;
      strides2[2 * i + 1] = i < lead ? 0 : p->strides[i - lead];
      if (!gnn_checked_mul (repeats[i], s, &shape[i]))
        shape[i] = G_MAXINT64;
      params->ints[i] = repeats[i];
    }
  params->n_ints = n;
  out = gnn_tensor_new_contiguous_checked (p->dtype, shape, n, FALSE, error);
  if (out == NULL)
    return NULL;
  {
    gint64 out_strides2[GNN_MAX_DIMS];

    gnn_contiguous_strides (shape2, 2 * n, out_strides2);
    gnn_strided_copy (p->dtype, gnn_tensor_priv_data (gnn_tensor_priv (out)), out_strides2,
                      p->dtype, gnn_tensor_priv_data (p), strides2, shape2, 2 * n);
  }
  return out;
}

/**
 * gnn_tensor_repeat:
 * @self: a #GnnTensor
 * @repeats: (array length=n): how many copies along each dim (leading
 *   entries beyond @self's dims add new dims)
 * @n: the number of entries, at least @self's number of dims
 * @error: return location for a #GError
 *
 * Tiles @self (like `self.repeat (*repeats)`): the result has size
 * `repeats[d] · size[d]` along each dim. The gradient sums the tiles.
 *
 * Returns: (transfer full): a new contiguous tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_repeat (GnnTensor    *self,
                   const gint64 *repeats,
                   guint         n,
                   GError      **error)
{
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (repeats != NULL || n == 0, NULL);
  GNN_CHECK_STORAGE ("repeat", self, error, NULL);
  return gnn_tensor_record (GNN_OP_REPEAT, repeat_values (self, repeats, n, &params, error),
                            &self, 1, &params);
}

/* --- split, chunk, unbind -------------------------------------------------------------- */

/* The arrays are returned without a free function: bindings take the
 * references of the elements (transfer full) and then unref the array. */
static GPtrArray *
pieces_new (void)
{
  return g_ptr_array_new ();
}

static void
pieces_free (GPtrArray *pieces)
{
  g_ptr_array_foreach (pieces, (GFunc) (void (*) (void)) g_object_unref, NULL);
  g_ptr_array_unref (pieces);
}

static GPtrArray *
split_sizes (GnnTensor    *self,
             guint         d,
             const gint64 *sizes,
             guint         n,
             GError      **error)
{
  GPtrArray *pieces = pieces_new ();
  gint64 start = 0;

  for (guint i = 0; i < n; i++)
    {
      GnnTensor *piece = gnn_tensor_narrow (self, (gint) d, start, sizes[i], error);

      if (piece == NULL)
        {
          pieces_free (pieces);
          return NULL;
        }
      g_ptr_array_add (pieces, piece);
      start += sizes[i];
    }
  return pieces;
}

/* The dim to split along, wrapped; torch refuses 0-d tensors. */
static gboolean
split_dim (const char *name,
           GnnTensor  *self,
           gint        dim,
           guint      *d,
           GError    **error)
{
  if (gnn_tensor_priv (self)->ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s expects at least a 1-dimensional tensor", name);
      return FALSE;
    }
  return gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, d, error);
}

/**
 * gnn_tensor_split:
 * @self: a #GnnTensor of at least one dim
 * @split_size: the size of each piece (the last one may be smaller)
 * @dim: the dim to split along (may be negative)
 * @error: return location for a #GError
 *
 * Views of consecutive pieces of @split_size along @dim (like
 * `torch.split (self, split_size, dim)`).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the pieces (an array
 *   without a free function: unref each piece, then the array), or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_split (GnnTensor *self,
                  gint64     split_size,
                  gint       dim,
                  GError   **error)
{
  g_autofree gint64 *sizes = NULL;
  gint64 size, n;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!split_dim ("split", self, dim, &d, error))
    return NULL;
  size = gnn_tensor_priv (self)->shape[d];
  if (split_size < 0 || (split_size == 0 && size > 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "split_size can only be 0 if dimension size is 0, but got dimension size of %"
                   G_GINT64_FORMAT, size);
      return NULL;
    }
  n = split_size == 0 ? 1 : MAX ((size + split_size - 1) / split_size, 1);
  sizes = g_new (gint64, n);
  for (gint64 i = 0; i < n; i++)
    sizes[i] = MIN (split_size, size - i * split_size);
  return split_sizes (self, d, sizes, (guint) n, error);
}

/**
 * gnn_tensor_split_with_sizes:
 * @self: a #GnnTensor of at least one dim
 * @sizes: (array length=n): the size of each piece, summing to the size of @dim
 * @n: the number of pieces
 * @dim: the dim to split along (may be negative)
 * @error: return location for a #GError
 *
 * Views of consecutive pieces of the given sizes along @dim (like
 * `torch.split (self, [sizes], dim)`).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the pieces (an array
 *   without a free function: unref each piece, then the array), or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_split_with_sizes (GnnTensor    *self,
                             const gint64 *sizes,
                             guint         n,
                             gint          dim,
                             GError      **error)
{
  gint64 total = 0, size;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (sizes != NULL || n == 0, NULL);
  if (!split_dim ("split_with_sizes", self, dim, &d, error))
    return NULL;
  size = gnn_tensor_priv (self)->shape[d];
  for (guint i = 0; i < n; i++)
    total += sizes[i];
  if (total != size)
    {
      GString *list = g_string_new ("[");

      for (guint i = 0; i < n; i++)
        g_string_append_printf (list, "%s%" G_GINT64_FORMAT, i ? ", " : "", sizes[i]);
      g_string_append_c (list, ']');
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "split_with_sizes expects split_sizes to sum exactly to %" G_GINT64_FORMAT
                   " (input tensor's size at dimension %u), but got split_sizes=%s", size, d,
                   list->str);
      g_string_free (list, TRUE);
      return NULL;
    }
  return split_sizes (self, d, sizes, n, error);
}

/**
 * gnn_tensor_chunk:
 * @self: a #GnnTensor of at least one dim
 * @chunks: the most pieces to make
 * @dim: the dim to split along (may be negative)
 * @error: return location for a #GError
 *
 * At most @chunks views of `ceil (size / chunks)` elements along @dim (like
 * `torch.chunk`; fewer pieces when the size does not need them all).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the pieces (an array
 *   without a free function: unref each piece, then the array), or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_chunk (GnnTensor *self,
                  gint64     chunks,
                  gint       dim,
                  GError   **error)
{
  gint64 size;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (chunks <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "chunk expects `chunks` to be greater than 0, got: %" G_GINT64_FORMAT, chunks);
      return NULL;
    }
  if (!split_dim ("chunk", self, dim, &d, error))
    return NULL;
  size = gnn_tensor_priv (self)->shape[d];
  return gnn_tensor_split (self, MAX ((size + chunks - 1) / chunks, 1), (gint) d, error);
}

/**
 * gnn_tensor_unbind:
 * @self: a #GnnTensor of at least one dim
 * @dim: the dim to take apart (may be negative)
 * @error: return location for a #GError
 *
 * The slices along @dim, each without that dim (like `torch.unbind`).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the slices, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_unbind (GnnTensor *self,
                   gint       dim,
                   GError   **error)
{
  GPtrArray *slices;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!split_dim ("unbind", self, dim, &d, error))
    return NULL;
  slices = pieces_new ();
  for (gint64 i = 0; i < gnn_tensor_priv (self)->shape[d]; i++)
    {
      GnnTensor *slice = gnn_tensor_select (self, (gint) d, i, error);

      if (slice == NULL)
        {
          pieces_free (slices);
          return NULL;
        }
      g_ptr_array_add (slices, slice);
    }
  return slices;
}
