/* gnn-worker-pool.c: the worker threads of a data loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-worker-pool.h"

/* A queued task; STOP_TASK ends a worker. */
typedef struct
{
  GnnEpoch *epoch;
  gsize     seq;
} Task;

static Task stop_task;
#define STOP_TASK (&stop_task)

typedef struct
{
  GnnWorkerPool *pool;
  GThread       *thread;
  GAsyncQueue   *tasks;
  GnnWorkerInfo *info;
} Worker;

struct _GnnWorkerPool
{
  gatomicrefcount ref_count;
  GnnDataLoader  *loader;       /* not owned: emits worker-init only at start */
  GnnDataset     *dataset;
  guint           num_workers;
  Worker         *workers;
};

void
gnn_batch_result_free (GnnBatchResult *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->batch, g_ptr_array_unref);
  g_clear_error (&r->error);
  g_free (r);
}

GnnEpoch *
gnn_epoch_new (GnnDataset *dataset,
               GnnCollate *collate,
               gint64     *indices,
               gsize       n_indices,
               gsize       batch_size)
{
  GnnEpoch *e = g_new0 (GnnEpoch, 1);

  g_atomic_ref_count_init (&e->ref_count);
  e->dataset = g_object_ref (dataset);
  e->collate = g_object_ref (collate);
  e->indices = indices;
  e->n_indices = n_indices;
  e->batch_size = batch_size;
  e->results = g_async_queue_new_full ((GDestroyNotify) gnn_batch_result_free);
  return e;
}

GnnEpoch *
gnn_epoch_new_iterable (GnnIterableDataset *dataset,
                        GnnCollate         *collate,
                        gsize               batch_size,
                        gboolean            drop_last,
                        guint               n_streams)
{
  GnnEpoch *e = gnn_epoch_new (GNN_DATASET (dataset), collate, NULL, 0, batch_size);

  e->iterable = TRUE;
  e->drop_last = drop_last;
  e->n_streams = n_streams;
  e->streams = g_new0 (GnnItemIterator *, n_streams);
  e->ended = g_new0 (gboolean, n_streams);
  return e;
}

GnnEpoch *
gnn_epoch_ref (GnnEpoch *epoch)
{
  g_atomic_ref_count_inc (&epoch->ref_count);
  return epoch;
}

void
gnn_epoch_unref (GnnEpoch *epoch)
{
  if (!g_atomic_ref_count_dec (&epoch->ref_count))
    return;
  g_async_queue_unref (epoch->results);   /* frees undelivered results */
  g_object_unref (epoch->dataset);
  g_object_unref (epoch->collate);
  g_free (epoch->indices);
  for (guint i = 0; i < epoch->n_streams; i++)
    g_clear_object (&epoch->streams[i]);
  g_free (epoch->streams);
  g_free (epoch->ended);
  g_free (epoch);
}

GPtrArray *
gnn_fetch_items (GnnDataset    *dataset,
                 const gint64  *indices,
                 gsize          count,
                 const gint    *stop_word,
                 gint           expected,
                 guint         *n_fields,
                 GError       **error)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_full ((guint) count * 2, g_object_unref);

  *n_fields = 0;
  for (gsize i = 0; i < count; i++)
    {
      gint64 index = indices[i];
      GPtrArray *item;

      if (g_atomic_int_get (stop_word) != expected)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER, "DataLoader iterator stopped");
          return NULL;
        }
      item = gnn_dataset_get_item_unchecked (dataset, index, error);
      if (item == NULL)
        {
          g_prefix_error (error, "sample index %" G_GINT64_FORMAT ": ", index);
          return NULL;
        }
      if (i == 0)
        *n_fields = item->len;
      else if (item->len != *n_fields)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "sample index %" G_GINT64_FORMAT ": each element in list of batch should "
                       "be of equal size (%u fields, the first item of the batch has %u)",
                       index, item->len, *n_fields);
          g_ptr_array_unref (item);
          return NULL;
        }
      g_ptr_array_extend_and_steal (items, item);
    }
  return g_steal_pointer (&items);
}

GPtrArray *
gnn_epoch_fetch_batch (GnnEpoch  *epoch,
                       gsize      seq,
                       GError   **error)
{
  gsize start = seq * epoch->batch_size;
  gsize count = MIN (epoch->batch_size, epoch->n_indices - start);
  g_autoptr(GPtrArray) items = NULL;
  guint n_fields = 0;
  GPtrArray *batch;

  items = gnn_fetch_items (epoch->dataset, epoch->indices + start, count, &epoch->stop, 0,
                           &n_fields, error);
  if (items == NULL)
    return NULL;
  batch = gnn_collate_collate (epoch->collate, items, n_fields, error);
  if (batch == NULL)
    g_prefix_error (error, "collate of the batch starting at sample index %" G_GINT64_FORMAT ": ",
                    epoch->indices[start]);
  return batch;
}

GPtrArray *
gnn_epoch_fetch_stream_batch (GnnEpoch  *epoch,
                              guint      stream,
                              gboolean  *end,
                              GError   **error)
{
  g_autoptr(GPtrArray) items = NULL;
  guint n_fields = 0;
  gsize count = 0;
  GPtrArray *batch;

  *end = FALSE;
  if (epoch->ended[stream])
    {
      *end = TRUE;
      return NULL;
    }
  if (epoch->streams[stream] == NULL)
    {
      epoch->streams[stream] =
        gnn_iterable_dataset_create_iterator (GNN_ITERABLE_DATASET (epoch->dataset), error);
      if (epoch->streams[stream] == NULL)
        {
          epoch->ended[stream] = TRUE;
          return NULL;
        }
    }
  items = g_ptr_array_new_full ((guint) epoch->batch_size * 2, g_object_unref);
  while (count < epoch->batch_size)
    {
      g_autoptr(GError) local = NULL;
      GPtrArray *item = NULL;

      if (g_atomic_int_get (&epoch->stop))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER, "DataLoader iterator stopped");
          return NULL;
        }
      if (!gnn_item_iterator_next (epoch->streams[stream], &item, &local))
        {
          if (local != NULL)
            {
              epoch->ended[stream] = TRUE;
              g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                          "item %" G_GSIZE_FORMAT " of the batch: ", count);
              return NULL;
            }
          epoch->ended[stream] = TRUE;
          break;
        }
      if (count == 0)
        n_fields = item->len;
      else if (item->len != n_fields)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "each element in list of batch should be of equal size "
                       "(item %" G_GSIZE_FORMAT " has %u fields, the first item of the batch has %u)",
                       count, item->len, n_fields);
          g_ptr_array_unref (item);
          return NULL;
        }
      g_ptr_array_extend_and_steal (items, item);
      count++;
    }
  if (count == 0 || (count < epoch->batch_size && epoch->drop_last))
    {
      *end = TRUE;
      return NULL;
    }
  batch = gnn_collate_collate (epoch->collate, items, n_fields, error);
  if (batch == NULL)
    g_prefix_error (error, "collate: ");
  return batch;
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  guint id = gnn_worker_info_get_id (w->info);
  Task *task;

  gnn_worker_info_set_current (w->info);
  gnn_data_loader_emit_worker_init (w->pool->loader, w->info);
  while ((task = g_async_queue_pop (w->tasks)) != STOP_TASK)
    {
      GnnEpoch *epoch = task->epoch;
      GnnBatchResult *r = g_new0 (GnnBatchResult, 1);

      r->seq = task->seq;
      r->worker = id;
      if (!g_atomic_int_get (&epoch->stop))
        {
          if (epoch->iterable)
            r->batch = gnn_epoch_fetch_stream_batch (epoch, id, &r->end, &r->error);
          else
            r->batch = gnn_epoch_fetch_batch (epoch, r->seq, &r->error);
          if (r->error != NULL)
            g_prefix_error (&r->error, "DataLoader worker %u: ", id);
        }
      g_async_queue_push (epoch->results, r);
      gnn_epoch_unref (epoch);
      g_free (task);
    }
  gnn_worker_info_set_current (NULL);
  return NULL;
}

static void
task_free (gpointer data)
{
  Task *task = data;

  if (task == STOP_TASK)
    return;
  gnn_epoch_unref (task->epoch);
  g_free (task);
}

GnnWorkerPool *
gnn_worker_pool_new (GnnDataLoader *loader,
                     GnnDataset    *dataset,
                     guint          num_workers,
                     guint64        base_seed)
{
  GnnWorkerPool *pool = g_new0 (GnnWorkerPool, 1);

  g_atomic_ref_count_init (&pool->ref_count);
  pool->loader = loader;
  pool->dataset = g_object_ref (dataset);
  pool->num_workers = num_workers;
  pool->workers = g_new0 (Worker, num_workers);
  for (guint i = 0; i < num_workers; i++)
    {
      Worker *w = &pool->workers[i];
      g_autofree char *name = g_strdup_printf ("gnn-worker-%u", i);

      w->pool = pool;
      w->tasks = g_async_queue_new_full (task_free);
      w->info = gnn_worker_info_new (i, num_workers, base_seed + i, dataset);
      w->thread = g_thread_new (name, worker_main, w);
    }
  return pool;
}

GnnWorkerPool *
gnn_worker_pool_ref (GnnWorkerPool *pool)
{
  g_atomic_ref_count_inc (&pool->ref_count);
  return pool;
}

void
gnn_worker_pool_unref (GnnWorkerPool *pool)
{
  if (!g_atomic_ref_count_dec (&pool->ref_count))
    return;
  /* Stop ahead of any queued task, then drop what is left in the queues. */
  for (guint i = 0; i < pool->num_workers; i++)
    g_async_queue_push_front (pool->workers[i].tasks, STOP_TASK);
  for (guint i = 0; i < pool->num_workers; i++)
    {
      Worker *w = &pool->workers[i];

      g_thread_join (w->thread);
      g_async_queue_unref (w->tasks);
      g_object_unref (w->info);
    }
  g_free (pool->workers);
  g_object_unref (pool->dataset);
  g_free (pool);
}

guint
gnn_worker_pool_get_size (GnnWorkerPool *pool)
{
  return pool->num_workers;
}

GnnDataset *
gnn_worker_pool_get_dataset (GnnWorkerPool *pool)
{
  return pool->dataset;
}

void
gnn_worker_pool_submit (GnnWorkerPool *pool,
                        guint          worker,
                        GnnEpoch      *epoch,
                        gsize          seq)
{
  Task *task = g_new (Task, 1);

  task->epoch = gnn_epoch_ref (epoch);
  task->seq = seq;
  g_async_queue_push (pool->workers[worker].tasks, task);
}
