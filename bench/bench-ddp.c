/* bench-ddp.c: the C driver of bench/ddp.py (run under mpirun)
 *
 *   mpirun -np N bench-ddp allreduce [--max-bytes B]   Gnn all_reduce vs MPI_Allreduce
 *   mpirun -np N bench-ddp train mlp|cnn [--steps S] [--batch B] [--no-ddp] [--grad-view]
 *   bench-ddp --smoke                                   tiny sizes, checks results
 *
 * Rank 0 prints one JSON line per measurement. allreduce: for each size the
 * best of 7 timed loops of Gnn's all_reduce + wait (through the
 * communication thread) and of MPI_Allreduce called directly on the same
 * communicator size (the engine's limit), the two alternated; bandwidth is PyTorch's "algbw",
 * bytes / seconds. train: SGD steps on synthetic Fashion-MNIST-shaped data
 * (batch per rank), DDP-wrapped unless --no-ddp (--grad-view: with
 * gradient_as_bucket_view); steps/s after warm-up, all
 * ranks started together by a barrier.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include <mpi.h>
#include <gnn/gnn.h>

#include "bench-util.h"

static GnnProcessGroup *pg;
static int rank, world;

static void
die (const char *what, GError *error)
{
  fprintf (stderr, "bench-ddp: %s: %s\n", what, error ? error->message : "failed");
  exit (1);
}

static void
wait_or_die (GnnWork *work, GError *error)
{
  if (work == NULL || !gnn_work_wait (work, -1, &error))
    die ("collective", error);
  g_object_unref (work);
}

static void
barrier (void)
{
  GError *error = NULL;

  wait_or_die (gnn_process_group_barrier (pg, &error), error);
}

typedef struct { GnnTensor *tensor; float *raw; gint64 n; } Buffers;

static void
gnn_op (Buffers *b)
{
  GError *error = NULL;

  wait_or_die (gnn_process_group_all_reduce (pg, b->tensor, GNN_REDUCE_OP_SUM, &error), error);
}

/* MPI_Allreduce from this thread: the Gnn communication thread is idle
 * between collectives, so MPI_THREAD_SERIALIZED holds. */
static void
raw_op (Buffers *b)
{
  MPI_Allreduce (MPI_IN_PLACE, b->raw, (int) b->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

/* MPI_Iallreduce polled with MPI_Test on this thread: what a design
 * without the communication thread that still keeps the timeout (a
 * deadline checked between polls) would pay; the poll itself is free. */
static void
polled_op (Buffers *b)
{
  MPI_Request request;
  int done = 0;

  MPI_Iallreduce (MPI_IN_PLACE, b->raw, (int) b->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &request);
  while (!done)
    MPI_Test (&request, &done, MPI_STATUS_IGNORE);
}

/* Seconds per call of @op, one loop of @iters calls started on all ranks
 * together. */
static double
time_loop (void (*op) (Buffers *), Buffers *b, int iters)
{
  double start;

  barrier ();
  start = bench_now_seconds ();
  for (int i = 0; i < iters; i++)
    op (b);
  return (bench_now_seconds () - start) / iters;
}

/* The best of 7 loops each of Gnn's all_reduce, of MPI_Allreduce and of
 * MPI_Iallreduce + MPI_Test, alternated so that load from other processes
 * hits them alike. */
static void
time_best (Buffers *b, int iters, double *gnn, double *raw, double *polled)
{
  *gnn = *raw = *polled = G_MAXDOUBLE;
  for (int rep = 0; rep < 7; rep++)
    {
      /* one call each: MIN () would evaluate a collective twice */
      double g = time_loop (gnn_op, b, iters);
      double r = time_loop (raw_op, b, iters);
      double p = time_loop (polled_op, b, iters);

      *gnn = MIN (*gnn, g);
      *raw = MIN (*raw, r);
      *polled = MIN (*polled, p);
    }
}

static int
run_allreduce (gint64 max_bytes, gboolean smoke)
{
  for (gint64 bytes = 1024; bytes <= max_bytes; bytes *= 4)
    {
      gint64 n = bytes / 4;
      g_autoptr(GnnTensor) t = gnn_tensor_ones (&n, 1, GNN_DTYPE_F32, NULL);
      /* MPI_Allreduce works on the tensor's own memory: the same pages
       * (huge pages from 4 MiB) for both, only the hand-off differs */
      float *raw = gnn_tensor_get_data (t);
      int iters = (int) CLAMP ((64 << 20) / bytes, 2, 200);
      double g, r, p;

      if (smoke)
        {
          GError *error = NULL;

          wait_or_die (gnn_process_group_all_reduce (pg, t, GNN_REDUCE_OP_SUM, &error), error);
          if (((float *) gnn_tensor_get_data (t))[n - 1] != (float) world)
            die ("smoke: wrong all_reduce result", NULL);
          iters = 1;
        }
      time_best (&(Buffers) { t, raw, n }, iters, &g, &r, &p);
      if (rank == 0)
        printf ("{\"kind\": \"allreduce\", \"ranks\": %d, \"bytes\": %" G_GINT64_FORMAT
                ", \"gnn_seconds\": %.9g, \"mpi_seconds\": %.9g, \"polled_seconds\": %.9g"
                ", \"gnn_gbps\": %.6g, \"mpi_gbps\": %.6g, \"polled_gbps\": %.6g}\n",
                world, bytes, g, r, p, bytes / g / 1e9, bytes / r / 1e9, bytes / p / 1e9);
      fflush (stdout);
    }
  return 0;
}

static GnnModule *
build_model (const char *name, GnnGenerator *gen)
{
  g_autoptr(GPtrArray) layers = g_ptr_array_new_with_free_func (g_object_unref);
  GnnModule *seq;

  if (strcmp (name, "cnn") == 0)
    {
      g_ptr_array_add (layers, gnn_conv2d_new (1, 32, 3, 1, 1, TRUE, NULL));
      g_ptr_array_add (layers, gnn_max_pool2d_new (2, 2, 0, 1, FALSE, NULL));
      g_ptr_array_add (layers, gnn_relu_new (TRUE));
      g_ptr_array_add (layers, gnn_conv2d_new (32, 64, 3, 1, 1, TRUE, NULL));
      g_ptr_array_add (layers, gnn_max_pool2d_new (2, 2, 0, 1, FALSE, NULL));
      g_ptr_array_add (layers, gnn_relu_new (TRUE));
      g_ptr_array_add (layers, gnn_flatten_new (1, -1));
      g_ptr_array_add (layers, gnn_linear_new (3136, 128, TRUE, gen, NULL));
      g_ptr_array_add (layers, gnn_relu_new (TRUE));
      g_ptr_array_add (layers, gnn_linear_new (128, 10, TRUE, gen, NULL));
    }
  else
    {
      g_ptr_array_add (layers, gnn_linear_new (784, 256, TRUE, gen, NULL));
      g_ptr_array_add (layers, gnn_relu_new (TRUE));
      g_ptr_array_add (layers, gnn_linear_new (256, 128, TRUE, gen, NULL));
      g_ptr_array_add (layers, gnn_relu_new (TRUE));
      g_ptr_array_add (layers, gnn_linear_new (128, 10, TRUE, gen, NULL));
    }
  for (guint i = 0; i < layers->len; i++)
    if (g_ptr_array_index (layers, i) == NULL)
      die ("building the model", NULL);
  seq = GNN_MODULE (gnn_sequential_new ((GnnModule **) layers->pdata, layers->len));
  return seq;
}

static int
run_train (const char *name, int steps, gint64 batch, gboolean use_ddp, gboolean grad_view)
{
  GError *error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1 + rank);
  g_autoptr(GnnModule) model = build_model (name, gen);
  g_autoptr(GnnModule) trained =
    use_ddp ? g_initable_new (GNN_TYPE_DISTRIBUTED_DATA_PARALLEL, NULL, &error, "module", model,
                              "process-group", pg, "gradient-as-bucket-view", grad_view, NULL)
            : g_object_ref (model);
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.01, 0.9, 0, 0, FALSE, &error));
  g_autoptr(GnnCrossEntropyLoss) ce = gnn_cross_entropy_loss_new (NULL, -100, GNN_REDUCTION_MEAN, 0.0);
  gboolean cnn = strcmp (name, "cnn") == 0;
  gint64 xshape[4] = { batch, 1, 28, 28 }, mshape[2] = { batch, 784 };
  g_autoptr(GnnTensor) x = gnn_tensor_empty (cnn ? xshape : mshape, cnn ? 4 : 2, GNN_DTYPE_F32, NULL);
  g_autoptr(GnnTensor) y = NULL;
  g_autofree gint64 *labels = g_new (gint64, batch);
  double start = 0;

  if (trained == NULL || opt == NULL)
    die ("setting up", error);
  gnn_tensor_normal_ (x, 0, 1, gen, NULL);
  for (gint64 i = 0; i < batch; i++)
    labels[i] = (i * 7 + rank) % 10;
  y = gnn_tensor_new_from_int64s (labels, batch, &batch, 1, NULL);
  for (int s = -3; s < steps; s++)
    {
      g_autoptr(GnnTensor) logits = NULL;
      g_autoptr(GnnTensor) loss = NULL;

      if (s == 0)
        {
          barrier ();
          start = bench_now_seconds ();
        }
      gnn_optimizer_zero_grad (opt, TRUE);
      logits = gnn_module_call (trained, x, &error);
      loss = logits ? gnn_cross_entropy_loss_compute (ce, logits, y, &error) : NULL;
      if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, &error) ||
          !gnn_optimizer_step (opt, &error))
        die ("training step", error);
    }
  barrier ();
  if (rank == 0)
    {
      double secs = bench_now_seconds () - start;

      printf ("{\"kind\": \"train\", \"model\": \"%s\", \"ranks\": %d, \"ddp\": %s, \"grad_view\": %s, "
              "\"batch_per_rank\": %" G_GINT64_FORMAT ", \"steps\": %d, \"seconds\": %.6g, \"steps_per_s\": %.6g, "
              "\"samples_per_s\": %.6g}\n",
              name, world, use_ddp ? "true" : "false", grad_view ? "true" : "false", batch, steps, secs, steps / secs,
              steps * batch * world / secs);
      fflush (stdout);
    }
  return 0;
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  gboolean smoke = argc > 1 && strcmp (argv[1], "--smoke") == 0;
  const char *mode = smoke ? "smoke" : argc > 1 ? argv[1] : "";
  gint64 max_bytes = 64 << 20, batch = 64;
  int steps = 50;
  gboolean no_ddp = FALSE, grad_view = FALSE;
  const char *model = "mlp";

  for (int i = 2; i < argc; i++)
    {
      if (strcmp (argv[i], "--max-bytes") == 0 && i + 1 < argc)
        max_bytes = g_ascii_strtoll (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--steps") == 0 && i + 1 < argc)
        steps = atoi (argv[++i]);
      else if (strcmp (argv[i], "--batch") == 0 && i + 1 < argc)
        batch = g_ascii_strtoll (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--no-ddp") == 0)
        no_ddp = TRUE;
      else if (strcmp (argv[i], "--grad-view") == 0)
        grad_view = TRUE;
      else
        model = argv[i];
    }
  pg = gnn_init_process_group ("mpi", &error);
  if (pg == NULL)
    die ("init_process_group", error);
  rank = gnn_process_group_get_rank (pg);
  world = gnn_process_group_get_world_size (pg);
  if (smoke)
    return run_allreduce (16 << 10, TRUE) || run_train ("mlp", 2, 8, TRUE, FALSE) ||
           run_train ("mlp", 2, 8, TRUE, TRUE);
  if (strcmp (mode, "allreduce") == 0)
    return run_allreduce (max_bytes, FALSE);
  if (strcmp (mode, "train") == 0)
    return run_train (model, steps, batch, !no_ddp, grad_view);
  fprintf (stderr, "usage: bench-ddp allreduce|train [mlp|cnn] [--steps S] [--batch B] [--no-ddp] "
           "[--grad-view] | --smoke\n");
  return 2;
}
