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
