/* gnn-lapack-private.h: the LAPACK routines Gnn calls, as OpenBLAS exports them
 *
 * Debian's OpenBLAS carries the whole of LAPACK (its own getrf / potrf,
 * reference LAPACK for the rest) under the Fortran names, but no header
 * declares them (lapacke.h is another package). These are those Fortran
 * signatures: every argument by pointer, matrices column-major, integers
 * OpenBLAS's blasint. Only routines without character-length arguments of
 * Fortran origin are declared with char parameters (potrf is OpenBLAS's C).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cblas.h>

void sgetrf_ (const blasint *m, const blasint *n, float *a, const blasint *lda,
              blasint *ipiv, blasint *info);
void dgetrf_ (const blasint *m, const blasint *n, double *a, const blasint *lda,
              blasint *ipiv, blasint *info);
void sgetrs_ (const char *trans, const blasint *n, const blasint *nrhs, const float *a,
              const blasint *lda, const blasint *ipiv, float *b, const blasint *ldb,
              blasint *info);
void dgetrs_ (const char *trans, const blasint *n, const blasint *nrhs, const double *a,
              const blasint *lda, const blasint *ipiv, double *b, const blasint *ldb,
              blasint *info);
void spotrf_ (const char *uplo, const blasint *n, float *a, const blasint *lda, blasint *info);
void dpotrf_ (const char *uplo, const blasint *n, double *a, const blasint *lda, blasint *info);

/* Reference LAPACK (gfortran): a character argument carries a hidden
 * length, passed by value after all the others. */
void sgeqrf_ (const blasint *m, const blasint *n, float *a, const blasint *lda, float *tau,
              float *work, const blasint *lwork, blasint *info);
void dgeqrf_ (const blasint *m, const blasint *n, double *a, const blasint *lda, double *tau,
              double *work, const blasint *lwork, blasint *info);
void sorgqr_ (const blasint *m, const blasint *n, const blasint *k, float *a, const blasint *lda,
              const float *tau, float *work, const blasint *lwork, blasint *info);
void dorgqr_ (const blasint *m, const blasint *n, const blasint *k, double *a, const blasint *lda,
              const double *tau, double *work, const blasint *lwork, blasint *info);
void ssyevd_ (const char *jobz, const char *uplo, const blasint *n, float *a, const blasint *lda,
              float *w, float *work, const blasint *lwork, blasint *iwork, const blasint *liwork,
              blasint *info, size_t jobz_len, size_t uplo_len);
void dsyevd_ (const char *jobz, const char *uplo, const blasint *n, double *a, const blasint *lda,
              double *w, double *work, const blasint *lwork, blasint *iwork,
              const blasint *liwork, blasint *info, size_t jobz_len, size_t uplo_len);
void sgesdd_ (const char *jobz, const blasint *m, const blasint *n, float *a, const blasint *lda,
              float *s, float *u, const blasint *ldu, float *vt, const blasint *ldvt, float *work,
              const blasint *lwork, blasint *iwork, blasint *info, size_t jobz_len);
void dgesdd_ (const char *jobz, const blasint *m, const blasint *n, double *a, const blasint *lda,
              double *s, double *u, const blasint *ldu, double *vt, const blasint *ldvt,
              double *work, const blasint *lwork, blasint *iwork, blasint *info, size_t jobz_len);
void sgels_ (const char *trans, const blasint *m, const blasint *n, const blasint *nrhs, float *a,
             const blasint *lda, float *b, const blasint *ldb, float *work, const blasint *lwork,
             blasint *info, size_t trans_len);
void dgels_ (const char *trans, const blasint *m, const blasint *n, const blasint *nrhs, double *a,
             const blasint *lda, double *b, const blasint *ldb, double *work,
             const blasint *lwork, blasint *info, size_t trans_len);
void sgelsy_ (const blasint *m, const blasint *n, const blasint *nrhs, float *a, const blasint *lda,
              float *b, const blasint *ldb, blasint *jpvt, const float *rcond, blasint *rank,
              float *work, const blasint *lwork, blasint *info);
void dgelsy_ (const blasint *m, const blasint *n, const blasint *nrhs, double *a, const blasint *lda,
              double *b, const blasint *ldb, blasint *jpvt, const double *rcond, blasint *rank,
              double *work, const blasint *lwork, blasint *info);
void sgelsd_ (const blasint *m, const blasint *n, const blasint *nrhs, float *a, const blasint *lda,
              float *b, const blasint *ldb, float *s, const float *rcond, blasint *rank,
              float *work, const blasint *lwork, blasint *iwork, blasint *info);
void dgelsd_ (const blasint *m, const blasint *n, const blasint *nrhs, double *a, const blasint *lda,
              double *b, const blasint *ldb, double *s, const double *rcond, blasint *rank,
              double *work, const blasint *lwork, blasint *iwork, blasint *info);
void sgelss_ (const blasint *m, const blasint *n, const blasint *nrhs, float *a, const blasint *lda,
              float *b, const blasint *ldb, float *s, const float *rcond, blasint *rank,
              float *work, const blasint *lwork, blasint *info);
void dgelss_ (const blasint *m, const blasint *n, const blasint *nrhs, double *a, const blasint *lda,
              double *b, const blasint *ldb, double *s, const double *rcond, blasint *rank,
              double *work, const blasint *lwork, blasint *info);
