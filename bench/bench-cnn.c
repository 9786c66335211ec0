/* bench-cnn.c: times Gnn's CNN of `gnn-train --model cnn`
 *
 * The C half of bench/cnn.py, which runs this program and the same model in
 * PyTorch and prints the comparison. One JSON object per line on stdout:
 *
 *   {"type": "info", "threads": 2, "openblas_threads": 1, "batches": 100, ...}
 *   {"type": "result", "case": "train", "seconds": ..., "batches": ..., "loss": ...}
 *   {"type": "result", "case": "forward", "seconds": ..., "batches": ...}
 *
 * The model: Conv(1, 32, 3, pad 1)-MaxPool(2)-ReLU-Conv(32, 64, 3, pad 1)-
 * MaxPool(2)-ReLU-Flatten-Linear(3136, 128)-ReLU-Linear(128, 10), ReLUs in
 * place, as tools/gnn-train.c builds it. The data: the first --batches ×
 * --batch-size Fashion-MNIST training images (normalized like gnn-train),
 * taken in order (no shuffling, no loader: the loader has its own
 * benchmark), so both sides see the same batches.
 *
 *   train    one pass over those batches: zero_grad, forward,
 *            CrossEntropyLoss, backward, SGD (lr 0.01, momentum 0.9) step;
 *   forward  the same batches in eval mode without gradient recording.
 *
 * Threads: gnn_set_num_threads (OPENBLAS_NUM_THREADS's count), so Gnn's
 * loops and products share one pool; --openblas-pool leaves the products on
 * OpenBLAS's own threads (a program that never calls it).
 *
 * One untimed warm-up batch of each precedes the timed pass. --smoke runs a
 * few tiny batches of random data and checks the loss is finite (meson test);
 * it asserts no timing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cblas.h>

#include <gnn/gnn.h>

#include "bench-util.h"

#define PIXEL_MEAN 0.2860
#define PIXEL_STD  0.3530

/* The layers in order; gnn_sequential_new() takes its own references. */
static GnnModule *
build_cnn (GnnGenerator *gen,
           GError      **error)
{
  g_autoptr (GPtrArray) layers = g_ptr_array_new_with_free_func (g_object_unref);
  const gint64 channels[] = { 1, 32, 64 };
  GnnLinear *fc;

  for (guint i = 0; i + 1 < G_N_ELEMENTS (channels); i++)
    {
      GnnConv2d *conv = gnn_conv2d_new_full (channels[i], channels[i + 1], 3, 3, 1, 1, 1, 1, 1, 1, 1,
                                             TRUE, gen, error);
      GnnMaxPool2d *pool = conv != NULL ? gnn_max_pool2d_new (2, 2, 0, 1, FALSE, error) : NULL;

      if (conv != NULL)
        g_ptr_array_add (layers, conv);
      if (pool == NULL)
        return NULL;
      g_ptr_array_add (layers, pool);
      g_ptr_array_add (layers, gnn_relu_new (TRUE));
    }
  g_ptr_array_add (layers, gnn_flatten_new (1, -1));
  if ((fc = gnn_linear_new (64 * 7 * 7, 128, TRUE, gen, error)) == NULL)
    return NULL;
  g_ptr_array_add (layers, fc);
  g_ptr_array_add (layers, gnn_relu_new (TRUE));
  if ((fc = gnn_linear_new (128, 10, TRUE, gen, error)) == NULL)
    return NULL;
  g_ptr_array_add (layers, fc);
  return GNN_MODULE (gnn_sequential_new ((GnnModule **) layers->pdata, layers->len));
}

/* The first @n training images [n, 1, 28, 28] (normalized) and labels [n]. */
static gboolean
load_data (const char *dir,
           gint64      n,
           GnnTensor **images_out,
           GnnTensor **labels_out,
           GError    **error)
{
  g_autofree char *ipath = g_build_filename (dir, "train-images-idx3-ubyte.gz", NULL);
  g_autofree char *lpath = g_build_filename (dir, "train-labels-idx1-ubyte.gz", NULL);
  g_autoptr (GnnIdxDataset) idx = gnn_idx_dataset_new (ipath, lpath, error);
  g_autoptr (GnnTensor) images = NULL;
  g_autoptr (GnnTensor) labels = NULL;
  g_autoptr (GnnTensor) scale = gnn_tensor_new_scalar (1.0 / PIXEL_STD, GNN_DTYPE_F32);
  g_autoptr (GnnTensor) shift = gnn_tensor_new_scalar (-PIXEL_MEAN / PIXEL_STD, GNN_DTYPE_F32);
  g_autoptr (GnnTensor) normalized = NULL;
  const gint64 shape[4] = { n, 1, 28, 28 };

  if (idx == NULL)
    return FALSE;
  images = gnn_tensor_narrow (gnn_idx_dataset_get_images (idx), 0, 0, n, error);
  labels = images ? gnn_tensor_narrow (gnn_idx_dataset_get_labels (idx), 0, 0, n, error) : NULL;
  if (labels == NULL)
    return FALSE;
  normalized = gnn_tensor_clone (images);
  if (!gnn_tensor_mul_ (normalized, scale, error) || !gnn_tensor_add_ (normalized, shift, error))
    return FALSE;
  *images_out = gnn_tensor_reshape (normalized, shape, 4, error);
  *labels_out = *images_out ? gnn_tensor_contiguous (labels) : NULL;
  return *images_out != NULL;
}

/* Random images and labels (for --smoke). */
static gboolean
random_data (gint64        n,
             GnnGenerator *gen,
             GnnTensor   **images_out,
             GnnTensor   **labels_out,
             GError      **error)
{
  const gint64 shape[4] = { n, 1, 28, 28 };
  g_autofree gint64 *labels = g_new (gint64, n);

  for (gint64 i = 0; i < n; i++)
    labels[i] = (i * 7) % 10;
  *images_out = gnn_tensor_empty (shape, 4, GNN_DTYPE_F32, error);
  if (*images_out == NULL || !gnn_tensor_normal_ (*images_out, 0.0, 1.0, gen, error))
    return FALSE;
  *labels_out = gnn_tensor_new_from_data ((const guint8 *) labels, sizeof (gint64) * n, GNN_DTYPE_I64,
                                          &n, 1, error);
  return *labels_out != NULL;
}

typedef struct
{
  GnnModule           *model;
  GnnCrossEntropyLoss *criterion;
  GnnOptimizer        *optimizer;
  GnnTensor           *images, *labels;
  gint64               batch;
} Bench;

/* Trains on batch @i; its loss goes to @loss_out. */
static gboolean
train_step (Bench   *b,
            gint64   i,
            double  *loss_out,
            GError **error)
{
  g_autoptr (GnnTensor) x = gnn_tensor_narrow (b->images, 0, i * b->batch, b->batch, error);
  g_autoptr (GnnTensor) y = x ? gnn_tensor_narrow (b->labels, 0, i * b->batch, b->batch, error) : NULL;
  g_autoptr (GnnTensor) logits = NULL;
  g_autoptr (GnnTensor) loss = NULL;

  if (y == NULL)
    return FALSE;
  gnn_optimizer_zero_grad (b->optimizer, TRUE);
  logits = gnn_module_call (b->model, x, error);
  loss = logits ? gnn_cross_entropy_loss_compute (b->criterion, logits, y, error) : NULL;
  return bench_backward_step (loss, b->optimizer, i, loss_out, error);
}

static gboolean
forward_step (Bench   *b,
              gint64   i,
              GError **error)
{
  g_autoptr (GnnTensor) x = gnn_tensor_narrow (b->images, 0, i * b->batch, b->batch, error);
  g_autoptr (GnnTensor) logits = x ? gnn_module_call (b->model, x, error) : NULL;

  return logits != NULL;
}

/* Times one pass of @batches training steps (after one warm-up step). */
static gboolean
time_train (Bench   *b,
            gint64   batches,
            double  *seconds,
            double  *mean_loss,
            GError **error)
{
  double start, loss = 0.0, sum = 0.0;

  gnn_module_train (b->model, TRUE);
  if (!train_step (b, 0, &loss, error))
    return FALSE;
  start = bench_now_seconds ();
  for (gint64 i = 0; i < batches; i++)
    {
      if (!train_step (b, i, &loss, error))
        return FALSE;
      sum += loss;
    }
  *seconds = bench_now_seconds () - start;
  *mean_loss = sum / (double) batches;
  return TRUE;
}

static gboolean
time_forward (Bench   *b,
              gint64   batches,
              double  *seconds,
              GError **error)
{
  g_autoptr (GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  double start;

  gnn_module_eval (b->model);
  if (!forward_step (b, 0, error))
    return FALSE;
  start = bench_now_seconds ();
  for (gint64 i = 0; i < batches; i++)
    if (!forward_step (b, i, error))
      return FALSE;
  *seconds = bench_now_seconds () - start;
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GnnGenerator) gen = NULL;
  g_autoptr (GnnModule) model = NULL;
  g_autoptr (GnnCrossEntropyLoss) criterion = NULL;
  g_autoptr (GnnOptimizer) optimizer = NULL;
  g_autoptr (GnnTensor) images = NULL;
  g_autoptr (GnnTensor) labels = NULL;
  g_autoptr (GPtrArray) params = NULL;
  g_autofree char *data_dir = g_strdup ("/usr/share/datasets/fashion-mnist");
  gint64 batches = 0, batch = 64, seed = 0;
  gboolean smoke = FALSE, openblas_pool = FALSE, ok;
  double train_s = 0, fwd_s = 0, loss = 0;
  Bench b;
  GOptionEntry entries[] = {
    { "batches", 0, 0, G_OPTION_ARG_INT64, &batches, "Batches to time (default: the whole epoch)", "N" },
    { "batch-size", 0, 0, G_OPTION_ARG_INT64, &batch, "Batch size (default 64)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Initialization seed (default 0)", "N" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &data_dir, "Fashion-MNIST directory", "DIR" },
    { "smoke", 0, 0, G_OPTION_ARG_NONE, &smoke, "Random data, tiny sizes: checks the driver works", NULL },
    { "openblas-pool", 0, 0, G_OPTION_ARG_NONE, &openblas_pool,
      "Do not call gnn_set_num_threads: products on OpenBLAS's own threads", NULL },
    { NULL }
  };

  context = g_option_context_new ("- time the gnn-train CNN");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-cnn: %s\n", error->message);
      return 2;
    }
  if (smoke)
    batches = 3, batch = 4;
  if (batch < 1 || batches < 0)
    {
      g_printerr ("bench-cnn: --batch-size must be positive and --batches not negative\n");
      return 2;
    }
  gen = gnn_generator_new ((guint64) seed);
  if (smoke)
    ok = random_data (batches * batch, gen, &images, &labels, &error);
  else
    {
      if (batches == 0)
        batches = 60000 / batch;
      batches = MIN (batches, 60000 / batch);
      ok = load_data (data_dir, batches * batch, &images, &labels, &error);
    }
  model = ok ? build_cnn (gen, &error) : NULL;
  if (model == NULL)
    {
      g_printerr ("bench-cnn: %s\n", error->message);
      return 1;
    }
  params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  criterion = gnn_cross_entropy_loss_new (NULL, -100, GNN_REDUCTION_MEAN, 0.0);
  optimizer = GNN_OPTIMIZER (gnn_sgd_new (params, 0.01, 0.9, 0.0, 0.0, FALSE, &error));
  g_assert_no_error (error);
  b = (Bench) { model, criterion, optimizer, images, labels, batch };

  /* one pool for Gnn's loops and its products, as many threads as
   * OPENBLAS_NUM_THREADS says (bench/cnn.py sets it for both sides) */
  if (!openblas_pool)
    gnn_set_num_threads (openblas_get_num_threads (), NULL);
  printf ("{\"type\": \"info\", \"threads\": %u, \"openblas_threads\": %d, \"batches\": %" G_GINT64_FORMAT
          ", \"batch_size\": %" G_GINT64_FORMAT "}\n", gnn_get_num_threads (), openblas_get_num_threads (),
          batches, batch);
  fflush (stdout);
  if (!time_train (&b, batches, &train_s, &loss, &error) || !time_forward (&b, batches, &fwd_s, &error))
    {
      g_printerr ("bench-cnn: %s\n", error->message);
      return 1;
    }
  printf ("{\"type\": \"result\", \"case\": \"train\", \"seconds\": %.6f, \"batches\": %" G_GINT64_FORMAT
          ", \"loss\": %.6f}\n", train_s, batches, loss);
  printf ("{\"type\": \"result\", \"case\": \"forward\", \"seconds\": %.6f, \"batches\": %" G_GINT64_FORMAT
          "}\n", fwd_s, batches);
  return 0;
}
