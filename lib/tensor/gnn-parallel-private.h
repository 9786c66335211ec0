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

G_BEGIN_DECLS

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
