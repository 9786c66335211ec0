/* gnn-tensor-composite.c: torch's composite ops — the ones ATen itself
 * writes as calls of other ops (tile, broadcast_tensors, meshgrid,
 * atleast_Nd, hstack/vstack/dstack/column_stack, diff, tensor_split,
 * repeat_interleave, take_along_dim, cartesian_prod)
 *
 * Each is composed of the library's differentiable ops exactly as ATen
 * composes it, so autograd records the same nodes torch does (tile is a
 * RepeatBackward0, meshgrid's grids ExpandBackward0, diff a SubBackward0,
 * repeat_interleave an IndexSelectBackward0...) with no backward of its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-dtype-check-private.h"

/* Arrays of tensors returned to bindings carry no free function (each
 * element is transferred, as gnn_tensor_split's pieces). */
static void
tensors_free (GPtrArray *tensors)
{
  g_ptr_array_foreach (tensors, (GFunc) (void (*) (void)) g_object_unref, NULL);
  g_ptr_array_unref (tensors);
}

static gboolean
non_empty (const char *op, guint n, GError **error)
{
  if (n > 0)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s expects a non-empty TensorList", op);
  return FALSE;
}

/**
 * gnn_tensor_tile:
 * @self: a #GnnTensor
 * @reps: (array length=n): repetitions per dim (ones are prepended when
 *   fewer than @self's dims)
 * @n: the number of @reps
 * @error: return location for a #GError
 *
 * @self repeated @reps times along each dim (like `torch.tile`: a
 * gnn_tensor_repeat() after padding @reps with leading ones).
 *
 * Returns: (transfer full): the tiled tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tile (GnnTensor    *self,
                 const gint64 *reps,
                 guint         n,
                 GError      **error)
{
  gint64 padded[GNN_MAX_DIMS];
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (reps != NULL || n == 0, NULL);
  ndim = gnn_tensor_priv (self)->ndim;
  if (n >= ndim)
    return gnn_tensor_repeat (self, reps, n, error);
  for (guint i = 0; i < ndim; i++)
    padded[i] = i < ndim - n ? 1 : reps[i - (ndim - n)];
  return gnn_tensor_repeat (self, padded, ndim, error);
}

/**
 * gnn_tensor_broadcast_tensors:
 * @tensors: (array length=n): the tensors
 * @n: the number of @tensors
 * @error: return location for a #GError
 *
 * Each of @tensors expanded to their common broadcast shape (like
 * `torch.broadcast_tensors`; views sharing memory).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the expanded
 *   tensors (an array without a free function: unref each, then the
 *   array), or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_broadcast_tensors (GnnTensor **tensors,
                              guint       n,
                              GError    **error)
{
  gint64 shape[GNN_MAX_DIMS];
  guint ndim = 0;
  GPtrArray *out;

  g_return_val_if_fail (tensors != NULL || n == 0, NULL);
  for (guint i = 0; i < n; i++)
    {
      GnnTensorPrivate *p;

      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      p = gnn_tensor_priv (tensors[i]);
      if (!gnn_broadcast_shapes (shape, ndim, p->shape, p->ndim, shape, &ndim, error))
        return NULL;
    }
  out = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *t = gnn_tensor_expand (tensors[i], shape, ndim, error);

      if (t == NULL)
        {
          tensors_free (out);
          return NULL;
        }
      g_ptr_array_add (out, t);
    }
  return out;
}

/**
 * gnn_tensor_meshgrid:
 * @tensors: (array length=n): 0-d or 1-d tensors of one dtype
 * @n: the number of @tensors
 * @indexing: (nullable): "ij" (the default) or "xy" (the first two grid
 *   dims swapped, as numpy's meshgrid)
 * @error: return location for a #GError
 *
 * Coordinate grids (like `torch.meshgrid`): grid i holds @tensors[i]
 * along dim i, expanded over the others (views sharing memory).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the grids (an array
 *   without a free function: unref each, then the array), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_meshgrid (GnnTensor  **tensors,
                     guint        n,
                     const char  *indexing,
                     GError     **error)
{
  gint64 shape[GNN_MAX_DIMS];
  g_autofree GnnTensor **order = NULL;
  gboolean swap;
  GPtrArray *grids;

  g_return_val_if_fail (tensors != NULL || n == 0, NULL);
  if (n == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.meshgrid: Expected at least one tensor in the tensor list");
      return NULL;
    }
  if (indexing != NULL && !g_str_equal (indexing, "ij") && !g_str_equal (indexing, "xy"))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s",
                   indexing);
      return NULL;
    }
  if (n > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "meshgrid: at most %d tensors (the grids' dims), got %u", GNN_MAX_DIMS, n);
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      if (gnn_tensor_priv (tensors[i])->ndim > 1)
        {
          g_autofree char *shape = gnn_shape_to_string (gnn_tensor_priv (tensors[i])->shape,
                                                        gnn_tensor_priv (tensors[i])->ndim);

          /* torch prints the tensor itself after "got: " */
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: a "
                       "tensor of shape %s", shape);
          return NULL;
        }
      if (gnn_tensor_priv (tensors[i])->dtype != gnn_tensor_priv (tensors[0])->dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "meshgrid expects all tensors to have the same dtype");
          return NULL;
        }
    }
  /* ATen: "xy" swaps the first two inputs, builds "ij" grids, and swaps
   * the first two grids back. */
  swap = indexing != NULL && g_str_equal (indexing, "xy") && n >= 2;
  order = g_memdup2 (tensors, n * sizeof *tensors);
  if (swap)
    order[0] = tensors[1], order[1] = tensors[0];
  for (guint i = 0; i < n; i++)
    shape[i] = gnn_tensor_priv (order[i])->numel;
  grids = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      gint64 view_shape[GNN_MAX_DIMS];
      g_autoptr(GnnTensor) view = NULL;
      GnnTensor *grid;

      for (guint j = 0; j < n; j++)
        view_shape[j] = j == i ? shape[i] : 1;
      view = gnn_tensor_view (order[i], view_shape, n, error);
      grid = view ? gnn_tensor_expand (view, shape, n, error) : NULL;
      if (grid == NULL)
        {
          tensors_free (grids);
          return NULL;
        }
      g_ptr_array_add (grids, grid);
    }
  if (swap)
    {
      gpointer first = grids->pdata[0];

      grids->pdata[0] = grids->pdata[1];
      grids->pdata[1] = first;
    }
  return grids;
}

/* atleast_{1,2,3}d: a view of @self with at least @min dims (ATen's
 * choices: 0-d reshaped to ones, 1-d [n] as [1, n] or [1, n, 1], 2-d
 * [a, b] as [a, b, 1]); @self itself when it has enough. */
static GnnTensor *
at_least (GnnTensor *self,
          guint      min,
          GError   **error)
{
  static const gint64 ones[3] = { 1, 1, 1 };
  guint ndim = gnn_tensor_priv (self)->ndim;
  g_autoptr(GnnTensor) row = NULL;

  if (ndim >= min)
    return g_object_ref (self);
  if (ndim == 0)
    return gnn_tensor_reshape (self, ones, min, error);
  if (ndim == 2 || min == 2)
    return gnn_tensor_unsqueeze (self, ndim == 2 ? -1 : 0, error);
  row = gnn_tensor_unsqueeze (self, 0, error);
  return row ? gnn_tensor_unsqueeze (row, -1, error) : NULL;
}

/**
 * gnn_tensor_atleast_nd:
 * @self: a #GnnTensor
 * @n: the least number of dims, 1 to 3
 * @error: return location for a #GError
 *
 * @self viewed with at least @n dims (like `torch.atleast_1d`, `_2d` and
 * `_3d`): @self itself when it has them.
 *
 * Returns: (transfer full): the view (or @self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atleast_nd (GnnTensor *self,
                       guint      n,
                       GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (n < 1 || n > 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "atleast_nd: n must be 1, 2 or 3, got %u", n);
      return NULL;
    }
  return at_least (self, n, error);
}

/* The pieces of the *stack ops, each made at least @min-d (@column: 0-d
 * and 1-d ones as columns [n, 1]), joined along @dim (-1: dim 0 for 1-d
 * pieces, 1 otherwise, as hstack). */
static GnnTensor *
join_at_least (const char  *op,
               GnnTensor  **tensors,
               guint        n,
               guint        min,
               gboolean     column,
               gint         dim,
               GError     **error)
{
  g_autoptr(GPtrArray) pieces = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (tensors != NULL || n == 0, NULL);
  if (!non_empty (op, n, error))
    return NULL;
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *piece;

      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      if (column && gnn_tensor_priv (tensors[i])->ndim <= 1)
        piece = gnn_tensor_reshape (tensors[i],
                                    (gint64[]) { gnn_tensor_priv (tensors[i])->numel, 1 }, 2,
                                    error);
      else
        piece = at_least (tensors[i], min, error);
      if (piece == NULL)
        return NULL;
      g_ptr_array_add (pieces, piece);
    }
  if (dim < 0)
    dim = gnn_tensor_priv (pieces->pdata[0])->ndim == 1 ? 0 : 1;
  return gnn_tensor_cat ((GnnTensor **) pieces->pdata, n, dim, error);
}

/**
 * gnn_tensor_hstack:
 * @tensors: (array length=n): the tensors
 * @n: the number of @tensors
 * @error: return location for a #GError
 *
 * @tensors joined column-wise (like `torch.hstack`: along dim 0 when they
 * are 1-d, else dim 1; 0-d ones count as 1-d).
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hstack (GnnTensor **tensors,
                   guint       n,
                   GError    **error)
{
  return join_at_least ("hstack", tensors, n, 1, FALSE, -1, error);
}

/**
 * gnn_tensor_vstack:
 * @tensors: (array length=n): the tensors
 * @n: the number of @tensors
 * @error: return location for a #GError
 *
 * @tensors made at least 2-d (1-d ones as rows) and joined along dim 0
 * (like `torch.vstack`, alias `row_stack`).
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_vstack (GnnTensor **tensors,
                   guint       n,
                   GError    **error)
{
  return join_at_least ("vstack", tensors, n, 2, FALSE, 0, error);
}

/**
 * gnn_tensor_dstack:
 * @tensors: (array length=n): the tensors
 * @n: the number of @tensors
 * @error: return location for a #GError
 *
 * @tensors made at least 3-d and joined along dim 2 (like `torch.dstack`).
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dstack (GnnTensor **tensors,
                   guint       n,
                   GError    **error)
{
  return join_at_least ("dstack", tensors, n, 3, FALSE, 2, error);
}

/**
 * gnn_tensor_column_stack:
 * @tensors: (array length=n): the tensors
 * @n: the number of @tensors
 * @error: return location for a #GError
 *
 * @tensors as columns (0-d and 1-d ones reshaped to [numel, 1]) joined
 * like gnn_tensor_hstack() (like `torch.column_stack`).
 *
 * Returns: (transfer full): the joined tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_column_stack (GnnTensor **tensors,
                         guint       n,
                         GError    **error)
{
  return join_at_least ("column_stack", tensors, n, 1, TRUE, -1, error);
}

/* diff's prepend/append must have @self's number of dims. */
static gboolean
diff_operand_ok (GnnTensor *self,
                 GnnTensor *other,
                 GError   **error)
{
  if (other == NULL || gnn_tensor_priv (other)->ndim == gnn_tensor_priv (self)->ndim)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "diff expects prepend or append to be the same dimension as input");
  return FALSE;
}

/**
 * gnn_tensor_diff:
 * @self: a #GnnTensor of at least one dim
 * @n: how many times to difference (0 or less: a copy)
 * @dim: the dim along which (may be negative)
 * @prepend: (nullable): values put before @self along @dim first
 * @append: (nullable): values put after @self along @dim first
 * @error: return location for a #GError
 *
 * The @n-th forward difference along @dim (like `torch.diff`:
 * `x[1:] - x[:-1]` repeated, logical xor for bool).
 *
 * Returns: (transfer full): the differences, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_diff (GnnTensor *self,
                 gint64     n,
                 gint       dim,
                 GnnTensor *prepend,
                 GnnTensor *append,
                 GError   **error)
{
  g_autoptr(GnnTensor) result = NULL;
  gint64 len;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (prepend == NULL || GNN_IS_TENSOR (prepend), NULL);
  g_return_val_if_fail (append == NULL || GNN_IS_TENSOR (append), NULL);
  if (gnn_tensor_priv (self)->ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "diff expects input to be at least one-dimensional");
      return NULL;
    }
  if (!gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, &d, error) ||
      !diff_operand_ok (self, prepend, error) || !diff_operand_ok (self, append, error))
    return NULL;
  if (prepend != NULL || append != NULL)
    {
      GnnTensor *parts[3];
      guint k = 0;

      if (prepend != NULL)
        parts[k++] = prepend;
      parts[k++] = self;
      if (append != NULL)
        parts[k++] = append;
      result = gnn_tensor_cat (parts, k, (gint) d, error);
      if (result == NULL)
        return NULL;
    }
  else
    result = g_object_ref (self);
  if (n <= 0)   /* torch 1.13 takes a negative order as 0 */
    return gnn_tensor_clone (result);
  len = gnn_tensor_priv (result)->shape[d];
  n = MIN (n, len);
  for (gint64 i = 0; i < n; i++)
    {
      g_autoptr(GnnTensor) hi = gnn_tensor_narrow (result, (gint) d, 1, len - 1 - i, error);
      g_autoptr(GnnTensor) lo = hi ? gnn_tensor_narrow (result, (gint) d, 0, len - 1 - i, error)
                                   : NULL;
      GnnTensor *next;

      if (lo == NULL)
        return NULL;
      next = gnn_tensor_priv (self)->dtype == GNN_DTYPE_BOOL ? gnn_tensor_logical_xor (hi, lo, error)
                                                             : gnn_tensor_sub (hi, lo, error);
      if (next == NULL)
        return NULL;
      g_object_unref (result);
      result = next;
    }
  return g_steal_pointer (&result);
}

/* The views of @self between the boundaries @starts[i]..@starts[i + 1]
 * along @dim (torch's slice clamping). */
static GPtrArray *
slices_between (GnnTensor    *self,
                gint          dim,
                const gint64 *bounds,
                guint         n_bounds,
                GError      **error)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i + 1 < n_bounds; i++)
    {
      GnnTensor *piece = gnn_tensor_slice (self, dim, bounds[i], MAX (bounds[i], bounds[i + 1]),
                                           1, error);

      if (piece == NULL)
        {
          tensors_free (out);
          return NULL;
        }
      g_ptr_array_add (out, piece);
    }
  return out;
}

static gboolean
split_input_ok (GnnTensor *self,
                gint       dim,
                guint     *d,
                GError   **error)
{
  if (gnn_tensor_priv (self)->ndim == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "tensor_split expected at least a 1-dimensional tensor, but got a tensor with "
                   "0 dims");
      return FALSE;
    }
  return gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, d, error);
}

/**
 * gnn_tensor_tensor_split:
 * @self: a #GnnTensor of at least one dim
 * @sections: how many pieces (positive)
 * @dim: the dim to split (may be negative)
 * @error: return location for a #GError
 *
 * @sections views along @dim of sizes differing by at most one, the
 * larger first (like `torch.tensor_split (self, sections, dim)`).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the pieces (an array
 *   without a free function: unref each, then the array), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_tensor_split (GnnTensor *self,
                         gint64     sections,
                         gint       dim,
                         GError   **error)
{
  g_autofree gint64 *bounds = NULL;
  gint64 size;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!split_input_ok (self, dim, &d, error))
    return NULL;
  if (sections <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "number of sections must be larger than 0, got %" G_GINT64_FORMAT, sections);
      return NULL;
    }
  if (sections > G_MAXUINT - 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "tensor_split: too many sections (%" G_GINT64_FORMAT ")", sections);
      return NULL;
    }
  size = gnn_tensor_priv (self)->shape[d];
  bounds = g_try_new (gint64, sections + 1);
  if (bounds == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "tensor_split: out of memory for %" G_GINT64_FORMAT " sections", sections);
      return NULL;
    }
  bounds[0] = 0;
  for (gint64 i = 0; i < sections; i++)
    bounds[i + 1] = bounds[i] + size / sections + (i < size % sections ? 1 : 0);
  return slices_between (self, (gint) d, bounds, (guint) sections + 1, error);
}

/**
 * gnn_tensor_tensor_split_indices:
 * @self: a #GnnTensor of at least one dim
 * @indices: (array length=n): the positions along @dim where pieces start
 * @n: the number of @indices (@n + 1 pieces)
 * @dim: the dim to split (may be negative)
 * @error: return location for a #GError
 *
 * The views `self[:i0], self[i0:i1], ..., self[in:]` along @dim (like
 * `torch.tensor_split (self, indices, dim)`; out-of-range positions give
 * empty pieces).
 *
 * Returns: (transfer full) (element-type Gnn.Tensor): the pieces (an array
 *   without a free function: unref each, then the array), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GPtrArray *
gnn_tensor_tensor_split_indices (GnnTensor    *self,
                                 const gint64 *indices,
                                 guint         n,
                                 gint          dim,
                                 GError      **error)
{
  g_autofree gint64 *bounds = NULL;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (indices != NULL || n == 0, NULL);
  if (!split_input_ok (self, dim, &d, error))
    return NULL;
  if (n >= G_MAXUINT - 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "tensor_split: too many indices (%u)", n);
      return NULL;
    }
  bounds = g_new (gint64, n + 2);
  bounds[0] = 0;
  memcpy (bounds + 1, indices, n * sizeof *indices);
  bounds[n + 1] = G_MAXINT64;
  return slices_between (self, (gint) d, bounds, n + 2, error);
}

/* The int64 index repeating position i repeats[i] times (torch's
 * repeat_interleave of a repeats tensor alone). */
static GnnTensor *
interleave_index (const gint64 *repeats,
                  gint64        n,
                  GError      **error)
{
  guint64 total = 0;
  gint64 k = 0;
  gint64 *index;
  GnnTensor *out;

  for (gint64 i = 0; i < n; i++)
    {
      if (repeats[i] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "repeats can not be negative");
          return NULL;
        }
      if (!g_uint64_checked_add (&total, total, (guint64) repeats[i]) || total > G_MAXINT64)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                       "repeat_interleave: the result's size overflows");
          return NULL;
        }
    }
  out = gnn_tensor_zeros ((gint64[]) { (gint64) total }, 1, GNN_DTYPE_I64, error);
  if (out == NULL)
    return NULL;
  index = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 i = 0; i < n; i++)
    for (gint64 r = 0; r < repeats[i]; r++)
      index[k++] = i;
  return out;
}

/* @repeats as n int64 counts: one count broadcast to @n, or a 0-d/1-d
 * integer tensor of @n counts. */
static gint64 *
repeat_counts (GnnTensor *repeats,
               gint64     scalar,
               gint64     n,
               gboolean   n_known,
               gint64    *n_out,
               GError   **error)
{
  g_autoptr(GnnTensor) cast = NULL;
  g_autoptr(GnnTensor) as_i64 = NULL;
  GnnTensorPrivate *p;
  gint64 *counts;

  if (repeats == NULL)
    {
      counts = g_new (gint64, MAX (n, 1));
      for (gint64 i = 0; i < n; i++)
        counts[i] = scalar;
      *n_out = n;
      return counts;
    }
  p = gnn_tensor_priv (repeats);
  if (p->ndim > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "repeats must be 0-dim or 1-dim tensor");
      return NULL;
    }
  if (gnn_dtype_is_floating (p->dtype) || p->dtype == GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "\"repeat_interleave_cpu\" not implemented for '%s'",
                   gnn_torch_scalar_name (p->dtype));
      return NULL;
    }
  GNN_CHECK_STORAGE ("repeat_interleave", repeats, error, NULL);
  cast = gnn_tensor_to_dtype (repeats, GNN_DTYPE_I64, error);
  if (cast == NULL)
    return NULL;
  as_i64 = gnn_tensor_contiguous (cast);
  if (p->ndim == 0 && n_known)
    {
      gint64 each = *(const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (as_i64));

      return repeat_counts (NULL, each, n, TRUE, n_out, error);
    }
  if (n_known && p->numel != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "repeats must have the same size as input along dim");
      return NULL;
    }
  *n_out = p->numel;
  return g_memdup2 (gnn_tensor_priv_data (gnn_tensor_priv (as_i64)),
                    MAX (p->numel, 1) * sizeof (gint64));
}

/**
 * gnn_tensor_repeat_interleave:
 * @self: a #GnnTensor
 * @repeats: (nullable): a 0-d or 1-d integer tensor of counts, or %NULL to
 *   repeat each element @each times
 * @each: the count when @repeats is %NULL
 * @dim: the dim to repeat along (may be negative)
 * @flatten: whether to repeat the elements of the flattened @self (torch's
 *   `dim=None`; @dim is then ignored)
 * @error: return location for a #GError
 *
 * Each slice of @self along @dim repeated consecutively (like
 * `torch.repeat_interleave`): an index_select of the repeated positions
 * (see gnn_tensor_repeat_interleave_index()).
 *
 * Returns: (transfer full): the repeated tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_repeat_interleave (GnnTensor *self,
                              GnnTensor *repeats,
                              gint64     each,
                              gint       dim,
                              gboolean   flatten,
                              GError   **error)
{
  g_autoptr(GnnTensor) input = NULL;
  g_autoptr(GnnTensor) index = NULL;
  g_autofree gint64 *counts = NULL;
  gint64 n;
  guint d = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (repeats == NULL || GNN_IS_TENSOR (repeats), NULL);
  GNN_CHECK_STORAGE ("repeat_interleave", self, error, NULL);
  if (repeats == NULL && each < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "repeats can not be negative");
      return NULL;
    }
  if (flatten)
    input = gnn_tensor_flatten (self, 0, -1, error);
  else if (gnn_wrap_dim (dim, gnn_tensor_priv (self)->ndim, &d, error))
    input = g_object_ref (self);
  if (input == NULL)
    return NULL;
  if (gnn_tensor_priv (input)->ndim == 0)
    {
      /* a 0-d input with dim 0 or -1 repeats as a 1-d one */
      GnnTensor *row = gnn_tensor_reshape (input, (gint64[]) { 1 }, 1, error);

      if (row == NULL)
        return NULL;
      g_object_unref (input);
      input = row;
    }
  counts = repeat_counts (repeats, each, gnn_tensor_priv (input)->shape[d], TRUE, &n, error);
  if (counts == NULL)
    return NULL;
  index = interleave_index (counts, n, error);
  return index ? gnn_tensor_index_select (input, (gint) d, index, error) : NULL;
}

/**
 * gnn_tensor_repeat_interleave_index:
 * @repeats: a 1-d integer tensor of counts
 * @error: return location for a #GError
 *
 * The positions 0, 1, ... each repeated its count in @repeats (like
 * `torch.repeat_interleave (repeats)`).
 *
 * Returns: (transfer full): an int64 tensor of the positions, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_repeat_interleave_index (GnnTensor *repeats,
                                    GError   **error)
{
  g_autofree gint64 *counts = NULL;
  gint64 n;

  g_return_val_if_fail (GNN_IS_TENSOR (repeats), NULL);
  if (gnn_tensor_priv (repeats)->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "repeat_interleave only accept 1D vector as repeat");
      return NULL;
    }
  counts = repeat_counts (repeats, 0, 0, FALSE, &n, error);
  return counts ? interleave_index (counts, n, error) : NULL;
}

/**
 * gnn_tensor_take_along_dim:
 * @self: a #GnnTensor
 * @indices: an int64 #GnnTensor with @self's number of dims (any shape
 *   when @flatten)
 * @dim: the dim to take along (may be negative)
 * @flatten: whether to take from the flattened @self (torch's `dim=None`)
 * @error: return location for a #GError
 *
 * The elements of @self at @indices along @dim, the other dims broadcast
 * between the two (like `torch.take_along_dim`: a gather of the
 * broadcast tensors).
 *
 * Returns: (transfer full): the picked elements, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_take_along_dim (GnnTensor *self,
                           GnnTensor *indices,
                           gint       dim,
                           gboolean   flatten,
                           GError   **error)
{
  GnnTensorPrivate *p, *ip;
  gint64 self_shape[GNN_MAX_DIMS], shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) src = NULL;
  g_autoptr(GnnTensor) idx = NULL;
  guint ndim, d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (indices), NULL);
  p = gnn_tensor_priv (self);
  ip = gnn_tensor_priv (indices);
  if (ip->dtype != GNN_DTYPE_I64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "torch.take_along_dim(): dtype of indices should be Long but got %s",
                   gnn_torch_scalar_name (ip->dtype));
      return NULL;
    }
  if (flatten)
    {
      g_autoptr(GnnTensor) flat = gnn_tensor_reshape (self, (gint64[]) { -1 }, 1, error);
      g_autoptr(GnnTensor) flat_idx = flat ? gnn_tensor_reshape (indices, (gint64[]) { -1 }, 1,
                                                                 error) : NULL;

      return flat_idx ? gnn_tensor_gather (flat, 0, flat_idx, error) : NULL;
    }
  if (ip->ndim != p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "torch.take_along_dim(): input and indices should have the same number of "
                   "dimensions, but got %u dimensions for input, and %u dimensions for indices",
                   p->ndim, ip->ndim);
      return NULL;
    }
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  if (p->ndim == 0)
    return gnn_tensor_gather (self, 0, indices, error);
  /* ATen: broadcast every dim but @dim, which each side keeps. */
  memcpy (self_shape, p->shape, p->ndim * sizeof (gint64));
  self_shape[d] = ip->shape[d];
  if (!gnn_broadcast_shapes (self_shape, p->ndim, ip->shape, ip->ndim, shape, &ndim, error))
    return NULL;
  shape[d] = p->shape[d];
  src = gnn_tensor_expand (self, shape, ndim, error);
  shape[d] = ip->shape[d];
  idx = src ? gnn_tensor_expand (indices, shape, ndim, error) : NULL;
  return idx ? gnn_tensor_gather (src, (gint) d, idx, error) : NULL;
}

/**
 * gnn_tensor_cartesian_prod:
 * @tensors: (array length=n): 1-d tensors of one dtype
 * @n: the number of @tensors
 * @error: return location for a #GError
 *
 * Every combination of one element of each tensor, one per row (like
 * `torch.cartesian_prod`: the flattened meshgrid stacked as columns; a
 * single tensor is returned as it is).
 *
 * Returns: (transfer full): the [product of sizes, @n] rows (1-d for one
 *   tensor), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cartesian_prod (GnnTensor **tensors,
                           guint       n,
                           GError    **error)
{
  g_autoptr(GPtrArray) flat = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *grids;

  g_return_val_if_fail (tensors != NULL || n == 0, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (tensors[i]), NULL);
      if (gnn_tensor_priv (tensors[i])->ndim != 1)
        {
          g_autofree char *shape = gnn_shape_to_string (gnn_tensor_priv (tensors[i])->shape,
                                                        gnn_tensor_priv (tensors[i])->ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Expect a 1D vector, but got shape %s", shape);
          return NULL;
        }
    }
  if (n == 1)
    return g_object_ref (tensors[0]);
  grids = gnn_tensor_meshgrid (tensors, n, "ij", error);
  if (grids == NULL)
    return NULL;
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *column = gnn_tensor_flatten (grids->pdata[i], 0, -1, error);

      if (column == NULL)
        {
          tensors_free (grids);
          return NULL;
        }
      g_ptr_array_add (flat, column);
    }
  tensors_free (grids);
  return gnn_tensor_stack ((GnnTensor **) flat->pdata, n, 1, error);
}
