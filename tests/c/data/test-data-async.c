/* test-data-async.c: gnn_data_loader_iter_next_async from a GMainLoop —
 * a whole pass in order, one next at a time (others get
 * G_IO_ERROR_PENDING), a cancelled wait that keeps its batch for the next
 * call.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data-test-util.h"
#include "gnn-test-util.h"

typedef struct
{
  GMainLoop         *loop;
  GnnDataLoaderIter *iter;
  GArray            *order;
  guint              batches;
  gboolean           ended;
  GError            *error;
} Pass;

static void
next_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Pass *p = user_data;
  g_autoptr(GPtrArray) batch = NULL;

  if (!gnn_data_loader_iter_next_finish (p->iter, result, &batch, &p->error))
    {
      p->ended = p->error == NULL;
      g_main_loop_quit (p->loop);
      return;
    }
  p->batches++;
  append_indices (p->order, g_ptr_array_index (batch, 0));
  /* the callback asks for the next batch: the claim is free again */
  gnn_data_loader_iter_next_async (p->iter, NULL, next_cb, p);
}

/* Two worker threads, batches of 3 over 20 items, chained from the
 * callbacks: every index once, in sampler order, then the end. */
static void
test_whole_pass (void)
{
  g_autoptr(Probe) ds = probe_new (20, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, FALSE, 2,
                                                GNN_WORKER_MODE_THREADS);
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (gint64));
  Pass p = { loop, iter, order, 0, FALSE, NULL };

  gnn_data_loader_iter_next_async (iter, NULL, next_cb, &p);
  g_main_loop_run (loop);
  g_assert_no_error (p.error);
  g_assert_true (p.ended);
  g_assert_cmpuint (p.batches, ==, 7);
  g_assert_cmpuint (order->len, ==, 20);
  for (guint i = 0; i < order->len; i++)
    g_assert_cmpint (g_array_index (order, gint64, i), ==, i);
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* A slow worker (0.5 s per item): while next_async waits, next() and a
 * second next_async are refused; cancelling ends the wait, and the next
 * call gets the batch that was awaited (item 0). */
static void
test_pending_and_cancel (void)
{
  g_autoptr(Probe) ds = probe_new (4, FALSE);
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  GnnTestAsync w, w2;

  ds->sleep_us = 500 * 1000;
  loader = loader_new (GNN_DATASET (ds), 1, FALSE, 1, GNN_WORKER_MODE_THREADS);
  iter = gnn_data_loader_iter (loader, NULL);
  gnn_test_async_init (&w);
  gnn_data_loader_iter_next_async (iter, cancellable, gnn_test_async_done, &w);

  g_assert_false (gnn_data_loader_iter_next (iter, &batch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);
  gnn_test_async_init (&w2);
  gnn_data_loader_iter_next_async (iter, NULL, gnn_test_async_done, &w2);
  second = gnn_test_async_run (&w2);
  g_assert_false (gnn_data_loader_iter_next_finish (iter, second, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);

  g_timeout_add (20, cancel_cb, cancellable);
  first = gnn_test_async_run (&w);
  g_assert_false (gnn_data_loader_iter_next_finish (iter, first, &batch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (batch);
  g_clear_error (&error);

  g_assert_true (gnn_data_loader_iter_next (iter, &batch, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_tensor_get_element (g_ptr_array_index (batch, 0), (gint64[]) { 0 }, 1,
                                             NULL), ==, 0.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/async/whole-pass", test_whole_pass);
  g_test_add_func ("/data/async/pending-and-cancel", test_pending_and_cancel);
  return g_test_run ();
}
