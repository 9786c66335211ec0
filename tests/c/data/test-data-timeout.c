/* Thread workers stuck in a dataset (an endless loop, a blocked read):
 * the timeout fires on time, the loader stays droppable and the stuck
 * worker is named. */
#include <string.h>
#include <unistd.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

/* Item 0 never returns until released: it spins, or blocks reading a pipe. */
typedef struct
{
  GnnDataset parent_instance;
  gboolean   spin;
  gint       release;
  int        pipe[2];
} Stuck;
typedef struct { GnnDatasetClass parent_class; } StuckClass;
G_DEFINE_TYPE (Stuck, stuck, GNN_TYPE_DATASET)

static gint64
stuck_get_length (GnnDataset *ds)
{
  return 4;
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/data/timeout/endless-loop", GINT_TO_POINTER (TRUE), test_stuck_worker);
  g_test_add_data_func ("/data/timeout/blocked-read", GINT_TO_POINTER (FALSE), test_stuck_worker);
  return g_test_run ();
}
