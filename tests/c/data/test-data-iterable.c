/* Iterable-style datasets through the loader: streams per worker,
 * sharding with worker info, uneven ends, errors and PyTorch's messages. */
#include <string.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

/* All values of one pass, in delivery order; batch sizes in @sizes. */
static GArray *
run (GnnDataLoader *loader, GArray *sizes, GError **error)
{
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, error);
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (gint64));
  GPtrArray *batch;

  if (iter == NULL)
    return NULL;
  g_assert_cmpint (gnn_data_loader_iter_get_length (iter), ==, -1);
  while (gnn_data_loader_iter_next (iter, &batch, error))
    {
      GnnTensor *t = g_ptr_array_index (batch, 0);
      gint64 n = gnn_tensor_get_size (t, 0, NULL);

      for (gint64 i = 0; i < n; i++)
        {
          gint64 v = (gint64) gnn_tensor_get_element (t, &i, 1, NULL);

          g_array_append_val (out, v);
        }
      if (sizes != NULL)
        g_array_append_val (sizes, n);
      g_ptr_array_unref (batch);
    }
  if (error != NULL && *error != NULL)
    return NULL;
  return g_steal_pointer (&out);
}

static void
test_no_workers_batches_stream (void)
{
  g_autoptr(Counter) ds = counter_new (7, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, FALSE, 0, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) values = NULL;

  g_assert_cmpint (gnn_data_loader_get_length (loader), ==, 3);
  values = run (loader, sizes, NULL);
  g_assert_cmpuint (values->len, ==, 7);
  for (guint i = 0; i < 7; i++)
    g_assert_cmpint (g_array_index (values, gint64, i), ==, i);
  g_assert_cmpuint (sizes->len, ==, 3);
  g_assert_cmpint (g_array_index (sizes, gint64, 2), ==, 1);
}

static void
test_drop_last_drops_partial_batch (void)
{
  g_autoptr(Counter) ds = counter_new (7, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, FALSE, 0, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) values = NULL;

  g_object_set (loader, "drop-last", TRUE, NULL);
  g_assert_cmpint (gnn_data_loader_get_length (loader), ==, 2);
  values = run (loader, NULL, NULL);
  g_assert_cmpuint (values->len, ==, 6);
}

static void
test_unsharded_workers_duplicate_stream (void)
{
  g_autoptr(Counter) ds = counter_new (6, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) values = run (loader, NULL, NULL);
  guint counts[6] = { 0 };

  /* as in PyTorch: every worker yields the whole stream */
  g_assert_cmpuint (values->len, ==, 12);
  for (guint i = 0; i < values->len; i++)
    counts[g_array_index (values, gint64, i)]++;
  for (int v = 0; v < 6; v++)
    g_assert_cmpuint (counts[v], ==, 2);
  g_assert_cmpint (g_atomic_int_get (&ds->iterators), ==, 2);
}

static void
test_sharded_workers_round_robin (void)
{
  g_autoptr(Counter) ds = counter_new (12, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 3, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) values = run (loader, NULL, NULL);
  /* worker w streams w, w+3, w+6, w+9; batches come from workers 0, 1, 2, 0, 1, 2 */
  const gint64 expect[] = { 0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11 };

  g_assert_cmpuint (values->len, ==, 12);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpint (g_array_index (values, gint64, i), ==, expect[i]);
}

static void
test_uneven_streams_end_independently (void)
{
  g_autoptr(Counter) ds = counter_new (10, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 3, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) values = run (loader, sizes, NULL);
  /* worker 0: [0 3] [6 9]; worker 1: [1 4] [7]; worker 2: [2 5] [8] */
  const gint64 expect[] = { 0, 3, 1, 4, 2, 5, 6, 9, 7, 8 };

  g_assert_cmpuint (values->len, ==, 10);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpint (g_array_index (values, gint64, i), ==, expect[i]);
  g_assert_cmpuint (sizes->len, ==, 6);
}

static void
test_stream_error_names_worker (void)
{
  g_autoptr(Counter) ds = counter_new (12, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 3, GNN_WORKER_MODE_THREADS);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) values = NULL;

  ds->fail_value = 4;   /* worker 1's second item */
  values = run (loader, NULL, &error);
  g_assert_null (values);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "DataLoader worker 1"));
  g_assert_nonnull (strstr (error->message, "stream broke at 4"));
}

static void
test_persistent_workers_restart_streams (void)
{
  g_autoptr(Counter) ds = counter_new (9, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 3, GNN_WORKER_MODE_THREADS);

  g_object_set (loader, "persistent-workers", TRUE, NULL);
  for (int epoch = 0; epoch < 3; epoch++)
    {
      g_autoptr(GArray) values = run (loader, NULL, NULL);

      g_assert_cmpuint (values->len, ==, 9);
    }
  g_assert_cmpint (g_atomic_int_get (&ds->iterators), ==, 9);
}

static void
test_get_item_not_supported (void)
{
  g_autoptr(Counter) ds = counter_new (3, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (GNN_DATASET (ds), 0, &error);

  g_assert_null (item);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
}

static void
test_argument_messages (void)
{
  g_autoptr(Counter) ds = counter_new (3, FALSE);
  g_autoptr(GnnSequentialSampler) seq = gnn_sequential_sampler_new (GNN_DATASET (ds));
  g_autoptr(GnnDataLoader) a = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "shuffle", TRUE, NULL);
  g_autoptr(GnnDataLoader) b = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "sampler", seq, NULL);
  g_autoptr(GError) ea = NULL, eb = NULL;

  g_assert_false (gnn_data_loader_validate (a, &ea));
  g_assert_cmpstr (ea->message, ==, "DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=True");
  g_assert_false (gnn_data_loader_validate (b, &eb));
  g_assert_nonnull (strstr (eb->message, "DataLoader with IterableDataset: expected unspecified sampler option, but got sampler="));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/iterable/no-workers-batches-stream", test_no_workers_batches_stream);
  g_test_add_func ("/data/iterable/drop-last-drops-partial-batch", test_drop_last_drops_partial_batch);
  g_test_add_func ("/data/iterable/unsharded-workers-duplicate-stream", test_unsharded_workers_duplicate_stream);
  g_test_add_func ("/data/iterable/sharded-workers-round-robin", test_sharded_workers_round_robin);
  g_test_add_func ("/data/iterable/uneven-streams-end-independently", test_uneven_streams_end_independently);
  g_test_add_func ("/data/iterable/stream-error-names-worker", test_stream_error_names_worker);
  g_test_add_func ("/data/iterable/persistent-workers-restart-streams", test_persistent_workers_restart_streams);
  g_test_add_func ("/data/iterable/get-item-not-supported", test_get_item_not_supported);
  g_test_add_func ("/data/iterable/argument-messages", test_argument_messages);
  return g_test_run ();
}
