/* gnn-gemm-parallel.c: GEMMs split among Gnn's threads (gnn-parallel-private.h)
 *
 * After gnn_set_num_threads () OpenBLAS runs single-threaded and Gnn splits
 * each large product itself: C's columns (or rows, when C is taller than
 * wide) in blocks of 16, one OpenBLAS call per range, on the pool that also
 * runs the kernels' own loops. With OpenBLAS's threads and Gnn's pool both
 * active, an idle OpenBLAS worker spins (sched_yield, ~0.1 s per GEMM) on
 * the core a Gnn worker needs: measured on 2 cores, a CNN training step
 * took 1.4× as long as with one pool (bench/README.md, CNN section).
 * Like OpenBLAS's own threads, a split changes the last bit of some
 * elements (its edge kernels accumulate in another order than its full
 * tiles): the same count gives the same bytes every run, another count
 * agrees to float rounding.
 *
 * A batch of products (Winograd's 16 per block) is split by product, one
 * parallel region for all of them; a batch of fewer products than threads
 * (a batch-1 convolution's single image) splits each product instead.
 *
 * While OpenBLAS has threads of its own (no gnn_set_num_threads () call),
 * products go to it whole, one after the other.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cblas.h>
#include <gnn/gnn-threads.h>

#include "tensor/gnn-parallel-private.h"

/* m·n·k below which one call is cheaper than a parallel region; OpenBLAS
 * threads from 4 · 65536 (GEMM_MULTITHREAD_THRESHOLD · SMP_THRESHOLD_MIN). */
#define SPLIT_MIN_MNK ((gint64) 1 << 18)
/* Columns or rows per unit: whole register tiles of OpenBLAS's kernels. */
#define UNIT 16

#define DEFINE_PARALLEL_GEMM(T, suffix, GEMM)                                            \
typedef struct                                                                           \
{                                                                                        \
  CBLAS_TRANSPOSE ta, tb;                                                                \
  gint64 m, n, k;                                                                        \
  T alpha, beta;                                                                         \
  const T *a, *b;                                                                        \
  gint64 lda, ldb, ldc;                                                                  \
  T *c;                                                                                  \
  gboolean by_rows;                                                                      \
} GemmJob_##suffix;                                                                      \
                                                                                         \
static void                                                                              \
gemm_range_##suffix (gint64 u0, gint64 u1, gpointer data)                                \
{                                                                                        \
  const GemmJob_##suffix *j = data;                                                      \
  gint64 lo = u0 * UNIT;                                                                 \
                                                                                         \
  if (j->by_rows)                                                                        \
    {                                                                                    \
      gint64 hi = MIN (u1 * UNIT, j->m);                                                 \
      const T *a = j->ta == CblasNoTrans ? j->a + lo * j->lda : j->a + lo;               \
                                                                                         \
      GEMM (CblasRowMajor, j->ta, j->tb, (int) (hi - lo), (int) j->n, (int) j->k,        \
            j->alpha, a, (int) j->lda, j->b, (int) j->ldb, j->beta,                      \
            j->c + lo * j->ldc, (int) j->ldc);                                           \
    }                                                                                    \
  else                                                                                   \
    {                                                                                    \
      gint64 hi = MIN (u1 * UNIT, j->n);                                                 \
      const T *b = j->tb == CblasNoTrans ? j->b + lo : j->b + lo * j->ldb;               \
                                                                                         \
      GEMM (CblasRowMajor, j->ta, j->tb, (int) j->m, (int) (hi - lo), (int) j->k,        \
            j->alpha, j->a, (int) j->lda, b, (int) j->ldb, j->beta,                      \
            j->c + lo, (int) j->ldc);                                                    \
    }                                                                                    \
}                                                                                        \
                                                                                         \
void                                                                                     \
gnn_parallel_gemm_##suffix (CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, gint64 m, gint64 n,  \
                            gint64 k, T alpha, const T *a, gint64 lda, const T *b,       \
                            gint64 ldb, T beta, T *c, gint64 ldc)                        \
{                                                                                        \
  GemmJob_##suffix job = { ta, tb, m, n, k, alpha, beta, a, b, lda, ldb, ldc, c, n < m }; \
  gint64 units = ((job.by_rows ? m : n) + UNIT - 1) / UNIT;                              \
                                                                                         \
  if (gnn_get_num_threads () < 2 || openblas_get_num_threads () > 1 || units < 2 ||      \
      m * n * k < SPLIT_MIN_MNK)                                                         \
    {                                                                                    \
      GEMM (CblasRowMajor, ta, tb, (int) m, (int) n, (int) k, alpha, a, (int) lda, b,    \
            (int) ldb, beta, c, (int) ldc);                                              \
      return;                                                                            \
    }                                                                                    \
  gnn_parallel_for (units, 1, gemm_range_##suffix, &job);                                \
}                                                                                        \
                                                                                         \
typedef struct                                                                           \
{                                                                                        \
  GemmJob_##suffix one;                                                                  \
  gint64 stride_a, stride_b, stride_c;                                                   \
} BatchJob_##suffix;                                                                     \
                                                                                         \
static void                                                                              \
batch_range_##suffix (gint64 i0, gint64 i1, gpointer data)                               \
{                                                                                        \
  const BatchJob_##suffix *j = data;                                                     \
  const GemmJob_##suffix *g = &j->one;                                                   \
                                                                                         \
  for (gint64 i = i0; i < i1; i++)                                                       \
    GEMM (CblasRowMajor, g->ta, g->tb, (int) g->m, (int) g->n, (int) g->k, g->alpha,     \
          g->a + i * j->stride_a, (int) g->lda, g->b + i * j->stride_b, (int) g->ldb,    \
          g->beta, g->c + i * j->stride_c, (int) g->ldc);                                \
}                                                                                        \
                                                                                         \
void                                                                                     \
gnn_parallel_gemm_batch_##suffix (gint64 count, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb,  \
                                  gint64 m, gint64 n, gint64 k, T alpha,                 \
                                  const T *a, gint64 stride_a, gint64 lda,               \
                                  const T *b, gint64 stride_b, gint64 ldb, T beta,       \
                                  T *c, gint64 stride_c, gint64 ldc)                     \
{                                                                                        \
  BatchJob_##suffix job = { { ta, tb, m, n, k, alpha, beta, a, b, lda, ldb, ldc, c, FALSE }, \
                            stride_a, stride_b, stride_c };                              \
                                                                                         \
  if (openblas_get_num_threads () > 1 || m * n * k < SPLIT_MIN_MNK)                      \
    batch_range_##suffix (0, count, &job);                                               \
  else if (count < gnn_get_num_threads ())                                               \
    /* fewer products than threads (a batch-1 convolution's one image): */              \
    /* each product split, not one thread doing all of them             */              \
    for (gint64 i = 0; i < count; i++)                                                   \
      gnn_parallel_gemm_##suffix (ta, tb, m, n, k, alpha, a + i * stride_a, lda,         \
                                  b + i * stride_b, ldb, beta, c + i * stride_c, ldc);   \
  else                                                                                   \
    gnn_parallel_for (count, 1, batch_range_##suffix, &job);                             \
}

DEFINE_PARALLEL_GEMM (float, f32, cblas_sgemm)
DEFINE_PARALLEL_GEMM (double, f64, cblas_dgemm)
