/* gnn-parallel-private.h: intra-op parallelism for the kernels
 *
 * gnn_parallel_for() splits a loop over [0, n) into contiguous ranges run
 * by the library's pool of worker threads and the calling thread, like
 * PyTorch's at::parallel_for. The number of threads is the public
 * gnn_get_num_threads () (torch.get_num_threads), which is also OpenBLAS's,
 * so a kernel's own loops and its GEMMs use the same cores.
 *
 * One parallel region runs at a time: a call made while another region runs
 * (another thread's, or a nested call from inside a range) runs its whole
 * loop serially on the calling thread, so nothing ever waits on the pool
 * while holding it. Ranges must be independent (disjoint outputs); a range
 * that needs scratch allocates its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <cblas.h>

G_BEGIN_DECLS

/* Sets Gnn's count (its loops and product splits) to @n without touching
 * OpenBLAS: for a forked loader worker, where any OpenBLAS call restarts
 * OpenBLAS's pool (a thread that then spins ~0.1 s: measured, the
 * processes loader slowed by ~15 %). */
void gnn_parallel_set_threads (guint n);

/* One range [begin, end) of the loop; @data is the caller's. */
typedef void (*GnnParallelFunc) (gint64   begin,
                                 gint64   end,
                                 gpointer data);

/* Runs @func over [0, @n) in at most gnn_get_num_threads () ranges of at
 * least @grain items (one range, on the caller, when n < 2 · grain), and
 * returns when all of them have run. */
void gnn_parallel_for (gint64          n,
                       gint64          grain,
                       GnnParallelFunc func,
                       gpointer        data);

/* memset (@data, 0, @nbytes), split among the threads from
 * GNN_PARALLEL_ZERO_MIN bytes: a fresh gradient or scratch buffer is
 * mostly first-touch page faults, whose zeroing the kernel does on the
 * faulting thread (gnn-parallel.c). */
#define GNN_PARALLEL_ZERO_MIN ((gsize) 1 << 20)

void gnn_parallel_zero (gpointer data,
                        gsize    nbytes);

/* cblas_sgemm / cblas_dgemm (row-major), split by C's columns or rows among
 * Gnn's threads when OpenBLAS runs single-threaded (gnn-gemm-parallel.c). */
void gnn_parallel_gemm_f32 (CBLAS_TRANSPOSE ta,
                            CBLAS_TRANSPOSE tb,
                            gint64          m,
                            gint64          n,
                            gint64          k,
                            float           alpha,
                            const float    *a,
                            gint64          lda,
                            const float    *b,
                            gint64          ldb,
                            float           beta,
                            float          *c,
                            gint64          ldc);
void gnn_parallel_gemm_f64 (CBLAS_TRANSPOSE ta,
                            CBLAS_TRANSPOSE tb,
                            gint64          m,
                            gint64          n,
                            gint64          k,
                            double          alpha,
                            const double   *a,
                            gint64          lda,
                            const double   *b,
                            gint64          ldb,
                            double          beta,
                            double         *c,
                            gint64          ldc);

/* @count products C_i = alpha · op (A_i) · op (B_i) + beta · C_i with
 * X_i = x + i · stride_x, split by product among Gnn's threads when OpenBLAS
 * runs single-threaded. */
void gnn_parallel_gemm_batch_f32 (gint64          count,
                                  CBLAS_TRANSPOSE ta,
                                  CBLAS_TRANSPOSE tb,
                                  gint64          m,
                                  gint64          n,
                                  gint64          k,
                                  float           alpha,
                                  const float    *a,
                                  gint64          stride_a,
                                  gint64          lda,
                                  const float    *b,
                                  gint64          stride_b,
                                  gint64          ldb,
                                  float           beta,
                                  float          *c,
                                  gint64          stride_c,
                                  gint64          ldc);
void gnn_parallel_gemm_batch_f64 (gint64          count,
                                  CBLAS_TRANSPOSE ta,
                                  CBLAS_TRANSPOSE tb,
                                  gint64          m,
                                  gint64          n,
                                  gint64          k,
                                  double          alpha,
                                  const double   *a,
                                  gint64          stride_a,
                                  gint64          lda,
                                  const double   *b,
                                  gint64          stride_b,
                                  gint64          ldb,
                                  double          beta,
                                  double         *c,
                                  gint64          stride_c,
                                  gint64          ldc);

/* Items per range for a memory-bound loop over items of @elems_per_item
 * elements each: ranges of at least GNN_PARALLEL_GRAIN_ELEMS elements, since
 * a parallel region costs tens of microseconds. */
#define GNN_PARALLEL_GRAIN_ELEMS (1 << 17)

static inline gint64
gnn_parallel_grain (gint64 elems_per_item)
{
  return MAX (GNN_PARALLEL_GRAIN_ELEMS / MAX (elems_per_item, 1), 1);
}

G_END_DECLS
