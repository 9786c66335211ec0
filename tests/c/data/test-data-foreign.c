/* A dataset written in JavaScript, simulated in C (GJS marks its classes
 * with the type qdata "gjs::custom-type"): a loader with workers refuses it
 * at iter() with GNN_ERROR_NOT_SUPPORTED, in every worker mode, before any
 * worker starts; without workers it loads; C datasets keep their workers. */
#include <string.h>

#include <gnn/gnn.h>

#define FAKE_TYPE_JS_DATASET (fake_js_dataset_get_type ())
G_DECLARE_FINAL_TYPE (FakeJsDataset, fake_js_dataset, FAKE, JS_DATASET, GnnDataset)
struct _FakeJsDataset { GnnDataset parent_instance; };
G_DEFINE_FINAL_TYPE (FakeJsDataset, fake_js_dataset, GNN_TYPE_DATASET)

static gint64
fake_js_dataset_get_length (GnnDataset *dataset)
{
  return 4;
}

static void
fake_js_dataset_get_item (GnnDataset *dataset, gint64 index, GPtrArray **item, GError **error)
{
  *item = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (*item, gnn_tensor_new_scalar ((double) index, GNN_DTYPE_F32));
}

static void
fake_js_dataset_class_init (FakeJsDatasetClass *klass)
{
  GNN_DATASET_CLASS (klass)->get_length = fake_js_dataset_get_length;
  GNN_DATASET_CLASS (klass)->get_item = fake_js_dataset_get_item;
}

static void
fake_js_dataset_init (FakeJsDataset *self)
{
}

static void
test_refused_with_workers (gconstpointer data)
{
  GnnWorkerMode mode = GPOINTER_TO_INT (data);
  g_autoptr(GnnDataset) dataset = g_object_new (FAKE_TYPE_JS_DATASET, NULL);
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", dataset,
                                                  "batch-size", (gint64) 2, "num-workers", 2,
                                                  "worker-mode", mode, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, &error);
  g_autoptr(GnnDataLoaderIter) serial = NULL;
  GPtrArray *batch;
  int n = 0;

  g_assert_null (iter);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "num_workers=2: the dataset FakeJsDataset is a "
                                            "JavaScript class"));
  g_assert_nonnull (strstr (error->message, "use num_workers=0"));
  g_clear_error (&error);

  /* the same loader, without workers, reads it in this thread */
  g_object_set (loader, "num-workers", 0, NULL);
  serial = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  while (gnn_data_loader_iter_next (serial, &batch, &error))
    {
      n++;
      g_ptr_array_unref (batch);
    }
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, 2);
}

static void
test_c_dataset_keeps_workers (void)
{
  const gint64 shape[] = { 6, 2 };
  g_autoptr(GnnTensor) x = gnn_tensor_zeros (shape, 2, GNN_DTYPE_F32, NULL);
  GnnTensor *tensors[] = { x };
  g_autoptr(GnnTensorDataset) dataset = gnn_tensor_dataset_new (tensors, 1, NULL);
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", dataset,
                                                  "batch-size", (gint64) 2, "num-workers", 2,
                                                  NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_data_loader_iter_get_length (iter), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_type_set_qdata (FAKE_TYPE_JS_DATASET, g_quark_from_static_string ("gjs::custom-type"),
                    GINT_TO_POINTER (1));
  g_test_add_data_func ("/data/foreign/refused/threads", GINT_TO_POINTER (GNN_WORKER_MODE_THREADS),
                        test_refused_with_workers);
  g_test_add_data_func ("/data/foreign/refused/processes",
                        GINT_TO_POINTER (GNN_WORKER_MODE_PROCESSES), test_refused_with_workers);
  g_test_add_data_func ("/data/foreign/refused/spawn", GINT_TO_POINTER (GNN_WORKER_MODE_SPAWN),
                        test_refused_with_workers);
  g_test_add_func ("/data/foreign/c-dataset-keeps-workers", test_c_dataset_keeps_workers);
  return g_test_run ();
}
