/* GnnDataLoader: order, coverage, seeding, worker threads, errors,
 * timeouts, dropping mid-epoch and PyTorch's argument messages. */
#include <string.h>
#include <unistd.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

static void
test_shuffle_covers_each_index_once (void)
{
  g_autoptr(Probe) ds = probe_new (50, FALSE);
  const gint workers[] = { 0, 1, 2, 4 };

  for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
    {
      g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, TRUE, workers[w], GNN_WORKER_MODE_THREADS);

      g_assert_cmpint (gnn_data_loader_get_length (loader), ==, 17);
      for (int epoch = 0; epoch < 2; epoch++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autoptr(GArray) order = run_epoch (loader, 3, sizes, &error);

          g_assert_no_error (error);
          assert_each_index_once (order, 50);
          g_assert_cmpuint (sizes->len, ==, 17);
          g_assert_cmpint (g_array_index (sizes, gint64, 16), ==, 2);
        }
    }
}

static void
test_same_seed_same_order_any_workers (void)
{
  g_autoptr(Probe) ds = probe_new (40, FALSE);
  g_autoptr(GArray) reference = NULL;
  const gint workers[] = { 0, 1, 2, 4 };

  for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
    {
      g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, TRUE, workers[w], GNN_WORKER_MODE_THREADS);
      g_autoptr(GArray) e1 = run_epoch (loader, 3, NULL, NULL);
      g_autoptr(GArray) e2 = run_epoch (loader, 3, NULL, NULL);

      g_assert_true (memcmp (e1->data, e2->data, 40 * sizeof (gint64)) != 0);   /* reshuffled */
      if (reference == NULL)
        reference = g_steal_pointer (&e1);
      else
        g_assert_true (memcmp (reference->data, e1->data, 40 * sizeof (gint64)) == 0);
    }
}

static void
test_drop_last (void)
{
  g_autoptr(Probe) ds = probe_new (10, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) order = NULL;

  g_object_set (loader, "drop-last", TRUE, NULL);
  g_assert_cmpint (gnn_data_loader_get_length (loader), ==, 2);
  order = run_epoch (loader, 3, sizes, NULL);
  g_assert_cmpuint (order->len, ==, 8);
  g_assert_cmpuint (sizes->len, ==, 2);
  g_assert_cmpint (g_array_index (order, gint64, 7), ==, 7);
}

static void
test_order_under_random_delays (void)
{
  g_autoptr(Probe) ds = probe_new (64, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 4, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) order = NULL;

  ds->max_delay_us = 3000;
  g_object_set (loader, "prefetch-factor", 3, NULL);
  order = run_epoch (loader, 3, NULL, NULL);
  g_assert_cmpuint (order->len, ==, 64);
  for (guint i = 0; i < 64; i++)
    g_assert_cmpint (g_array_index (order, gint64, i), ==, i);
}

static void
test_worker_info_and_seeds (void)
{
  g_autoptr(Probe) ds = probe_new (12, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
  GPtrArray *batch;
  int b = 0;
  double seed_of[2] = { -1, -1 };

  g_assert_null (gnn_get_worker_info ());
  while (gnn_data_loader_iter_next (iter, &batch, NULL))
    {
      /* batch b goes to worker b % 2 */
      double wid = gnn_tensor_get_element (g_ptr_array_index (batch, 1), (gint64[]) { 0 }, 1, NULL);
      double seed = gnn_tensor_get_element (g_ptr_array_index (batch, 2), (gint64[]) { 0 }, 1, NULL);

      g_assert_cmpfloat (wid, ==, b % 2);
      if (seed_of[b % 2] < 0)
        seed_of[b % 2] = seed;
      g_assert_cmpfloat (seed_of[b % 2], ==, seed);
      g_ptr_array_unref (batch);
      b++;
    }
  g_assert_cmpint (b, ==, 4);
  /* seed = base + id (compared modulo the probe's 1000003) */
  g_assert_true (seed_of[1] == seed_of[0] + 1 || (seed_of[0] == 1000002 && seed_of[1] == 0));
}

static void
test_no_workers_runs_in_caller (void)
{
  g_autoptr(Probe) ds = probe_new (4, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, FALSE, 0, GNN_WORKER_MODE_THREADS);
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
  g_autoptr(GPtrArray) batch = NULL;

  g_assert_true (gnn_data_loader_iter_next (iter, &batch, NULL));
  g_assert_cmpfloat (gnn_tensor_get_element (g_ptr_array_index (batch, 1), (gint64[]) { 2 }, 1, NULL), ==, -1);
  g_assert_false (gnn_data_loader_iter_next (iter, NULL, NULL));
}

static void
test_error_names_worker_and_index (void)
{
  const gint workers[] = { 0, 2 };

  for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
    {
      g_autoptr(Probe) ds = probe_new (40, FALSE);
      g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, FALSE, workers[w], GNN_WORKER_MODE_THREADS);
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) order = NULL;

      ds->fault_index = 17;   /* batch 4: worker 0 of 2 */
      order = run_epoch (loader, 3, NULL, &error);
      g_assert_null (order);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "sample index 17"));
      g_assert_nonnull (strstr (error->message, "probe refuses item 17"));
      if (workers[w] > 0)
        g_assert_nonnull (strstr (error->message, "DataLoader worker 0"));
    }
}

static void
test_error_stops_iteration (void)
{
  g_autoptr(Probe) ds = probe_new (20, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *batch = NULL;

  ds->fault_index = 0;   /* before the workers start */
  iter = gnn_data_loader_iter (loader, NULL);
  g_assert_false (gnn_data_loader_iter_next (iter, &batch, &error));
  g_assert_null (batch);
  g_assert_nonnull (error);
  g_assert_false (gnn_data_loader_iter_next (iter, &batch, NULL));
}

static void
test_timeout (void)
{
  g_autoptr(Probe) ds = probe_new (4, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 1, FALSE, 1, GNN_WORKER_MODE_THREADS);
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *batch = NULL;
  gint64 start;

  ds->sleep_us = 200000;
  g_object_set (loader, "timeout", 0.05, "prefetch-factor", 1, NULL);
  iter = gnn_data_loader_iter (loader, NULL);
  start = g_get_monotonic_time ();
  g_assert_false (gnn_data_loader_iter_next (iter, &batch, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT);
  g_assert_cmpstr (error->message, ==, "DataLoader timed out after 0.05 seconds "
                   "(still busy, abandoned: worker 0 at sample index 0)");
  /* the busy worker is abandoned, not waited for */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 500000);
}

static void
test_drop_mid_epoch_joins_workers (void)
{
  g_autoptr(Probe) ds = probe_new (1000, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 10, TRUE, 4, GNN_WORKER_MODE_THREADS);
  GnnDataLoaderIter *iter = gnn_data_loader_iter (loader, NULL);
  g_autoptr(GPtrArray) batch = NULL;
  gint64 start;
  gint calls;

  ds->sleep_us = 1000;
  g_assert_true (gnn_data_loader_iter_next (iter, &batch, NULL));
  start = g_get_monotonic_time ();
  g_object_unref (iter);   /* stops and joins the workers */
  calls = g_atomic_int_get (&ds->calls);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 200000);
  g_assert_cmpint (calls, <, 1000);
  g_usleep (20000);
  g_assert_cmpint (g_atomic_int_get (&ds->calls), ==, calls);   /* nothing runs any more */
}

static void
test_many_iterators_in_a_row (void)
{
  g_autoptr(Probe) ds = probe_new (30, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, TRUE, 3, GNN_WORKER_MODE_THREADS);

  for (int i = 0; i < 20; i++)
    {
      g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
      GPtrArray *batch;

      if (i % 2 == 0)
        while (gnn_data_loader_iter_next (iter, &batch, NULL))
          g_ptr_array_unref (batch);
    }
}

static void
test_sampler_and_batch_sampler (void)
{
  g_autoptr(Probe) ds = probe_new (10, FALSE);
  gint64 idx[] = { 9, 3, 5 };
  g_autoptr(GnnSubsetRandomSampler) s = gnn_subset_random_sampler_new (idx, 3, NULL);
  g_autoptr(GnnSequentialSampler) seq = gnn_sequential_sampler_new (GNN_DATASET (ds));
  g_autoptr(GnnBatchSampler) bs = gnn_batch_sampler_new (GNN_SAMPLER (seq), 4, TRUE, NULL);
  g_autoptr(GnnDataLoader) a = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "sampler", s,
                                             "batch-size", (gint64) 2, "num-workers", 2, NULL);
  g_autoptr(GnnDataLoader) b = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds,
                                             "batch-sampler", bs, NULL);
  g_autoptr(GArray) oa = NULL, ob = NULL;
  gint64 sum = 0;

  g_assert_cmpint (gnn_data_loader_get_length (a), ==, 2);
  oa = run_epoch (a, 3, NULL, NULL);
  g_assert_cmpuint (oa->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    sum += g_array_index (oa, gint64, i);
  g_assert_cmpint (sum, ==, 17);
  g_assert_cmpint (gnn_data_loader_get_length (b), ==, 2);
  ob = run_epoch (b, 3, NULL, NULL);
  g_assert_cmpuint (ob->len, ==, 8);
}

static void
expect_invalid (GnnDataLoader *loader, const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, &error);

  g_assert_null (iter);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_argument_messages (void)
{
  g_autoptr(Probe) ds = probe_new (10, FALSE);
  g_autoptr(GnnSequentialSampler) seq = gnn_sequential_sampler_new (GNN_DATASET (ds));
  g_autoptr(GnnBatchSampler) bs = gnn_batch_sampler_new (GNN_SAMPLER (seq), 4, FALSE, NULL);
  GnnDataLoader *l;

  l = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "num-workers", -1, NULL);
  expect_invalid (l, "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.");
  g_object_unref (l);
  l = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "timeout", -1.0, NULL);
  expect_invalid (l, "timeout option should be non-negative");
  g_object_unref (l);
  l = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "prefetch-factor", 4, NULL);
  expect_invalid (l, "prefetch_factor option could only be specified in multiprocessing."
                     "let num_workers > 0 to enable multiprocessing.");
  g_object_unref (l);
  l = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "persistent-workers", TRUE, NULL);
  expect_invalid (l, "persistent_workers option needs num_workers > 0");
  g_object_unref (l);
  l = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "sampler", seq, "shuffle", TRUE, NULL);
  expect_invalid (l, "sampler option is mutually exclusive with shuffle");
  g_object_unref (l);
  l = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-sampler", bs, "drop-last", TRUE, NULL);
  expect_invalid (l, "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last");
  g_object_unref (l);
  l = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", (gint64) 0, NULL);
  expect_invalid (l, "batch_size should be a positive integer value, but got batch_size=0");
  g_assert_cmpint (gnn_data_loader_get_length (l), ==, 0);
  g_object_unref (l);
}

static void
test_idx_like_batches (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 10, 4, 5 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_arange (0, 10, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { x, y };
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (ts, 2, NULL);
  g_autoptr(GnnDataLoader) l = gnn_data_loader_new (GNN_DATASET (ds), 4, FALSE);
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (l, NULL);
  g_autoptr(GPtrArray) batch = NULL;
  const gint64 *shape;
  guint ndim;

  g_assert_cmpint (gnn_data_loader_iter_get_length (iter), ==, 3);
  g_assert_true (gnn_data_loader_iter_next (iter, &batch, NULL));
  shape = gnn_tensor_get_shape (g_ptr_array_index (batch, 0), &ndim);
  g_assert_cmpuint (ndim, ==, 3);
  g_assert_cmpint (shape[0], ==, 4);
  g_assert_cmpint (shape[1], ==, 4);
  g_assert_cmpint (shape[2], ==, 5);
  shape = gnn_tensor_get_shape (g_ptr_array_index (batch, 1), &ndim);
  g_assert_cmpuint (ndim, ==, 1);
  g_assert_cmpint (shape[0], ==, 4);
}

static void
on_worker_init (GnnDataLoader *loader, GnnWorkerInfo *info, gpointer user_data)
{
  gint *mask = user_data;

  g_assert_true (gnn_get_worker_info () == info);
  g_assert_cmpuint (gnn_worker_info_get_num_workers (info), ==, 3);
  g_atomic_int_or (mask, 1 << gnn_worker_info_get_id (info));
}

static void
test_worker_init_signal (void)
{
  g_autoptr(Probe) ds = probe_new (12, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 3, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) order = NULL;
  gint mask = 0;

  g_signal_connect (loader, "worker-init", G_CALLBACK (on_worker_init), &mask);
  order = run_epoch (loader, 3, NULL, NULL);
  g_assert_cmpuint (order->len, ==, 12);
  g_assert_cmpint (g_atomic_int_get (&mask), ==, 7);
}

static void
test_sampler_index_out_of_range (void)
{
  g_autoptr(Probe) ds = probe_new (5, FALSE);
  gint64 idx[] = { 1, 7 };
  g_autoptr(GnnSubsetRandomSampler) s = gnn_subset_random_sampler_new (idx, 2, NULL);
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "sampler", s,
                                                  "num-workers", 2, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, &error);

  g_assert_null (iter);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "index 7"));
  g_assert_nonnull (strstr (error->message, "length 5"));
}

static void
count_init (GnnDataLoader *loader, GnnWorkerInfo *info, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
}

static void
test_persistent_workers_serve_every_epoch (void)
{
  g_autoptr(Probe) ds = probe_new (30, FALSE);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 4, TRUE, 3, GNN_WORKER_MODE_THREADS);
  double first_seed = -1;
  gint inits = 0;

  g_object_set (loader, "persistent-workers", TRUE, NULL);
  g_signal_connect (loader, "worker-init", G_CALLBACK (count_init), &inits);
  for (int epoch = 0; epoch < 4; epoch++)
    {
      g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
      g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (gint64));
      GPtrArray *batch;

      while (gnn_data_loader_iter_next (iter, &batch, NULL))
        {
          GnnTensor *idx = g_ptr_array_index (batch, 0);
          double wid = gnn_tensor_get_element (g_ptr_array_index (batch, 1), (gint64[]) { 0 }, 1, NULL);
          double seed = gnn_tensor_get_element (g_ptr_array_index (batch, 2), (gint64[]) { 0 }, 1, NULL);

          if (wid == 0 && first_seed < 0)
            first_seed = seed;
          else if (wid == 0)   /* persistent workers keep their seeds */
            g_assert_cmpfloat (seed, ==, first_seed);
          append_indices (order, idx);
          g_ptr_array_unref (batch);
        }
      assert_each_index_once (order, 30);
    }
  g_assert_cmpint (g_atomic_int_get (&inits), ==, 3);   /* started once */
  g_object_set (loader, "num-workers", 2, NULL);        /* a new pool */
  g_object_unref (gnn_data_loader_iter (loader, NULL));
  g_object_unref (loader);                              /* joins the pool */
  g_assert_cmpint (g_atomic_int_get (&inits), ==, 5);
}

static void
test_persistent_workers_after_drop_mid_epoch (void)
{
  g_autoptr(Probe) ds = probe_new (200, FALSE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 5, FALSE, 2, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) order = NULL;
  GnnDataLoaderIter *iter;
  GPtrArray *batch;

  ds->sleep_us = 200;
  g_object_set (loader, "persistent-workers", TRUE, "prefetch-factor", 4, NULL);
  iter = gnn_data_loader_iter (loader, NULL);
  g_assert_true (gnn_data_loader_iter_next (iter, &batch, NULL));
  g_ptr_array_unref (batch);
  g_object_unref (iter);   /* stale tasks stay queued for the persistent workers */
  order = run_epoch (loader, 3, NULL, NULL);
  g_assert_cmpuint (order->len, ==, 200);
  for (guint i = 0; i < 200; i++)
    g_assert_cmpint (g_array_index (order, gint64, i), ==, i);
}

/* PROCESSES mode in a parent with live threads, in a program that does
 * not serve spawned workers: its workers run as threads (one warning),
 * never a fork that could hang. */
static void
test_threaded_parent_without_spawn_uses_threads (void)
{
  g_autoptr(Probe) ds = probe_new (12, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, FALSE, 2, GNN_WORKER_MODE_PROCESSES);
  Spinners *spinners = spinners_start (2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoaderIter) it = NULL;
  GPtrArray *batch = NULL;

  g_test_expect_message ("Gnn", G_LOG_LEVEL_WARNING,
                         "DataLoader: this process runs * other threads (*); forking*run as threads*");
  it = gnn_data_loader_iter (loader, &error);
  g_assert_no_error (error);
  while (gnn_data_loader_iter_next (it, &batch, &error) && batch != NULL)
    {
      g_autoptr(GnnTensor) pids = gnn_tensor_to_dtype (g_ptr_array_index (batch, 4), GNN_DTYPE_I64,
                                                        NULL);

      /* the workers' pid is this process's */
      g_assert_cmpint (((const gint64 *) gnn_tensor_get_data (pids))[0], ==, getpid ());
      g_ptr_array_unref (batch);
    }
  g_assert_no_error (error);
  g_test_assert_expected_messages ();
  spinners_stop (spinners);
}

/* A TensorDataset's batches are gathered row by row from its contiguous
 * columns (no tensor per item) and taken item by item from the others: the
 * same batches either way, in every mode. Column 1 (ids) tells which rows
 * a batch holds. */
static void
test_tensor_dataset_batches_gather_rows (void)
{
  const gint64 n = 13;
  g_autoptr(GnnTensor) flat = gnn_tensor_arange (0, n * 6, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_reshape (flat, (gint64[]) { n, 2, 3 }, 3, NULL);
  g_autoptr(GnnTensor) ids = gnn_tensor_arange (0, n, 1, GNN_DTYPE_I64, NULL);
  g_autoptr(GnnTensor) zflat = gnn_tensor_arange (0, n * 4, 1, GNN_DTYPE_F64, NULL);
  g_autoptr(GnnTensor) zt = gnn_tensor_reshape (zflat, (gint64[]) { 4, n }, 2, NULL);
  g_autoptr(GnnTensor) z = gnn_tensor_transpose (zt, 0, 1, NULL);   /* not contiguous */
  const GnnWorkerMode modes[] = { GNN_WORKER_MODE_THREADS, GNN_WORKER_MODE_THREADS,
                                  GNN_WORKER_MODE_PROCESSES };
  const gint workers[] = { 0, 2, 2 };

  for (guint with_z = 0; with_z < 2; with_z++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      {
        GnnTensor *columns[] = { x, ids, z };
        g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (columns, with_z ? 3 : 2, NULL);
        g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, TRUE, workers[m], modes[m]);
        g_autoptr(GError) error = NULL;
        g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iter (loader, &error);
        GPtrArray *batch = NULL;
        gint64 seen = 0;

        g_assert_no_error (error);
        while (gnn_data_loader_iter_next (it, &batch, &error) && batch != NULL)
          {
            GnnTensor *idx = g_ptr_array_index (batch, 1);

            g_assert_cmpuint (batch->len, ==, with_z ? 3 : 2);
            for (guint f = 0; f < batch->len; f++)
              {
                g_autoptr(GnnTensor) want = gnn_tensor_index_select (columns[f], 0, idx, NULL);

                g_assert_true (gnn_tensor_equal (g_ptr_array_index (batch, f), want));
              }
            seen += gnn_tensor_get_size (idx, 0, NULL);
            g_ptr_array_unref (batch);
          }
        g_assert_no_error (error);
        g_assert_cmpint (seen, ==, n);
      }
}

/* Issue 31 item 7: a negative length is an error, not an empty epoch. */
static void
test_negative_dataset_length (void)
{
  g_autoptr(Probe) ds = probe_new (-1, FALSE);

  for (gint workers = 0; workers <= 2; workers += 2)
    {
      g_autoptr(GnnDataLoader) l = loader_new (GNN_DATASET (ds), 2, workers == 0, workers,
                                               GNN_WORKER_MODE_THREADS);
      g_autoptr(GnnDataLoaderIter) it = NULL;
      g_autoptr(GError) error = NULL;

      it = gnn_data_loader_iter (l, &error);
      g_assert_null (it);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "__len__() should return >= 0"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/loader/shuffle-covers-each-index-once", test_shuffle_covers_each_index_once);
  g_test_add_func ("/data/loader/same-seed-same-order-any-workers", test_same_seed_same_order_any_workers);
  g_test_add_func ("/data/loader/drop-last", test_drop_last);
  g_test_add_func ("/data/loader/order-under-random-delays", test_order_under_random_delays);
  g_test_add_func ("/data/loader/worker-info-and-seeds", test_worker_info_and_seeds);
  g_test_add_func ("/data/loader/no-workers-runs-in-caller", test_no_workers_runs_in_caller);
  g_test_add_func ("/data/loader/error-names-worker-and-index", test_error_names_worker_and_index);
  g_test_add_func ("/data/loader/error-stops-iteration", test_error_stops_iteration);
  /* before the timeout tests, which abandon a stuck worker thread (a
   * threaded process would not fork its PROCESSES workers) */
  g_test_add_func ("/data/loader/tensor-dataset-batches-gather-rows",
                   test_tensor_dataset_batches_gather_rows);
  g_test_add_func ("/data/loader/timeout", test_timeout);
  g_test_add_func ("/data/loader/threaded-parent-without-spawn-uses-threads",
                   test_threaded_parent_without_spawn_uses_threads);
  g_test_add_func ("/data/loader/drop-mid-epoch-joins-workers", test_drop_mid_epoch_joins_workers);
  g_test_add_func ("/data/loader/many-iterators-in-a-row", test_many_iterators_in_a_row);
  g_test_add_func ("/data/loader/sampler-and-batch-sampler", test_sampler_and_batch_sampler);
  g_test_add_func ("/data/loader/argument-messages", test_argument_messages);
  g_test_add_func ("/data/loader/tensor-dataset-batches", test_idx_like_batches);
  g_test_add_func ("/data/loader/worker-init-signal", test_worker_init_signal);
  g_test_add_func ("/data/loader/sampler-index-out-of-range", test_sampler_index_out_of_range);
  g_test_add_func ("/data/loader/persistent-workers-serve-every-epoch", test_persistent_workers_serve_every_epoch);
  g_test_add_func ("/data/loader/persistent-workers-after-drop-mid-epoch", test_persistent_workers_after_drop_mid_epoch);
  g_test_add_func ("/data/loader/negative-dataset-length", test_negative_dataset_length);
  return g_test_run ();
}
