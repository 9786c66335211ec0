/* gnn-tensor-search.c: searching sorted data and membership —
 * searchsorted, bucketize, isin
 *
 * Values are compared as doubles with torch's bound searches (a NaN value
 * goes past every boundary, as in torch). None of these is differentiable.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"

/* @t's elements as packed doubles (n of them in *@n) */
static double *
read_doubles (GnnTensor  *t,
              gint64     *n)
{
  gsize count = 0;
  double *v = gnn_tensor_to_doubles (t, &count);

  *n = (gint64) count;
  return v;
}

/* torch's cus_lower_bound / cus_upper_bound over bd[0 .. m) */
static gint64
bound (const double *bd,
       gint64        m,
       double        val,
       gboolean      right)
{
  gint64 start = 0, end = m;

  while (start < end)
    {
      gint64 mid = start + ((end - start) >> 1);
      double mv = bd[mid];

      if (right ? !(mv > val) : !(mv >= val))
        start = mid + 1;
      else
        end = mid;
    }
  return start;
}

static gboolean
search_error (GError    **error,
              const char *format,
              GnnTensor  *a,
              GnnTensor  *b)
{
  g_autofree char *as = gnn_shape_to_string (gnn_tensor_priv (a)->shape, gnn_tensor_priv (a)->ndim);
  g_autofree char *bs = b != NULL ? gnn_shape_to_string (gnn_tensor_priv (b)->shape,
                                                         gnn_tensor_priv (b)->ndim) : NULL;

  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, format, as, bs);
  return FALSE;
}

/* torch's searchsorted_pre_check */
static gboolean
check_search (GnnTensor  *boundaries,
              GnnTensor  *values,
              GnnTensor  *sorter,
              GError    **error)
{
  GnnTensorPrivate *b = gnn_tensor_priv (boundaries), *v = gnn_tensor_priv (values);

  if (b->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension");
      return FALSE;
    }
  if (sorter != NULL)
    {
      GnnTensorPrivate *s = gnn_tensor_priv (sorter);

      if (s->ndim != b->ndim || memcmp (s->shape, b->shape, sizeof (gint64) * b->ndim) != 0)
        return search_error (error, "torch.searchsorted(): boundary and sorter must have the "
                             "same size, but got boundary tensor %s and got sorter tensor %s",
                             boundaries, sorter);
      if (s->dtype != GNN_DTYPE_I64)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                               "torch.searchsorted(): sorter must be a tensor of long dtype");
          return FALSE;
        }
    }
  if (b->ndim != 1 && (v->ndim != b->ndim ||
                       memcmp (v->shape, b->shape, sizeof (gint64) * (b->ndim - 1)) != 0))
    return search_error (error, "torch.searchsorted(): boundaries tensor should be 1 dimension "
                         "or the first N-1 dimensions of boundaries tensor and input value "
                         "tensor must match, but we got boundaries tensor %s and input value "
                         "tensor %s", boundaries, values);
  return TRUE;
}

/**
 * gnn_tensor_searchsorted:
 * @sorted_sequence: the boundaries: 1-d, or sorted along the last dim with
 *   the leading dims of @values
 * @values: the values to place (a tensor or a wrapped number)
 * @right: take the last suitable position instead of the first (torch's
 *   `right=True` / `side='right'`)
 * @out_int32: give int32 positions instead of int64
 * @sorter: (nullable): the positions that sort @sorted_sequence along its
 *   last dim (int64, its shape), for an unsorted sequence
 * @error: return location for a #GError
 *
 * Where each value would be inserted into its row of @sorted_sequence to
 * keep it sorted (like `torch.searchsorted`): the first position whose
 * boundary is >= the value (> with @right).
 *
 * Returns: (transfer full): positions of @values' shape, or %NULL with
 *   @error set (torch's messages)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_searchsorted (GnnTensor *sorted_sequence,
                         GnnTensor *values,
                         gboolean   right,
                         gboolean   out_int32,
                         GnnTensor *sorter,
                         GError   **error)
{
  GnnTensorPrivate *b, *v;
  g_autofree double *bd = NULL;
  g_autofree double *vd = NULL;
  g_autofree double *sd = NULL;
  g_autofree gint64 *pos = NULL;
  gint64 nb, nv, m, k, rows;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (sorted_sequence) && GNN_IS_TENSOR (values), NULL);
  g_return_val_if_fail (sorter == NULL || GNN_IS_TENSOR (sorter), NULL);
  GNN_CHECK_STORAGE ("searchsorted", sorted_sequence, error, NULL);
  GNN_CHECK_STORAGE ("searchsorted", values, error, NULL);
  GNN_CHECK_STORAGE ("searchsorted", sorter, error, NULL);
  if (!check_search (sorted_sequence, values, sorter, error))
    return NULL;
  b = gnn_tensor_priv (sorted_sequence);
  v = gnn_tensor_priv (values);
  bd = read_doubles (sorted_sequence, &nb);
  vd = read_doubles (values, &nv);
  m = b->shape[b->ndim - 1];
  rows = m > 0 ? nb / m : 0;
  k = b->ndim == 1 ? nv : (v->ndim > 0 ? v->shape[v->ndim - 1] : 1);
  if (sorter != NULL)
    {
      gint64 ns;
      g_autofree double *order = read_doubles (sorter, &ns);

      sd = g_new (double, MAX (nb, 1));
      for (gint64 i = 0; i < nb; i++)
        {
          gint64 j = (gint64) order[i];

          if (j < 0 || j >= m)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "torch.searchsorted(): sorter index out of range: %" G_GINT64_FORMAT, j);
              return NULL;
            }
          sd[i] = bd[(i / MAX (m, 1)) * m + j];
        }
      g_free (bd);
      bd = g_steal_pointer (&sd);
    }
  pos = g_new (gint64, MAX (nv, 1));
  for (gint64 i = 0; i < nv; i++)
    {
      gint64 row = b->ndim == 1 || k == 0 ? 0 : i / k;

      pos[i] = row < MAX (rows, 1) ? bound (bd + row * m, m, vd[i], right) : 0;
    }
  out = gnn_tensor_new_from_int64s (pos, (gsize) nv, v->shape, v->ndim, error);
  if (out != NULL && out_int32)
    {
      GnnTensor *narrow = gnn_tensor_copy_checked (out, GNN_DTYPE_I32, error);

      g_object_unref (out);
      out = narrow;
    }
  return out;
}

/**
 * gnn_tensor_bucketize:
 * @self: the values to place (a tensor or a wrapped number)
 * @boundaries: a sorted 1-d tensor
 * @out_int32: give int32 positions instead of int64
 * @right: take the last suitable position instead of the first
 * @error: return location for a #GError
 *
 * The bucket of each value (like `torch.bucketize (self, boundaries)`):
 * [method@Gnn.Tensor.searchsorted] of @self into @boundaries.
 *
 * Returns: (transfer full): positions of @self's shape, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bucketize (GnnTensor *self,
                      GnnTensor *boundaries,
                      gboolean   out_int32,
                      gboolean   right,
                      GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (boundaries), NULL);
  if (gnn_tensor_priv (boundaries)->ndim != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "boundaries tensor must be 1 dimension, but got dim(%u)",
                   gnn_tensor_priv (boundaries)->ndim);
      return NULL;
    }
  return gnn_tensor_searchsorted (boundaries, self, right, out_int32, NULL, error);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/**
 * gnn_tensor_isin:
 * @elements: a #GnnTensor (or a wrapped number)
 * @test_elements: the values to look for (a tensor or a wrapped number)
 * @assume_unique: torch's hint that both hold distinct values (the result
 *   is the same either way)
 * @invert: give %TRUE for the elements *not* in @test_elements
 * @error: return location for a #GError
 *
 * Whether each element of @elements occurs in @test_elements (like
 * `torch.isin`); NaN occurs nowhere.
 *
 * Returns: (transfer full): a bool tensor of @elements' shape, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_isin (GnnTensor *elements,
                 GnnTensor *test_elements,
                 gboolean   assume_unique,
                 gboolean   invert,
                 GError   **error)
{
  GnnTensorPrivate *e;
  g_autofree double *ed = NULL;
  g_autofree double *td = NULL;
  g_autofree guint8 *found = NULL;
  gint64 ne, nt;

  g_return_val_if_fail (GNN_IS_TENSOR (elements) && GNN_IS_TENSOR (test_elements), NULL);
  GNN_CHECK_STORAGE ("isin", elements, error, NULL);
  GNN_CHECK_STORAGE ("isin", test_elements, error, NULL);
  (void) assume_unique;
  e = gnn_tensor_priv (elements);
  ed = read_doubles (elements, &ne);
  td = read_doubles (test_elements, &nt);
  {
    gint64 kept = 0;

    /* NaN matches nothing; out of the sort, which needs an order */
    for (gint64 i = 0; i < nt; i++)
      if (td[i] == td[i])
        td[kept++] = td[i];
    nt = kept;
  }
  qsort (td, (gsize) nt, sizeof (double), compare_doubles);
  found = g_new (guint8, MAX (ne, 1));
  for (gint64 i = 0; i < ne; i++)
    {
      gint64 at = bound (td, nt, ed[i], FALSE);

      found[i] = (at < nt && td[at] == ed[i]) != invert;
    }
  return gnn_tensor_new_from_data (found, (gsize) ne, GNN_DTYPE_BOOL, e->shape, e->ndim, error);
}
