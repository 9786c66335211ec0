/* gnn-worker-pool.h: the worker threads of a data loader (private)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "data/gnn-data-private.h"

G_BEGIN_DECLS

/* One result: batch @seq of an epoch, or the error that stopped it. */
typedef struct
{
  gsize      seq;
  guint      worker;
  gboolean   end;       /* iterable datasets: the worker's stream is over */
  GPtrArray *batch;
  GError    *error;
} GnnBatchResult;

void gnn_batch_result_free (GnnBatchResult *r);

/* One pass: what workers need to build its batches. Refcounted: the
 * iterator and every queued task hold a reference, so a pass dropped
 * mid-epoch stays valid until persistent workers have skipped its tasks. */
typedef struct
{
  gatomicrefcount ref_count;
  GnnDataset     *dataset;
  GnnCollate     *collate;
  gint64         *indices;      /* immutable once tasks are queued */
  gsize           n_indices;
  gsize           batch_size;
  GAsyncQueue    *results;      /* GnnBatchResult*, any order */
  gint            stop;         /* atomic: skip remaining work */

  /* Iterable datasets: one stream per worker (or one in the caller), each
   * touched only by its own thread. */
  gboolean          iterable;
  gboolean          drop_last;
  guint             n_streams;
  GnnItemIterator **streams;
  gboolean         *ended;
} GnnEpoch;

GnnEpoch  *gnn_epoch_new   (GnnDataset *dataset, GnnCollate *collate, gint64 *indices,
                            gsize n_indices, gsize batch_size);
GnnEpoch  *gnn_epoch_new_iterable (GnnIterableDataset *dataset, GnnCollate *collate,
                                   gsize batch_size, gboolean drop_last, guint n_streams);
GnnEpoch  *gnn_epoch_ref   (GnnEpoch *epoch);
void       gnn_epoch_unref (GnnEpoch *epoch);

/* Fetches the items at @indices, item-major in one array (*@n_fields
 * tensors each); gives up ("DataLoader iterator stopped") as soon as
 * *@stop_word differs from @expected. Errors name the sample index. */
GPtrArray *gnn_fetch_items (GnnDataset *dataset, const gint64 *indices, gsize count,
                            const gint *stop_word, gint expected, guint *n_fields,
                            GError **error);

/* Fetches the items of batch @seq and collates them; errors name the
 * sample index (workers add their id). */
GPtrArray *gnn_epoch_fetch_batch (GnnEpoch *epoch, gsize seq, GError **error);

/* Iterable datasets: the next batch of stream @stream (creating its
 * iterator on first use); NULL with *@end set when the stream is over. */
GPtrArray *gnn_epoch_fetch_stream_batch (GnnEpoch *epoch, guint stream, gboolean *end,
                                         GError **error);

/* Threads with one task queue each. Refcounted (a persistent pool is held
 * by the loader and by each iterator using it). The last unref stops and
 * joins the threads. */
typedef struct _GnnWorkerPool GnnWorkerPool;

GnnWorkerPool *gnn_worker_pool_new        (GnnDataLoader *loader, GnnDataset *dataset,
                                           guint num_workers, guint64 base_seed);
GnnWorkerPool *gnn_worker_pool_ref        (GnnWorkerPool *pool);
void           gnn_worker_pool_unref      (GnnWorkerPool *pool);
guint          gnn_worker_pool_get_size   (GnnWorkerPool *pool);
GnnDataset    *gnn_worker_pool_get_dataset (GnnWorkerPool *pool);
/* Queues batch @seq of @epoch on worker @worker. */
void           gnn_worker_pool_submit     (GnnWorkerPool *pool, guint worker,
                                           GnnEpoch *epoch, gsize seq);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnEpoch, gnn_epoch_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnWorkerPool, gnn_worker_pool_unref)

/* Forked worker processes, one socket (tasks in, results out) each; the
 * batches come back as memfd segments the tensors map. Refcounted like
 * GnnWorkerPool; the last unref stops the children (waiting briefly, then
 * SIGKILL) and reaps them. */
typedef struct _GnnProcessPool GnnProcessPool;

GnnProcessPool *gnn_process_pool_new         (GnnDataLoader *loader, GnnDataset *dataset,
                                              GnnCollate *collate, guint num_workers,
                                              guint64 base_seed, GError **error);
GnnProcessPool *gnn_process_pool_ref         (GnnProcessPool *pool);
void            gnn_process_pool_unref       (GnnProcessPool *pool);
guint           gnn_process_pool_get_size    (GnnProcessPool *pool);
/* Whether the pool still fits a loader's dataset and collate and has all
 * its workers alive. */
gboolean        gnn_process_pool_is_usable   (GnnProcessPool *pool, GnnDataset *dataset,
                                              GnnCollate *collate);
/* A new pass: returns its id; workers skip tasks of other passes. */
guint           gnn_process_pool_begin_epoch (GnnProcessPool *pool);
/* Ends pass @epoch_id (if still current): workers drop its queued tasks. */
void            gnn_process_pool_end_epoch   (GnnProcessPool *pool, guint epoch_id);
/* Sends batch @seq of @epoch to worker @worker. */
void            gnn_process_pool_submit      (GnnProcessPool *pool, guint worker,
                                              GnnEpoch *epoch, guint epoch_id, gsize seq);
/* The next result of pass @epoch_id from any worker, waiting until
 * @deadline (monotonic µs, 0: forever). %NULL without error: timed out.
 * A dead worker is an error (%GNN_ERROR_WORKER). */
GnnBatchResult *gnn_process_pool_receive     (GnnProcessPool *pool, guint epoch_id,
                                              gint64 deadline, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnProcessPool, gnn_process_pool_unref)

/* Starts one pass of @epoch: with @pool, queues the first
 * `prefetch_factor × workers` batches; without, loads in the caller. */
GnnDataLoaderIter *gnn_data_loader_iter_new_internal (GnnDataLoader *loader,
                                                      GnnEpoch      *epoch,
                                                      GnnWorkerPool *pool,
                                                      GnnProcessPool *procs,
                                                      guint          prefetch_factor,
                                                      double         timeout);

G_END_DECLS
