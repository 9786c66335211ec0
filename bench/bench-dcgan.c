/* bench-dcgan.c: times a training step of Gnn's DCGAN (generator and
 * discriminator)
 *
 * The C half of bench/dcgan.py, which runs this program and the same model
 * in PyTorch and prints the comparison. One JSON object per line on stdout:
 *
 *   {"type": "info", "threads": 1, "openblas_threads": 1, "steps": 5, ...}
 *   {"type": "result", "case": "train", "seconds": ..., "steps": ..., "loss_d": ..., "loss_g": ...}
 *   {"type": "result", "case": "generate", "seconds": ..., "steps": ...}
 *
 * The model is PyTorch's examples/dcgan for 64×64 images (nz 100, ngf = ndf
 * = 64, nc 3), with its weights_init (conv weights N(0, 0.02), batch-norm
 * weights N(1, 0.02), biases 0):
 *
 *   G: ConvT(100, 512, 4, 1, 0) BN ReLU, ConvT(512, 256, 4, 2, 1) BN ReLU,
 *      ConvT(256, 128) BN ReLU, ConvT(128, 64) BN ReLU, ConvT(64, 3) Tanh
 *   D: Conv(3, 64, 4, 2, 1) act, Conv(64, 128) BN act, Conv(128, 256) BN
 *      act, Conv(256, 512) BN act, Conv(512, 1, 4, 1, 0)
 *
 * (no biases). Two departures, the same on both sides: the discriminator's
 * activation is ReLU where the example has LeakyReLU(0.2), which Gnn does
 * not have in C yet; and its last Sigmoid + BCELoss is BCEWithLogitsLoss,
 * the same loss computed stably.
 *
 *   train     one step of the example: D on a real batch (target 1) and on
 *             G's batch detached (target 0), D's Adam step; D on G's batch
 *             again (target 1) through G, G's Adam step (lr 0.0002,
 *             betas (0.5, 0.999));
 *   generate  G's forward in eval mode without gradient recording.
 *
 * The real batch is uniform in [-1, 1), the noise N(0, 1). One untimed
 * warm-up step precedes the timed ones. --smoke runs a tiny model for a few
 * steps and checks the losses are finite (meson test); it asserts no
 * timing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cblas.h>

#include <gnn/gnn.h>

#include "bench-util.h"

typedef struct
{
  gint64 nz, ngf, ndf, nc, batch;
} Sizes;

/* Conv weights N(0, 0.02), batch-norm weights N(1, 0.02) and biases 0:
 * the example's weights_init, run by gnn_module_apply. */
static void
weights_init (GnnModule *module,
              gpointer   user_data)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();   /* nn.init runs under no_grad */
  GnnGenerator *gen = user_data;
  GObject *w = gnn_module_get_child (module, "weight", NULL);
  GObject *b = gnn_module_get_child (module, "bias", NULL);

  if (GNN_IS_CONV_ND (module) && w != NULL)
    gnn_tensor_normal_ (GNN_TENSOR (w), 0.0, 0.02, gen, NULL);
  else if ((GNN_IS_BATCH_NORM2D (module)) && w != NULL)
    {
      gnn_tensor_normal_ (GNN_TENSOR (w), 1.0, 0.02, gen, NULL);
      if (b != NULL)
        gnn_tensor_fill_ (GNN_TENSOR (b), 0.0, NULL);
    }
}

/* Appends @layer (taken) to @layers; FALSE if it is NULL. */
static gboolean
add (GPtrArray *layers,
     gpointer   layer)
{
  if (layer == NULL)
    return FALSE;
  g_ptr_array_add (layers, layer);
  return TRUE;
}

static GnnModule *
build_generator (const Sizes *s,
                 GError     **error)
{
  g_autoptr (GPtrArray) layers = g_ptr_array_new_with_free_func (g_object_unref);
  const gint64 channels[] = { s->nz, s->ngf * 8, s->ngf * 4, s->ngf * 2, s->ngf, s->nc };

  for (guint i = 0; i + 1 < G_N_ELEMENTS (channels); i++)
    {
      gboolean first = i == 0, last = i + 2 == G_N_ELEMENTS (channels);

      if (!add (layers, gnn_conv_transpose2d_new (channels[i], channels[i + 1], 4, first ? 1 : 2, first ? 0 : 1,
                                                  0, 1, FALSE, 1, NULL, error)))
        return NULL;
      if (last)
        g_ptr_array_add (layers, gnn_tanh_new ());
      else if (!add (layers, gnn_batch_norm2d_new (channels[i + 1], 1e-5, 0.1, TRUE, TRUE, error)))
        return NULL;
      else
        g_ptr_array_add (layers, gnn_relu_new (TRUE));
    }
  return GNN_MODULE (gnn_sequential_new ((GnnModule **) layers->pdata, layers->len));
}

static GnnModule *
build_discriminator (const Sizes *s,
                     GError     **error)
{
  g_autoptr (GPtrArray) layers = g_ptr_array_new_with_free_func (g_object_unref);
  const gint64 channels[] = { s->nc, s->ndf, s->ndf * 2, s->ndf * 4, s->ndf * 8, 1 };

  for (guint i = 0; i + 1 < G_N_ELEMENTS (channels); i++)
    {
      gboolean last = i + 2 == G_N_ELEMENTS (channels);

      if (!add (layers, gnn_conv2d_new (channels[i], channels[i + 1], 4, last ? 1 : 2, last ? 0 : 1, FALSE,
                                        error)))
        return NULL;
      if (last)
        break;
      if (i > 0 && !add (layers, gnn_batch_norm2d_new (channels[i + 1], 1e-5, 0.1, TRUE, TRUE, error)))
        return NULL;
      g_ptr_array_add (layers, gnn_relu_new (TRUE));
    }
  return GNN_MODULE (gnn_sequential_new ((GnnModule **) layers->pdata, layers->len));
}

typedef struct
{
  Sizes                 s;
  GnnModule            *g, *d;
  GnnOptimizer         *opt_g, *opt_d;
  GnnBCEWithLogitsLoss *criterion;
  GnnGenerator         *gen;
  GnnTensor            *real, *noise, *ones, *zeros;
} Bench;

/* criterion (D (x).view (-1), target), backpropagated. */
static gboolean
d_loss_backward (Bench      *b,
                 GnnTensor  *x,
                 GnnTensor  *target,
                 double     *loss_out,
                 GError    **error)
{
  const gint64 flat[] = { -1 };
  g_autoptr (GnnTensor) out = gnn_module_call (b->d, x, error);
  g_autoptr (GnnTensor) logits = out ? gnn_tensor_view (out, flat, 1, error) : NULL;
  g_autoptr (GnnTensor) loss = logits ? gnn_bce_with_logits_loss_compute (b->criterion, logits, target, error)
                                      : NULL;

  if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error))
    return FALSE;
  *loss_out = gnn_tensor_item (loss, NULL);
  return TRUE;
}

static gboolean
train_step (Bench   *b,
            double  *loss_d,
            double  *loss_g,
            GError **error)
{
  g_autoptr (GnnTensor) fake = NULL;
  g_autoptr (GnnTensor) detached = NULL;
  double real_loss, fake_loss;

  gnn_optimizer_zero_grad (b->opt_d, TRUE);
  if (!d_loss_backward (b, b->real, b->ones, &real_loss, error) ||
      !gnn_tensor_normal_ (b->noise, 0.0, 1.0, b->gen, error) ||
      (fake = gnn_module_call (b->g, b->noise, error)) == NULL)
    return FALSE;
  detached = gnn_tensor_detach (fake);
  if (!d_loss_backward (b, detached, b->zeros, &fake_loss, error) ||
      !gnn_optimizer_step (b->opt_d, error))
    return FALSE;
  gnn_optimizer_zero_grad (b->opt_g, TRUE);
  if (!d_loss_backward (b, fake, b->ones, loss_g, error) || !gnn_optimizer_step (b->opt_g, error))
    return FALSE;
  *loss_d = real_loss + fake_loss;
  if (!isfinite (*loss_d) || !isfinite (*loss_g))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "losses %g, %g", *loss_d, *loss_g);
      return FALSE;
    }
  return TRUE;
}

static gboolean
time_train (Bench   *b,
            gint64   steps,
            double  *seconds,
            double  *loss_d,
            double  *loss_g,
            GError **error)
{
  double start;

  gnn_module_train (b->g, TRUE);
  gnn_module_train (b->d, TRUE);
  if (!train_step (b, loss_d, loss_g, error))
    return FALSE;
  start = bench_now_seconds ();
  for (gint64 i = 0; i < steps; i++)
    if (!train_step (b, loss_d, loss_g, error))
      return FALSE;
  *seconds = bench_now_seconds () - start;
  return TRUE;
}

static gboolean
time_generate (Bench   *b,
               gint64   steps,
               double  *seconds,
               GError **error)
{
  g_autoptr (GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  double start = 0;

  gnn_module_eval (b->g);
  for (gint64 i = -1; i < steps; i++)
    {
      g_autoptr (GnnTensor) fake = NULL;

      if (i == 0)
        start = bench_now_seconds ();
      if ((fake = gnn_module_call (b->g, b->noise, error)) == NULL)
        return FALSE;
    }
  *seconds = bench_now_seconds () - start;
  return TRUE;
}

static GnnOptimizer *
adam (GnnModule *model,
      GError   **error)
{
  g_autoptr (GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);

  return GNN_OPTIMIZER (gnn_adam_new (params, 0.0002, 0.5, 0.999, 1e-8, 0.0, FALSE, error));
}

static void
bench_clear (Bench *b)
{
  g_clear_object (&b->g);
  g_clear_object (&b->d);
  g_clear_object (&b->opt_g);
  g_clear_object (&b->opt_d);
  g_clear_object (&b->criterion);
  g_clear_object (&b->gen);
  g_clear_object (&b->real);
  g_clear_object (&b->noise);
  g_clear_object (&b->ones);
  g_clear_object (&b->zeros);
}

static gboolean
bench_init (Bench   *b,
            gint64   seed,
            GError **error)
{
  const Sizes *s = &b->s;
  const gint64 image[] = { s->batch, s->nc, 64, 64 }, noise[] = { s->batch, s->nz, 1, 1 };

  b->gen = gnn_generator_new ((guint64) seed);
  if ((b->g = build_generator (s, error)) == NULL || (b->d = build_discriminator (s, error)) == NULL)
    return FALSE;
  gnn_module_apply (b->g, weights_init, b->gen);
  gnn_module_apply (b->d, weights_init, b->gen);
  b->criterion = gnn_bce_with_logits_loss_new (NULL, NULL, GNN_REDUCTION_MEAN);
  b->real = gnn_tensor_empty (image, 4, GNN_DTYPE_F32, error);
  b->noise = b->real ? gnn_tensor_empty (noise, 4, GNN_DTYPE_F32, error) : NULL;
  b->ones = b->noise ? gnn_tensor_full (&s->batch, 1, 1.0, GNN_DTYPE_F32, error) : NULL;
  b->zeros = b->ones ? gnn_tensor_full (&s->batch, 1, 0.0, GNN_DTYPE_F32, error) : NULL;
  return b->zeros != NULL && gnn_tensor_uniform_ (b->real, -1.0, 1.0, b->gen, error) &&
         gnn_tensor_normal_ (b->noise, 0.0, 1.0, b->gen, error) &&
         (b->opt_g = adam (b->g, error)) != NULL && (b->opt_d = adam (b->d, error)) != NULL;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = NULL;
  gint64 steps = 5, seed = 0;
  gboolean smoke = FALSE, openblas_pool = FALSE;
  double train_s = 0, gen_s = 0, loss_d = 0, loss_g = 0;
  Bench b = { .s = { 100, 64, 64, 3, 64 } };
  GOptionEntry entries[] = {
    { "steps", 0, 0, G_OPTION_ARG_INT64, &steps, "Training steps to time (default 5)", "N" },
    { "batch-size", 0, 0, G_OPTION_ARG_INT64, &b.s.batch, "Batch size (default 64)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Initialization seed (default 0)", "N" },
    { "smoke", 0, 0, G_OPTION_ARG_NONE, &smoke, "A tiny model for 2 steps: checks the driver works", NULL },
    { "openblas-pool", 0, 0, G_OPTION_ARG_NONE, &openblas_pool,
      "Do not call gnn_set_num_threads: products on OpenBLAS's own threads", NULL },
    { NULL }
  };

  context = g_option_context_new ("- time a DCGAN training step");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-dcgan: %s\n", error->message);
      return 2;
    }
  if (smoke)
    steps = 2, b.s = (Sizes) { 8, 4, 4, 3, 2 };
  if (b.s.batch < 1 || steps < 1)
    {
      g_printerr ("bench-dcgan: --batch-size and --steps must be positive\n");
      return 2;
    }
  if (!openblas_pool)
    gnn_set_num_threads (openblas_get_num_threads (), NULL);
  if (!bench_init (&b, seed, &error))
    {
      g_printerr ("bench-dcgan: %s\n", error->message);
      bench_clear (&b);
      return 1;
    }
  printf ("{\"type\": \"info\", \"threads\": %u, \"openblas_threads\": %d, \"steps\": %" G_GINT64_FORMAT
          ", \"batch_size\": %" G_GINT64_FORMAT "}\n", gnn_get_num_threads (), openblas_get_num_threads (),
          steps, b.s.batch);
  fflush (stdout);
  if (!time_train (&b, steps, &train_s, &loss_d, &loss_g, &error) || !time_generate (&b, steps, &gen_s, &error))
    {
      g_printerr ("bench-dcgan: %s\n", error->message);
      bench_clear (&b);
      return 1;
    }
  printf ("{\"type\": \"result\", \"case\": \"train\", \"seconds\": %.6f, \"steps\": %" G_GINT64_FORMAT
          ", \"loss_d\": %.6f, \"loss_g\": %.6f}\n", train_s, steps, loss_d, loss_g);
  printf ("{\"type\": \"result\", \"case\": \"generate\", \"seconds\": %.6f, \"steps\": %" G_GINT64_FORMAT "}\n",
          gen_s, steps);
  bench_clear (&b);
  return 0;
}
