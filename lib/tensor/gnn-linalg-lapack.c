/* gnn-linalg-lapack.c: torch.linalg's solve, inv, det, slogdet and
 * cholesky through LAPACK (getrf / getrs / potrf of OpenBLAS)
 *
 * Every op copies its matrices once into a packed column-major buffer
 * (LAPACK's layout) with the batch dims broadcast, runs one LAPACK call per
 * matrix and hands back results in that layout — column-major matrices, as
 * torch's linalg results are. Only float32 and float64 are accepted, as
 * torch (complex aside). Failures carry torch's messages, with torch's
 * "(Batch element i): " prefix for a batch. Gradients: gnn-backward-linalg.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-tensor-private.h"
#include "tensor/gnn-tensor-record-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-linalg-private.h"

static void
lu (GnnDType dtype, blasint n, void *a, blasint *ipiv, blasint *info)
{
  if (dtype == GNN_DTYPE_F32)
    sgetrf_ (&n, &n, a, &n, ipiv, info);
  else
    dgetrf_ (&n, &n, a, &n, ipiv, info);
}

/* Solves A X = B for every matrix of the batch (@a and @b column-major
 * buffers of one batch size); @b is overwritten by X. FALSE with torch's
 * message at the first singular matrix. */
static gboolean
lu_solve_batch (const char *op,
                const char *message,
                guint       a_ndim,
                GnnTensor  *a,
                GnnTensor  *b,
                gint64      count,
                blasint     n,
                blasint     k,
                GError    **error)
{
  GnnDType dtype = gnn_tensor_priv (a)->dtype;
  gsize es = gnn_dtype_get_size (dtype);
  guint8 *av = gnn_tensor_priv_data (gnn_tensor_priv (a));
  guint8 *bv = gnn_tensor_priv_data (gnn_tensor_priv (b));
  g_autofree blasint *ipiv = g_new (blasint, MAX (n, 1));

  for (gint64 i = 0; i < count && n > 0; i++)
    {
      guint8 *ai = av + (gsize) i * n * n * es, *bi = bv + (gsize) i * n * k * es;
      blasint info = 0;

      lu (dtype, n, ai, ipiv, &info);
      if (info > 0)
        {
          g_autofree char *prefix = gnn_linalg_batch_prefix (a_ndim, i);

          if (message == NULL)
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "%s: %sThe diagonal element %d is zero, the inversion could not be "
                         "completed because the input matrix is singular.", op, prefix, (int) info);
          else
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: %s%s", op, prefix,
                         message);
          return FALSE;
        }
      if (k == 0)
        continue;
      if (dtype == GNN_DTYPE_F32)
        sgetrs_ ("N", &n, &k, (float *) ai, &n, ipiv, (float *) bi, &n, &info);
      else
        dgetrs_ ("N", &n, &k, (double *) ai, &n, ipiv, (double *) bi, &n, &info);
    }
  return TRUE;
}

/**
 * gnn_tensor_linalg_inv:
 * @self: a batch of square float32 or float64 matrices, shape `[*, n, n]`
 * @error: return location for a #GError
 *
 * `torch.linalg.inv (A)`: the inverse of every matrix, by LU factorization
 * (LAPACK getrf + getrs). A singular matrix fails with torch's message
 * naming the zero diagonal element of U (and the batch element).
 * Differentiable (LinalgInvExBackward0).
 *
 * Returns: (transfer full): the inverses (column-major, as torch's), or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_inv (GnnTensor  *self,
                       GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) x = NULL;
  gint64 n, count;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_linalg_check_square ("linalg.inv", self, error))
    return NULL;
  p = gnn_tensor_priv (self);
  n = p->shape[p->ndim - 1];
  count = gnn_linalg_batch_count (p->shape, p->ndim - 2);
  if ((a = gnn_linalg_colmajor_copy (self, p->shape, p->ndim - 2, error)) == NULL ||
      (x = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim, TRUE, error)) == NULL)
    return NULL;
  for (gint64 i = 0; i < count; i++)
    for (gint64 j = 0; j < n; j++)
      gnn_dtype_write (p->dtype, (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (x)) +
                       ((gsize) (i * n + j) * n + j) * gnn_dtype_get_size (p->dtype), 1.0);
  if (!lu_solve_batch ("linalg.inv", NULL, p->ndim, a, x, count, n, n, error))
    return NULL;
  return gnn_tensor_record (GNN_OP_LINALG_INV, gnn_linalg_as_matrices (x), &self, 1, NULL);
}

/**
 * gnn_tensor_linalg_solve:
 * @self: the coefficients A, square float32 or float64 matrices `[*, n, n]`
 * @other: the right-hand side B: `[*, n, k]`, or vectors `[*, n]` / `[n]`
 *   (torch's rule: B is a batch of vectors when it is 1-d or has A's shape
 *   without the last dim)
 * @error: return location for a #GError
 *
 * `torch.linalg.solve (A, B)`: X with A X = B, batch dims broadcast, by LU
 * factorization (LAPACK getrf + getrs). Differentiable in both operands
 * (LinalgSolveExBackward0).
 *
 * Returns: (transfer full): X, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_solve (GnnTensor  *self,
                         GnnTensor  *other,
                         GError    **error)
{
  GnnTensorPrivate *ap, *bp;
  g_autoptr(GnnTensor) b_mat = NULL;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) x = NULL;
  GnnTensor *out;
  gint64 batch[GNN_MAX_DIMS], n, k;
  guint nb;
  gboolean vector;
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (other), NULL);
  if (!gnn_linalg_check_square ("linalg.solve", self, error))
    return NULL;
  ap = gnn_tensor_priv (self);
  bp = gnn_tensor_priv (other);
  if (!gnn_dtype_is_floating (bp->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "linalg.solve: Expected a floating point or complex tensor as input. Got %s",
                   gnn_torch_scalar_name (bp->dtype));
      return NULL;
    }
  if (bp->dtype != ap->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "linalg.solve: Expected A and B to have the same dtype, but found A of type "
                   "%s and B of type %s instead", gnn_torch_scalar_name (ap->dtype),
                   gnn_torch_scalar_name (bp->dtype));
      return NULL;
    }
  if (!gnn_check_storage ("linalg.solve", other, error))
    return NULL;
  n = ap->shape[ap->ndim - 1];
  vector = bp->ndim == 1 ||
           (bp->ndim + 1 == ap->ndim && memcmp (bp->shape, ap->shape, sizeof (gint64) * bp->ndim) == 0);
  {
    /* B as a batch of matrices [*, n, k] (a vector: k = 1) */
    gint64 shape[GNN_MAX_DIMS], strides[GNN_MAX_DIMS];
    guint nd = bp->ndim;

    memcpy (shape, bp->shape, sizeof (gint64) * nd);
    memcpy (strides, bp->strides, sizeof (gint64) * nd);
    if (vector)
      {
        shape[nd] = 1;
        strides[nd] = 1;
        nd++;
      }
    if (nd < 2 || shape[nd - 2] != n)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "linalg.solve: Incompatible shapes of A and B for the equation AX = B "
                     "(%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT "x%"
                     G_GINT64_FORMAT ")", n, n, nd < 2 ? shape[0] : shape[nd - 2],
                     nd < 2 ? (gint64) 1 : shape[nd - 1]);
        return NULL;
      }
    if (shape[nd - 1] > G_MAXINT32)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "linalg.solve: %" G_GINT64_FORMAT " right-hand sides exceed LAPACK's int",
                     shape[nd - 1]);
        return NULL;
      }
    b_mat = gnn_tensor_new_view (other, shape, strides, nd, bp->offset);
    k = shape[nd - 1];
    if (!gnn_broadcast_shapes (shape, nd - 2, ap->shape, ap->ndim - 2, batch, &nb, error))
      return NULL;
  }
  if ((a = gnn_linalg_colmajor_copy (self, batch, nb, error)) == NULL ||
      (x = gnn_linalg_colmajor_copy (b_mat, batch, nb, error)) == NULL)
    return NULL;
  if (!lu_solve_batch ("torch.linalg.solve", "The solver failed because the input matrix is singular.",
                       nb + 2, a, x, gnn_linalg_batch_count (batch, nb), n, k, error))
    return NULL;
  out = gnn_linalg_as_matrices (x);
  if (vector)
    {
      /* drop the unit column: [*, n, 1] -> [*, n] */
      GnnTensorPrivate *op = gnn_tensor_priv (out);
      GnnTensor *v = gnn_tensor_new_with_storage (op->storage, op->dtype, op->shape,
                                                  op->strides, op->ndim - 1, op->offset);

      g_object_unref (out);
      out = v;
    }
  params.flag = vector;
  return gnn_tensor_record (GNN_OP_LINALG_SOLVE, out, (GnnTensor *[]) { self, other }, 2, &params);
}

/* LU-factors every matrix of @self; writes per matrix the sign of the
 * determinant (0 when singular) and log |det|, both in double. */
static gboolean
lu_logdet (const char *op,
           GnnTensor  *self,
           double     *sign,
           double     *logabs,
           GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) a = NULL;
  g_autofree blasint *ipiv = NULL;
  gint64 n, count;
  gsize es = gnn_dtype_get_size (p->dtype);
  guint8 *av;

  if (!gnn_linalg_check_square (op, self, error) ||
      (a = gnn_linalg_colmajor_copy (self, p->shape, p->ndim - 2, error)) == NULL)
    return FALSE;
  n = p->shape[p->ndim - 1];
  count = gnn_linalg_batch_count (p->shape, p->ndim - 2);
  ipiv = g_new (blasint, MAX (n, 1));
  av = gnn_tensor_priv_data (gnn_tensor_priv (a));
  for (gint64 i = 0; i < count; i++)
    {
      guint8 *ai = av + (gsize) i * n * n * es;
      blasint info = 0;
      double s = 1.0, l = 0.0;

      if (n > 0)
        lu (p->dtype, n, ai, ipiv, &info);
      for (gint64 j = 0; j < n; j++)
        {
          double u = gnn_dtype_read (p->dtype, ai + (gsize) (j * n + j) * es);

          if (ipiv[j] != j + 1)
            s = -s;
          if (u < 0)
            s = -s;
          else if (u == 0)
            s = 0.0 * s;
          l += log (fabs (u));
        }
      sign[i] = s;
      logabs[i] = l;
    }
  return TRUE;
}

/* A tensor of @self's batch shape with @values. */
static GnnTensor *
batch_values (GnnTensor     *self,
              const double  *values,
              GError       **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnTensor *out = gnn_tensor_new_contiguous_checked (p->dtype, p->shape, p->ndim - 2, FALSE, error);
  gint64 count = gnn_linalg_batch_count (p->shape, p->ndim - 2);
  gsize es = gnn_dtype_get_size (p->dtype);

  if (out == NULL)
    return NULL;
  for (gint64 i = 0; i < count; i++)
    gnn_dtype_write (p->dtype, (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (out)) + i * es,
                     values[i]);
  return out;
}

static gint64
matrix_count (GnnTensor *self)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  return p->ndim < 2 ? 1 : gnn_linalg_batch_count (p->shape, p->ndim - 2);
}

/**
 * gnn_tensor_linalg_det:
 * @self: a batch of square float32 or float64 matrices `[*, n, n]`
 * @error: return location for a #GError
 *
 * `torch.linalg.det (A)`: the determinants, from an LU factorization
 * (LAPACK getrf); a singular matrix has determinant 0. Differentiable
 * (LinalgDetBackward0) where A is invertible.
 *
 * Returns: (transfer full): a tensor of shape `[*]`, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_det (GnnTensor  *self,
                       GError    **error)
{
  gint64 count;
  g_autofree double *sign = NULL;
  g_autofree double *logabs = NULL;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  count = matrix_count (self);
  sign = g_new (double, MAX (count, 1));
  logabs = g_new (double, MAX (count, 1));
  if (!lu_logdet ("linalg.det", self, sign, logabs, error))
    return NULL;
  for (gint64 i = 0; i < count; i++)
    sign[i] *= exp (logabs[i]);
  out = batch_values (self, sign, error);
  return gnn_tensor_record (GNN_OP_LINALG_DET, out, &self, 1, NULL);
}

/**
 * gnn_tensor_linalg_slogdet:
 * @self: a batch of square float32 or float64 matrices `[*, n, n]`
 * @sign: (out) (transfer full) (optional): the signs of the determinants
 *   (0 for a singular matrix)
 * @error: return location for a #GError
 *
 * `torch.linalg.slogdet (A)`: sign and log |det| of every matrix, from an LU
 * factorization (LAPACK getrf). The log is differentiable
 * (LinalgSlogdetBackward0); the sign is not.
 *
 * Returns: (transfer full): logabsdet, shape `[*]`, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_slogdet (GnnTensor  *self,
                           GnnTensor **sign,
                           GError    **error)
{
  gint64 count;
  g_autofree double *s = NULL;
  g_autofree double *l = NULL;
  g_autoptr(GnnTensor) st = NULL;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  count = matrix_count (self);
  s = g_new (double, MAX (count, 1));
  l = g_new (double, MAX (count, 1));
  if (!lu_logdet ("linalg.slogdet", self, s, l, error) ||
      (st = batch_values (self, s, error)) == NULL ||
      (out = batch_values (self, l, error)) == NULL)
    return NULL;
  if (sign != NULL)
    *sign = g_steal_pointer (&st);
  return gnn_tensor_record (GNN_OP_LINALG_SLOGDET, out, &self, 1, NULL);
}

/**
 * gnn_tensor_linalg_cholesky:
 * @self: a batch of symmetric positive-definite float32 or float64
 *   matrices `[*, n, n]` (only the lower triangle is read, the upper one
 *   when @upper)
 * @upper: return U with A = Uᵀ U instead of L with A = L Lᵀ
 * @error: return location for a #GError
 *
 * `torch.linalg.cholesky (A, upper=False)` through LAPACK potrf. A matrix
 * that is not positive-definite fails with torch's message naming the
 * order of the leading minor. Differentiable (LinalgCholeskyExBackward0).
 *
 * Returns: (transfer full): the triangular factors, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_cholesky (GnnTensor  *self,
                            gboolean    upper,
                            GError    **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) a = NULL;
  gint64 n, count;
  gsize es;
  guint8 *av;
  GnnOpParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_linalg_check_square ("linalg.cholesky", self, error))
    return NULL;
  p = gnn_tensor_priv (self);
  n = p->shape[p->ndim - 1];
  count = gnn_linalg_batch_count (p->shape, p->ndim - 2);
  es = gnn_dtype_get_size (p->dtype);
  if ((a = gnn_linalg_colmajor_copy (self, p->shape, p->ndim - 2, error)) == NULL)
    return NULL;
  av = gnn_tensor_priv_data (gnn_tensor_priv (a));
  for (gint64 i = 0; i < count && n > 0; i++)
    {
      guint8 *ai = av + (gsize) i * n * n * es;
      blasint info = 0, bn = (blasint) n;
      const char *uplo = upper ? "U" : "L";

      if (p->dtype == GNN_DTYPE_F32)
        spotrf_ (uplo, &bn, (float *) ai, &bn, &info);
      else
        dpotrf_ (uplo, &bn, (double *) ai, &bn, &info);
      if (info > 0)
        {
          g_autofree char *prefix = gnn_linalg_batch_prefix (p->ndim, i);

          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "linalg.cholesky: %sThe factorization could not be completed because the "
                       "input is not positive-definite (the leading minor of order %d is not "
                       "positive-definite).", prefix, (int) info);
          return NULL;
        }
      /* potrf leaves the other triangle as it was: torch's factor has zeros there */
      for (gint64 c = 0; c < n; c++)
        for (gint64 r = 0; r < n; r++)
          if (upper ? r > c : r < c)
            memset (ai + (gsize) (c * n + r) * es, 0, es);
    }
  params.flag = upper;
  return gnn_tensor_record (GNN_OP_LINALG_CHOLESKY, gnn_linalg_as_matrices (a), &self, 1, &params);
}
