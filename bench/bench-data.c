/* bench-data.c: times full passes of Gnn's data loader
 *
 * The C half of bench/data.py. One configuration per run (so that each gets
 * its own process and its own peak RSS): Fashion-MNIST train (60,000 ×
 * 28×28 float32 in [0, 1], int64 labels) through a GnnDataLoader with a
 * batch size of 64 and shuffling, with --workers workers in --mode
 * (threads/processes); or, with --memcpy, the floor: the same shuffled
 * gather copied with memcpy() into one batch buffer, single-threaded.
 *
 * Each pass is timed from gnn_data_loader_iter() (which forks or starts the
 * workers; they are not persistent) to the last batch, with every batch
 * checked (shape, label range) and dropped at once. Prints one JSON line:
 *
 *   {"type": "result", "config": "processes-2", "samples": 60000,
 *    "best_seconds": …, "median_seconds": …, "samples_per_second": …,
 *    "maxrss_kib": …, "children_maxrss_kib": …}
 *
 * --smoke runs on a small synthetic dataset in every mode and checks that
 * every index arrives once (meson test, suite bench).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <gnn/gnn.h>

#include "bench-util.h"

#define FASHION "/usr/share/datasets/fashion-mnist"

/* One pass; returns seconds, or < 0 on error. Checks every batch. */
static double first_batch_seconds = -1;   /* of the first pass: worker start included */

static double
loader_pass (GnnDataLoader *loader, gint64 n_expected, gboolean check_once, GError **error)
{
  double start = bench_now_seconds ();
  gint64 n = 0;
  g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, error);
  g_autofree guint8 *seen = check_once ? g_malloc0 ((gsize) n_expected) : NULL;
  GPtrArray *batch;

  if (iter == NULL)
    return -1;
  while (gnn_data_loader_iter_next (iter, &batch, error))
    {
      GnnTensor *labels = g_ptr_array_index (batch, 1);
      gint64 b = gnn_tensor_get_size (labels, 0, NULL);
      const gint64 *l = gnn_tensor_get_data (labels);

      if (gnn_tensor_get_size (g_ptr_array_index (batch, 0), 0, NULL) != b ||
          l[0] < 0 || l[b - 1] < 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "bad batch");
          g_ptr_array_unref (batch);
          return -1;
        }
      if (seen != NULL)
        for (gint64 i = 0; i < b; i++)
          {
            if (l[i] < 0 || l[i] >= n_expected || seen[l[i]]++)
              {
                g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "index %" G_GINT64_FORMAT
                             " delivered twice or out of range", l[i]);
                g_ptr_array_unref (batch);
                return -1;
              }
          }
      n += b;
      g_ptr_array_unref (batch);
      if (first_batch_seconds < 0)
        first_batch_seconds = bench_now_seconds () - start;
    }
  if (*error != NULL)
    return -1;
  if (n != n_expected)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "%" G_GINT64_FORMAT " samples instead of %"
                   G_GINT64_FORMAT, n, n_expected);
      return -1;
    }
  return bench_now_seconds () - start;
}

/* The floor: the shuffled gather of the same bytes with memcpy(). */
static double
memcpy_pass (GnnTensor *images, GnnTensor *labels, gint64 batch_size, guint64 seed)
{
  gint64 n = gnn_tensor_get_size (images, 0, NULL);
  gsize row = (gsize) (gnn_tensor_get_numel (images) / n) * sizeof (float);
  const guint8 *src = gnn_tensor_get_data (images);
  const gint64 *lab = gnn_tensor_get_data (labels);
  g_autofree gint64 *perm = g_new (gint64, n);
  g_autofree guint8 *dst = g_malloc ((gsize) batch_size * row);
  g_autofree gint64 *dst_labels = g_new (gint64, batch_size);
  g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) seed);
  volatile guint8 sink = 0;
  double start = bench_now_seconds ();

  for (gint64 i = 0; i < n; i++)   /* Fisher–Yates, as a sampler would */
    {
      gint64 j = g_rand_int_range (rand, 0, (gint32) (i + 1));

      perm[i] = perm[j];
      perm[j] = i;
    }
  for (gint64 b = 0; b < n; b += batch_size)
    {
      gint64 m = MIN (batch_size, n - b);

      for (gint64 i = 0; i < m; i++)
        {
          memcpy (dst + i * row, src + perm[b + i] * row, row);
          dst_labels[i] = lab[perm[b + i]];
        }
      sink ^= dst[0] ^ (guint8) dst_labels[0];
    }
  (void) sink;
  return bench_now_seconds () - start;
}

/* Small synthetic data: item i = (images[i], i), so coverage is checkable. */
static int
smoke (void)
{
  const char *modes[] = { "threads", "processes", "spawn" };
  const GnnWorkerMode mode_values[] = { GNN_WORKER_MODE_THREADS, GNN_WORKER_MODE_PROCESSES,
                                        GNN_WORKER_MODE_SPAWN };
  g_autoptr(GnnTensor) images = gnn_tensor_zeros ((gint64[]) { 500, 7, 7 }, 3, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) labels = gnn_tensor_arange (0, 500, 1, GNN_DTYPE_I64, NULL);
  GnnTensor *ts[] = { images, labels };
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (ts, 2, NULL);

  /* not spawn: a TensorDataset's tensors are not properties, so it cannot
   * be rebuilt in a spawned worker (the real runs use a GnnIdxDataset) */
  for (int m = 0; m < 2; m++)
    for (int w = 0; w <= 2; w++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds,
            "batch-size", (gint64) 64, "shuffle", TRUE, "num-workers", w, "seed", (guint64) 1,
            "worker-mode", mode_values[m], NULL);

        if (loader_pass (loader, 500, TRUE, &error) < 0)
          {
            fprintf (stderr, "bench-data --smoke: %s-%d: %s\n", modes[m], w, error->message);
            return 1;
          }
      }
  if (memcpy_pass (images, labels, 64, 1) < 0)
    return 1;
  printf ("{\"type\": \"smoke\", \"ok\": true}\n");
  return 0;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GnnIdxDataset) ds = NULL;
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autofree char *mode = g_strdup ("threads");
  g_autofree char *dir = g_strdup (FASHION);
  g_autofree char *images_path = NULL, *labels_path = NULL, *config = NULL;
  gint workers = 0, passes = 3, batch_size = 64;
  gboolean use_memcpy = FALSE, run_smoke = FALSE, persistent = FALSE;
  GOptionEntry entries[] = {
    { "workers", 0, 0, G_OPTION_ARG_INT, &workers, "Loader workers (default 0)", "N" },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode, "threads, processes or spawn (default threads)", "MODE" },
    { "passes", 0, 0, G_OPTION_ARG_INT, &passes, "Timed passes (default 3)", "N" },
    { "batch-size", 0, 0, G_OPTION_ARG_INT, &batch_size, "Batch size (default 64)", "N" },
    { "persistent", 0, 0, G_OPTION_ARG_NONE, &persistent, "Keep the workers across passes", NULL },
    { "memcpy", 0, 0, G_OPTION_ARG_NONE, &use_memcpy, "Time the memcpy floor instead", NULL },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "Fashion-MNIST directory", "DIR" },
    { "smoke", 0, 0, G_OPTION_ARG_NONE, &run_smoke, "Tiny synthetic run (meson test)", NULL },
    { NULL }
  };
  g_autofree double *times = NULL;
  struct rusage self_usage, child_usage;
  gint64 n;

  /* Spawned workers are this program again: serve if started as one. */
  gnn_worker_main_if_worker ();

  context = g_option_context_new ("- time Gnn's data loader over Fashion-MNIST");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-data: %s\n", error->message);
      return 2;
    }
  if (run_smoke)
    return smoke ();
  if (passes < 1 || batch_size < 1 || workers < 0 ||
      (strcmp (mode, "threads") != 0 && strcmp (mode, "processes") != 0 &&
       strcmp (mode, "spawn") != 0))
    {
      fprintf (stderr, "bench-data: bad options\n");
      return 2;
    }
  images_path = g_build_filename (dir, "train-images-idx3-ubyte.gz", NULL);
  labels_path = g_build_filename (dir, "train-labels-idx1-ubyte.gz", NULL);
  /* spawned workers map a dataset decoded into shared memory; forked ones
   * inherit private memory faster (GnnIdxDataset:shared-memory) */
  ds = g_initable_new (GNN_TYPE_IDX_DATASET, NULL, &error, "images-path", images_path,
                       "labels-path", labels_path, "shared-memory", strcmp (mode, "spawn") == 0,
                       NULL);
  if (ds == NULL)
    {
      fprintf (stderr, "bench-data: %s\n", error->message);
      return 1;
    }
  n = gnn_dataset_get_length (GNN_DATASET (ds));
  loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", (gint64) batch_size,
                         "shuffle", TRUE, "num-workers", workers, "seed", (guint64) 1,
                         "worker-mode", strcmp (mode, "processes") == 0 ? GNN_WORKER_MODE_PROCESSES :
                                        strcmp (mode, "spawn") == 0 ? GNN_WORKER_MODE_SPAWN :
                                        GNN_WORKER_MODE_THREADS,
                         "persistent-workers", persistent && workers > 0, NULL);
  config = use_memcpy ? g_strdup ("memcpy")
         : g_strdup_printf ("%s-%s%d", mode, persistent ? "persistent-" : "", workers);
  times = g_new (double, passes);
  for (int p = 0; p < passes; p++)
    {
      times[p] = use_memcpy ? memcpy_pass (gnn_idx_dataset_get_images (ds),
                                           gnn_idx_dataset_get_labels (ds), batch_size, p + 1)
                            : loader_pass (loader, n, FALSE, &error);
      if (times[p] < 0)
        {
          fprintf (stderr, "bench-data: %s: %s\n", config, error->message);
          return 1;
        }
    }
  qsort (times, passes, sizeof (double), bench_compare_doubles);
  getrusage (RUSAGE_SELF, &self_usage);
  getrusage (RUSAGE_CHILDREN, &child_usage);
  printf ("{\"type\": \"result\", \"config\": \"%s\", \"samples\": %" G_GINT64_FORMAT
          ", \"best_seconds\": %.6f, \"median_seconds\": %.6f, \"samples_per_second\": %.1f, "
          "\"maxrss_kib\": %ld, \"children_maxrss_kib\": %ld, \"first_batch_seconds\": %.6f}\n",
          config, n, times[0], times[passes / 2], n / times[0],
          self_usage.ru_maxrss, child_usage.ru_maxrss, first_batch_seconds);
  return 0;
}
