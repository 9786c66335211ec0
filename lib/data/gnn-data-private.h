/* gnn-data-private.h: helpers shared by the files of lib/data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "tensor/gnn-tensor-private.h"

G_BEGIN_DECLS

/* A new array of @n int64s, never NULL (so an empty epoch is not an error). */
static inline gint64 *
gnn_index_array_new (gsize n)
{
  return g_new (gint64, MAX (n, 1));
}

/* Fisher–Yates permutation of 0..n-1 into @out. */
void gnn_randperm (GnnGenerator *generator, gint64 *out, gsize n);

/* A generator seeded from the system RNG, for samplers given none. */
GnnGenerator *gnn_generator_new_unseeded (void);

/* The thread-local worker info (set by the loader's worker threads). */
void gnn_worker_info_set_current (GnnWorkerInfo *info);
GnnWorkerInfo *gnn_worker_info_new (guint id, guint num_workers, guint64 seed,
                                    GnnDataset *dataset);

G_END_DECLS

G_BEGIN_DECLS

/* Starts one pass over @indices (taken), cut into batches of @batch_size
 * (the last one shorter). With @num_workers > 0, starts the worker threads. */
GnnDataLoaderIter *gnn_data_loader_iter_new_internal (GnnDataset *dataset,
                                                      GnnCollate *collate,
                                                      gint64     *indices,
                                                      gsize       n_indices,
                                                      gsize       batch_size,
                                                      guint       num_workers,
                                                      guint       prefetch_factor,
                                                      double      timeout,
                                                      guint64     base_seed);

G_END_DECLS
