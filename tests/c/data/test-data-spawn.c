/* Spawned workers (GNN_WORKER_MODE_SPAWN): datasets rebuilt from their type
 * name and properties, and clear errors at the loader's start for those
 * that cannot be. (The behaviours shared with forked workers run in
 * test-data-processes.c, once per backend.) */
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

/* A dataset with a property that cannot cross a process boundary. */
typedef struct
{
  GnnDataset parent_instance;
  gpointer   handle;
} Opaque;
typedef struct { GnnDatasetClass parent_class; } OpaqueClass;
G_DEFINE_TYPE (Opaque, opaque, GNN_TYPE_DATASET)

static gint64 opaque_get_length (GnnDataset *ds) { return 3; }

static void
opaque_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  g_value_set_pointer (value, ((Opaque *) object)->handle);
}

static void
opaque_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  ((Opaque *) object)->handle = g_value_get_pointer (value);
}

static void
opaque_class_init (OpaqueClass *klass)
{
  G_OBJECT_CLASS (klass)->get_property = opaque_get_property;
  G_OBJECT_CLASS (klass)->set_property = opaque_set_property;
  GNN_DATASET_CLASS (klass)->get_length = opaque_get_length;
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
                                   g_param_spec_pointer ("handle", NULL, NULL, G_PARAM_READWRITE));
}

static void opaque_init (Opaque *self) { }

static void
assert_no_children (void)
{
  int status;

  g_assert_cmpint (waitpid (-1, &status, WNOHANG), ==, -1);
}

/* Seed 000's pitfall, the C way: configuration changed after construction
 * is what every worker sees (it is rebuilt from the current properties). */
static void
test_workers_see_current_configuration (void)
{
  g_autoptr(Probe) ds = probe_new (4, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 1, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) order = NULL;

  g_object_set (ds, "length", (gint64) 9, NULL);
  order = run_epoch (loader, 5, NULL, &error);
  g_assert_no_error (error);
  assert_each_index_once (order, 9);
}

static void
test_property_that_does_not_serialize (void)
{
  Opaque *ds = g_object_new (opaque_get_type (), "handle", (gpointer) &opaque_parent_class, NULL);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 1, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_data_loader_iter (loader, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "cannot rebuild Opaque in a spawned worker: "
                   "property 'handle' (gpointer) does not serialize");
  assert_no_children ();
  g_object_unref (ds);
}

/* A TensorDataset's tensors are not properties: the rebuilt dataset would
 * differ, and the loader says so at its start instead of serving it. */
static void
test_state_outside_properties_fails_at_start (void)
{
  g_autoptr(GnnTensor) y = gnn_tensor_arange (0, 6, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { y };
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (ts, 1, NULL);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_data_loader_iter (loader, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "DataLoader worker 0 (pid "));
  g_assert_nonnull (strstr (error->message, "cannot rebuild GnnTensorDataset in a spawned worker: "
                                            "rebuilt from its properties it has length 0, "
                                            "the parent's has 6"));
  assert_no_children ();
}

/* PROCESSES mode in a parent with live threads spawns its workers instead
 * of forking (one warning), and never hangs. */
static void
test_threaded_parent_does_not_fork (void)
{
  g_autoptr(Probe) ds = probe_new (12, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, TRUE, 2, GNN_WORKER_MODE_PROCESSES);
  Spinners *spinners = spinners_start (2);

  g_test_expect_message ("Gnn", G_LOG_LEVEL_WARNING, "DataLoader: this process runs 2 other threads (*); forking*");
  for (int epoch = 0; epoch < 50; epoch++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) order = run_epoch (loader, 5, NULL, &error);

      g_assert_no_error (error);
      assert_each_index_once (order, 12);
    }
  g_test_assert_expected_messages ();
  spinners_stop (spinners);
  assert_no_children ();
}

/* Runs one SPAWN pass of @ds (batches of 4, in order) and checks every
 * batch against the dataset's own tensors. */
static void
assert_spawn_pass_matches (GnnIdxDataset *ds)
{
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (loader, &error);
  GnnTensor *images = gnn_idx_dataset_get_images (ds), *labels = gnn_idx_dataset_get_labels (ds);
  gint64 n = gnn_dataset_get_length (GNN_DATASET (ds)), seen = 0;
  GPtrArray *batch = NULL;

  g_assert_no_error (error);
  while (gnn_data_loader_iter_next (it, &batch, &error) && batch != NULL)
    {
      gint64 m = gnn_tensor_get_shape (g_ptr_array_index (batch, 1), NULL)[0];
      g_autoptr(GnnTensor) want_x = gnn_tensor_narrow (images, 0, seen, m, NULL);
      g_autoptr(GnnTensor) want_y = gnn_tensor_narrow (labels, 0, seen, m, NULL);

      g_assert_true (gnn_tensor_equal (g_ptr_array_index (batch, 0), want_x));
      g_assert_true (gnn_tensor_equal (g_ptr_array_index (batch, 1), want_y));
      seen += m;
      g_ptr_array_unref (batch);
    }
  g_assert_no_error (error);
  g_assert_cmpint (seen, ==, n);
}

/* Tensor-valued properties reach a spawned worker as the parent's memory:
 * decoded IDX data is mapped or copied, not read again (the files are gone),
 * and any other tensor travels as a snapshot. */
static void
test_tensor_properties_are_shared (void)
{
  g_autofree char *dir = g_dir_make_tmp ("gnn-spawn-XXXXXX", NULL);
  g_autofree char *ip = g_build_filename (dir, "images", NULL);
  g_autofree char *lp = g_build_filename (dir, "labels", NULL);
  guint8 idata[16 + 10 * 6] = { 0, 0, 8, 3, 0, 0, 0, 10, 0, 0, 0, 2, 0, 0, 0, 3 };
  guint8 ldata[8 + 10] = { 0, 0, 8, 1, 0, 0, 0, 10 };
  g_autoptr(GnnIdxDataset) decoded = NULL, shared = NULL, given = NULL;
  g_autoptr(GnnTensor) flat = gnn_tensor_arange (0, 60, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_reshape (flat, (gint64[]) { 10, 2, 3 }, 3, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_arange (100, 110, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 60; i++)
    idata[16 + i] = (guint8) (i * 7);
  for (guint i = 0; i < 10; i++)
    ldata[8 + i] = (guint8) (9 - i);
  g_assert_true (g_file_set_contents (ip, (const char *) idata, sizeof idata, NULL));
  g_assert_true (g_file_set_contents (lp, (const char *) ldata, sizeof ldata, NULL));
  decoded = gnn_idx_dataset_new (ip, lp, &error);
  g_assert_no_error (error);
  shared = g_initable_new (GNN_TYPE_IDX_DATASET, NULL, &error, "images-path", ip,
                           "labels-path", lp, "shared-memory", TRUE, NULL);
  g_assert_no_error (error);
  g_assert_cmpint (g_unlink (ip), ==, 0);
  g_assert_cmpint (g_unlink (lp), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  assert_spawn_pass_matches (decoded);   /* private memory: a snapshot */
  assert_spawn_pass_matches (shared);    /* its own memfd */

  given = g_initable_new (GNN_TYPE_IDX_DATASET, NULL, &error, "images", x, "labels", y, NULL);
  g_assert_no_error (error);
  assert_spawn_pass_matches (given);
  assert_no_children ();
}

static void
noop_worker_init (GnnDataLoader *loader, GnnWorkerInfo *info, gpointer data)
{
}

/* worker-init handlers are this process's functions: refused at the start
 * of a spawned pass, never silently skipped. */
static void
test_worker_init_handlers_refused (void)
{
  g_autoptr(Probe) ds = probe_new (4, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;

  g_signal_connect (loader, "worker-init", G_CALLBACK (noop_worker_init), NULL);
  g_assert_null (gnn_data_loader_iter (loader, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "worker-init handlers cannot run in spawned workers"));
  assert_no_children ();
}

int
main (int argc, char **argv)
{
  g_type_ensure (probe_get_type ());
  gnn_worker_main_if_worker ();

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/spawn/workers-see-current-configuration", test_workers_see_current_configuration);
  g_test_add_func ("/data/spawn/property-that-does-not-serialize", test_property_that_does_not_serialize);
  g_test_add_func ("/data/spawn/state-outside-properties-fails-at-start", test_state_outside_properties_fails_at_start);
  g_test_add_func ("/data/spawn/threaded-parent-does-not-fork", test_threaded_parent_does_not_fork);
  g_test_add_func ("/data/spawn/tensor-properties-are-shared", test_tensor_properties_are_shared);
  g_test_add_func ("/data/spawn/worker-init-handlers-refused", test_worker_init_handlers_refused);
  return g_test_run ();
}
