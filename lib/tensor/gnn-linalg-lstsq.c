/* gnn-linalg-lstsq.c: torch.linalg.lstsq through LAPACK's least-squares
 * drivers (gels, gelsy — torch's CPU default —, gelsd, gelss)
 *
 * B's columns are copied into a column-major buffer of max (m, n) rows, as
 * the drivers want (they overwrite it with the solution, and for m > n
 * leave the residuals' parts below it). torch's outputs: the solution,
 * the squared residuals (only when m > n, not for gelsy, and with gelsd /
 * gelss only when every matrix has full rank; else empty), the ranks
 * (empty for gels) and the singular values (gelsd and gelss only).
 * Gradient of the solution: gnn-backward-decomp.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <float.h>
#include <string.h>

#include "tensor/gnn-linalg-private.h"
#include "tensor/gnn-tensor-record-private.h"
#include "tensor/gnn-dtype-check-private.h"

typedef enum { GELS, GELSY, GELSD, GELSS } Driver;

static gboolean
parse_driver (const char *driver,
              Driver     *out,
              GError    **error)
{
  static const char *const names[] = { "gels", "gelsy", "gelsd", "gelss" };

  if (driver == NULL)
    {
      *out = GELSY;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (driver, names[i]) == 0)
      {
        *out = (Driver) i;
        return TRUE;
      }
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, "
                       "gelsd, gelss)");
  return FALSE;
}

/* torch's checks, in torch's order; *@vector: B is a (batch of) vector(s). */
static gboolean
check_operands (GnnTensor *a,
                GnnTensor *b,
                gboolean  *vector,
                GError   **error)
{
  GnnTensorPrivate *ap = gnn_tensor_priv (a), *bp = gnn_tensor_priv (b);
  const char *op = "torch.linalg.lstsq";

  if (ap->ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: input must have at least 2 dimensions.", op);
      return FALSE;
    }
  if (bp->ndim < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: other must have at least 1 dimension.", op);
      return FALSE;
    }
  if (ap->dtype != bp->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Expected input and other to have the same dtype, but got input's dtype "
                   "%s and other's dtype %s", op, gnn_torch_scalar_name (ap->dtype),
                   gnn_torch_scalar_name (bp->dtype));
      return FALSE;
    }
  if (ap->ndim < bp->ndim || ap->ndim - bp->ndim > 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input.dim() must be greater or equal to other.dim() and (input.dim() - "
                   "other.dim()) <= 1", op);
      return FALSE;
    }
  *vector = bp->ndim + 1 == ap->ndim;
  if (bp->shape[bp->ndim - (*vector ? 1 : 2)] != ap->shape[ap->ndim - 2])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: input.size(-2) should match other.size(-%d)", op, *vector ? 1 : 2);
      return FALSE;
    }
  return gnn_linalg_check_matrix (op, a, error) && gnn_check_storage (op, b, error);
}

/* One driver call (@lwork -1: a workspace query into @work). */
static void
run_driver (Driver    driver,
            GnnDType  dtype,
            blasint   m,
            blasint   n,
            blasint   k,
            gpointer  a,
            gpointer  b,
            blasint   ldb,
            blasint  *jpvt,
            gpointer  s,
            double    rcond,
            blasint  *rank,
            gpointer  work,
            blasint   lwork,
            blasint  *iwork,
            blasint  *info)
{
  gboolean f32 = dtype == GNN_DTYPE_F32;
  float rcond_f = (float) rcond;

  switch (driver)
    {
    case GELS:
      if (f32)
        sgels_ ("N", &m, &n, &k, a, &m, b, &ldb, work, &lwork, info, 1);
      else
        dgels_ ("N", &m, &n, &k, a, &m, b, &ldb, work, &lwork, info, 1);
      break;
    case GELSY:
      if (f32)
        sgelsy_ (&m, &n, &k, a, &m, b, &ldb, jpvt, &rcond_f, rank, work, &lwork, info);
      else
        dgelsy_ (&m, &n, &k, a, &m, b, &ldb, jpvt, &rcond, rank, work, &lwork, info);
      break;
    case GELSD:
      if (f32)
        sgelsd_ (&m, &n, &k, a, &m, b, &ldb, s, &rcond_f, rank, work, &lwork, iwork, info);
      else
        dgelsd_ (&m, &n, &k, a, &m, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
      break;
    default:
      if (f32)
        sgelss_ (&m, &n, &k, a, &m, b, &ldb, s, &rcond_f, rank, work, &lwork, info);
      else
        dgelss_ (&m, &n, &k, a, &m, b, &ldb, s, &rcond, rank, work, &lwork, info);
      break;
    }
}

static GnnTensor *
empty_of (GnnDType dtype,
          GError **error)
{
  gint64 zero = 0;

  return gnn_tensor_new_contiguous_checked (dtype, &zero, 1, TRUE, error);
}

/* @b ([*, m, k] matrices, column-major copies) in a [*, k, ldb] buffer */
static GnnTensor *
padded_rhs (GnnTensor     *bmat,
            const gint64  *batch,
            guint          nb,
            gint64         ldb,
            GError       **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (bmat);
  gint64 m = p->shape[p->ndim - 2], k = p->shape[p->ndim - 1], shape[GNN_MAX_DIMS];
  gsize es = gnn_dtype_get_size (p->dtype);
  g_autoptr(GnnTensor) packed = gnn_linalg_colmajor_copy (bmat, batch, nb, error);
  GnnTensor *out;
  guint8 *src, *dst;
  gint64 columns;

  if (packed == NULL)
    return NULL;
  memcpy (shape, batch, sizeof (gint64) * nb);
  shape[nb] = k;
  shape[nb + 1] = ldb;
  if ((out = gnn_tensor_new_contiguous_checked (p->dtype, shape, nb + 2, TRUE, error)) == NULL)
    return NULL;
  src = gnn_tensor_priv_data (gnn_tensor_priv (packed));
  dst = gnn_tensor_priv_data (gnn_tensor_priv (out));
  columns = gnn_linalg_batch_count (batch, nb) * k;
  for (gint64 c = 0; c < columns; c++)
    memcpy (dst + (gsize) (c * ldb) * es, src + (gsize) (c * m) * es, (gsize) m * es);
  return out;
}

/* @t ([broadcast batch..., @tail dims]) with A's own batch dims (@ashape,
 * @na dims) as torch shapes rank and singular_values: A repeats along the
 * broadcast dims, so their first entries. */
static GnnTensor *
own_batch (GnnTensor     *t,
           const gint64  *ashape,
           guint          na,
           guint          tail,
           GError       **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  g_autoptr(GnnTensor) view = NULL;
  gint64 shape[GNN_MAX_DIMS];
  guint skip = p->ndim - tail - na;

  memcpy (shape, ashape, sizeof (gint64) * na);
  memcpy (shape + na, p->shape + p->ndim - tail, sizeof (gint64) * tail);
  view = gnn_tensor_new_view (t, shape, p->strides + skip, na + tail, p->offset);
  return gnn_tensor_copy_checked (view, p->dtype, error);
}

/**
 * gnn_tensor_linalg_lstsq:
 * @self: the float32 or float64 matrices A, `[*, m, n]`
 * @other: the right-hand sides B, `[*, m, k]`, or vectors `[*, m]` (B has
 *   one dim less than A)
 * @rcond: the relative cut-off of small singular values deciding the rank
 *   (gelsy, gelsd, gelss); negative: torch's default, eps · max (m, n)
 * @driver: (nullable): "gelsy" (%NULL: torch's CPU default), "gels",
 *   "gelsd" or "gelss"
 * @residuals: (out) (transfer full) (optional): the squared residuals
 *   `[*, k]` where torch computes them (m > n, not gelsy, full rank for
 *   gelsd/gelss), else an empty tensor
 * @rank: (out) (transfer full) (optional): the ranks (int64 `[*]`; empty for gels)
 * @singular_values: (out) (transfer full) (optional): `[*, min (m, n)]`
 *   for gelsd and gelss, else empty
 * @error: return location for a #GError
 *
 * `torch.linalg.lstsq (A, B, rcond, driver=)`: the X minimizing
 * ‖A X - B‖, batch dims broadcast. The solution is differentiable in A and
 * B (LinalgLstsqBackward0, torch's formula through the pseudo-inverse).
 *
 * Returns: (transfer full): the solution `[*, n, k]` (`[*, n]` for
 *   vectors), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_lstsq (GnnTensor   *self,
                         GnnTensor   *other,
                         double       rcond,
                         const char  *driver,
                         GnnTensor  **residuals,
                         GnnTensor  **rank,
                         GnnTensor  **singular_values,
                         GError     **error)
{
  GnnTensorPrivate *ap, *bp;
  g_autoptr(GnnTensor) bmat = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnTensor) xbuf = NULL;
  g_autoptr(GnnTensor) ranks = NULL;
  g_autoptr(GnnTensor) sv = NULL;
  g_autoptr(GnnTensor) res = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autofree gpointer work = NULL;
  g_autofree blasint *iwork = NULL;
  g_autofree blasint *jpvt = NULL;
  gint64 batch[GNN_MAX_DIMS], shape[GNN_MAX_DIMS], m, n, k, kmin, ldb, count;
  guint nb;
  gboolean vector = FALSE, full_rank = TRUE;
  Driver drv;
  gsize es;
  blasint lwork = 1, info = 0, r = 0;
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (other), NULL);
  if (!check_operands (self, other, &vector, error) || !parse_driver (driver, &drv, error))
    return NULL;
  ap = gnn_tensor_priv (self);
  bp = gnn_tensor_priv (other);
  m = ap->shape[ap->ndim - 2];
  n = ap->shape[ap->ndim - 1];
  kmin = MIN (m, n);
  ldb = MAX (MAX (m, n), 1);
  es = gnn_dtype_get_size (ap->dtype);
  if (rcond < 0)
    rcond = (ap->dtype == GNN_DTYPE_F32 ? FLT_EPSILON : DBL_EPSILON) * MAX (m, n);
  {
    gint64 strides[GNN_MAX_DIMS];
    guint nd = bp->ndim;

    memcpy (shape, bp->shape, sizeof (gint64) * nd);
    memcpy (strides, bp->strides, sizeof (gint64) * nd);
    if (vector)
      {
        shape[nd] = 1;
        strides[nd] = 1;
        nd++;
      }
    bmat = gnn_tensor_new_view (other, shape, strides, nd, bp->offset);
    k = shape[nd - 1];
    if (k > G_MAXINT32 / 2 ||
        !gnn_broadcast_shapes (shape, nd - 2, ap->shape, ap->ndim - 2, batch, &nb, error))
      {
        if (k > G_MAXINT32 / 2)
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "torch.linalg.lstsq: %" G_GINT64_FORMAT " right-hand sides exceed "
                       "LAPACK's int", k);
        return NULL;
      }
  }
  count = gnn_linalg_batch_count (batch, nb);
  memcpy (shape, batch, sizeof (gint64) * nb);
  shape[nb] = kmin;
  if ((a = gnn_linalg_colmajor_copy (self, batch, nb, error)) == NULL ||
      (b = padded_rhs (bmat, batch, nb, ldb, error)) == NULL ||
      (ranks = gnn_tensor_new_contiguous_checked (GNN_DTYPE_I64, batch, nb, TRUE, error)) == NULL ||
      (sv = gnn_tensor_new_contiguous_checked (ap->dtype, shape, nb + 1, TRUE, error)) == NULL)
    return NULL;
  jpvt = g_new0 (blasint, MAX (n, 1));
  if (m > 0 && n > 0 && k > 0)
    {
      GnnLapackQuery query = { { 0 } };
      blasint iquery[2] = { 1, 0 };

      run_driver (drv, ap->dtype, m, n, k, gnn_tensor_priv_data (gnn_tensor_priv (a)),
                  gnn_tensor_priv_data (gnn_tensor_priv (b)), ldb, jpvt,
                  gnn_tensor_priv_data (gnn_tensor_priv (sv)), rcond, &r, &query, -1, iquery, &info);
      lwork = (blasint) gnn_lapack_query_size (ap->dtype, &query);
      iwork = g_new0 (blasint, MAX (iquery[0], 1));
    }
  work = g_malloc0 ((gsize) lwork * es);
  for (gint64 i = 0; i < count && m > 0 && n > 0 && k > 0; i++)
    {
      guint8 *ai = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (a)) + (gsize) (i * m * n) * es;
      guint8 *bi = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (b)) + (gsize) (i * k * ldb) * es;
      guint8 *si = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (sv)) + (gsize) (i * kmin) * es;

      memset (jpvt, 0, sizeof (blasint) * n);
      run_driver (drv, ap->dtype, m, n, k, ai, bi, ldb, jpvt, si, rcond, &r, work, lwork, iwork,
                  &info);
      if (info > 0)
        {
          g_autofree char *prefix = gnn_linalg_batch_prefix (nb + 2, i);

          if (drv == GELS)
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "torch.linalg.lstsq: %sThe least squares solution could not be computed "
                         "because the input matrix does not have full rank (error code: %d).",
                         prefix, (int) info);
          else
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "torch.linalg.lstsq: %sThe algorithm failed to converge because the "
                         "input matrix is ill-conditioned or has too many repeated singular "
                         "values (error code: %d).", prefix, (int) info);
          return NULL;
        }
      ((gint64 *) gnn_tensor_priv_data (gnn_tensor_priv (ranks)))[i] = r;
      full_rank = full_rank && r == n;
    }
  /* the solution: the first n rows of every column */
  shape[nb] = k;
  shape[nb + 1] = n;
  if ((xbuf = gnn_tensor_new_contiguous_checked (ap->dtype, shape, nb + 2, TRUE, error)) == NULL)
    return NULL;
  for (gint64 c = 0; c < count * k; c++)
    memcpy ((guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (xbuf)) + (gsize) (c * n) * es,
            (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (b)) + (gsize) (c * ldb) * es,
            (gsize) n * es);
  if (m > n && drv != GELSY && (drv == GELS || full_rank))
    {
      /* residuals: column sums of squares of rows n..m-1 */
      shape[nb] = k;
      if ((res = gnn_tensor_new_contiguous_checked (ap->dtype, shape, nb + 1, TRUE, error)) == NULL)
        return NULL;
      for (gint64 c = 0; c < count * k; c++)
        {
          const guint8 *col = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (b)) +
                              (gsize) (c * ldb) * es;
          double sum = 0.0;

          for (gint64 row = n; row < m; row++)
            {
              double v = gnn_dtype_read (ap->dtype, col + (gsize) row * es);

              sum += v * v;
            }
          gnn_dtype_write (ap->dtype, (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (res)) +
                           (gsize) c * es, sum);
        }
    }
  else if ((res = empty_of (ap->dtype, error)) == NULL)
    return NULL;
  if (residuals != NULL)
    *residuals = g_steal_pointer (&res);
  if (rank != NULL)
    *rank = drv == GELS ? empty_of (GNN_DTYPE_I64, NULL)
                        : own_batch (ranks, ap->shape, ap->ndim - 2, 0, NULL);
  if (singular_values != NULL)
    *singular_values = drv == GELSD || drv == GELSS
                       ? own_batch (sv, ap->shape, ap->ndim - 2, 1, NULL)
                       : empty_of (ap->dtype, NULL);
  x = gnn_linalg_as_matrices (xbuf);
  if (vector)
    {
      GnnTensorPrivate *xp = gnn_tensor_priv (x);
      GnnTensor *v = gnn_tensor_new_with_storage (xp->storage, xp->dtype, xp->shape, xp->strides,
                                                  xp->ndim - 1, xp->offset);

      g_object_unref (x);
      x = v;
    }
  params.flag = vector;
  return gnn_tensor_record (GNN_OP_LINALG_LSTSQ, g_steal_pointer (&x),
                            (GnnTensor *[]) { self, other }, 2, &params);
}
