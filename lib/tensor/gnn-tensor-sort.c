/* gnn-tensor-sort.c: sort, argsort and topk along a dim
 *
 * Each slice along the dim is copied into (key, position) pairs and merge
 * sorted — stable, so equal values keep their order, as torch's CPU sort
 * does — with NaN above +inf. topk selects the k extremes with a
 * quickselect first and sorts only those. float32 and the narrow integer
 * types take gnn-sort-keys.c's integer keys instead (the same order).
 * Slices are split among the intra-op threads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-reduce-private.h"
#include "tensor/gnn-index-walk-private.h"
#include "tensor/gnn-parallel-private.h"
#include "tensor/gnn-sort-keys-private.h"

/* int64 keys stay exact; every other dtype sorts as double (exact too). */
typedef struct
{
  double key;
  gint64 pos;
} PairF;

typedef struct
{
  gint64 key;
  gint64 pos;
} PairI;

/* a strictly before b: ascending with NaN last (descending: NaN first),
 * positions breaking ties so that every order is stable */
#define BEFORE_F(a, b, desc)                                                    \
  ((desc) ? (isnan ((a).key) ? !isnan ((b).key) || (a).pos < (b).pos           \
                             : !isnan ((b).key) && ((a).key > (b).key ||        \
                                                    ((a).key == (b).key && (a).pos < (b).pos))) \
          : (isnan ((b).key) ? !isnan ((a).key) || (a).pos < (b).pos           \
                             : !isnan ((a).key) && ((a).key < (b).key ||        \
                                                    ((a).key == (b).key && (a).pos < (b).pos))))
#define BEFORE_I(a, b, desc)                                                    \
  ((desc) ? ((a).key > (b).key || ((a).key == (b).key && (a).pos < (b).pos))    \
          : ((a).key < (b).key || ((a).key == (b).key && (a).pos < (b).pos)))

#define DEFINE_SORTS(TAG, PAIR, BEFORE)                                         \
static void                                                                     \
merge_sort_##TAG (PAIR *v, PAIR *tmp, gint64 n, gboolean desc)                  \
{                                                                               \
  /* insertion sort of runs of 16, then bottom-up merges */                     \
  for (gint64 lo = 0; lo < n; lo += 16)                                         \
    {                                                                           \
      gint64 hi = MIN (lo + 16, n);                                             \
      for (gint64 i = lo + 1; i < hi; i++)                                      \
        {                                                                       \
          PAIR x = v[i];                                                        \
          gint64 j = i;                                                         \
          while (j > lo && BEFORE (x, v[j - 1], desc))                          \
            {                                                                   \
              v[j] = v[j - 1];                                                  \
              j--;                                                              \
            }                                                                   \
          v[j] = x;                                                             \
        }                                                                       \
    }                                                                           \
  for (gint64 width = 16; width < n; width *= 2)                                \
    {                                                                           \
      for (gint64 lo = 0; lo < n; lo += 2 * width)                              \
        {                                                                       \
          gint64 mid = MIN (lo + width, n), hi = MIN (lo + 2 * width, n);       \
          gint64 i = lo, j = mid, k = lo;                                       \
          while (i < mid && j < hi)                                             \
            tmp[k++] = BEFORE (v[j], v[i], desc) ? v[j++] : v[i++];             \
          while (i < mid)                                                       \
            tmp[k++] = v[i++];                                                  \
          while (j < hi)                                                        \
            tmp[k++] = v[j++];                                                  \
        }                                                                       \
      memcpy (v, tmp, sizeof (PAIR) * (gsize) n);                               \
    }                                                                           \
}                                                                               \
                                                                                \
/* Moves the k first of the order to v[0 .. k) (in any order). */               \
static void                                                                     \
select_##TAG (PAIR *v, gint64 n, gint64 k, gboolean desc)                       \
{                                                                               \
  gint64 lo = 0, hi = n - 1;                                                    \
  guint64 seed = 0x9e3779b97f4a7c15ull;                                         \
  while (lo < hi)                                                               \
    {                                                                           \
      PAIR pivot, t;                                                            \
      gint64 i = lo, j = hi;                                                    \
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;            \
      pivot = v[lo + (gint64) ((seed >> 33) % (guint64) (hi - lo + 1))];        \
      while (i <= j)                                                            \
        {                                                                       \
          while (BEFORE (v[i], pivot, desc))                                    \
            i++;                                                                \
          while (BEFORE (pivot, v[j], desc))                                    \
            j--;                                                                \
          if (i <= j)                                                           \
            {                                                                   \
              t = v[i];                                                         \
              v[i] = v[j];                                                      \
              v[j] = t;                                                         \
              i++;                                                              \
              j--;                                                              \
            }                                                                   \
        }                                                                       \
      if (k - 1 <= j)                                                           \
        hi = j;                                                                 \
      else if (k - 1 >= i)                                                      \
        lo = i;                                                                 \
      else                                                                      \
        break;                                                                  \
    }                                                                           \
}

DEFINE_SORTS (f, PairF, BEFORE_F)
DEFINE_SORTS (i, PairI, BEFORE_I)

typedef struct
{
  GnnTensorPrivate *xp;         /* contiguous input */
  GnnDType          dtype;
  gint64            n, inner, k;
  gboolean          desc, select, sorted;
  guint8           *values;     /* [outer, k, inner] */
  gint64           *indices;
  gint             *failed;     /* set when a thread's scratch cannot be allocated */
} SortJob;

static void
sort_slices (gint64   begin,
             gint64   end,
             gpointer data)
{
  const SortJob *j = data;
  gboolean keyed = gnn_sort_keys_supported (j->dtype, j->n);
  gboolean exact = j->dtype == GNN_DTYPE_I64;
  gsize pair_size = exact ? sizeof (PairI) : sizeof (PairF);
  gsize size = gnn_dtype_get_size (j->dtype);
  g_autofree guint8 *pairs = g_try_malloc (pair_size * (gsize) MAX (j->n, 1));
  g_autofree guint8 *tmp = keyed ? gnn_sort_keys_scratch (j->n)
                                  : g_try_malloc (pair_size * (gsize) MAX (j->n, 1));
  const guint8 *x = gnn_tensor_priv_data (j->xp);

  if (pairs == NULL || tmp == NULL)
    {
      g_atomic_int_set (j->failed, 1);   /* the caller raises it */
      return;
    }

  for (gint64 s = begin; s < end; s++)
    {
      gint64 o = s / j->inner, i = s % j->inner;
      const guint8 *base = x + (o * j->n * j->inner + i) * (gint64) size;
      gint64 out_base = o * j->k * j->inner + i;

      if (keyed)
        {
          /* positions in order (sorted also when !sorted: any order is allowed) */
          gint64 *pos = (gint64 *) pairs;

          gnn_sort_keys_slice (j->dtype, base, j->inner, j->n, j->k, j->desc, tmp, pos);
          for (gint64 t = 0; t < j->k; t++)
            {
              j->indices[out_base + t * j->inner] = pos[t];
              memcpy (j->values + (out_base + t * j->inner) * (gint64) size,
                      base + pos[t] * j->inner * (gint64) size, size);
            }
          continue;
        }
      for (gint64 t = 0; t < j->n; t++)
        {
          const guint8 *e = base + t * j->inner * (gint64) size;

          if (exact)
            ((PairI *) pairs)[t] = (PairI) { *(const gint64 *) e, t };
          else
            ((PairF *) pairs)[t] = (PairF) { gnn_dtype_read (j->dtype, e), t };
        }
      if (exact)
        {
          if (j->select && j->k < j->n)
            select_i ((PairI *) pairs, j->n, j->k, j->desc);
          if (j->sorted || !j->select)
            merge_sort_i ((PairI *) pairs, (PairI *) tmp, j->select ? j->k : j->n, j->desc);
        }
      else
        {
          if (j->select && j->k < j->n)
            select_f ((PairF *) pairs, j->n, j->k, j->desc);
          if (j->sorted || !j->select)
            merge_sort_f ((PairF *) pairs, (PairF *) tmp, j->select ? j->k : j->n, j->desc);
        }
      for (gint64 t = 0; t < j->k; t++)
        {
          gint64 pos = exact ? ((PairI *) pairs)[t].pos : ((PairF *) pairs)[t].pos;

          j->indices[out_base + t * j->inner] = pos;
          memcpy (j->values + (out_base + t * j->inner) * (gint64) size,
                  base + pos * j->inner * (gint64) size, size);
        }
    }
}

/* The k first along @dim in the order (all of them for a sort): values
 * and positions, not recorded; *@d gets @dim wrapped. */
static GnnTensor *
sort_impl (const char  *name,
           GnnTensor   *self,
           gint         dim,
           gint64       k,
           gboolean     desc,
           gboolean     select,
           gboolean     sorted,
           GnnTensor  **indices,
           guint       *d,
           GError     **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) idx = NULL;
  GnnTensor *values;
  gint64 shape[GNN_MAX_DIMS], outer;
  SortJob j = { 0 };
  gint failed = 0;

  if (!gnn_wrap_dim (dim, p->ndim, d, error))
    return NULL;
  j.n = p->ndim > 0 ? p->shape[*d] : 1;
  if (select && (k < 0 || k > j.n))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX, "selected index k out of range");
      return NULL;
    }
  if (p->dtype == GNN_DTYPE_F16 || p->dtype == GNN_DTYPE_BF16)
    {
      g_autoptr(GnnTensor) f = gnn_tensor_copy_checked (self, GNN_DTYPE_F32, error);
      g_autoptr(GnnTensor) v = f != NULL ? sort_impl (name, f, dim, k, desc, select, sorted,
                                                      indices, d, error) : NULL;

      return v != NULL ? gnn_tensor_copy_checked (v, p->dtype, error) : NULL;
    }
  j.k = select ? k : j.n;
  memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
  if (p->ndim > 0)
    shape[*d] = j.k;
  x = gnn_tensor_contiguous_checked (self, error);
  if (x == NULL)
    return NULL;
  values = gnn_tensor_new_contiguous_checked (p->dtype, shape, p->ndim, FALSE, error);
  if (values == NULL)
    return NULL;
  idx = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, shape, p->ndim, FALSE, error);
  if (idx == NULL)
    {
      g_object_unref (values);
      return NULL;
    }
  gnn_split_at_dim (p->shape, p->ndim, *d, &outer, &j.n, &j.inner);
  if (p->ndim == 0)
    j.n = j.inner = outer = 1;
  j.xp = gnn_tensor_priv (x);
  j.dtype = p->dtype;
  j.desc = desc;
  j.select = select;
  j.sorted = sorted;
  j.values = gnn_tensor_priv_data (gnn_tensor_priv (values));
  j.indices = (gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (idx));
  j.failed = &failed;
  if (p->numel > 0 && j.k > 0)
    gnn_parallel_for (outer * j.inner, gnn_parallel_grain (j.n * 8), sort_slices, &j);
  if (g_atomic_int_get (&failed))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "%s: out of memory for the working buffers of slices of %" G_GINT64_FORMAT
                   " elements", name, j.n);
      g_object_unref (values);
      return NULL;
    }
  if (indices != NULL)
    *indices = g_steal_pointer (&idx);
  return values;
}

static GnnTensor *
record_selection (GnnOpKind   kind,
                  GnnTensor  *values,
                  GnnTensor  *self,
                  guint       d,
                  GnnTensor  *index)
{
  if (values == NULL)
    return NULL;
  return gnn_tensor_record (kind, values, &self, 1,
                            &(GnnOpParams) { .dim = (gint) d, .keepdim = TRUE,
                                             .extra = { index } });
}

/**
 * gnn_tensor_sort:
 * @self: a #GnnTensor
 * @dim: the dim to sort along (may be negative)
 * @descending: largest first
 * @stable: accepted for torch's signature: the sort is always stable
 * @indices: (out) (optional) (transfer full): the original positions (int64)
 * @error: return location for a #GError
 *
 * Sorts along @dim (like `torch.sort (self, dim, descending, stable)`):
 * equal values keep their order and NaN counts as the largest value. The
 * gradient of the values goes back to the elements they came from.
 *
 * Returns: (transfer full): the sorted values, or %NULL with @error set if
 *   @dim is out of range
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sort (GnnTensor  *self,
                 gint        dim,
                 gboolean    descending,
                 gboolean    stable,
                 GnnTensor **indices,
                 GError    **error)
{
  g_autoptr(GnnTensor) idx = NULL;
  GnnTensor *values;
  guint d = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("sort", self, error, NULL);
  values = sort_impl ("sort", self, dim, 0, descending, FALSE, TRUE, &idx, &d, error);
  values = record_selection (GNN_OP_SORT, values, self, d, idx);
  if (values != NULL && indices != NULL)
    *indices = g_steal_pointer (&idx);
  return values;
}

/**
 * gnn_tensor_argsort:
 * @self: a #GnnTensor
 * @dim: the dim to sort along (may be negative)
 * @descending: largest first
 * @error: return location for a #GError
 *
 * The positions that sort @self along @dim (like `torch.argsort`), with
 * the order of [method@Gnn.Tensor.sort].
 *
 * Returns: (transfer full): an int64 tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_argsort (GnnTensor *self,
                    gint       dim,
                    gboolean   descending,
                    GError   **error)
{
  GnnTensor *idx = NULL;
  g_autoptr(GnnTensor) values = NULL;
  guint d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("argsort", self, error, NULL);
  values = sort_impl ("argsort", self, dim, 0, descending, FALSE, TRUE, &idx, &d, error);
  return values != NULL ? idx : NULL;
}

/**
 * gnn_tensor_topk:
 * @self: a #GnnTensor
 * @k: how many to take (0 ≤ k ≤ the size of @dim)
 * @dim: the dim to select along (may be negative)
 * @largest: the largest (or else the smallest) values
 * @sorted: return them in order (else in an unspecified order)
 * @indices: (out) (optional) (transfer full): their positions (int64)
 * @error: return location for a #GError
 *
 * The @k largest (or smallest) values along @dim and their positions (like
 * `torch.topk (self, k, dim, largest, sorted)`); NaN counts as the largest.
 *
 * Returns: (transfer full): the values, or %NULL with @error set ("selected
 *   index k out of range", a bad dim)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_topk (GnnTensor  *self,
                 gint64      k,
                 gint        dim,
                 gboolean    largest,
                 gboolean    sorted,
                 GnnTensor **indices,
                 GError    **error)
{
  g_autoptr(GnnTensor) idx = NULL;
  GnnTensor *values;
  guint d = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  GNN_CHECK_STORAGE ("topk", self, error, NULL);
  if (!gnn_check_not_bool ("topk_cpu", self, error))
    return NULL;
  values = sort_impl ("topk", self, dim, k, largest, TRUE, sorted, &idx, &d, error);
  values = record_selection (GNN_OP_TOPK, values, self, d, idx);
  if (values != NULL && indices != NULL)
    *indices = g_steal_pointer (&idx);
  return values;
}
