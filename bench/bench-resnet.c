/* bench-resnet.c: times Gnn's ResNet-18 (torchvision's layout)
 *
 * The C half of bench/resnet.py, which runs this program, the same model in
 * libtorch C++ (bench-libtorch resnet) and in PyTorch (torchvision's
 * resnet18), and prints them side by side. One JSON object per line:
 *
 *   {"type": "info", "threads": 1, "openblas_threads": 1}
 *   {"type": "result", "case": "train", "batch": 16, "size": 64, "steps": 5,
 *    "best_seconds": ..., "median_seconds": ..., "loss": ...}
 *
 * The cases (--case):
 *   train  one SGD step (lr 0.01, momentum 0.9) of gnn_vision_resnet18 (1000
 *          classes) in training mode on a fixed random batch of --batch
 *          images of --size × --size: zero_grad, forward, CrossEntropyLoss,
 *          backward, step, the loss read back;
 *   infer  the forward in eval mode without gradient recording.
 * One untimed step, then --steps timed steps; the best and the median step.
 * Threads: gnn_set_num_threads (OPENBLAS_NUM_THREADS's count), as bench-cnn.
 *
 * --smoke runs two tiny steps of each case and checks the loss is finite
 * (meson test); it asserts no timing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#include <gnn/gnn.h>

#include "bench-util.h"

typedef struct
{
  GnnModule           *model;
  GnnCrossEntropyLoss *criterion;
  GnnOptimizer        *optimizer;
  GnnTensor           *x, *y;
} Bench;

static gboolean
train_step (Bench   *b,
            double  *loss_out,
            GError **error)
{
  g_autoptr (GnnTensor) logits = NULL;
  g_autoptr (GnnTensor) loss = NULL;

  gnn_optimizer_zero_grad (b->optimizer, TRUE);
  logits = gnn_module_call (b->model, b->x, error);
  loss = logits ? gnn_cross_entropy_loss_compute (b->criterion, logits, b->y, error) : NULL;
  return bench_backward_step (loss, b->optimizer, 0, loss_out, error);
}

static gboolean
infer_step (Bench   *b,
            double  *loss_out,
            GError **error)
{
  g_autoptr (GnnTensor) logits = gnn_module_call (b->model, b->x, error);

  *loss_out = 0.0;
  return logits != NULL;
}

/* --steps timed steps after one untimed one: best and median into @t. */
static gboolean
time_steps (Bench    *b,
            gboolean  train,
            gint64    steps,
            double   *best,
            double   *median,
            double   *mean_loss,
            GError  **error)
{
  g_autofree double *times = g_new (double, steps);
  double loss = 0.0, sum = 0.0;

  for (gint64 s = 0; s <= steps; s++)
    {
      double start = bench_now_seconds ();

      if (!(train ? train_step (b, &loss, error) : infer_step (b, &loss, error)))
        return FALSE;
      if (s > 0)
        {
          times[s - 1] = bench_now_seconds () - start;
          sum += loss;
        }
    }
  qsort (times, (gsize) steps, sizeof (double), bench_compare_doubles);
  *best = times[0];
  *median = times[steps / 2];
  *mean_loss = sum / (double) steps;
  return TRUE;
}

static gboolean
run_case (const char *name,
          gint64      batch,
          gint64      size,
          gint64      steps,
          GError    **error)
{
  g_autoptr (GnnGenerator) gen = gnn_generator_new (0);
  g_autoptr (GnnResNet) model = gnn_vision_resnet18 (1000, error);
  g_autoptr (GnnCrossEntropyLoss) criterion = gnn_cross_entropy_loss_new (NULL, -100, GNN_REDUCTION_MEAN, 0.0);
  g_autoptr (GnnOptimizer) optimizer = NULL;
  g_autoptr (GPtrArray) params = NULL;
  g_autoptr (GnnTensor) x = NULL;
  g_autoptr (GnnTensor) y = NULL;
  g_autofree gint64 *labels = g_new (gint64, batch);
  const gint64 shape[4] = { batch, 3, size, size };
  gboolean train = g_str_equal (name, "train");
  double best, median, loss;
  Bench b;

  if (model == NULL)
    return FALSE;
  for (gint64 i = 0; i < batch; i++)
    labels[i] = (i * 37) % 1000;
  x = gnn_tensor_empty (shape, 4, GNN_DTYPE_F32, error);
  if (x == NULL || !gnn_tensor_normal_ (x, 0.0, 1.0, gen, error))
    return FALSE;
  y = gnn_tensor_new_from_data ((const guint8 *) labels, sizeof (gint64) * batch, GNN_DTYPE_I64, &batch, 1, error);
  if (y == NULL)
    return FALSE;
  params = gnn_module_named_parameters (GNN_MODULE (model), NULL, TRUE, NULL);
  optimizer = GNN_OPTIMIZER (gnn_sgd_new (params, 0.01, 0.9, 0.0, 0.0, FALSE, error));
  if (optimizer == NULL)
    return FALSE;
  b = (Bench) { GNN_MODULE (model), criterion, optimizer, x, y };
  if (train)
    {
      gnn_module_train (b.model, TRUE);
      if (!time_steps (&b, TRUE, steps, &best, &median, &loss, error))
        return FALSE;
    }
  else
    {
      g_autoptr (GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

      gnn_module_eval (b.model);
      if (!time_steps (&b, FALSE, steps, &best, &median, &loss, error))
        return FALSE;
    }
  printf ("{\"type\": \"result\", \"case\": \"%s\", \"batch\": %" G_GINT64_FORMAT ", \"size\": %" G_GINT64_FORMAT
          ", \"steps\": %" G_GINT64_FORMAT ", \"best_seconds\": %.6f, \"median_seconds\": %.6f, \"loss\": %.6f}\n",
          name, batch, size, steps, best, median, loss);
  fflush (stdout);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = NULL;
  g_autofree char *name = NULL;
  gint64 batch = 16, size = 64, steps = 5;
  gboolean smoke = FALSE;
  GOptionEntry entries[] = {
    { "case", 0, 0, G_OPTION_ARG_STRING, &name, "train or infer (default train)", "CASE" },
    { "batch", 0, 0, G_OPTION_ARG_INT64, &batch, "Images per batch (default 16)", "N" },
    { "size", 0, 0, G_OPTION_ARG_INT64, &size, "Image height and width (default 64)", "N" },
    { "steps", 0, 0, G_OPTION_ARG_INT64, &steps, "Timed steps after one untimed (default 5)", "N" },
    { "smoke", 0, 0, G_OPTION_ARG_NONE, &smoke, "Tiny sizes, both cases: checks the driver works", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("- time torchvision's ResNet-18 built from Gnn layers");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-resnet: %s\n", error->message);
      return 2;
    }
  if (name == NULL)
    name = g_strdup ("train");
  if (smoke)
    batch = 2, size = 32, steps = 2;
  if (batch < 1 || size < 32 || steps < 1 || (!g_str_equal (name, "train") && !g_str_equal (name, "infer")))
    {
      g_printerr ("bench-resnet: --case train|infer, --batch ≥ 1, --size ≥ 32, --steps ≥ 1\n");
      return 2;
    }
  gnn_set_num_threads (openblas_get_num_threads (), NULL);
  printf ("{\"type\": \"info\", \"threads\": %u, \"openblas_threads\": %d}\n", gnn_get_num_threads (),
          openblas_get_num_threads ());
  fflush (stdout);
  if (!run_case (name, batch, size, steps, &error) || (smoke && !run_case ("infer", batch, size, steps, &error)))
    {
      g_printerr ("bench-resnet: %s\n", error->message);
      return 1;
    }
  return 0;
}
