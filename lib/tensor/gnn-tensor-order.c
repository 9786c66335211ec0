/* gnn-tensor-order.c: order statistics along a dim — kthvalue, median,
 * nanmedian and mode (values and positions), and median/nanmedian over
 * all elements
 *
 * Each slice is sorted (NaN last, as gnn-tensor-sort.c) and the wanted
 * rank picked per slice: k - 1 for kthvalue; for median the lower middle
 * element, or the first NaN when the slice has one (torch propagates NaN);
 * for nanmedian the lower middle of the slice's non-NaN elements; for mode
 * the end of the longest run of equal values (the smallest value among
 * equally long runs; the sort is stable, so the run's end is the value's
 * last position, as torch's). The gradient goes to the picked element
 * (torch's KthvalueBackward0, MedianBackward0/1, NanmedianBackward0/1,
 * ModeBackward0).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-tensor-record-private.h"

typedef enum
{
  RANK_KTH,
  RANK_MEDIAN,
  RANK_NANMEDIAN,
  RANK_MODE,
} RankKind;

/* mode's rank in each sorted slice of @sorted along @d (keepdim shape,
 * int64): the end of the first longest run of equal values. */
static GnnTensor *
mode_ranks (GnnTensor *sorted,
            guint      d,
            GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (sorted);
  g_autoptr(GnnTensor) v = gnn_tensor_to_dtype (sorted, GNN_DTYPE_F64, error);
  g_autoptr(GnnTensor) vc = v != NULL ? gnn_tensor_contiguous_checked (v, error) : NULL;
  gint64 shape[GNN_MAX_DIMS], n = p->shape[d], inner = 1, outer = 1;
  const double *x;
  GnnTensor *out;
  gint64 *r;

  if (vc == NULL)
    return NULL;
  memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
  shape[d] = 1;
  for (guint i = 0; i < p->ndim; i++)
    if (i < d)
      outer *= p->shape[i];
    else if (i > d)
      inner *= p->shape[i];
  out = gnn_tensor_new_contiguous (GNN_DTYPE_I64, shape, p->ndim, FALSE);
  x = (const double *) gnn_tensor_priv_data (gnn_tensor_priv (vc));
  r = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 o = 0; o < outer; o++)
    for (gint64 i = 0; i < inner; i++)
      {
        const double *row = x + o * n * inner + i;
        gint64 best = 0, best_len = 0, start = 0;

        for (gint64 k = 1; k <= n; k++)
          if (k == n || !(row[k * inner] == row[(k - 1) * inner]))
            {
              if (k - start > best_len)
                {
                  best_len = k - start;
                  best = k - 1;
                }
              start = k;
            }
        r[o * inner + i] = best;
      }
  return out;
}

/* The rank to pick in each sorted slice of @sorted along @d (keepdim
 * shape, int64), from the slices' NaN counts. */
static GnnTensor *
ranks (GnnTensor *sorted,
       guint      d,
       RankKind   kind,
       gint64     k,
       GError   **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (sorted);
  gint64 n = p->shape[d];
  g_autoptr(GnnTensor) nan = gnn_tensor_isnan (sorted, error);
  g_autoptr(GnnTensor) counts = nan ? gnn_tensor_sum (nan, (gint[]) { (gint) d }, 1, TRUE,
                                                      error) : NULL;
  g_autoptr(GnnTensor) as_i64 = counts ? gnn_tensor_to_dtype (counts, GNN_DTYPE_I64, error)
                                       : NULL;
  GnnTensor *out;
  gint64 *r;

  if (as_i64 == NULL)
    return NULL;
  out = gnn_tensor_contiguous (as_i64);
  r = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (out));
  for (gint64 i = 0; i < gnn_tensor_priv (out)->numel; i++)
    {
      gint64 nans = r[i], m = n - nans;

      switch (kind)
        {
        case RANK_KTH:
          r[i] = k - 1;
          break;
        case RANK_MEDIAN:
          r[i] = nans > 0 ? m : (n - 1) / 2;
          break;
        case RANK_NANMEDIAN:
          r[i] = m > 0 ? (m - 1) / 2 : 0;
          break;
        case RANK_MODE:
          g_assert_not_reached ();
        }
    }
  return out;
}

/* The picked values of @self along @dim and their positions (keepdim
 * shape in *@index_out), recorded as @op; @values_keepdim the result's
 * shape. */
static GnnTensor *
order_statistic (const char  *name,
                 GnnOpKind    op,
                 GnnTensor   *self,
                 gint         dim,
                 RankKind     kind,
                 gint64       k,
                 gboolean     keepdim,
                 GnnTensor  **index_out,
                 GError     **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) input = NULL;
  g_autoptr(GnnTensor) sorted = NULL;
  g_autoptr(GnnTensor) order = NULL;
  g_autoptr(GnnTensor) rank = NULL;
  g_autoptr(GnnTensor) picked = NULL;
  g_autoptr(GnnTensor) index = NULL;
  GnnTensor *values = NULL;
  gboolean scalar;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE (name, self, error, NULL);
  if (kind != RANK_MODE &&   /* torch's names of its kernels that have no bool case */
      !gnn_check_not_bool (kind == RANK_KTH ? "kthvalue_cpu" : "median_out", self, error))
    return NULL;
  p = gnn_tensor_priv (self);
  if (!gnn_wrap_dim (dim, p->ndim, &d, error))
    return NULL;
  scalar = p->ndim == 0;
  input = scalar ? gnn_tensor_reshape (self, (gint64[]) { 1 }, 1, error) : g_object_ref (self);
  if (input == NULL)
    return NULL;
  if (kind == RANK_KTH && (k < 1 || k > gnn_tensor_priv (input)->shape[d]))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "kthvalue(): selected number k out of range for dimension %u", d);
      return NULL;
    }
  if (kind != RANK_KTH && gnn_tensor_priv (input)->shape[d] == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "%s(): Expected reduction dim %u to have non-zero size.", name, d);
      return NULL;
    }
  gnn_no_grad_push ();
  sorted = gnn_tensor_sort (input, (gint) d, FALSE, TRUE, &order, error);
  if (sorted != NULL)
    rank = kind == RANK_MODE ? mode_ranks (sorted, d, error) : ranks (sorted, d, kind, k, error);
  picked = rank ? gnn_tensor_gather (sorted, (gint) d, rank, error) : NULL;
  index = picked ? gnn_tensor_gather (order, (gint) d, rank, error) : NULL;
  gnn_no_grad_pop ();
  if (index == NULL)
    return NULL;
  if (scalar)
    {
      g_autoptr(GnnTensor) index0 = gnn_tensor_reshape (index, NULL, 0, error);

      values = gnn_tensor_reshape (picked, NULL, 0, error);
      g_clear_object (&index);
      index = g_steal_pointer (&index0);
    }
  else
    values = keepdim ? g_object_ref (picked) : gnn_tensor_squeeze (picked, (gint) d, error);
  if (values == NULL || index == NULL)
    {
      g_clear_object (&values);
      return NULL;
    }
  values = gnn_tensor_record (op, values, &self, 1,
                              &(GnnOpParams) { .dim = (gint) d, .keepdim = keepdim || scalar,
                                               .extra = { index } });
  if (index_out != NULL)
    *index_out = keepdim || scalar ? g_object_ref (index)
                                   : gnn_tensor_squeeze (index, (gint) d, NULL);
  return values;
}

/**
 * gnn_tensor_kthvalue:
 * @self: a #GnnTensor
 * @k: the rank, from 1 (the smallest) to the size of @dim
 * @dim: the dim (may be negative)
 * @keepdim: keep @dim with size 1
 * @indices: (out) (optional) (transfer full): the positions (int64)
 * @error: return location for a #GError
 *
 * The @k-th smallest value of each slice along @dim and its position
 * (like `torch.kthvalue`; NaN counts as the largest).
 *
 * Returns: (transfer full): the values, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_kthvalue (GnnTensor  *self,
                     gint64      k,
                     gint        dim,
                     gboolean    keepdim,
                     GnnTensor **indices,
                     GError    **error)
{
  return order_statistic ("kthvalue", GNN_OP_KTHVALUE, self, dim, RANK_KTH, k, keepdim,
                          indices, error);
}

/**
 * gnn_tensor_median_dim:
 * @self: a #GnnTensor
 * @dim: the dim (may be negative)
 * @keepdim: keep @dim with size 1
 * @indices: (out) (optional) (transfer full): the positions (int64)
 * @error: return location for a #GError
 *
 * The lower median of each slice along @dim and its position (like
 * `torch.median (self, dim)`): NaN when the slice holds one.
 *
 * Returns: (transfer full): the values, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_median_dim (GnnTensor  *self,
                       gint        dim,
                       gboolean    keepdim,
                       GnnTensor **indices,
                       GError    **error)
{
  return order_statistic ("median", GNN_OP_MEDIAN_DIM, self, dim, RANK_MEDIAN, 0, keepdim,
                          indices, error);
}

/**
 * gnn_tensor_nanmedian_dim:
 * @self: a #GnnTensor
 * @dim: the dim (may be negative)
 * @keepdim: keep @dim with size 1
 * @indices: (out) (optional) (transfer full): the positions (int64)
 * @error: return location for a #GError
 *
 * The lower median of the non-NaN values of each slice along @dim and its
 * position (like `torch.nanmedian (self, dim)`; NaN for an all-NaN slice).
 *
 * Returns: (transfer full): the values, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nanmedian_dim (GnnTensor  *self,
                          gint        dim,
                          gboolean    keepdim,
                          GnnTensor **indices,
                          GError    **error)
{
  return order_statistic ("nanmedian", GNN_OP_NANMEDIAN_DIM, self, dim, RANK_NANMEDIAN, 0,
                          keepdim, indices, error);
}

/* median/nanmedian of all elements: the dim form on the flattened tensor,
 * recorded on @self (its backward places the gradient at the flat
 * position). An empty tensor gives NaN, as torch. */
static GnnTensor *
median_all (const char *name,
            GnnOpKind   op,
            GnnTensor  *self,
            RankKind    kind,
            GError    **error)
{
  g_autoptr(GnnTensor) flat = NULL;
  g_autoptr(GnnTensor) index = NULL;
  GnnTensor *value;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE (name, self, error, NULL);
  if (!gnn_check_not_bool ("median_cpu", self, error))
    return NULL;
  if (gnn_tensor_priv (self)->numel == 0)
    return gnn_tensor_full (NULL, 0, NAN, gnn_tensor_priv (self)->dtype, error);
  gnn_no_grad_push ();
  flat = gnn_tensor_reshape (self, (gint64[]) { -1 }, 1, error);
  value = flat ? order_statistic (name, op, flat, 0, kind, 0, FALSE, &index, error) : NULL;
  gnn_no_grad_pop ();
  if (value == NULL)
    return NULL;
  return gnn_tensor_record (op, value, &self, 1, &(GnnOpParams) { .extra = { index } });
}

/**
 * gnn_tensor_median:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * The lower median of all elements (like `torch.median (self)`): NaN when
 * one is NaN or @self is empty.
 *
 * Returns: (transfer full): a 0-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_median (GnnTensor *self,
                   GError   **error)
{
  return median_all ("median", GNN_OP_MEDIAN_ALL, self, RANK_MEDIAN, error);
}

/**
 * gnn_tensor_nanmedian:
 * @self: a #GnnTensor
 * @error: return location for a #GError
 *
 * The lower median of the non-NaN elements (like `torch.nanmedian (self)`).
 *
 * Returns: (transfer full): a 0-d tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nanmedian (GnnTensor *self,
                      GError   **error)
{
  return median_all ("nanmedian", GNN_OP_NANMEDIAN_ALL, self, RANK_NANMEDIAN, error);
}

/**
 * gnn_tensor_mode:
 * @self: a #GnnTensor
 * @dim: the dim (may be negative; torch's default is -1)
 * @keepdim: keep @dim with size 1
 * @indices: (out) (optional) (transfer full): the positions (int64)
 * @error: return location for a #GError
 *
 * The most frequent value of each slice along @dim and its last position
 * (like `torch.mode`); among equally frequent values the smallest.
 *
 * Returns: (transfer full): the values, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mode (GnnTensor  *self,
                 gint        dim,
                 gboolean    keepdim,
                 GnnTensor **indices,
                 GError    **error)
{
  return order_statistic ("mode", GNN_OP_MODE, self, dim, RANK_MODE, 0, keepdim, indices, error);
}
