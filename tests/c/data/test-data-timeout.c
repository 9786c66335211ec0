/* Thread workers stuck in a dataset (an endless loop, a blocked read):
 * the timeout fires on time, the loader stays droppable and the stuck
 * worker is named; a wait in slices (next_timeout) keeps the pass. */
#include <string.h>
#include <unistd.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

/* Item 0 never returns until released: it spins, or blocks reading a pipe. */
typedef struct
{
  GnnDataset parent_instance;
  gint64     length;
  gboolean   spin;
  gint       release;
  int        pipe[2];
} Stuck;
typedef struct { GnnDatasetClass parent_class; } StuckClass;
G_DEFINE_TYPE (Stuck, stuck, GNN_TYPE_DATASET)

static gint64
stuck_get_length (GnnDataset *ds)
{
  return ((Stuck *) ds)->length;
}

static void
stuck_get_item (GnnDataset *ds, gint64 index, GPtrArray **item, GError **error)
{
  Stuck *self = (Stuck *) ds;
  char c;

  if (index == 0 && self->spin)
    while (!g_atomic_int_get (&self->release))
      ;
  else if (index == 0 && read (self->pipe[0], &c, 1) < 0)
    g_assert_not_reached ();
  *item = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (*item, gnn_tensor_new_scalar ((double) index, GNN_DTYPE_I64));
}

static void
stuck_finalize (GObject *object)
{
  Stuck *self = (Stuck *) object;

  close (self->pipe[0]);
  close (self->pipe[1]);
  G_OBJECT_CLASS (stuck_parent_class)->finalize (object);
}

static void
stuck_class_init (StuckClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = stuck_finalize;
  GNN_DATASET_CLASS (klass)->get_length = stuck_get_length;
  GNN_DATASET_CLASS (klass)->get_item = stuck_get_item;
}

static void
stuck_init (Stuck *self)
{
  self->length = 4;
  g_assert_cmpint (pipe (self->pipe), ==, 0);
}

static void
test_stuck_worker (gconstpointer data)
{
  gboolean spin = GPOINTER_TO_INT (data);
  Stuck *ds = g_object_new (stuck_get_type (), NULL);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 1, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GError) error = NULL;
  GnnDataLoaderIter *iter;
  GPtrArray *batch = NULL;

  ds->spin = spin;
  g_object_set (loader, "timeout", 0.2, NULL);
  iter = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  g_assert_false (gnn_data_loader_iter_next (iter, &batch, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT);
  g_assert_cmpstr (error->message, ==, "DataLoader timed out after 0.2 seconds "
                   "(still busy, abandoned: worker 0 at sample index 0)");
  /* Dropping does not wait for the stuck thread, and the loader serves a
   * new pass with new workers. */
  g_object_unref (iter);
  g_object_set (loader, "timeout", 0.0, NULL);
  g_object_unref (loader);
  /* Let the abandoned thread finish: it frees itself and its pass. */
  g_atomic_int_set (&ds->release, 1);
  g_assert_cmpint (write (ds->pipe[1], "x", 1), ==, 1);
  g_object_unref (ds);
}

/* next_timeout() ends a wait without touching the pass (the batch awaited
 * comes with a later call), and the loader's timeout counts across the
 * slices: reset by each, it would never fire. */
static void
test_wait_in_slices (void)
{
  Stuck *ds = g_object_new (stuck_get_type (), NULL);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 1, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  g_autoptr(GnnDataLoaderIter) iter2 = NULL;
  gboolean timed_out = FALSE;
  GPtrArray *batch = NULL;
  guint slices = 0;

  iter = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_true (gnn_data_loader_iter_next_timeout (iter, 20000, &timed_out, &batch, &error));
      g_assert_no_error (error);
      g_assert_true (timed_out);
      g_assert_null (batch);
    }
  g_assert_cmpint (write (ds->pipe[1], "x", 1), ==, 1);
  for (gint64 want = 0; want < 4; want++)
    {
      do
        g_assert_true (gnn_data_loader_iter_next_timeout (iter, 20000, &timed_out, &batch, &error));
      while (timed_out);
      g_assert_no_error (error);
      g_assert_cmpfloat (gnn_tensor_item (g_ptr_array_index (batch, 0), &error), ==, (double) want);
      g_assert_no_error (error);
      g_ptr_array_unref (batch);
    }
  g_assert_false (gnn_data_loader_iter_next_timeout (iter, 20000, &timed_out, &batch, &error));
  g_assert_no_error (error);
  g_assert_false (timed_out);

  /* the loader's timeout (0.2 s) over slices of 0.02 s */
  g_object_set (loader, "timeout", 0.2, NULL);
  iter2 = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  while (gnn_data_loader_iter_next_timeout (iter2, 20000, &timed_out, &batch, &error))
    {
      g_assert_true (timed_out);
      g_assert_cmpuint (++slices, <, 1000);
    }
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT);
  g_assert_cmpuint (slices, >=, 2);
  g_clear_object (&iter2);
  g_assert_cmpint (write (ds->pipe[1], "x", 1), ==, 1);
  g_object_unref (ds);
}

/* A stuck worker process whose socket the parent's tasks fill (8 tasks of
 * 6,000 inline indices, 48 KB each, against a ~208 KB socket buffer): the
 * parent used to block in the send, in iter() already, and the timeout
 * never fired. */
static void
test_full_socket_times_out (void)
{
  Stuck *ds = g_object_new (stuck_get_type (), NULL);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 6000, FALSE, 2, GNN_WORKER_MODE_PROCESSES);
  g_autoptr(GError) error = NULL;
  GnnDataLoaderIter *iter;
  GPtrArray *batch = NULL;

  ds->length = 16 * 6000;
  g_object_set (loader, "timeout", 1.0, "prefetch-factor", 8, NULL);
  iter = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  g_assert_false (gnn_data_loader_iter_next (iter, &batch, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT);
  g_object_unref (iter);
  g_object_unref (loader);   /* the stuck worker is killed */
  g_object_unref (ds);
}

/* A batch that came while the caller was away (past the loader's timeout
 * for it) is delivered, not a timeout: the receive looks once more. */
static void
test_ready_after_deadline (gconstpointer data)
{
  GnnWorkerMode mode = GPOINTER_TO_INT (data);
  Stuck *ds = g_object_new (stuck_get_type (), NULL);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 1, FALSE, 1, mode);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  gboolean timed_out = FALSE;
  GPtrArray *batch = NULL;

  g_object_set (loader, "timeout", 0.3, NULL);
  iter = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_data_loader_iter_next_timeout (iter, 20000, &timed_out, &batch, &error));
  g_assert_true (timed_out);
  for (int i = 0; i < 4; i++)
    g_assert_cmpint (write (ds->pipe[1], "x", 1), ==, 1);
  g_usleep (600000);   /* the batch is there; the loader's 0.3 s are over */
  g_assert_true (gnn_data_loader_iter_next_timeout (iter, 20000, &timed_out, &batch, &error));
  g_assert_no_error (error);
  g_assert_false (timed_out);
  g_assert_nonnull (batch);
  g_ptr_array_unref (batch);
  g_clear_object (&iter);
  g_object_unref (ds);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/data/timeout/endless-loop", GINT_TO_POINTER (TRUE), test_stuck_worker);
  g_test_add_data_func ("/data/timeout/blocked-read", GINT_TO_POINTER (FALSE), test_stuck_worker);
  g_test_add_func ("/data/timeout/wait-in-slices", test_wait_in_slices);
  g_test_add_func ("/data/timeout/full-socket", test_full_socket_times_out);
  g_test_add_data_func ("/data/timeout/ready-after-deadline/threads",
                        GINT_TO_POINTER (GNN_WORKER_MODE_THREADS), test_ready_after_deadline);
  g_test_add_data_func ("/data/timeout/ready-after-deadline/processes",
                        GINT_TO_POINTER (GNN_WORKER_MODE_PROCESSES), test_ready_after_deadline);
  return g_test_run ();
}
