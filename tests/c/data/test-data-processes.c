/* GnnDataLoader with worker processes: coverage, order, seeds, worker info
 * and worker-init in the children, shared-memory batches, persistent
 * workers, iterable datasets, custom collation, and faults (errors, killed
 * and crashing workers, timeouts, drops) without hangs, zombies or leaked
 * segments. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gnn/gnn.h>

#include "data-test-util.h"

/* Every test runs once per process backend: forked (PROCESSES) and
 * spawned (SPAWN) workers. */
static GnnWorkerMode proc_mode = GNN_WORKER_MODE_PROCESSES;

/* A collation that sums field 0 of the batch into a [1] tensor, or fails
 * when the batch holds @fail_value. */
typedef struct
{
  GnnCollate parent_instance;
  gint64     fail_value;
} SumCollate;
typedef struct { GnnCollateClass parent_class; } SumCollateClass;
G_DEFINE_TYPE (SumCollate, sum_collate, GNN_TYPE_COLLATE)

static void
sum_collate_collate (GnnCollate *c, GPtrArray *items, guint n_fields, GPtrArray **batch, GError **error)
{
  double sum = 0;

  for (guint i = 0; i < items->len; i += n_fields)
    {
      double v = gnn_tensor_item (g_ptr_array_index (items, i), NULL);

      if ((gint64) v == ((SumCollate *) c)->fail_value)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "sum collate refuses %g", v);
          return;
        }
      sum += v;
    }
  *batch = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (*batch, gnn_tensor_new_from_doubles (&sum, 1, (gint64[]) { 1 }, 1, NULL));
}

static const FieldProp sum_collate_props[] = {
  { "fail-value", G_STRUCT_OFFSET (SumCollate, fail_value), sizeof (gint64) },
};

static void
sum_collate_class_init (SumCollateClass *klass)
{
  GNN_COLLATE_CLASS (klass)->collate = sum_collate_collate;
  install_field_props (G_OBJECT_CLASS (klass), sum_collate_props, 1, 1);
}
static void sum_collate_init (SumCollate *self) { self->fail_value = -1; }

/* --- helpers -------------------------------------------------------------- */

static double
field (GPtrArray *batch, guint f, gint64 i)
{
  return gnn_tensor_get_element (g_ptr_array_index (batch, f), &i, 1, NULL);
}

/* Counts our descriptors (all, and those of memfd segments) and our
 * mappings of segments. */
static void
count_resources (guint *fds, guint *memfds, guint *maps)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  g_autofree char *text = NULL;
  const char *name;

  *fds = *memfds = *maps = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/fd", name, NULL);
      g_autofree char *target = g_file_read_link (path, NULL);

      (*fds)++;
      if (target != NULL && g_str_has_prefix (target, "/memfd:"))
        (*memfds)++;
    }
  g_assert_true (g_file_get_contents ("/proc/self/maps", &text, NULL, NULL));
  for (const char *p = text; (p = strstr (p, "memfd:gnn-batch")) != NULL; p++)
    (*maps)++;
}

/* No child left, dead or alive. */
static void
assert_no_children (void)
{
  int status;

  g_assert_cmpint (waitpid (-1, &status, WNOHANG), ==, -1);
  g_assert_cmpint (errno, ==, ECHILD);
}

/* No child left, our descriptors back to @fds0, no segment open or mapped. */
static void
assert_all_released (guint fds0)
{
  guint fds, memfds, maps;

  assert_no_children ();
  count_resources (&fds, &memfds, &maps);
  g_assert_cmpuint (fds, ==, fds0);
  g_assert_cmpuint (memfds, ==, 0);
  g_assert_cmpuint (maps, ==, 0);
}

/* --- coverage and order ---------------------------------------------------- */

static void
test_shuffle_covers_each_index_once (void)
{
  g_autoptr(Probe) ds = probe_new (50, TRUE);
  const gint workers[] = { 1, 2, 4 };

  for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
    {
      g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, TRUE, workers[w],
                                                    proc_mode);

      for (int epoch = 0; epoch < 2; epoch++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autoptr(GArray) order = run_epoch (loader, 5, sizes, &error);

          g_assert_no_error (error);
          assert_each_index_once (order, 50);
          g_assert_cmpuint (sizes->len, ==, 17);
          g_assert_cmpint (g_array_index (sizes, gint64, 16), ==, 2);
        }
    }
  assert_no_children ();
}

static void
test_same_order_as_threads_and_no_workers (void)
{
  g_autoptr(Probe) ds = probe_new (40, TRUE);
  g_autoptr(GnnDataLoader) ref_loader = loader_new (GNN_DATASET (ds), 4, TRUE, 0, GNN_WORKER_MODE_THREADS);
  g_autoptr(GArray) r1 = run_epoch (ref_loader, 5, NULL, NULL);
  g_autoptr(GArray) r2 = run_epoch (ref_loader, 5, NULL, NULL);
  const gint workers[] = { 1, 2, 4 };

  for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
    for (int mode = 0; mode < 2; mode++)
      {
        g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, TRUE, workers[w],
                                                      mode ? proc_mode
                                                           : GNN_WORKER_MODE_THREADS);
        g_autoptr(GArray) e1 = run_epoch (loader, 5, NULL, NULL);
        g_autoptr(GArray) e2 = run_epoch (loader, 5, NULL, NULL);

        g_assert_true (memcmp (r1->data, e1->data, 40 * sizeof (gint64)) == 0);
        g_assert_true (memcmp (r2->data, e2->data, 40 * sizeof (gint64)) == 0);
      }
}

static void
test_drop_last (void)
{
  g_autoptr(Probe) ds = probe_new (10, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, FALSE, 2, proc_mode);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) order = NULL;

  g_object_set (loader, "drop-last", TRUE, NULL);
  g_assert_cmpint (gnn_data_loader_get_length (loader), ==, 2);
  order = run_epoch (loader, 5, sizes, NULL);
  g_assert_cmpuint (order->len, ==, 8);
  g_assert_cmpuint (sizes->len, ==, 2);
  g_assert_cmpint (g_array_index (order, gint64, 7), ==, 7);
}

static void
test_order_under_random_delays (void)
{
  g_autoptr(Probe) ds = probe_new (64, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 4, proc_mode);
  g_autoptr(GArray) order = NULL;

  ds->max_delay_us = 3000;
  g_object_set (loader, "prefetch-factor", 3, NULL);
  order = run_epoch (loader, 5, NULL, NULL);
  g_assert_cmpuint (order->len, ==, 64);
  for (guint i = 0; i < 64; i++)
    g_assert_cmpint (g_array_index (order, gint64, i), ==, i);
}

/* --- worker identity ------------------------------------------------------- */

static void
on_worker_init (GnnDataLoader *loader, GnnWorkerInfo *info, gpointer user_data)
{
  g_assert_true (gnn_get_worker_info () == info);
  probe_init_marker = 100 + (int) gnn_worker_info_get_id (info);   /* in the child's memory */
}

static void
test_worker_info_seeds_and_init (void)
{
  g_autoptr(Probe) ds = probe_new (12, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, FALSE, 2, proc_mode);
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  GPtrArray *batch;
  int b = 0;
  double seed_of[2] = { -1, -1 }, pid_of[2] = { 0, 0 };

  g_signal_connect (loader, "worker-init", G_CALLBACK (on_worker_init), NULL);
  iter = gnn_data_loader_iter (loader, NULL);
  while (gnn_data_loader_iter_next (iter, &batch, NULL))
    {
      int w = b % 2;

      g_assert_cmpfloat (field (batch, 1, 0), ==, w);                /* batch b -> worker b % 2 */
      g_assert_cmpfloat (field (batch, 3, 0), ==, 100 + w);          /* worker-init ran there */
      g_assert_cmpfloat (field (batch, 4, 0), !=, getpid ());        /* in another process */
      if (seed_of[w] < 0)
        {
          seed_of[w] = field (batch, 2, 0);
          pid_of[w] = field (batch, 4, 0);
        }
      g_assert_cmpfloat (seed_of[w], ==, field (batch, 2, 0));
      g_assert_cmpfloat (pid_of[w], ==, field (batch, 4, 0));
      g_ptr_array_unref (batch);
      b++;
    }
  g_assert_cmpint (b, ==, 4);
  g_assert_cmpfloat (pid_of[0], !=, pid_of[1]);
  g_assert_true (seed_of[1] == seed_of[0] + 1 || (seed_of[0] == 1000002 && seed_of[1] == 0));
  g_assert_cmpint (probe_init_marker, ==, 0);   /* the parent's copy is untouched */
  g_assert_null (gnn_get_worker_info ());
}

static void
test_seeds_match_threads (void)
{
  g_autoptr(Probe) ds = probe_new (8, TRUE);
  double seeds[2][4];

  for (int mode = 0; mode < 2; mode++)
    {
      g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, TRUE, 2,
                                                    mode ? proc_mode : GNN_WORKER_MODE_THREADS);
      g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
      GPtrArray *batch;
      int b = 0;

      while (gnn_data_loader_iter_next (iter, &batch, NULL))
        {
          seeds[mode][b++] = field (batch, 2, 0);
          g_ptr_array_unref (batch);
        }
      g_assert_cmpint (b, ==, 4);
    }
  g_assert_true (memcmp (seeds[0], seeds[1], sizeof seeds[0]) == 0);
}

/* --- shared memory --------------------------------------------------------- */

static gboolean
address_in_memfd_mapping (gconstpointer addr)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 lo, hi;

      if (strstr (lines[i], "memfd:gnn-batch") != NULL &&
          sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x", &lo, &hi) == 2 &&
          (guint64) (gsize) addr >= lo && (guint64) (gsize) addr < hi)
        return TRUE;
    }
  return FALSE;
}

static void
test_batches_live_in_shared_memory (void)
{
  g_autoptr(GnnTensor) x = gnn_tensor_arange (0, 6 * 20, 1, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) xs = gnn_tensor_reshape (x, (gint64[]) { 6, 4, 5 }, 3, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_arange (0, 6, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { xs, y };
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (ts, 2, NULL);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 4, FALSE, 2, proc_mode);
  GnnDataLoaderIter *iter = gnn_data_loader_iter (loader, NULL);
  GPtrArray *batch = NULL;
  GnnTensor *images;
  g_autoptr(GBytes) bytes = NULL;
  const float *v;
  gsize size;
  guint fds, memfds, maps;

  g_assert_true (gnn_data_loader_iter_next (iter, &batch, NULL));
  images = g_ptr_array_index (batch, 0);
  g_assert_cmpint (gnn_tensor_get_size (images, 0, NULL), ==, 4);
  g_assert_cmpint (gnn_tensor_get_size (images, 2, NULL), ==, 5);
  bytes = gnn_tensor_get_bytes (images);
  v = g_bytes_get_data (bytes, &size);
  g_assert_cmpuint (size, ==, 4 * 20 * sizeof (float));
  for (int i = 0; i < 80; i++)
    g_assert_cmpfloat (v[i], ==, i);
  g_clear_pointer (&bytes, g_bytes_unref);
  g_assert_true (address_in_memfd_mapping (gnn_tensor_get_data (images)));
  g_assert_cmpfloat (gnn_tensor_get_element (g_ptr_array_index (batch, 1), (gint64[]) { 3 }, 1, NULL), ==, 3);

  /* the mapping outlives the iterator and the loader while the batch lives */
  g_object_unref (iter);
  g_object_unref (loader);
  assert_no_children ();
  count_resources (&fds, &memfds, &maps);
  g_assert_cmpuint (memfds, ==, 0);    /* descriptors are closed once mapped */
  g_assert_cmpuint (maps, ==, 1);
  g_ptr_array_unref (batch);
  count_resources (&fds, &memfds, &maps);
  g_assert_cmpuint (maps, ==, 0);
}

/* --- persistent workers ---------------------------------------------------- */

static void
test_persistent_workers (void)
{
  g_autoptr(Probe) ds = probe_new (30, TRUE);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 4, TRUE, 3, proc_mode);
  double pid0 = 0, seed0 = -1;

  g_object_set (loader, "persistent-workers", TRUE, NULL);
  for (int epoch = 0; epoch < 3; epoch++)
    {
      g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
      g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (gint64));
      GPtrArray *batch;

      while (gnn_data_loader_iter_next (iter, &batch, NULL))
        {
          if (field (batch, 1, 0) == 0)
            {
              if (pid0 == 0)
                {
                  pid0 = field (batch, 4, 0);
                  seed0 = field (batch, 2, 0);
                }
              g_assert_cmpfloat (field (batch, 4, 0), ==, pid0);    /* the same process */
              g_assert_cmpfloat (field (batch, 2, 0), ==, seed0);   /* keeps its seed */
            }
          append_indices (order, g_ptr_array_index (batch, 0));
          g_ptr_array_unref (batch);
        }
      assert_each_index_once (order, 30);
    }
  g_assert_cmpint (waitpid ((pid_t) pid0, NULL, WNOHANG), ==, 0);   /* still running */
  g_object_unref (loader);
  assert_no_children ();
}

static void
test_persistent_after_drop_mid_epoch (void)
{
  g_autoptr(Probe) ds = probe_new (200, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 5, FALSE, 2, proc_mode);
  g_autoptr(GArray) order = NULL;
  GnnDataLoaderIter *iter;
  GPtrArray *batch;

  ds->sleep_us = 200;
  g_object_set (loader, "persistent-workers", TRUE, "prefetch-factor", 4, NULL);
  iter = gnn_data_loader_iter (loader, NULL);
  g_assert_true (gnn_data_loader_iter_next (iter, &batch, NULL));
  g_ptr_array_unref (batch);
  g_object_unref (iter);   /* stale tasks and results are skipped */
  order = run_epoch (loader, 5, NULL, NULL);
  g_assert_cmpuint (order->len, ==, 200);
  for (guint i = 0; i < 200; i++)
    g_assert_cmpint (g_array_index (order, gint64, i), ==, i);
}

/* --- custom collation and iterable datasets -------------------------------- */

static void
test_custom_collate (void)
{
  g_autoptr(Probe) ds = probe_new (10, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 4, FALSE, 2, proc_mode);
  g_autoptr(GnnCollate) collate = g_object_new (sum_collate_get_type (), NULL);
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  const double sums[] = { 6, 22, 17 };
  GPtrArray *batch;
  int b = 0;

  g_object_set (loader, "collate", collate, NULL);
  iter = gnn_data_loader_iter (loader, NULL);
  while (gnn_data_loader_iter_next (iter, &batch, NULL))
    {
      g_assert_cmpuint (batch->len, ==, 1);
      g_assert_cmpfloat (field (batch, 0, 0), ==, sums[b++]);
      g_ptr_array_unref (batch);
    }
  g_assert_cmpint (b, ==, 3);
}

static void
test_iterable_dataset_sharded (void)
{
  g_autoptr(Counter) ds = counter_new (23, TRUE);
  g_autoptr(GnnDataLoader) loader = NULL;

  loader = loader_new (GNN_DATASET (ds), 4, FALSE, 3, proc_mode);
  g_object_set (loader, "persistent-workers", TRUE, NULL);
  for (int epoch = 0; epoch < 2; epoch++)   /* each pass restarts every stream */
    {
      g_autoptr(GArray) order = run_epoch (loader, 1, NULL, NULL);

      assert_each_index_once (order, 23);
    }
}

/* --- faults ---------------------------------------------------------------- */

static void
test_get_item_error_names_worker_and_index (void)
{
  g_autoptr(Probe) ds = probe_new (40, TRUE);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 4, FALSE, 2, proc_mode);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) order = NULL;
  guint fds0, memfds0, maps0;

  count_resources (&fds0, &memfds0, &maps0);
  ds->fault = FAULT_ERROR;
  ds->fault_index = 17;   /* batch 4: worker 0 of 2 */
  order = run_epoch (loader, 5, NULL, &error);
  g_assert_null (order);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "DataLoader worker 0 (pid "));
  g_assert_nonnull (strstr (error->message, "sample index 17: probe refuses item 17"));
  g_object_unref (loader);
  assert_all_released (fds0);
}

static void
test_collate_error_names_worker_and_index (void)
{
  g_autoptr(Probe) ds = probe_new (12, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, FALSE, 2, proc_mode);
  SumCollate *collate = g_object_new (sum_collate_get_type (), NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *batch;
  GnnDataLoaderIter *iter;

  collate->fail_value = 7;   /* batch 2 (6, 7, 8): worker 0 */
  g_object_set (loader, "collate", collate, NULL);
  g_object_unref (collate);
  iter = gnn_data_loader_iter (loader, NULL);
  while (gnn_data_loader_iter_next (iter, &batch, &error))
    g_ptr_array_unref (batch);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "DataLoader worker 0 (pid "));
  g_assert_nonnull (strstr (error->message, "collate of the batch starting at sample index 6: "
                                            "sum collate refuses 7"));
  g_object_unref (iter);
  assert_no_children ();
}

static void
test_default_collate_error (void)
{
  /* fields of different shapes: the stacking fails in the worker */
  g_autoptr(GnnTensor) x = gnn_tensor_zeros ((gint64[]) { 4, 3 }, 2, GNN_DTYPE_F32, NULL);
  GnnTensor *ts[] = { x };
  g_autoptr(GnnTensorDataset) base = gnn_tensor_dataset_new (ts, 1, NULL);
  g_autoptr(Probe) ds = probe_new (6, TRUE);
  g_autoptr(GnnConcatDataset) cat = NULL;
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GError) error = NULL;
  GnnDataset *parts[2];

  parts[0] = GNN_DATASET (base);
  parts[1] = GNN_DATASET (ds);
  cat = gnn_concat_dataset_new (parts, 2, NULL);
  loader = loader_new (GNN_DATASET (cat), 10, FALSE, 1, proc_mode);
  g_assert_null (run_epoch (loader, 5, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "DataLoader worker 0 (pid "));
  g_assert_nonnull (strstr (error->message, "sample index 4"));   /* 5 fields vs 1 */
}

static void
check_dead_worker (Fault fault, const char *expected)
{
  g_autoptr(Probe) ds = probe_new (40, TRUE);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, proc_mode);
  g_autoptr(GError) error = NULL;
  GnnDataLoaderIter *iter;
  GPtrArray *batch;
  gint64 start;
  int delivered = 0;

  ds->fault = fault;
  ds->fault_index = 11;   /* batch 5: worker 1 */
  ds->sleep_us = 1000;
  iter = gnn_data_loader_iter (loader, NULL);
  start = g_get_monotonic_time ();
  while (gnn_data_loader_iter_next (iter, &batch, &error))
    {
      delivered++;
      g_ptr_array_unref (batch);
    }
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_assert_cmpint (delivered, <=, 5);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_WORKER);
  g_assert_true (g_str_has_prefix (error->message, "DataLoader worker (pid "));
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_nonnull (strstr (error->message, "(worker 1)"));
  /* the batch it died on: indices 10 and 11 */
  g_assert_nonnull (strstr (error->message, " while loading the batch of sample index 10"));
  g_assert_false (gnn_data_loader_iter_next (iter, &batch, NULL));
  start = g_get_monotonic_time ();
  g_object_unref (iter);
  g_object_unref (loader);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  assert_no_children ();
}

static void
test_worker_killed (void)
{
  check_dead_worker (FAULT_SIGKILL, ") is killed by signal: Killed.");
}

static void
test_worker_segfault (void)
{
  check_dead_worker (FAULT_SEGV, ") is killed by signal: Segmentation fault.");
}

static void
test_worker_exit (void)
{
  check_dead_worker (FAULT_EXIT, ") exited unexpectedly with exit code 3.");
}

static void
test_persistent_pool_replaced_after_death (void)
{
  g_autoptr(Probe) ds = probe_new (20, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 2, proc_mode);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) order = NULL;

  g_object_set (loader, "persistent-workers", TRUE, NULL);
  ds->fault = FAULT_SIGKILL;
  ds->fault_index = 5;
  g_assert_null (run_epoch (loader, 5, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_WORKER);
  ds->fault = FAULT_NONE;   /* new children see the repaired dataset */
  order = run_epoch (loader, 5, NULL, NULL);
  g_assert_cmpuint (order->len, ==, 20);
}

static void
test_timeout (void)
{
  g_autoptr(Probe) ds = probe_new (4, TRUE);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 1, FALSE, 1, proc_mode);
  GnnDataLoaderIter *iter;
  g_autoptr(GError) error = NULL;
  GPtrArray *batch = NULL;
  gint64 start;

  ds->sleep_us = 300000;
  g_object_set (loader, "timeout", 0.05, "prefetch-factor", 1, NULL);
  start = g_get_monotonic_time ();
  iter = gnn_data_loader_iter (loader, &error);
  if (iter == NULL)
    {
      /* The timeout also bounds a spawned worker's start (as torch's covers
       * its workers' start): on a loaded machine 50 ms may not be enough to
       * exec the worker, and iter() reports that. Forked workers have no
       * start to wait for. */
      g_assert_true (proc_mode == GNN_WORKER_MODE_SPAWN);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT);
      g_assert_nonnull (strstr (error->message, "had not finished starting"));
      g_test_message ("spawned worker did not start within 50 ms: %s", error->message);
      g_object_unref (loader);
      assert_no_children ();
      return;
    }
  g_assert_false (gnn_data_loader_iter_next (iter, &batch, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_TIMEOUT);
  g_assert_cmpstr (error->message, ==, "DataLoader timed out after 0.05 seconds");
  g_object_unref (iter);
  g_object_unref (loader);
  /* the worker stops after its current item */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 800000);
  assert_no_children ();
}

static void
test_drop_mid_epoch_frees_everything (void)
{
  g_autoptr(Probe) ds = probe_new (1000, TRUE);
  GnnDataLoader *loader;
  GnnDataLoaderIter *iter;
  GPtrArray *batch = NULL;
  guint fds0, memfds0, maps0;
  gint64 start;

  count_resources (&fds0, &memfds0, &maps0);
  g_assert_cmpuint (memfds0, ==, 0);
  loader = loader_new (GNN_DATASET (ds), 10, TRUE, 4, proc_mode);
  g_object_set (loader, "prefetch-factor", 4, NULL);
  ds->sleep_us = 500;
  iter = gnn_data_loader_iter (loader, NULL);
  for (int i = 0; i < 3; i++)
    {
      g_assert_true (gnn_data_loader_iter_next (iter, &batch, NULL));
      g_ptr_array_unref (batch);
    }
  g_usleep (20000);   /* let results pile up in the sockets */
  start = g_get_monotonic_time ();
  g_object_unref (iter);
  g_object_unref (loader);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 300000);
  assert_all_released (fds0);
}

static void
test_many_iterators_in_a_row (void)
{
  g_autoptr(Probe) ds = probe_new (30, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 3, TRUE, 3, proc_mode);
  guint fds0, memfds0, maps0, fds, memfds, maps;

  count_resources (&fds0, &memfds0, &maps0);
  for (int i = 0; i < 10; i++)
    {
      g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, NULL);
      GPtrArray *batch;

      if (i % 2 == 0)
        while (gnn_data_loader_iter_next (iter, &batch, NULL))
          g_ptr_array_unref (batch);
    }
  assert_no_children ();
  count_resources (&fds, &memfds, &maps);
  g_assert_cmpuint (fds, ==, fds0);
  g_assert_cmpuint (maps, ==, 0);
}

static int fork_calls;

static int
counting_fork (gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return fork ();
}

static void
test_fork_func (void)
{
  g_autoptr(Probe) ds = probe_new (8, TRUE);
  g_autoptr(GnnDataLoader) loader = loader_new (GNN_DATASET (ds), 2, FALSE, 3, proc_mode);
  g_autoptr(GArray) order = NULL;

  gnn_set_worker_fork_func (counting_fork, &fork_calls, NULL);
  order = run_epoch (loader, 5, NULL, NULL);
  gnn_set_worker_fork_func (NULL, NULL, NULL);
  g_assert_cmpuint (order->len, ==, 8);
  g_assert_cmpint (fork_calls, ==, 3);
}

/* The highest descriptor this process has open. */
static int
highest_fd (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;
  int high = 2;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    high = MAX (high, atoi (name));
  return high;
}

/* A message the parent cannot receive whole (here a batch whose segment
 * descriptor finds no free descriptor to land in: the kernel truncates the
 * control data) loses that worker's stream: the worker is stopped and the
 * error names it, instead of the parent waiting to reap a live worker. */
static void
test_unreceivable_message (void)
{
  g_autoptr(Probe) ds = probe_new (40, TRUE);
  GnnDataLoader *loader = loader_new (GNN_DATASET (ds), 2, FALSE, 1, proc_mode);
  g_autoptr(GArray) dups = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GError) error = NULL;
  GnnDataLoaderIter *iter = gnn_data_loader_iter (loader, NULL);
  GPtrArray *batch = NULL;
  struct rlimit old, low;
  gboolean ok;
  int fd;

  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &old), ==, 0);
  low = old;
  low.rlim_cur = (rlim_t) highest_fd () + 1;
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &low), ==, 0);
  while ((fd = dup (0)) >= 0)   /* fill the holes below the limit */
    g_array_append_val (dups, fd);
  ok = gnn_data_loader_iter_next (iter, &batch, &error);
  for (guint i = 0; i < dups->len; i++)
    close (g_array_index (dups, int, i));
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &old), ==, 0);

  g_assert_false (ok);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_WORKER);
  g_assert_nonnull (strstr (error->message, "DataLoader worker 0 (pid "));
  g_assert_nonnull (strstr (error->message, "could not be received"));
  g_object_unref (iter);
  g_object_unref (loader);
  assert_no_children ();
}

typedef struct
{
  const char *name;
  void      (*fn) (void);
  gboolean    fork_only;   /* worker-init handlers, fork functions and datasets whose
                              state is not in properties (TensorDataset) need a fork */
} Case;

typedef struct { const Case *c; GnnWorkerMode mode; } ModeCase;

static void
run_case (gconstpointer data)
{
  const ModeCase *mc = data;

  proc_mode = mc->mode;
  mc->c->fn ();
}

int
main (int argc, char **argv)
{
  static const Case cases[] = {
    { "shuffle-covers-each-index-once", test_shuffle_covers_each_index_once, FALSE },
    { "same-order-as-threads-and-no-workers", test_same_order_as_threads_and_no_workers, FALSE },
    { "drop-last", test_drop_last, FALSE },
    { "order-under-random-delays", test_order_under_random_delays, FALSE },
    { "worker-info-seeds-and-init", test_worker_info_seeds_and_init, TRUE },
    { "seeds-match-threads", test_seeds_match_threads, FALSE },
    { "batches-live-in-shared-memory", test_batches_live_in_shared_memory, TRUE },
    { "persistent-workers", test_persistent_workers, FALSE },
    { "persistent-after-drop-mid-epoch", test_persistent_after_drop_mid_epoch, FALSE },
    { "custom-collate", test_custom_collate, FALSE },
    { "iterable-dataset-sharded", test_iterable_dataset_sharded, FALSE },
    { "get-item-error", test_get_item_error_names_worker_and_index, FALSE },
    { "collate-error", test_collate_error_names_worker_and_index, FALSE },
    { "default-collate-error", test_default_collate_error, TRUE },
    { "worker-killed", test_worker_killed, FALSE },
    { "worker-segfault", test_worker_segfault, FALSE },
    { "worker-exit", test_worker_exit, FALSE },
    { "unreceivable-message", test_unreceivable_message, FALSE },
    { "persistent-pool-replaced-after-death", test_persistent_pool_replaced_after_death, FALSE },
    { "timeout", test_timeout, FALSE },
    { "drop-mid-epoch-frees-everything", test_drop_mid_epoch_frees_everything, FALSE },
    { "many-iterators-in-a-row", test_many_iterators_in_a_row, FALSE },
    { "fork-func", test_fork_func, TRUE },
  };
  static ModeCase runs[2 * G_N_ELEMENTS (cases)];
  const GnnWorkerMode modes[] = { GNN_WORKER_MODE_PROCESSES, GNN_WORKER_MODE_SPAWN };
  guint k = 0;

  /* A spawned worker is this program again: register the test's types,
   * then serve if started as a worker. */
  g_type_ensure (probe_get_type ());
  g_type_ensure (counter_get_type ());
  g_type_ensure (sum_collate_get_type ());
  gnn_worker_main_if_worker ();

  g_test_init (&argc, &argv, NULL);
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *path = NULL;

        if (modes[m] == GNN_WORKER_MODE_SPAWN && cases[i].fork_only)
          continue;
        runs[k] = (ModeCase) { &cases[i], modes[m] };
        path = g_strdup_printf ("/data/%s/%s", modes[m] == GNN_WORKER_MODE_SPAWN ? "spawn" : "processes",
                                cases[i].name);
        g_test_add_data_func (path, &runs[k++], run_case);
      }
  return g_test_run ();
}
