/* gnn-data-loader-iter.c: one pass of a data loader, with worker threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnDataLoaderIter:
 *
 * One pass (epoch) over a [class@Gnn.DataLoader], from
 * [method@Gnn.DataLoader.iter]. Batches come out in sampler order whatever
 * the number of workers.
 *
 * With worker threads, the caller keeps the sampler: batch `k` (a sequence
 * number) is sent to worker `k % num_workers`'s queue, at most
 * `prefetch_factor × num_workers` batches are in flight, workers push
 * finished batches to one result queue and [method@Gnn.DataLoaderIter.next]
 * puts them back in order through a reorder ring. Dropping the iterator
 * mid-epoch tells the workers to stop, joins them and frees pending batches.
 */

/* Worker queues carry batch sequence numbers + 1 (never NULL), or STOP. */
#define STOP_TASK GSIZE_TO_POINTER (G_MAXSIZE)

typedef struct
{
  gsize      seq;
  GPtrArray *batch;
  GError    *error;
} Result;

typedef struct
{
  GnnDataLoaderIter *iter;
  GThread           *thread;
  GAsyncQueue       *tasks;
  GnnWorkerInfo     *info;
  guint              id;
} Worker;

struct _GnnDataLoaderIter
{
  GObject      parent_instance;

  GnnDataset  *dataset;
  GnnCollate  *collate;
  gint64      *indices;       /* immutable while workers run */
  gsize        n_indices;
  gsize        batch_size;
  gsize        n_batches;

  gsize        next_send;     /* next sequence number to dispatch */
  gsize        next_recv;     /* next sequence number to deliver */
  gboolean     done;

  guint        num_workers;
  gsize        capacity;      /* batches in flight at most */
  double       timeout;
  Worker      *workers;
  GAsyncQueue *results;       /* Result* from every worker */
  Result     **ring;          /* reorder buffer, slot = seq % capacity */
  gint         stop;          /* atomic: workers skip remaining tasks */
};

G_DEFINE_FINAL_TYPE (GnnDataLoaderIter, gnn_data_loader_iter, G_TYPE_OBJECT)

static void
result_free (Result *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->batch, g_ptr_array_unref);
  g_clear_error (&r->error);
  g_free (r);
}

/* Fetches the items of batch @seq and collates them. Errors name the
 * sample index (the caller adds the worker). */
static GPtrArray *
fetch_batch (GnnDataLoaderIter  *self,
             gsize               seq,
             GError            **error)
{
  gsize start = seq * self->batch_size;
  gsize count = MIN (self->batch_size, self->n_indices - start);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (count * 2, g_object_unref);
  guint n_fields = 0;
  GPtrArray *batch;

  for (gsize i = 0; i < count; i++)
    {
      gint64 index = self->indices[start + i];
      GPtrArray *item;

      if (g_atomic_int_get (&self->stop))
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER, "DataLoader iterator stopped");
          return NULL;
        }
      item = gnn_dataset_get_item (self->dataset, index, error);
      if (item == NULL)
        {
          g_prefix_error (error, "sample index %" G_GINT64_FORMAT ": ", index);
          return NULL;
        }
      if (i == 0)
        n_fields = item->len;
      else if (item->len != n_fields)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "sample index %" G_GINT64_FORMAT ": each element in list of batch should "
                       "be of equal size (%u fields, the first item of the batch has %u)",
                       index, item->len, n_fields);
          g_ptr_array_unref (item);
          return NULL;
        }
      g_ptr_array_extend_and_steal (items, item);
    }
  batch = gnn_collate_collate (self->collate, items, n_fields, error);
  if (batch == NULL)
    g_prefix_error (error, "collate of the batch starting at sample index %" G_GINT64_FORMAT ": ",
                    self->indices[start]);
  return batch;
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  GnnDataLoaderIter *self = w->iter;
  gpointer task;

  gnn_worker_info_set_current (w->info);
  while ((task = g_async_queue_pop (w->tasks)) != STOP_TASK)
    {
      Result *r = g_new0 (Result, 1);

      r->seq = GPOINTER_TO_SIZE (task) - 1;
      if (!g_atomic_int_get (&self->stop))
        {
          r->batch = fetch_batch (self, r->seq, &r->error);
          if (r->batch == NULL)
            g_prefix_error (&r->error, "DataLoader worker %u: ", w->id);
        }
      g_async_queue_push (self->results, r);
    }
  gnn_worker_info_set_current (NULL);
  return NULL;
}

static void
dispatch (GnnDataLoaderIter *self)
{
  while (self->next_send < self->n_batches &&
         self->next_send - self->next_recv < self->capacity)
    {
      Worker *w = &self->workers[self->next_send % self->num_workers];

      g_async_queue_push (w->tasks, GSIZE_TO_POINTER (self->next_send + 1));
      self->next_send++;
    }
}

static void
shutdown_workers (GnnDataLoaderIter *self)
{
  Result *r;

  if (self->workers == NULL)
    return;
  g_atomic_int_set (&self->stop, 1);
  for (guint i = 0; i < self->num_workers; i++)
    g_async_queue_push_front (self->workers[i].tasks, STOP_TASK);
  for (guint i = 0; i < self->num_workers; i++)
    {
      g_thread_join (self->workers[i].thread);
      g_async_queue_unref (self->workers[i].tasks);
      g_object_unref (self->workers[i].info);
    }
  g_clear_pointer (&self->workers, g_free);
  while ((r = g_async_queue_try_pop (self->results)) != NULL)
    result_free (r);
  for (gsize i = 0; i < self->capacity; i++)
    g_clear_pointer (&self->ring[i], result_free);
}

static void
gnn_data_loader_iter_dispose (GObject *object)
{
  shutdown_workers (GNN_DATA_LOADER_ITER (object));
  G_OBJECT_CLASS (gnn_data_loader_iter_parent_class)->dispose (object);
}

static void
gnn_data_loader_iter_finalize (GObject *object)
{
  GnnDataLoaderIter *self = GNN_DATA_LOADER_ITER (object);

  g_clear_object (&self->dataset);
  g_clear_object (&self->collate);
  g_clear_pointer (&self->indices, g_free);
  g_clear_pointer (&self->results, g_async_queue_unref);
  g_clear_pointer (&self->ring, g_free);
  G_OBJECT_CLASS (gnn_data_loader_iter_parent_class)->finalize (object);
}

static void
gnn_data_loader_iter_class_init (GnnDataLoaderIterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_data_loader_iter_dispose;
  object_class->finalize = gnn_data_loader_iter_finalize;
}

static void
gnn_data_loader_iter_init (GnnDataLoaderIter *self)
{
}

GnnDataLoaderIter *
gnn_data_loader_iter_new_internal (GnnDataset *dataset,
                                   GnnCollate *collate,
                                   gint64     *indices,
                                   gsize       n_indices,
                                   gsize       batch_size,
                                   guint       num_workers,
                                   guint       prefetch_factor,
                                   double      timeout,
                                   guint64     base_seed)
{
  GnnDataLoaderIter *self = g_object_new (GNN_TYPE_DATA_LOADER_ITER, NULL);

  self->dataset = g_object_ref (dataset);
  self->collate = g_object_ref (collate);
  self->indices = indices;
  self->n_indices = n_indices;
  self->batch_size = batch_size;
  self->n_batches = (n_indices + batch_size - 1) / batch_size;
  self->num_workers = num_workers;
  self->timeout = timeout;
  if (num_workers == 0)
    return self;

  self->capacity = (gsize) prefetch_factor * num_workers;
  self->ring = g_new0 (Result *, self->capacity);
  self->results = g_async_queue_new ();
  self->workers = g_new0 (Worker, num_workers);
  for (guint i = 0; i < num_workers; i++)
    {
      Worker *w = &self->workers[i];
      g_autofree char *name = g_strdup_printf ("gnn-worker-%u", i);

      w->iter = self;
      w->id = i;
      w->tasks = g_async_queue_new ();
      w->info = gnn_worker_info_new (i, num_workers, base_seed + i, dataset);
      w->thread = g_thread_new (name, worker_main, w);
    }
  dispatch (self);
  return self;
}

static gboolean
fail (GnnDataLoaderIter  *self,
      GError             *err,
      GError            **error)
{
  self->done = TRUE;
  shutdown_workers (self);
  g_propagate_error (error, err);
  return FALSE;
}

/**
 * gnn_data_loader_iter_next:
 * @self: a #GnnDataLoaderIter
 * @batch: (out) (transfer container) (element-type Gnn.Tensor) (optional) (nullable):
 *   the next batch (one tensor per item field; the array holds references:
 *   free it with g_ptr_array_unref()), or %NULL at the end
 * @error: return location for a #GError
 *
 * Returns the next batch, in sampler order. An error in a worker's
 * `get_item` or `collate` comes back here with the worker id and the
 * sample index in its message ("DataLoader worker 1: sample index 17: …");
 * waiting longer than the loader's timeout fails with %GNN_ERROR_TIMEOUT
 * "DataLoader timed out after 5 seconds". After an error or the end, the
 * workers are stopped and later calls return %FALSE.
 *
 * Returns: %TRUE with a batch, %FALSE at the end of the epoch or on error
 */
gboolean
gnn_data_loader_iter_next (GnnDataLoaderIter  *self,
                           GPtrArray         **batch,
                           GError            **error)
{
  GPtrArray *out;
  Result *r;
  gsize slot;
  gint64 deadline = 0;

  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (batch != NULL)
    *batch = NULL;
  if (self->done || self->next_recv >= self->n_batches)
    {
      self->done = TRUE;
      shutdown_workers (self);
      return FALSE;
    }

  if (self->num_workers == 0)
    {
      GError *err = NULL;

      out = fetch_batch (self, self->next_recv++, &err);
      if (out == NULL)
        return fail (self, err, error);
      if (batch != NULL)
        *batch = out;
      else
        g_ptr_array_unref (out);
      return TRUE;
    }

  if (self->timeout > 0)
    deadline = g_get_monotonic_time () + (gint64) (self->timeout * G_USEC_PER_SEC);
  slot = self->next_recv % self->capacity;
  while (self->ring[slot] == NULL)
    {
      if (deadline != 0)
        {
          gint64 remaining = deadline - g_get_monotonic_time ();

          r = remaining > 0 ? g_async_queue_timeout_pop (self->results, (guint64) remaining) : NULL;
          if (r == NULL)
            return fail (self, g_error_new (GNN_ERROR, GNN_ERROR_TIMEOUT,
                                            "DataLoader timed out after %g seconds", self->timeout),
                         error);
        }
      else
        {
          r = g_async_queue_pop (self->results);
        }
      self->ring[r->seq % self->capacity] = r;
    }
  r = g_steal_pointer (&self->ring[slot]);
  self->next_recv++;
  if (r->error != NULL)
    {
      GError *err = g_steal_pointer (&r->error);

      result_free (r);
      return fail (self, err, error);
    }
  dispatch (self);
  out = g_steal_pointer (&r->batch);
  result_free (r);
  if (batch != NULL)
    *batch = out;
  else
    g_ptr_array_unref (out);
  return TRUE;
}

/**
 * gnn_data_loader_iter_get_length:
 * @self: a #GnnDataLoaderIter
 *
 * Returns: the number of batches of this pass
 */
gint64
gnn_data_loader_iter_get_length (GnnDataLoaderIter *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), 0);
  return (gint64) self->n_batches;
}
