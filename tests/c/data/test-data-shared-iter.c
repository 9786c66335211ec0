/* One pass shared by threads (issue 31 items 16 and 17): two threads
 * calling next() on one iterator get every batch once between them, an
 * error reaches one of them with the pass stopped for both, and disposing
 * the iterator from another thread while next() waits stops the pass —
 * with no workers, threads, forked and spawned processes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

typedef struct { GnnWorkerMode mode; gint workers; } Config;

static const Config configs[] = {
  { GNN_WORKER_MODE_THREADS, 0 }, { GNN_WORKER_MODE_THREADS, 2 },
  { GNN_WORKER_MODE_PROCESSES, 2 }, { GNN_WORKER_MODE_SPAWN, 2 },
};

typedef struct
{
  GnnDataLoaderIter *iter;
  GMutex             lock;
  GArray            *order;     /* indices delivered, under @lock */
  gint               errors;    /* atomic */
  char              *message;   /* the first error's, under @lock */
} Shared;

static gpointer
drain (gpointer data)
{
  Shared *s = data;
  GPtrArray *batch = NULL;
  GError *error = NULL;

  while (gnn_data_loader_iter_next (s->iter, &batch, &error))
    {
      g_mutex_lock (&s->lock);
      append_indices (s->order, g_ptr_array_index (batch, 0));
      g_mutex_unlock (&s->lock);
      g_ptr_array_unref (batch);
    }
  if (error != NULL)
    {
      g_atomic_int_inc (&s->errors);
      g_mutex_lock (&s->lock);
      if (s->message == NULL)
        s->message = g_strdup (error->message);
      g_mutex_unlock (&s->lock);
      g_error_free (error);
    }
  return NULL;
}

/* Two threads drain one pass of a Probe of @n items (batch size 1). */
static void
run_shared (const Config *c, gint64 n, gint64 fault_index, Shared *s)
{
  g_autoptr(Probe) ds = probe_new (n, FALSE);
  g_autoptr(GnnDataLoader) l = NULL;
  GThread *threads[2];
  GError *error = NULL;

  ds->max_delay_us = 300;   /* batches come back out of order */
  if (fault_index >= 0)
    {
      ds->fault = FAULT_ERROR;
      ds->fault_index = fault_index;
    }
  l = loader_new (GNN_DATASET (ds), 1, FALSE, c->workers, c->mode);
  s->iter = gnn_data_loader_iter (l, &error);
  g_assert_no_error (error);
  g_mutex_init (&s->lock);
  s->order = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    threads[t] = g_thread_new ("drain", drain, s);
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    g_thread_join (threads[t]);
  g_clear_object (&s->iter);
  g_mutex_clear (&s->lock);
}

static void
shared_clear (Shared *s)
{
  g_clear_pointer (&s->order, g_array_unref);
  g_clear_pointer (&s->message, g_free);
}

static void
test_every_batch_once (gconstpointer data)
{
  const Config *c = data;

  for (int round = 0; round < 5; round++)
    {
      Shared s = { 0 };

      run_shared (c, 40, -1, &s);
      g_assert_cmpint (s.errors, ==, 0);
      assert_each_index_once (s.order, 40);
      shared_clear (&s);
    }
}

static void
test_error_reaches_one_thread (gconstpointer data)
{
  const Config *c = data;

  for (int round = 0; round < 5; round++)
    {
      Shared s = { 0 };

      run_shared (c, 40, 17, &s);
      /* one thread gets it, the other then the end of the stopped pass */
      g_assert_cmpint (s.errors, ==, 1);
      g_assert_nonnull (strstr (s.message, "probe refuses item 17"));
      if (c->workers > 0)
        g_assert_true (g_str_has_prefix (s.message, "DataLoader worker 1"));
      for (guint i = 0; i < s.order->len; i++)
        g_assert_cmpint (g_array_index (s.order, gint64, i), <, 17);
      shared_clear (&s);
    }
}

typedef struct
{
  GnnDataLoaderIter *iter;
  gint               entered;   /* atomic */
  gboolean           ok;
  GError            *error;
} Waiter;

static gpointer
wait_next (gpointer data)
{
  Waiter *w = data;
  GPtrArray *batch = NULL;

  g_atomic_int_set (&w->entered, 1);
  w->ok = gnn_data_loader_iter_next (w->iter, &batch, &w->error);
  g_clear_pointer (&batch, g_ptr_array_unref);
  return NULL;
}

/* Disposed from this thread while another waits in next() for a slow item:
 * no crash, the waiting next() returns, and the pass is over. */
static void
test_dispose_while_next_waits (gconstpointer data)
{
  const Config *c = data;
  g_autoptr(Probe) ds = probe_new (8, FALSE);
  g_autoptr(GnnDataLoader) l = NULL;
  Waiter w = { 0 };
  GThread *thread;
  GPtrArray *batch = NULL;
  GError *error = NULL;

  ds->sleep_us = 200000;
  l = loader_new (GNN_DATASET (ds), 1, FALSE, c->workers, c->mode);
  w.iter = gnn_data_loader_iter (l, &error);
  g_assert_no_error (error);
  thread = g_thread_new ("next", wait_next, &w);
  while (!g_atomic_int_get (&w.entered))
    g_usleep (1000);
  g_usleep (50000);   /* inside next(), waiting (not a correctness condition) */
  g_object_run_dispose (G_OBJECT (w.iter));
  g_thread_join (thread);
  g_clear_error (&w.error);
  g_assert_false (gnn_data_loader_iter_next (w.iter, &batch, &error));
  g_assert_no_error (error);
  g_assert_null (batch);
  g_clear_object (&w.iter);
}

int
main (int argc, char **argv)
{
  g_type_ensure (probe_get_type ());
  gnn_worker_main_if_worker ();

  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      const char *mode = configs[i].workers == 0 ? "no-workers" :
                         configs[i].mode == GNN_WORKER_MODE_THREADS ? "threads" :
                         configs[i].mode == GNN_WORKER_MODE_PROCESSES ? "processes" : "spawn";
      g_autofree char *a = g_strdup_printf ("/data/shared-iter/%s/every-batch-once", mode);
      g_autofree char *b = g_strdup_printf ("/data/shared-iter/%s/error-reaches-one-thread", mode);
      g_autofree char *d = g_strdup_printf ("/data/shared-iter/%s/dispose-while-next-waits", mode);

      g_test_add_data_func (a, &configs[i], test_every_batch_once);
      g_test_add_data_func (b, &configs[i], test_error_reaches_one_thread);
      g_test_add_data_func (d, &configs[i], test_dispose_while_next_waits);
    }
  return g_test_run ();
}
