/* gnn-tensor-select.c: ops whose result size depends on the values —
 * nonzero, masked_select, unique, unique_consecutive — and the counting
 * ops bincount and histc
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-nditer-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-elementwise-private.h"

/* --- nonzero ------------------------------------------------------------------------ */

/* The row-major positions of the nonzero elements of @t, flattened; the
 * count in *@n. */
static gint64 *
nonzero_offsets (GnnTensor *t,
                 gint64    *n)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  gsize size = gnn_dtype_get_size (p->dtype);
  gint64 *out = g_new (gint64, MAX (p->numel, 1));
  gint64 count = 0, linear = 0;
  const gint64 *strides[1] = { p->strides };
  GnnNdIter it;

  gnn_nditer_init (&it, p->shape, p->ndim, 1, strides);
  while (gnn_nditer_next (&it))
    for (gint64 i = 0; i < it.inner_size; i++, linear++)
      {
        const guint8 *e = gnn_tensor_priv_data (p) + (it.offsets[0] + i * it.inner_strides[0]) *
                          (gint64) size;
        gboolean nz = p->dtype == GNN_DTYPE_BOOL ? *e != 0 : gnn_dtype_read (p->dtype, e) != 0.0;

        if (nz)
          out[count++] = linear;
      }
  *n = count;
  return out;
}

/**
 * gnn_tensor_nonzero:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * The coordinates of the nonzero elements, one row each, in row-major
 * order (like `torch.nonzero (self)`): an int64 tensor of shape [n, ndim].
 *
 * Returns: (transfer full): the coordinates, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nonzero (GnnTensor *self,
                    GError   **error)
{
  GnnTensorPrivate *p;
  g_autofree gint64 *offsets = NULL;
  gint64 n = 0;
  GnnTensor *out;
  gint64 *o;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("nonzero", self, error, NULL);
  p = gnn_tensor_priv (self);
  offsets = nonzero_offsets (self, &n);
  out = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, (gint64[]) { n, p->ndim }, 2, FALSE,
                                           error);
  if (out == NULL)
    return NULL;
  o = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 k = 0; k < n; k++)
    {
      gint64 rest = offsets[k];

      for (gint d = (gint) p->ndim - 1; d >= 0; d--)
        {
          o[k * p->ndim + (guint) d] = rest % p->shape[d];
          rest /= p->shape[d];
        }
    }
  return out;
}

/* --- masked_select ------------------------------------------------------------------- */

/**
 * gnn_tensor_masked_select:
 * @self: a #GnnTensor
 * @mask: a bool #GnnTensor broadcastable with @self
 * @error: return location for a #GError
 *
 * The elements of @self (broadcast with @mask) where @mask is true, as a
 * 1-d tensor in row-major order (like `torch.masked_select`). The gradient
 * goes back to the selected elements.
 *
 * Returns: (transfer full): a new 1-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_masked_select (GnnTensor *self,
                          GnnTensor *mask,
                          GError   **error)
{
  GnnTensorPrivate *sp, *mp;
  gint64 shape[GNN_MAX_DIMS], ss[GNN_MAX_DIMS], ms[GNN_MAX_DIMS];
  guint ndim;
  g_autoptr(GnnTensor) bmask = NULL;
  g_autoptr(GnnTensor) bself = NULL;
  g_autoptr(GnnTensor) linear = NULL;
  g_autofree gint64 *offsets = NULL;
  gint64 n = 0;
  GnnTensor *out;
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (mask), NULL);
  GNN_CHECK_STORAGE ("masked_select", self, error, NULL);
  GNN_CHECK_STORAGE ("masked_select", mask, error, NULL);
  sp = gnn_tensor_priv (self);
  mp = gnn_tensor_priv (mask);
  if (mp->dtype != GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "masked_select: expected BoolTensor for mask");
      return NULL;
    }
  if (!gnn_broadcast_shapes (sp->shape, sp->ndim, mp->shape, mp->ndim, shape, &ndim, error))
    return NULL;
  gnn_broadcast_strides (self, shape, ndim, ss);
  gnn_broadcast_strides (mask, shape, ndim, ms);
  bself = gnn_tensor_new_view (self, shape, ss, ndim, sp->offset);
  bmask = gnn_tensor_new_view (mask, shape, ms, ndim, mp->offset);
  offsets = nonzero_offsets (bmask, &n);
  linear = gnn_tensor_new_from_int64s (offsets, (gsize) n, &n, 1, error);
  if (linear == NULL)
    return NULL;
  {
    g_autoptr(GnnTensor) packed = gnn_tensor_copy_checked (bself, sp->dtype, error);
    g_autoptr(GnnTensor) flat = NULL;
    gint64 numel = gnn_tensor_priv (bself)->numel;

    if (packed == NULL)
      return NULL;
    flat = gnn_tensor_new_view (packed, &numel, (gint64[]) { 1 }, 1, 0);
    out = gnn_tensor_new_contiguous_checked (sp->dtype, &n, 1, FALSE, error);
    if (out == NULL)
      return NULL;
    {
      gsize size = gnn_dtype_get_size (sp->dtype);
      const guint8 *src = gnn_tensor_priv_data (gnn_tensor_priv (flat));
      guint8 *dst = gnn_tensor_priv_data (gnn_tensor_priv (out));

      for (gint64 k = 0; k < n; k++)
        memcpy (dst + k * (gint64) size, src + offsets[k] * (gint64) size, size);
    }
  }
  params.n_ints = ndim;
  memcpy (params.ints, shape, sizeof (gint64) * ndim);
  params.extra[0] = linear;
  return gnn_tensor_record (GNN_OP_MASKED_SELECT, out, &self, 1, &params);
}

/* --- unique ------------------------------------------------------------------------------ */

typedef struct
{
  double key;
  gint64 pos;
} Entry;

static int
compare_entries (const void *a,
                 const void *b)
{
  const Entry *x = a, *y = b;

  if (x->key < y->key)
    return -1;
  if (x->key > y->key)
    return 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The distinct values of @self: the elements of @packed (@self's data,
 * contiguous) at the @n_distinct positions @first, with the optional
 * inverse (@inv, @self's shape) and counts (@cnt); takes nothing. */
static GnnTensor *
distinct_result (GnnTensorPrivate *p,
                 GnnTensor        *packed,
                 const gint64     *first,
                 gint64            n_distinct,
                 const gint64     *inv,
                 const gint64     *cnt,
                 GnnTensor       **inverse,
                 GnnTensor       **counts,
                 GError          **error)
{
  gsize size = gnn_dtype_get_size (p->dtype);
  const guint8 *x = gnn_tensor_priv_data (gnn_tensor_priv (packed));
  GnnTensor *out = gnn_tensor_new_contiguous_checked (p->dtype, &n_distinct, 1, FALSE, error);

  if (out == NULL)
    return NULL;
  for (gint64 k = 0; k < n_distinct; k++)
    memcpy (gnn_tensor_priv_data (gnn_tensor_priv (out)) + k * (gint64) size,
            x + first[k] * (gint64) size, size);
  if (inverse != NULL)
    *inverse = gnn_tensor_new_from_int64s (inv, (gsize) p->numel, p->shape, p->ndim, NULL);
  if (counts != NULL)
    *counts = gnn_tensor_new_from_int64s (cnt, (gsize) n_distinct, &n_distinct, 1, NULL);
  return out;
}

/**
 * gnn_tensor_unique:
 * @self: a #GnnTensor
 * @inverse: (out) (optional) (transfer full): for each element of @self,
 *   the position of its value in the result (int64, @self's shape)
 * @counts: (out) (optional) (transfer full): how often each value occurs (int64)
 * @error: return location for a #GError
 *
 * The distinct values of @self, sorted (like `torch.unique (self,
 * sorted=True, return_inverse=..., return_counts=...)`).
 *
 * Returns: (transfer full): a 1-d tensor of @self's dtype, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unique (GnnTensor  *self,
                   GnnTensor **inverse,
                   GnnTensor **counts,
                   GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) packed = NULL;
  g_autofree Entry *entries = NULL;
  g_autofree gint64 *inv = NULL;
  g_autofree gint64 *cnt = NULL;
  g_autofree gint64 *first = NULL;
  gint64 n, distinct = 0;
  gsize size;
  const guint8 *x;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("unique", self, error, NULL);
  p = gnn_tensor_priv (self);
  n = p->numel;
  size = gnn_dtype_get_size (p->dtype);
  packed = gnn_tensor_contiguous_checked (self, error);
  if (packed == NULL)
    return NULL;
  x = gnn_tensor_priv_data (gnn_tensor_priv (packed));
  entries = g_new (Entry, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    entries[i] = (Entry) { gnn_dtype_read (p->dtype, x + i * (gint64) size), i };
  qsort (entries, (gsize) n, sizeof (Entry), compare_entries);
  inv = g_new (gint64, MAX (n, 1));
  cnt = g_new0 (gint64, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    {
      if (i == 0 || entries[i].key != entries[i - 1].key)
        entries[distinct++].pos = entries[i].pos;   /* the first occurrence stands for its run */
      inv[entries[i].pos] = distinct - 1;
      cnt[distinct - 1]++;
    }
  first = g_new (gint64, MAX (distinct, 1));
  for (gint64 k = 0; k < distinct; k++)
    first[k] = entries[k].pos;
  return distinct_result (p, packed, first, distinct, inv, cnt, inverse, counts, error);
}

/**
 * gnn_tensor_unique_consecutive:
 * @self: a #GnnTensor
 * @inverse: (out) (optional) (transfer full): for each element of @self,
 *   the position of its run in the result (int64, @self's shape)
 * @counts: (out) (optional) (transfer full): the length of each run (int64)
 * @error: return location for a #GError
 *
 * The first element of every run of equal consecutive elements of @self
 * flattened (like `torch.unique_consecutive (self)` without `dim`).
 *
 * Returns: (transfer full): a 1-d tensor of @self's dtype, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_unique_consecutive (GnnTensor  *self,
                               GnnTensor **inverse,
                               GnnTensor **counts,
                               GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) packed = NULL;
  g_autofree gint64 *inv = NULL;
  g_autofree gint64 *cnt = NULL;
  g_autofree gint64 *first = NULL;
  gint64 n, runs = 0;
  gsize size;
  const guint8 *x;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("unique_consecutive", self, error, NULL);
  p = gnn_tensor_priv (self);
  n = p->numel;
  size = gnn_dtype_get_size (p->dtype);
  if ((packed = gnn_tensor_contiguous_checked (self, error)) == NULL)
    return NULL;
  x = gnn_tensor_priv_data (gnn_tensor_priv (packed));
  inv = g_new (gint64, MAX (n, 1));
  cnt = g_new0 (gint64, MAX (n, 1));
  first = g_new (gint64, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    {
      /* a run is of equal values (torch compares with ==: -0.0 == 0.0) */
      if (i == 0 || gnn_dtype_read (p->dtype, x + i * (gint64) size) !=
                    gnn_dtype_read (p->dtype, x + (i - 1) * (gint64) size))
        first[runs++] = i;
      inv[i] = runs - 1;
      cnt[runs - 1]++;
    }
  return distinct_result (p, packed, first, runs, inv, cnt, inverse, counts, error);
}

/* --- bincount, histc ---------------------------------------------------------------------- */

/**
 * gnn_tensor_bincount:
 * @self: a 1-d tensor of non-negative integers
 * @weights: (nullable): a 1-d floating-point tensor of @self's length, or %NULL
 * @minlength: the least number of bins
 * @error: return location for a #GError
 *
 * How often each value occurs in @self (like `torch.bincount (self,
 * weights, minlength)`): `out[v]` counts (or sums the @weights of) the
 * elements equal to v; max (max + 1, @minlength) bins.
 *
 * Returns: (transfer full): int64 counts (the dtype of @weights when
 *   given), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bincount (GnnTensor *self,
                     GnnTensor *weights,
                     gint64     minlength,
                     GError   **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) values = NULL;
  g_autoptr(GnnTensor) w = NULL;
  gint64 n, bins;
  const gint64 *v;
  GnnDType dtype;
  g_autofree double *acc = NULL;
  gboolean negative = FALSE;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("bincount", self, error, NULL);
  GNN_CHECK_STORAGE ("bincount", weights, error, NULL);
  p = gnn_tensor_priv (self);
  if (gnn_dtype_is_floating (p->dtype))
    {
      gnn_set_not_implemented (error, "bincount_cpu", p->dtype);
      return NULL;
    }
  if (minlength < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "minlength should be >= 0");
      return NULL;
    }
  values = gnn_tensor_copy_checked (self, GNN_DTYPE_I64, error);
  if (values == NULL)
    return NULL;
  v = (const gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (values));
  n = p->numel;
  bins = minlength;
  for (gint64 i = 0; i < n; i++)
    {
      bins = MAX (bins, v[i] + 1);
      negative |= v[i] < 0;
    }
  if (p->ndim != 1 || negative)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "bincount only supports 1-d non-negative integral inputs.");
      return NULL;
    }
  if (weights != NULL)
    {
      GnnTensorPrivate *wp = gnn_tensor_priv (weights);

      if (wp->ndim != 1 || wp->numel != n)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                               "weights should be 1-d and have the same length as input");
          return NULL;
        }
      w = gnn_tensor_copy_checked (weights, GNN_DTYPE_F64, error);
      if (w == NULL)
        return NULL;
    }
  dtype = weights == NULL ? GNN_DTYPE_I64
          : gnn_dtype_is_floating (gnn_tensor_priv (weights)->dtype)
          ? gnn_tensor_priv (weights)->dtype : GNN_DTYPE_F64;
  acc = g_new0 (double, MAX (bins, 1));
  for (gint64 i = 0; i < n; i++)
    acc[v[i]] += w != NULL ? ((const double *) gnn_tensor_priv_data (gnn_tensor_priv (w)))[i] : 1.0;
  out = gnn_tensor_new_contiguous_checked (dtype, &bins, 1, FALSE, error);
  if (out == NULL)
    return NULL;
  for (gint64 b = 0; b < bins; b++)
    gnn_dtype_write (dtype, gnn_tensor_priv_data (gnn_tensor_priv (out)) +
                            b * (gint64) gnn_dtype_get_size (dtype), acc[b]);
  return out;
}

/**
 * gnn_tensor_histc:
 * @self: a floating-point #GnnTensor
 * @bins: the number of equal-width bins
 * @min: the lower end of the range
 * @max: the upper end of the range (@min == @max: the data's range)
 * @error: return location for a #GError
 *
 * A histogram of the elements (like `torch.histc (self, bins, min, max)`):
 * elements outside [@min, @max] are ignored, @max falls in the last bin.
 *
 * Returns: (transfer full): a 1-d tensor of @self's dtype with @bins counts,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_histc (GnnTensor *self,
                  gint64     bins,
                  double     min,
                  double     max,
                  GError   **error)
{
  GnnTensorPrivate *p;
  g_autofree double *x = NULL;
  g_autofree double *acc = NULL;
  gsize n = 0;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("histc", self, error, NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_dtype_is_floating (p->dtype))
    {
      gnn_set_not_implemented (error, "histogram_cpu", p->dtype);
      return NULL;
    }
  if (bins <= 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "torch.histc: bins must be > 0");
      return NULL;
    }
  if (min > max)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "torch.histc: max must be larger than min");
      return NULL;
    }
  x = gnn_tensor_to_doubles (self, &n);
  if (min == max && n > 0)
    {
      min = max = x[0];
      for (gsize i = 0; i < n; i++)
        {
          min = MIN (min, x[i]);
          max = MAX (max, x[i]);
        }
    }
  if (min == max)
    {
      min -= 1;
      max += 1;
    }
  acc = g_new0 (double, bins);
  for (gsize i = 0; i < n; i++)
    if (x[i] >= min && x[i] <= max)
      {
        gint64 b = (gint64) ((x[i] - min) * (double) bins / (max - min));

        acc[MIN (b, bins - 1)] += 1;
      }
  out = gnn_tensor_new_contiguous_checked (p->dtype, &bins, 1, FALSE, error);
  if (out == NULL)
    return NULL;
  for (gint64 b = 0; b < bins; b++)
    gnn_dtype_write (p->dtype, gnn_tensor_priv_data (gnn_tensor_priv (out)) +
                               b * (gint64) gnn_dtype_get_size (p->dtype), acc[b]);
  return out;
}
