/* gnn-thread-backend.c: worker threads, the THREADS backend of a loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One thread and one task queue per worker; results go to the pass's
 * queue. A worker is refcounted apart from the backend (the backend and
 * its thread each hold a reference), so a thread stuck in a dataset (an
 * endless loop, a blocked read) can be abandoned after a timeout: it is
 * detached instead of joined and frees itself if it ever returns.
 */
#include "data/gnn-worker-private.h"

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
  gatomicrefcount ref_count;
  GThread        *thread;
  GAsyncQueue    *tasks;
  GnnWorkerInfo  *info;
  GnnWorkerInitFunc worker_init;  /* at start, while the loader waits for the thread */
  gpointer        worker_init_data; /* (busy until then) */
  gint            busy;       /* atomic: 1 working on a task, 2 in worker-init */
  gint64          busy_index; /* its first sample index (-1: a stream batch) */
} Worker;

typedef struct
{
  GnnWorkerBackend parent;
  GnnDataset      *dataset;
  Worker         **workers;
  gboolean         abandon;   /* a timeout fired: do not wait for busy workers */
} ThreadBackend;

static void
worker_unref (Worker *w)
{
  if (!g_atomic_ref_count_dec (&w->ref_count))
    return;
  g_async_queue_unref (w->tasks);
  g_object_unref (w->info);
  g_free (w);
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  guint id = gnn_worker_info_get_id (w->info);
  Task *task;

  gnn_worker_info_set_current (w->info);
  if (w->worker_init != NULL)
    w->worker_init (w->info, w->worker_init_data);
  g_atomic_int_set (&w->busy, 0);
  while ((task = g_async_queue_pop (w->tasks)) != STOP_TASK)
    {
      GnnEpoch *epoch = task->epoch;
      GnnBatchResult *r = g_new0 (GnnBatchResult, 1);

      w->busy_index = epoch->iterable ? -1 : epoch->indices[task->seq * epoch->batch_size];
      g_atomic_int_set (&w->busy, 1);
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
      g_atomic_int_set (&w->busy, 0);
      g_async_queue_push (epoch->results, r);
      gnn_epoch_unref (epoch);
      g_free (task);
    }
  gnn_worker_info_set_current (NULL);
  worker_unref (w);
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

static guint
thread_begin (GnnWorkerBackend *backend,
              GnnEpoch         *epoch)
{
  return 0;
}

static void
thread_submit (GnnWorkerBackend *backend,
               guint             worker,
               GnnEpoch         *epoch,
               guint             pass,
               gsize             seq)
{
  ThreadBackend *self = (ThreadBackend *) backend;
  Task *task = g_new (Task, 1);

  task->epoch = gnn_epoch_ref (epoch);
  task->seq = seq;
  g_async_queue_push (self->workers[worker]->tasks, task);
}

static GnnBatchResult *
thread_receive (GnnWorkerBackend  *backend,
                GnnEpoch          *epoch,
                guint              pass,
                gint64             deadline,
                GError           **error)
{
  gint64 remaining;

  if (deadline == 0)
    return g_async_queue_pop (epoch->results);
  remaining = deadline - g_get_monotonic_time ();
  /* past the deadline, a result already there is still taken */
  return remaining > 0 ? g_async_queue_timeout_pop (epoch->results, (guint64) remaining)
                       : g_async_queue_try_pop (epoch->results);
}

static char *
thread_stop (GnnWorkerBackend *backend,
             GnnEpoch         *epoch,
             guint             pass,
             gboolean          abandon)
{
  ThreadBackend *self = (ThreadBackend *) backend;
  GString *stuck = NULL;

  g_atomic_int_set (&epoch->stop, 1);
  if (!abandon)
    return NULL;
  self->abandon = TRUE;
  for (guint i = 0; i < backend->num_workers; i++)
    {
      Worker *w = self->workers[i];

      if (g_atomic_int_get (&w->busy) != 1)
        continue;
      if (stuck == NULL)
        stuck = g_string_new ("");
      else
        g_string_append (stuck, ", ");
      if (w->busy_index >= 0)
        g_string_append_printf (stuck, "worker %u at sample index %" G_GINT64_FORMAT, i, w->busy_index);
      else
        g_string_append_printf (stuck, "worker %u", i);
    }
  return stuck != NULL ? g_string_free (stuck, FALSE) : NULL;
}

static gboolean
thread_fits (GnnWorkerBackend *backend,
             GnnDataset       *dataset,
             GnnCollate       *collate)
{
  ThreadBackend *self = (ThreadBackend *) backend;

  return !self->abandon && self->dataset == dataset;
}

static void
thread_free (GnnWorkerBackend *backend)
{
  ThreadBackend *self = (ThreadBackend *) backend;

  /* Stop ahead of any queued task, then drop what is left in the queues;
   * after a timeout, busy threads are left to finish on their own. */
  for (guint i = 0; i < backend->num_workers; i++)
    g_async_queue_push_front (self->workers[i]->tasks, STOP_TASK);
  for (guint i = 0; i < backend->num_workers; i++)
    {
      Worker *w = self->workers[i];

      if (self->abandon && g_atomic_int_get (&w->busy) == 1)
        g_thread_unref (w->thread);
      else
        g_thread_join (w->thread);
      worker_unref (w);
    }
  g_free (self->workers);
  g_object_unref (self->dataset);
  g_free (self);
}

static const GnnWorkerBackendVTable thread_vtable = {
  thread_begin, thread_submit, thread_receive, thread_stop, thread_fits, thread_free,
};

GnnWorkerBackend *
gnn_thread_backend_new (const GnnWorkerSetup  *setup,
                        GError               **error)
{
  ThreadBackend *self = g_new0 (ThreadBackend, 1);

  gnn_worker_backend_init (&self->parent, &thread_vtable, setup->num_workers);
  self->dataset = g_object_ref (setup->dataset);
  self->workers = g_new0 (Worker *, setup->num_workers);
  for (guint i = 0; i < setup->num_workers; i++)
    {
      Worker *w = g_new0 (Worker, 1);
      g_autofree char *name = g_strdup_printf ("gnn-worker-%u", i);

      g_atomic_ref_count_init (&w->ref_count);
      g_atomic_ref_count_inc (&w->ref_count);   /* the thread's */
      w->busy = 2;   /* in worker-init: never abandoned (it may use the loader) */
      w->busy_index = -1;
      w->tasks = g_async_queue_new_full (task_free);
      w->info = gnn_worker_info_new (i, setup->num_workers, setup->base_seed + i, setup->dataset);
      w->worker_init = setup->worker_init;
      w->worker_init_data = setup->worker_init_data;
      w->thread = g_thread_new (name, worker_main, w);
      self->workers[i] = w;
    }
  return &self->parent;
}
