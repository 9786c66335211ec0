/* gnn-linalg-decomp.c: torch.linalg's qr, eigh / eigvalsh and svd /
 * svdvals (and the older torch.svd) through LAPACK (geqrf + orgqr, syevd,
 * gesdd of OpenBLAS)
 *
 * As in gnn-linalg-lapack.c: one packed column-major copy of the input
 * (batch dims kept), one LAPACK call per matrix with a workspace sized by
 * one query, results handed back column-major as torch's are, torch's
 * messages with the "(Batch element i): " prefix. Several outputs of one
 * factorization are recorded as one node each (same torch name); each
 * node keeps the sibling factors its gradient needs in params.extra, so
 * the gradient of a loss on several outputs is the sum of the nodes' parts
 * (gnn-backward-decomp.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "tensor/gnn-linalg-private.h"
#include "tensor/gnn-tensor-record-private.h"
#include "tensor/gnn-dtype-check-private.h"

#define F32(dtype) ((dtype) == GNN_DTYPE_F32)

/* A LAPACK workspace of @lwork elements of @dtype (at least 1). */
static gpointer
workspace (GnnDType dtype,
           double   lwork)
{
  return g_malloc0 ((gsize) MAX (lwork, 1.0) * gnn_dtype_get_size (dtype));
}

/* Records @out as output of @op on @self with the sibling factors its
 * gradient needs (the recorder keeps detached views of them). */
static GnnTensor *
record_factor (GnnOpKind   op,
               GnnTensor  *out,
               GnnTensor  *self,
               GnnTensor  *sibling0,
               GnnTensor  *sibling1,
               gint64      mode)
{
  GnnOpParams params = { 0 };

  params.extra[0] = sibling0;
  params.extra[1] = sibling1;
  params.ints[0] = mode;
  params.n_ints = 1;
  return gnn_tensor_record (op, out, &self, 1, &params);
}

/* --- QR ----------------------------------------------------------------------------- */

typedef enum { QR_REDUCED, QR_COMPLETE, QR_R } QrMode;

static gboolean
parse_qr_mode (const char *mode,
               QrMode     *out,
               GError    **error)
{
  if (mode == NULL || strcmp (mode, "reduced") == 0)
    *out = QR_REDUCED;
  else if (strcmp (mode, "complete") == 0)
    *out = QR_COMPLETE;
  else if (strcmp (mode, "r") == 0)
    *out = QR_R;
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "qr received unrecognized mode '%s' but expected one of 'reduced' "
                   "(default), 'r', or 'complete'", mode);
      return FALSE;
    }
  return TRUE;
}

static void
geqrf (GnnDType dtype, blasint m, blasint n, gpointer a, gpointer tau, gpointer work,
       blasint lwork, blasint *info)
{
  if (F32 (dtype))
    sgeqrf_ (&m, &n, a, &m, tau, work, &lwork, info);
  else
    dgeqrf_ (&m, &n, a, &m, tau, work, &lwork, info);
}

static void
orgqr (GnnDType dtype, blasint m, blasint n, blasint k, gpointer a, gconstpointer tau,
       gpointer work, blasint lwork, blasint *info)
{
  if (F32 (dtype))
    sorgqr_ (&m, &n, &k, a, &m, tau, work, &lwork, info);
  else
    dorgqr_ (&m, &n, &k, a, &m, tau, work, &lwork, info);
}

/* [batch..., rows, cols] zeros, packed */
static GnnTensor *
matrices_buffer (GnnDType      dtype,
                 const gint64 *batch,
                 guint         nb,
                 gint64        cols,
                 gint64        rows,
                 GError      **error)
{
  gint64 shape[GNN_MAX_DIMS];

  memcpy (shape, batch, sizeof (gint64) * nb);
  shape[nb] = cols;
  shape[nb + 1] = rows;
  return gnn_tensor_new_contiguous_checked (dtype, shape, nb + 2, TRUE, error);
}

/**
 * gnn_tensor_linalg_qr:
 * @self: a batch of float32 or float64 matrices A, shape `[*, m, n]`
 * @mode: (nullable): "reduced" (%NULL: the default), "complete" or "r"
 * @r: (out) (transfer full) (optional): the upper-triangular factor R,
 *   `[*, k, n]` (reduced, r) or `[*, m, n]` (complete), k = min (m, n)
 * @error: return location for a #GError
 *
 * `torch.linalg.qr (A, mode)`: A = Q R by Householder reflections (LAPACK
 * geqrf + orgqr). Q is `[*, m, k]` (reduced) or `[*, m, m]` (complete);
 * mode "r" computes R only and returns an empty Q, as torch. Differentiable
 * (LinalgQrBackward0) except in mode "r" and, for m > n, mode "complete"
 * (torch's messages when the gradient is asked for).
 *
 * Returns: (transfer full): Q, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_qr (GnnTensor   *self,
                      const char  *mode,
                      GnnTensor  **r,
                      GError     **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) qbuf = NULL;
  g_autoptr(GnnTensor) rbuf = NULL;
  g_autoptr(GnnTensor) q = NULL;
  g_autoptr(GnnTensor) rr = NULL;
  g_autofree gpointer tau = NULL;
  g_autofree gpointer work = NULL;
  QrMode qm;
  gint64 m, n, k, qcols, rrows, count;
  guint nb;
  gsize es;
  double lwork = 1.0;
  blasint info = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!parse_qr_mode (mode, &qm, error) || !gnn_linalg_check_matrix ("linalg.qr", self, error))
    return NULL;
  p = gnn_tensor_priv (self);
  nb = p->ndim - 2;
  m = p->shape[nb];
  n = p->shape[nb + 1];
  k = MIN (m, n);
  qcols = qm == QR_COMPLETE ? m : k;
  rrows = qm == QR_COMPLETE ? m : k;
  count = gnn_linalg_batch_count (p->shape, nb);
  es = gnn_dtype_get_size (p->dtype);
  if ((a = gnn_linalg_colmajor_copy (self, p->shape, nb, error)) == NULL ||
      (rbuf = matrices_buffer (p->dtype, p->shape, nb, n, rrows, error)) == NULL ||
      (qm != QR_R && (qbuf = matrices_buffer (p->dtype, p->shape, nb, qcols, m, error)) == NULL))
    return NULL;
  tau = g_malloc0 (MAX (k, 1) * es);
  if (m > 0 && n > 0)
    {
      GnnLapackQuery query = { { 0 } };

      geqrf (p->dtype, m, n, gnn_tensor_priv_data (gnn_tensor_priv (a)), tau, &query, -1, &info);
      lwork = gnn_lapack_query_size (p->dtype, &query);
      if (qm != QR_R && k > 0)
        {
          orgqr (p->dtype, m, qcols, k, gnn_tensor_priv_data (gnn_tensor_priv (qbuf)), tau,
                 &query, -1, &info);
          lwork = MAX (lwork, gnn_lapack_query_size (p->dtype, &query));
        }
    }
  work = workspace (p->dtype, lwork);
  for (gint64 i = 0; i < count && m > 0 && n > 0; i++)
    {
      guint8 *ai = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (a)) + (gsize) (i * m * n) * es;
      guint8 *ri = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (rbuf)) +
                   (gsize) (i * rrows * n) * es;

      geqrf (p->dtype, m, n, ai, tau, work, (blasint) MAX (lwork, 1.0), &info);
      /* R: the upper triangle of the first rows (zeros below, and in the
       * rows past k of the complete form) */
      for (gint64 c = 0; c < n; c++)
        memcpy (ri + (gsize) (c * rrows) * es, ai + (gsize) (c * m) * es,
                (gsize) MIN (c + 1, k) * es);
      if (qm == QR_R)
        continue;
      {
        guint8 *qi = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (qbuf)) +
                     (gsize) (i * qcols * m) * es;

        /* the reflectors sit in A's first k columns */
        memcpy (qi, ai, (gsize) (k * m) * es);
        orgqr (p->dtype, m, qcols, k, qi, tau, work, (blasint) MAX (lwork, 1.0), &info);
      }
    }
  rr = gnn_linalg_as_matrices (rbuf);
  if (qm == QR_R)
    {
      gint64 zero = 0;

      if ((q = gnn_tensor_new_contiguous_checked (p->dtype, &zero, 1, TRUE, error)) == NULL)
        return NULL;
    }
  else
    q = gnn_linalg_as_matrices (qbuf);
  if (r != NULL)
    *r = record_factor (GNN_OP_LINALG_QR_R, g_object_ref (rr), self, q, NULL, qm);
  return record_factor (GNN_OP_LINALG_QR_Q, g_steal_pointer (&q), self, rr, NULL, qm);
}

/* --- eigh ----------------------------------------------------------------------------- */

static gboolean
check_uplo (const char *uplo,
            GError    **error)
{
  if (uplo == NULL || strcmp (uplo, "L") == 0 || strcmp (uplo, "U") == 0 ||
      strcmp (uplo, "l") == 0 || strcmp (uplo, "u") == 0)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "Expected UPLO argument to be 'L' or 'U', but got %s", uplo);
  return FALSE;
}

/* Eigenvalues (ascending, [*, n]) and, with @vectors, eigenvectors
 * (column-major buffer [*, n, n]) of every symmetric matrix of @self. */
static GnnTensor *
eigh_impl (const char  *op,
           GnnTensor   *self,
           const char  *uplo,
           GnnTensor  **vectors,
           GError     **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) w = NULL;
  g_autofree gpointer work = NULL;
  g_autofree blasint *iwork = NULL;
  const char *jobz = vectors != NULL ? "V" : "N";
  const char *ul = uplo != NULL && g_ascii_toupper (uplo[0]) == 'U' ? "U" : "L";
  blasint n, lwork = 1, liwork = 1, info = 0;
  gint64 count;
  guint nb;
  gsize es;

  if (!check_uplo (uplo, error))
    return NULL;
  p = gnn_tensor_priv (self);
  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"linalg_eigh_cpu\" not implemented for '%s'",
                   gnn_torch_scalar_name (p->dtype));
      return NULL;
    }
  if (!gnn_linalg_check_square (op, self, error))
    return NULL;
  nb = p->ndim - 2;
  n = (blasint) p->shape[nb];
  count = gnn_linalg_batch_count (p->shape, nb);
  es = gnn_dtype_get_size (p->dtype);
  {
    gint64 shape[GNN_MAX_DIMS];

    memcpy (shape, p->shape, sizeof (gint64) * nb);
    shape[nb] = n;
    if ((a = gnn_linalg_colmajor_copy (self, p->shape, nb, error)) == NULL ||
        (w = gnn_tensor_new_contiguous_checked (p->dtype, shape, nb + 1, TRUE, error)) == NULL)
      return NULL;
  }
  if (n > 0)
    {
      GnnLapackQuery query = { { 0 } };
      double dummy[1] = { 0 };
      blasint iquery = 0, minus = -1;

      if (F32 (p->dtype))
        ssyevd_ (jobz, ul, &n, (float *) dummy, &n, (float *) dummy, query.f, &minus,
                 &iquery, &minus, &info, 1, 1);
      else
        dsyevd_ (jobz, ul, &n, dummy, &n, dummy, query.d, &minus, &iquery, &minus, &info, 1, 1);
      lwork = (blasint) gnn_lapack_query_size (p->dtype, &query);
      liwork = MAX (iquery, 1);
    }
  work = workspace (p->dtype, lwork);
  iwork = g_new0 (blasint, liwork);
  for (gint64 i = 0; i < count && n > 0; i++)
    {
      gpointer ai = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (a)) + (gsize) i * n * n * es;
      gpointer wi = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (w)) + (gsize) i * n * es;

      if (F32 (p->dtype))
        ssyevd_ (jobz, ul, &n, ai, &n, wi, work, &lwork, iwork, &liwork, &info, 1, 1);
      else
        dsyevd_ (jobz, ul, &n, ai, &n, wi, work, &lwork, iwork, &liwork, &info, 1, 1);
      if (info > 0)
        {
          g_autofree char *prefix = gnn_linalg_batch_prefix (p->ndim, i);

          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: %sThe algorithm failed to converge because the input matrix is "
                       "ill-conditioned or has too many repeated eigenvalues (error code: %d).",
                       op, prefix, (int) info);
          return NULL;
        }
    }
  if (vectors != NULL)
    *vectors = gnn_linalg_as_matrices (a);
  return g_steal_pointer (&w);
}

/**
 * gnn_tensor_linalg_eigh:
 * @self: a batch of symmetric float32 or float64 matrices `[*, n, n]`
 *   (only the triangle @uplo names is read)
 * @uplo: (nullable): "L" (%NULL: the default) or "U"
 * @eigenvectors: (out) (transfer full) (optional): the orthonormal
 *   eigenvectors, as the columns of `[*, n, n]`
 * @error: return location for a #GError
 *
 * `torch.linalg.eigh (A, UPLO)` through LAPACK syevd: eigenvalues in
 * ascending order. Eigenvectors are determined up to sign, so only losses
 * that do not depend on the sign have a well-defined gradient.
 * Differentiable (LinalgEighBackward0).
 *
 * Returns: (transfer full): the eigenvalues `[*, n]`, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_eigh (GnnTensor   *self,
                        const char  *uplo,
                        GnnTensor  **eigenvectors,
                        GError     **error)
{
  g_autoptr(GnnTensor) v = NULL;
  g_autoptr(GnnTensor) l = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if ((l = eigh_impl ("linalg.eigh", self, uplo, &v, error)) == NULL)
    return NULL;
  if (eigenvectors != NULL)
    *eigenvectors = record_factor (GNN_OP_LINALG_EIGH_V, g_object_ref (v), self, l, NULL, 0);
  return record_factor (GNN_OP_LINALG_EIGH_L, g_steal_pointer (&l), self, v, NULL, 0);
}

/**
 * gnn_tensor_linalg_eigvalsh:
 * @self: a batch of symmetric float32 or float64 matrices `[*, n, n]`
 * @uplo: (nullable): "L" (%NULL: the default) or "U"
 * @error: return location for a #GError
 *
 * `torch.linalg.eigvalsh (A, UPLO)`: the eigenvalues of
 * gnn_tensor_linalg_eigh() (ascending); the eigenvectors are computed only
 * when the gradient needs them (LinalgEighBackward0).
 *
 * Returns: (transfer full): the eigenvalues `[*, n]`, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_eigvalsh (GnnTensor   *self,
                            const char  *uplo,
                            GError     **error)
{
  g_autoptr(GnnTensor) v = NULL;
  GnnTensor *l;
  gboolean grad;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  grad = gnn_tensor_would_record (&self, 1);
  if ((l = eigh_impl ("linalg.eigh", self, uplo, grad ? &v : NULL, error)) == NULL)
    return NULL;
  return record_factor (GNN_OP_LINALG_EIGH_L, l, self, v, NULL, 0);
}

/* --- SVD ------------------------------------------------------------------------------ */

/* U ([*, m, ucols]), S ([*, k]) and Vh ([*, vrows, n]) of every matrix;
 * @jobz 'N': S only. */
static gboolean
svd_impl (GnnTensor   *self,
          char         jobz,
          GnnTensor  **u,
          GnnTensor  **s,
          GnnTensor  **vh,
          GError     **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) ub = NULL;
  g_autoptr(GnnTensor) vb = NULL;
  g_autoptr(GnnTensor) sb = NULL;
  g_autofree gpointer work = NULL;
  g_autofree blasint *iwork = NULL;
  guint nb = p->ndim >= 2 ? p->ndim - 2 : 0;   /* refused below when < 2 */
  gint64 m = p->shape[nb], n = p->shape[nb + 1], k = MIN (m, n), count;
  gint64 ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
  blasint bm = (blasint) m, bn = (blasint) n, ldu = (blasint) MAX (m, 1), ldvt;
  blasint lwork = 1, info = 0;
  gsize es = gnn_dtype_get_size (p->dtype);
  char job[2] = { jobz, 0 };

  if (!gnn_linalg_check_matrix ("linalg.svd", self, error))
    return FALSE;
  ldvt = (blasint) MAX (vrows, 1);
  count = gnn_linalg_batch_count (p->shape, nb);
  {
    gint64 shape[GNN_MAX_DIMS];

    memcpy (shape, p->shape, sizeof (gint64) * nb);
    shape[nb] = k;
    if ((a = gnn_linalg_colmajor_copy (self, p->shape, nb, error)) == NULL ||
        (sb = gnn_tensor_new_contiguous_checked (p->dtype, shape, nb + 1, TRUE, error)) == NULL ||
        (jobz != 'N' &&
         ((ub = matrices_buffer (p->dtype, p->shape, nb, ucols, m, error)) == NULL ||
          (vb = matrices_buffer (p->dtype, p->shape, nb, n, vrows, error)) == NULL)))
      return FALSE;
  }
  if (m > 0 && n > 0)
    {
      GnnLapackQuery query = { { 0 } };
      double dummy[1] = { 0 };
      blasint minus = -1, idummy = 0;

      if (F32 (p->dtype))
        sgesdd_ (job, &bm, &bn, (float *) dummy, &bm, (float *) dummy, (float *) dummy, &ldu,
                 (float *) dummy, &ldvt, query.f, &minus, &idummy, &info, 1);
      else
        dgesdd_ (job, &bm, &bn, dummy, &bm, dummy, dummy, &ldu, dummy, &ldvt, query.d, &minus,
                 &idummy, &info, 1);
      lwork = (blasint) gnn_lapack_query_size (p->dtype, &query);
    }
  work = workspace (p->dtype, lwork);
  iwork = g_new0 (blasint, MAX (8 * k, 1));
  for (gint64 i = 0; i < count && m > 0 && n > 0; i++)
    {
      guint8 *ai = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (a)) + (gsize) (i * m * n) * es;
      gpointer si = (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (sb)) + (gsize) (i * k) * es;
      gpointer ui = ub == NULL ? NULL :
                    (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (ub)) + (gsize) (i * m * ucols) * es;
      gpointer vi = vb == NULL ? NULL :
                    (guint8 *) gnn_tensor_priv_data (gnn_tensor_priv (vb)) + (gsize) (i * n * vrows) * es;
      gboolean finite = TRUE;

      for (gint64 j = 0; j < m * n && finite; j++)
        finite = isfinite (gnn_dtype_read (p->dtype, ai + (gsize) j * es));
      if (finite)
        {
          if (F32 (p->dtype))
            sgesdd_ (job, &bm, &bn, (float *) ai, &bm, si, ui, &ldu, vi, &ldvt, work, &lwork,
                     iwork, &info, 1);
          else
            dgesdd_ (job, &bm, &bn, (double *) ai, &bm, si, ui, &ldu, vi, &ldvt, work, &lwork,
                     iwork, &info, 1);
        }
      if (!finite || info > 0)
        {
          g_autofree char *prefix = gnn_linalg_batch_prefix (p->ndim, i);

          if (!finite)
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "linalg.svd: %sThe algorithm failed to converge because the input "
                         "matrix contained non-finite values.", prefix);
          else
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "linalg.svd: %sThe algorithm failed to converge because the input "
                         "matrix is ill-conditioned or has too many repeated singular values "
                         "(error code: %d).", prefix, (int) info - 1);
          return FALSE;
        }
    }
  *s = g_steal_pointer (&sb);
  if (jobz != 'N')
    {
      *u = gnn_linalg_as_matrices (ub);
      *vh = gnn_linalg_as_matrices (vb);
    }
  return TRUE;
}

/**
 * gnn_tensor_linalg_svd:
 * @self: a batch of float32 or float64 matrices A, shape `[*, m, n]`
 * @full_matrices: U `[*, m, m]` and Vh `[*, n, n]` instead of the reduced
 *   `[*, m, k]` and `[*, k, n]` (k = min (m, n))
 * @s: (out) (transfer full) (optional): the singular values `[*, k]`, descending
 * @vh: (out) (transfer full) (optional): Vh, the transposed right singular vectors
 * @error: return location for a #GError
 *
 * `torch.linalg.svd (A, full_matrices)`: A = U diag (S) Vh through LAPACK
 * gesdd (torch's CPU driver). Singular vectors are determined up to sign:
 * only losses that do not depend on it have a well-defined gradient.
 * Differentiable (LinalgSvdBackward0, torch's formula).
 *
 * Returns: (transfer full): U, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_svd (GnnTensor   *self,
                       gboolean     full_matrices,
                       GnnTensor  **s,
                       GnnTensor  **vh,
                       GError     **error)
{
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) sv = NULL;
  g_autoptr(GnnTensor) v = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!svd_impl (self, full_matrices ? 'A' : 'S', &u, &sv, &v, error))
    return NULL;
  if (s != NULL)
    *s = record_factor (GNN_OP_LINALG_SVD_S, g_object_ref (sv), self, u, v, 0);
  if (vh != NULL)
    *vh = record_factor (GNN_OP_LINALG_SVD_VH, g_object_ref (v), self, u, sv, 0);
  return record_factor (GNN_OP_LINALG_SVD_U, g_steal_pointer (&u), self, sv, v, 0);
}

/**
 * gnn_tensor_linalg_svdvals:
 * @self: a batch of float32 or float64 matrices `[*, m, n]`
 * @error: return location for a #GError
 *
 * `torch.linalg.svdvals (A)`: the singular values in descending order
 * (LAPACK gesdd); the singular vectors are computed only when the gradient
 * needs them (LinalgSvdBackward0).
 *
 * Returns: (transfer full): `[*, min (m, n)]`, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_linalg_svdvals (GnnTensor  *self,
                           GError    **error)
{
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) v = NULL;
  GnnTensor *s = NULL;
  gboolean grad;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  grad = gnn_tensor_would_record (&self, 1);
  if (!svd_impl (self, grad ? 'S' : 'N', &u, &s, &v, error))
    return NULL;
  return record_factor (GNN_OP_LINALG_SVD_S, s, self, u, v, 0);
}

/**
 * gnn_tensor_svd:
 * @self: a batch of float32 or float64 matrices `[*, m, n]`
 * @some: the reduced decomposition (torch's default) rather than the full one
 * @compute_uv: compute U and V (else they are zeros, as torch's)
 * @s: (out) (transfer full) (optional): the singular values `[*, k]`
 * @v: (out) (transfer full) (optional): V (not transposed)
 * @error: return location for a #GError
 *
 * `torch.svd (A, some, compute_uv)`, the older spelling of
 * gnn_tensor_linalg_svd(): V = Vhᵀ (a transposed view, TransposeBackward0).
 *
 * Returns: (transfer full): U, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_svd (GnnTensor   *self,
                gboolean     some,
                gboolean     compute_uv,
                GnnTensor  **s,
                GnnTensor  **v,
                GError     **error)
{
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) sv = NULL;
  g_autoptr(GnnTensor) vh = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!compute_uv)
    {
      GnnTensorPrivate *p = gnn_tensor_priv (self);
      gint64 shape[GNN_MAX_DIMS];
      guint nb;

      if ((sv = gnn_tensor_linalg_svdvals (self, error)) == NULL)
        return NULL;
      nb = p->ndim - 2;
      memcpy (shape, p->shape, sizeof (gint64) * p->ndim);
      shape[nb + 1] = p->shape[nb];
      if ((u = gnn_tensor_new_contiguous_checked (p->dtype, shape, p->ndim, TRUE, error)) == NULL)
        return NULL;
      shape[nb] = shape[nb + 1] = p->shape[nb + 1];
      if (v != NULL &&
          (*v = gnn_tensor_new_contiguous_checked (p->dtype, shape, p->ndim, TRUE, error)) == NULL)
        return NULL;
      if (s != NULL)
        *s = g_steal_pointer (&sv);
      return g_steal_pointer (&u);
    }
  if ((u = gnn_tensor_linalg_svd (self, !some, &sv, &vh, error)) == NULL)
    return NULL;
  if (v != NULL && (*v = gnn_tensor_transpose (vh, -2, -1, error)) == NULL)
    return NULL;
  if (s != NULL)
    *s = g_steal_pointer (&sv);
  return g_steal_pointer (&u);
}
