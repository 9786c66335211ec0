/* A spawn host (GnnWorkerSpawnHost) in a C program: its payload rebuilds
 * what the properties path cannot (a TensorDataset's tensors), its save
 * error is the loader's start error, its worker_init runs with the worker
 * info current, and without a payload the properties path still serves.
 * (Python's host is tested in tests/python/test_data_spawn.py.) */
#include <string.h>
#include <sys/wait.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

#define REFUSED_LENGTH 13     /* save refuses a Probe of this length */
#define FAILING_INIT -1       /* a payload whose worker_init fails */

typedef struct { GnnWorkerSpawnHost parent_instance; } TestHost;
typedef struct { GnnWorkerSpawnHostClass parent_class; } TestHostClass;
G_DEFINE_TYPE (TestHost, test_host, GNN_TYPE_WORKER_SPAWN_HOST)

static gboolean init_must_fail;   /* in the worker, from the payload */

/* A TensorDataset of one 1-d int64 tensor: its values, first element
 * FAILING_INIT marking a worker_init that fails. */
static GBytes *
test_host_save (GnnWorkerSpawnHost *self, GnnDataLoader *loader, GnnDataset *dataset,
                GnnCollate *collate, GError **error)
{
  if (GNN_IS_TENSOR_DATASET (dataset))
    {
      g_autoptr(GPtrArray) tensors = gnn_tensor_dataset_get_tensors (GNN_TENSOR_DATASET (dataset));

      return gnn_tensor_get_bytes (g_ptr_array_index (tensors, 0));
    }
  if (gnn_dataset_get_length (dataset) == REFUSED_LENGTH)
    g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "test host refuses %s of length %d",
                 G_OBJECT_TYPE_NAME (dataset), REFUSED_LENGTH);
  return NULL;   /* the properties path */
}

static GnnDataset *
test_host_rebuild (GnnWorkerSpawnHost *self, GBytes *payload, GnnCollate **collate,
                   GError **error)
{
  gsize size;
  const gint64 *values = g_bytes_get_data (payload, &size);
  gint64 n = (gint64) (size / sizeof (gint64));
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_bytes (payload, GNN_DTYPE_I64, &n, 1, error);
  GnnTensor *ts[] = { t };

  if (t == NULL)
    return NULL;
  init_must_fail = n > 0 && values[0] == FAILING_INIT;
  *collate = NULL;   /* the default collation */
  return GNN_DATASET (gnn_tensor_dataset_new (ts, 1, error));
}

static gboolean
test_host_worker_init (GnnWorkerSpawnHost *self, GnnWorkerInfo *info, GError **error)
{
  if (gnn_get_worker_info () != info || gnn_worker_info_get_dataset (info) == NULL)
    g_set_error_literal (error, GNN_ERROR, GNN_ERROR_WORKER, "worker info is not current");
  else if (init_must_fail)
    g_set_error (error, GNN_ERROR, GNN_ERROR_WORKER, "worker_init refused worker %u of %u",
                 gnn_worker_info_get_id (info), gnn_worker_info_get_num_workers (info));
  return error == NULL || *error == NULL;
}

static void
test_host_class_init (TestHostClass *klass)
{
  GnnWorkerSpawnHostClass *host_class = GNN_WORKER_SPAWN_HOST_CLASS (klass);

  host_class->save = test_host_save;
  host_class->rebuild = test_host_rebuild;
  host_class->worker_init = test_host_worker_init;
}

static void test_host_init (TestHost *self) { }

static void
assert_no_children (void)
{
  int status;

  g_assert_cmpint (waitpid (-1, &status, WNOHANG), ==, -1);
}

static GnnTensorDataset *
arange_dataset (gint64 first, gint64 n)
{
  g_autoptr(GnnTensor) y = gnn_tensor_arange (0, n, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { y };

  if (first != 0)
    {
      gint64 *data = gnn_tensor_get_data (y);

      data[0] = first;
    }
  return gnn_tensor_dataset_new (ts, 1, NULL);
}

/* The property path refuses a TensorDataset (see test-data-spawn.c); the
 * host's payload carries it. */
static void
test_payload_rebuilds_tensor_dataset (void)
{
  g_autoptr(GnnTensorDataset) ds = arange_dataset (0, 7);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, TRUE, 2, GNN_WORKER_MODE_SPAWN);

  for (int epoch = 0; epoch < 2; epoch++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) order = run_epoch (loader, 1, NULL, &error);

      g_assert_no_error (error);
      assert_each_index_once (order, 7);
    }
  assert_no_children ();
}

static void
test_save_error_fails_at_start (void)
{
  g_autoptr(Probe) ds = probe_new (REFUSED_LENGTH, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_data_loader_iter (loader, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "test host refuses Probe of length 13");
  assert_no_children ();
}

static void
test_worker_init_error_fails_at_start (void)
{
  g_autoptr(GnnTensorDataset) ds = arange_dataset (FAILING_INIT, 5);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_data_loader_iter (loader, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_WORKER);
  g_assert_nonnull (strstr (error->message, "DataLoader worker 0 (pid "));
  g_assert_nonnull (strstr (error->message, "worker_init refused worker 0 of 2"));
  assert_no_children ();
}

/* No payload: the worker rebuilds from type name and properties. */
static void
test_without_payload_properties_path (void)
{
  g_autoptr(Probe) ds = probe_new (9, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_SPAWN);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) order = run_epoch (loader, 3, NULL, &error);

  g_assert_no_error (error);
  assert_each_index_once (order, 9);
  assert_no_children ();
}

static void
test_argv_property (void)
{
  g_autoptr(GnnWorkerSpawnHost) host = g_object_new (test_host_get_type (), NULL);
  const char *argv[] = { "python3", "-c", "pass", NULL };
  g_auto(GStrv) got = NULL;

  g_assert_null (gnn_worker_spawn_host_dup_argv (host));
  g_object_set (host, "argv", argv, NULL);
  got = gnn_worker_spawn_host_dup_argv (host);
  g_assert_true (g_strv_equal ((const char * const *) got, argv));
  gnn_worker_spawn_host_set_argv (host, NULL);
  g_assert_null (gnn_worker_spawn_host_dup_argv (host));
}

int
main (int argc, char **argv)
{
  g_autoptr(GnnWorkerSpawnHost) host = g_object_new (test_host_get_type (), NULL);

  /* The host must exist in the worker before it serves: set it first. */
  gnn_set_worker_spawn_host (host);
  g_type_ensure (probe_get_type ());
  gnn_worker_main_if_worker ();

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/spawn-host/payload-rebuilds-tensor-dataset", test_payload_rebuilds_tensor_dataset);
  g_test_add_func ("/data/spawn-host/save-error-fails-at-start", test_save_error_fails_at_start);
  g_test_add_func ("/data/spawn-host/worker-init-error-fails-at-start", test_worker_init_error_fails_at_start);
  g_test_add_func ("/data/spawn-host/without-payload-properties-path", test_without_payload_properties_path);
  g_test_add_func ("/data/spawn-host/argv-property", test_argv_property);
  return g_test_run ();
}
