/* gnn-gemm-small-private.h: a float32 GEMM for small matrices
 *
 * OpenBLAS's sgemm/sgemv spend more on dispatch (argument checks, kernel
 * selection, buffer setup) than a 16×16 product costs; below a measured size
 * (bench/README.md, "Small GEMM crossover") lib/tensor computes the product
 * with these plain loops instead. The file depends on nothing but GLib's
 * types so that tests/c/tensor/test-gemm-small.c can compile it next to
 * OpenBLAS and compare the two on random shapes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "tensor/gnn-cpu-private.h"

G_BEGIN_DECLS

/* Largest m·n·k computed by gnn_sgemm_small() rather than OpenBLAS: the
 * crossovers measured on x86-64 (bench/README.md, "Small GEMM crossover"),
 * where OpenBLAS's AVX-512 kernels overtake these baseline-SSE loops. The
 * dot-product form (B transposed, A row-major: Linear's x·Wᵀ) holds out
 * longer than the axpy form (every other combination) on the baseline
 * build; the AVX2 build of the axpy form holds out longer still. */
#define GNN_SGEMM_SMALL_MAX_WORK_DOT 768
#define GNN_SGEMM_SMALL_MAX_WORK 128
#define GNN_SGEMM_SMALL_MAX_WORK_AVX2 1024
/* One row times Bᵀ (Linear on a single sample) with AVX2 or better: the
 * kernel's blocks of 8 dot products beat OpenBLAS's sgemv up to 256×256
 * (bench/README.md, "Matrix-vector in the small kernel", issue 30); the bound is
 * OpenBLAS's own threading cutoff for sgemv (n·k ≥ 2304·4), above which
 * it may use more threads than this loop. */
#define GNN_SGEMV_SMALL_MAX_NK_AVX2 9216

static inline gboolean
gnn_sgemm_small_fits (gboolean trans_a,
                      gboolean trans_b,
                      gint64   m,
                      gint64   n,
                      gint64   k)
{
  gint64 max = trans_b && !trans_a ? GNN_SGEMM_SMALL_MAX_WORK_DOT
               : gnn_cpu_level () >= GNN_CPU_LEVEL_AVX2 ? GNN_SGEMM_SMALL_MAX_WORK_AVX2
               : GNN_SGEMM_SMALL_MAX_WORK;

  if (m == 1 && trans_b && !trans_a && gnn_cpu_level () >= GNN_CPU_LEVEL_AVX2)
    return n <= GNN_SGEMV_SMALL_MAX_NK_AVX2 && k <= GNN_SGEMV_SMALL_MAX_NK_AVX2 &&
           n * k <= GNN_SGEMV_SMALL_MAX_NK_AVX2;
  return m <= max && n <= max && k <= max && m * n * k <= max;
}

/* C = A·B (+ bias broadcast over the rows), row-major like
 * cblas_sgemm (CblasRowMajor, ta, tb, m, n, k, 1, a, lda, b, ldb, 0, c, ldc):
 * A(i, p) is a[i·lda + p], or a[p·lda + i] when @trans_a; B(p, j) is
 * b[p·ldb + j], or b[j·ldb + p] when @trans_b. @bias (length n) may be NULL.
 * C must not overlap A, B or bias. Runs the variant for the CPU level in
 * use (gnn-cpu-private.h). */
void gnn_sgemm_small (gboolean     trans_a,
                      gboolean     trans_b,
                      gint64       m,
                      gint64       n,
                      gint64       k,
                      const float *a,
                      gint64       lda,
                      const float *b,
                      gint64       ldb,
                      const float *bias,
                      float       *c,
                      gint64       ldc);

/* The variants: x86-64 baseline (SSE2, always built), AVX2 and AVX-512F
 * (x86-64 builds with GNN_HAVE_CPU_VARIANTS; call only on a CPU that has them). */
#define GNN_SGEMM_SMALL_DECLARE(name)                                            \
  void name (gboolean trans_a, gboolean trans_b, gint64 m, gint64 n, gint64 k,   \
             const float *a, gint64 lda, const float *b, gint64 ldb,             \
             const float *bias, float *c, gint64 ldc)
GNN_SGEMM_SMALL_DECLARE (gnn_sgemm_small_baseline);
GNN_SGEMM_SMALL_DECLARE (gnn_sgemm_small_avx2);
GNN_SGEMM_SMALL_DECLARE (gnn_sgemm_small_avx512);

G_END_DECLS
