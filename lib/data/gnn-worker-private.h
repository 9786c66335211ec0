/* gnn-worker-private.h: the loader pipeline's worker backends (private)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The pipeline `sampler → batch indices → backend.submit → backend.receive
 * → reorder → caller` is written once, in gnn-data-loader-iter.c, over the
 * GnnWorkerBackend interface below. Threads (gnn-thread-backend.c) and
 * worker processes, forked or spawned (gnn-process-backend.c), implement
 * it; every one of them turns a task into a batch with gnn_epoch_fetch_batch
 * / gnn_fetch_and_collate (gnn-epoch.c), the one fetch-and-collate step.
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
  GnnBatch  *batch;
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
  GAsyncQueue    *results;      /* GnnBatchResult*, any order (thread workers) */
  gint            stop;         /* atomic: skip remaining work */

  /* Iterable datasets: one stream per worker (or one in the caller), each
   * touched only by its own thread. */
  gboolean          iterable;
  gboolean          drop_last;
  guint             n_streams;
  GnnItemIterator **streams;
  gboolean         *ended;
  gint64           *skip;         /* items each stream skips first (a resumed pass) */
  guint             first_stream; /* whose turn comes first (a resumed pass) */

  /* The pass's seed of per-sample generators (gnn_get_sample_generator):
   * drawn from the loader's generator, so a resumed pass has it again. */
  guint64           sample_seed;
} GnnEpoch;

GnnEpoch  *gnn_epoch_new   (GnnDataset *dataset, GnnCollate *collate, gint64 *indices,
                            gsize n_indices, gsize batch_size);
GnnEpoch  *gnn_epoch_new_iterable (GnnIterableDataset *dataset, GnnCollate *collate,
                                   gsize batch_size, gboolean drop_last, guint n_streams);
GnnEpoch  *gnn_epoch_ref   (GnnEpoch *epoch);
void       gnn_epoch_unref (GnnEpoch *epoch);

/* Fetches the items at @indices and collates them: the one
 * fetch-and-collate step of every backend. Gives up ("DataLoader iterator
 * stopped") as soon as *@stop_word differs from @expected. With @stack
 * and the default collation, the items go to @stack (a worker process
 * stacking straight into shared memory) and %NULL is returned with
 * *@stacked set. Errors name the sample index. Each item is fetched with
 * the sample generator seeded from @sample_seed and its index. */
typedef gboolean (*GnnStackFunc) (gpointer data, const GnnBatchSource *src, GError **error);

GnnBatch  *gnn_fetch_and_collate (GnnDataset *dataset, GnnCollate *collate,
                                  const gint64 *indices, gsize count,
                                  const gint *stop_word, gint expected, guint64 sample_seed,
                                  GnnStackFunc stack, gpointer stack_data, gboolean *stacked,
                                  GError **error);

/* Batch @seq of @epoch (map-style). */
GnnBatch  *gnn_epoch_fetch_batch (GnnEpoch *epoch, gsize seq, GError **error);

/* Iterable datasets: the next batch of stream @stream (creating its
 * iterator on first use and skipping what a resumed pass already
 * delivered); NULL with *@end set when the stream is over. */
GnnBatch  *gnn_epoch_fetch_stream_batch (GnnEpoch *epoch, guint stream, gboolean *end,
                                         GError **error);

/* The prefix of a collation error, written once for every backend. */
void gnn_prefix_collate_error (GError **error, gint64 first_index);

/* --- the backend interface -------------------------------------------------- */

typedef struct _GnnWorkerBackend GnnWorkerBackend;

typedef struct
{
  /* A new pass over @epoch (reset): returns its id. */
  guint           (*begin)   (GnnWorkerBackend *self, GnnEpoch *epoch);
  /* Queues batch @seq of pass @pass on worker @worker. */
  void            (*submit)  (GnnWorkerBackend *self, guint worker, GnnEpoch *epoch,
                              guint pass, gsize seq);
  /* The next result of @pass from any worker, waiting until @deadline
   * (monotonic µs, 0: forever). %NULL without error: timed out. */
  GnnBatchResult *(*receive) (GnnWorkerBackend *self, GnnEpoch *epoch, guint pass,
                              gint64 deadline, GError **error);
  /* Ends @pass: workers skip what is left of it. With @abandon (the caller
   * gave up waiting), workers still busy are not waited for; returns a
   * description of them, or %NULL. */
  char           *(*stop)    (GnnWorkerBackend *self, GnnEpoch *epoch, guint pass,
                              gboolean abandon);
  /* Whether a persistent backend can serve a loader with @dataset and
   * @collate (nothing broken or abandoned). */
  gboolean        (*fits)    (GnnWorkerBackend *self, GnnDataset *dataset, GnnCollate *collate);
  /* Stops the workers (the last reference is gone) and frees @self. */
  void            (*free)    (GnnWorkerBackend *self);
} GnnWorkerBackendVTable;

struct _GnnWorkerBackend
{
  const GnnWorkerBackendVTable *vtable;
  gatomicrefcount               ref_count;
  guint                         num_workers;
};

/* A worker's start hook (the loader's worker-init): runs in the worker
 * thread or process once it is seeded, before it loads anything. Workers
 * get this callback, never the loader itself. */
typedef void (*GnnWorkerInitFunc) (GnnWorkerInfo *info, gpointer data);

/* What every backend is made from. */
typedef struct
{
  GnnWorkerInitFunc worker_init;           /* NULL: none */
  gpointer          worker_init_data;      /* not owned */
  gboolean          worker_init_connected; /* it has handlers: spawned workers refuse them */
  GnnDataLoader    *loader;                /* not owned: handed as is to a spawn host's save */
  GnnDataset       *dataset;
  GnnCollate       *collate;
  guint             num_workers;
  guint64           base_seed;
  double            timeout;  /* the loader's (s, 0: none): bounds a spawned worker's start too */
} GnnWorkerSetup;

typedef GnnWorkerBackend *(*GnnWorkerBackendNew) (const GnnWorkerSetup *setup, GError **error);

GnnWorkerBackend *gnn_thread_backend_new  (const GnnWorkerSetup *setup, GError **error);
/* Worker processes, forked or (@spawn) started fresh from the program. */
GnnWorkerBackend *gnn_process_backend_new (const GnnWorkerSetup *setup, gboolean spawn,
                                           GError **error);

/* The workers of @mode, made from @setup. */
GnnWorkerBackend *gnn_worker_backend_new  (GnnWorkerMode mode, const GnnWorkerSetup *setup,
                                           GError **error);

static inline void
gnn_worker_backend_init (GnnWorkerBackend *self, const GnnWorkerBackendVTable *vtable,
                         guint num_workers)
{
  self->vtable = vtable;
  g_atomic_ref_count_init (&self->ref_count);
  self->num_workers = num_workers;
}

static inline GnnWorkerBackend *
gnn_worker_backend_ref (GnnWorkerBackend *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

static inline void
gnn_worker_backend_unref (GnnWorkerBackend *self)
{
  if (g_atomic_ref_count_dec (&self->ref_count))
    self->vtable->free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnEpoch, gnn_epoch_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnWorkerBackend, gnn_worker_backend_unref)

/* Starts one pass of @epoch: with @backend, queues the first
 * `prefetch_factor × workers` batches; without, loads in the caller.
 * @skip batches are skipped (a resumed pass). */
GnnDataLoaderIter *gnn_data_loader_iter_new_internal (GnnDataLoader    *loader,
                                                      GnnEpoch         *epoch,
                                                      GnnWorkerBackend *backend,
                                                      guint             prefetch_factor,
                                                      double            timeout,
                                                      GVariant         *start_state,
                                                      gsize             skip);

/* What a loader state depends on (gnn-data-loader-state.c). */
typedef struct
{
  GnnDataset      *dataset;
  GnnSampler      *sampler;
  GnnBatchSampler *batch_sampler;
  gint64           batch_size;
  gboolean         shuffle;
  gboolean         drop_last;
} GnnLoaderConfig;

/* Records in @dict the configuration a pass's batches depend on. */
void     gnn_loader_state_add_config (const GnnLoaderConfig *config, GVariantDict *dict);
/* Refuses (GNN_ERROR_INVALID_ARGUMENT naming the field) a state whose
 * recorded configuration is not @config's, whose "pass" cannot be counted
 * on from, or whose "batches" is past the @n_batches of a map-style pass. */
gboolean gnn_loader_state_check      (const GnnLoaderConfig *config, GVariant *state,
                                      gint64 n_batches, GError **error);
/* Restores generator @g from @state's bytestring @key (both absent: TRUE). */
gboolean gnn_loader_state_restore_generator (GnnGenerator *g, GVariant *state, const char *key,
                                             GError **error);
/* A resumed pass over an iterable dataset: the items each stream of
 * @epoch skips, from @resume's "stream-batches" (@batches: the pass's). */
gboolean gnn_loader_state_resume_streams    (GnnEpoch *epoch, GVariant *resume, gsize batches,
                                             GError **error);

G_END_DECLS
