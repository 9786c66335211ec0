/* dcgan.c: PyTorch's examples/dcgan training loop in C, on FakeData
 *
 * The same program as tests/python/programs/dcgan.py, step for step: a
 * generator of transposed convolutions (noise nz × 1 × 1 → 1 × 28 × 28,
 * BatchNorm + ReLU, Tanh), a discriminator of convolutions (LeakyReLU 0.2,
 * BatchNorm, Sigmoid), the example's weights_init (conv weights N(0, 0.02),
 * batch-norm weights N(1, 0.02) and biases 0), BCELoss, and two Adam
 * optimizers (lr 0.0002, betas (0.5, 0.999)). Each step updates D on a real
 * batch (label 1) and on G's batch detached (label 0), then G through D
 * (label 1), and prints torch's progress line. The images are
 * torchvision's FakeData through ToTensor + Normalize((0.5,), (0.5,)) in a
 * DataLoader.
 *
 * Run as a test (meson test --suite examples): a few steps of a small
 * model; it exits 1 unless every loss is finite and D's outputs are
 * probabilities. Usage: gnn-example-dcgan [STEPS]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gnn/gnn.h>

#define NZ 16
#define NGF 8
#define NDF 8
#define BATCH 16

/* weights_init, applied to every module as netG.apply(weights_init) does. */
static void
weights_init (GnnModule *module,
              gpointer   generator)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  GObject *weight = gnn_module_get_child (module, "weight", NULL);
  GObject *bias = gnn_module_get_child (module, "bias", NULL);

  if (GNN_IS_CONV_ND (module))
    gnn_tensor_normal_ (GNN_TENSOR (weight), 0.0, 0.02, generator, NULL);
  else if (GNN_IS_BATCH_NORM2D (module))
    {
      gnn_tensor_normal_ (GNN_TENSOR (weight), 1.0, 0.02, generator, NULL);
      gnn_tensor_fill_ (GNN_TENSOR (bias), 0.0, NULL);
    }
}

/* A Sequential of @layers (NULL-terminated, taken); NULL if one failed. */
static GnnModule *
sequential (GnnModule **layers,
            guint       n)
{
  GnnModule *seq = NULL;

  for (guint i = 0; i < n; i++)
    if (layers[i] == NULL)
      goto out;
  seq = GNN_MODULE (gnn_sequential_new (layers, n));
out:
  for (guint i = 0; i < n; i++)
    g_clear_object (&layers[i]);
  return seq;
}

static GnnModule *
generator_new (GError **error)
{
  GnnModule *layers[] = {
    /* nz × 1 × 1 → (ngf·4) × 7 × 7 */
    GNN_MODULE (gnn_conv_transpose2d_new (NZ, NGF * 4, 7, 1, 0, 0, 1, FALSE, 1, NULL, error)),
    GNN_MODULE (gnn_batch_norm2d_new (NGF * 4, 1e-5, 0.1, TRUE, TRUE, error)),
    GNN_MODULE (gnn_relu_new (TRUE)),
    /* → (ngf·2) × 14 × 14 */
    GNN_MODULE (gnn_conv_transpose2d_new (NGF * 4, NGF * 2, 4, 2, 1, 0, 1, FALSE, 1, NULL, error)),
    GNN_MODULE (gnn_batch_norm2d_new (NGF * 2, 1e-5, 0.1, TRUE, TRUE, error)),
    GNN_MODULE (gnn_relu_new (TRUE)),
    /* → 1 × 28 × 28 */
    GNN_MODULE (gnn_conv_transpose2d_new (NGF * 2, 1, 4, 2, 1, 0, 1, FALSE, 1, NULL, error)),
    GNN_MODULE (gnn_tanh_new ()),
  };

  return sequential (layers, G_N_ELEMENTS (layers));
}

static GnnModule *
discriminator_new (GError **error)
{
  GnnModule *layers[] = {
    /* 1 × 28 × 28 → ndf × 14 × 14 */
    GNN_MODULE (gnn_conv2d_new (1, NDF, 4, 2, 1, FALSE, error)),
    GNN_MODULE (gnn_leaky_relu_new (0.2, TRUE)),
    /* → (ndf·2) × 7 × 7 */
    GNN_MODULE (gnn_conv2d_new (NDF, NDF * 2, 4, 2, 1, FALSE, error)),
    GNN_MODULE (gnn_batch_norm2d_new (NDF * 2, 1e-5, 0.1, TRUE, TRUE, error)),
    GNN_MODULE (gnn_leaky_relu_new (0.2, TRUE)),
    /* → 1 × 1 × 1 */
    GNN_MODULE (gnn_conv2d_new (NDF * 2, 1, 7, 1, 0, FALSE, error)),
    GNN_MODULE (gnn_sigmoid_new ()),
  };

  return sequential (layers, G_N_ELEMENTS (layers));
}

static GnnOptimizer *
adam_new (GnnModule *model,
          GError   **error)
{
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);

  return GNN_OPTIMIZER (gnn_adam_new (params, 0.0002, 0.5, 0.999, 1e-8, 0.0, FALSE, error));
}

typedef struct
{
  GnnModule    *net_g, *net_d;
  GnnOptimizer *opt_g, *opt_d;
  GnnBCELoss   *criterion;
  GnnGenerator *rng;
} Gan;

static void
gan_clear (Gan *gan)
{
  g_clear_object (&gan->net_g);
  g_clear_object (&gan->net_d);
  g_clear_object (&gan->opt_g);
  g_clear_object (&gan->opt_d);
  g_clear_object (&gan->criterion);
  g_clear_object (&gan->rng);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Gan, gan_clear)

/* output = netD(x).view(-1); loss = criterion(output, label); loss.backward().
 * Returns the loss and output.mean(), or FALSE. */
static gboolean
d_backward (Gan        *gan,
            GnnTensor  *x,
            double      label_value,
            double     *loss_out,
            double     *mean_out,
            GError    **error)
{
  const gint64 flat[] = { -1 };
  g_autoptr(GnnTensor) out = gnn_module_call (gan->net_d, x, error);
  g_autoptr(GnnTensor) output = out != NULL ? gnn_tensor_reshape (out, flat, 1, error) : NULL;
  g_autoptr(GnnTensor) label = NULL, loss = NULL;
  gint64 n;

  if (output == NULL)
    return FALSE;
  n = gnn_tensor_get_numel (output);
  label = gnn_tensor_full (&n, 1, label_value, GNN_DTYPE_F32, error);
  loss = label != NULL ? gnn_bce_loss_compute (gan->criterion, output, label, error) : NULL;
  if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error))
    return FALSE;
  *loss_out = gnn_tensor_item (loss, NULL);
  {
    g_autoptr(GnnTensor) mean = gnn_tensor_mean (output, NULL, 0, FALSE, error);

    if (mean == NULL)
      return FALSE;
    *mean_out = gnn_tensor_item (mean, NULL);
  }
  return TRUE;
}

static gboolean
train_step (Gan        *gan,
            GnnTensor  *real,
            double     *err_d,
            double     *err_g,
            double      d_out[3],
            GError    **error)
{
  const gint64 noise_shape[] = { gnn_tensor_get_shape (real, NULL)[0], NZ, 1, 1 };
  g_autoptr(GnnTensor) noise = gnn_tensor_empty (noise_shape, 4, GNN_DTYPE_F32, error);
  g_autoptr(GnnTensor) fake = NULL, detached = NULL;
  double err_real, err_fake;

  /* (1) update D: maximize log(D(x)) + log(1 - D(G(z))) */
  gnn_optimizer_zero_grad (gan->opt_d, TRUE);
  if (noise == NULL || !d_backward (gan, real, 1.0, &err_real, &d_out[0], error) ||
      !gnn_tensor_normal_ (noise, 0.0, 1.0, gan->rng, error) ||
      (fake = gnn_module_call (gan->net_g, noise, error)) == NULL)
    return FALSE;
  detached = gnn_tensor_detach (fake);
  if (!d_backward (gan, detached, 0.0, &err_fake, &d_out[1], error) || !gnn_optimizer_step (gan->opt_d, error))
    return FALSE;
  *err_d = err_real + err_fake;
  /* (2) update G: maximize log(D(G(z))) */
  gnn_optimizer_zero_grad (gan->opt_g, TRUE);
  return d_backward (gan, fake, 1.0, err_g, &d_out[2], error) && gnn_optimizer_step (gan->opt_g, error);
}

static GnnDataLoader *
fake_data_loader (GError **error)
{
  const gint64 image_size[] = { 1, 28, 28 };
  const double half[] = { 0.5 };
  g_autoptr(GnnNormalize) normalize = gnn_normalize_new (half, 1, half, 1, FALSE, error);
  g_autoptr(GnnToTensor) to_tensor = gnn_to_tensor_new ();
  GnnTransform *steps[] = { GNN_TRANSFORM (to_tensor), GNN_TRANSFORM (normalize) };
  g_autoptr(GnnCompose) transform = NULL;
  g_autoptr(GnnFakeData) data = NULL;

  if (normalize == NULL)
    return NULL;
  transform = gnn_compose_new (steps, G_N_ELEMENTS (steps));
  data = gnn_fake_data_new (4 * BATCH, image_size, 3, 10, GNN_TRANSFORM (transform), NULL, 0, error);
  return data != NULL ? gnn_data_loader_new (GNN_DATASET (data), BATCH, TRUE) : NULL;
}

static gboolean
run (gint64   steps,
     GError **error)
{
  g_auto(Gan) gan = { 0 };
  g_autoptr(GnnDataLoader) loader = NULL;
  gint64 done = 0;

  gnn_manual_seed (999);
  gan.rng = gnn_generator_new (999);
  gan.net_g = generator_new (error);
  gan.net_d = gan.net_g != NULL ? discriminator_new (error) : NULL;
  if (gan.net_d == NULL)
    return FALSE;
  gnn_module_apply (gan.net_g, weights_init, gan.rng);
  gnn_module_apply (gan.net_d, weights_init, gan.rng);
  gan.criterion = gnn_bce_loss_new (NULL, GNN_REDUCTION_MEAN);
  if ((gan.opt_d = adam_new (gan.net_d, error)) == NULL || (gan.opt_g = adam_new (gan.net_g, error)) == NULL ||
      (loader = fake_data_loader (error)) == NULL)
    return FALSE;

  while (done < steps)
    {
      g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, error);
      GPtrArray *batch = NULL;

      if (iter == NULL)
        return FALSE;
      for (gint64 i = 0; done < steps && gnn_data_loader_iter_next (iter, &batch, error); i++, done++)
        {
          g_autoptr(GPtrArray) owned = batch;
          double err_d = NAN, err_g = NAN, d_out[3] = { NAN, NAN, NAN };

          if (!train_step (&gan, g_ptr_array_index (batch, 0), &err_d, &err_g, d_out, error))
            return FALSE;
          printf ("[%" G_GINT64_FORMAT "][%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT "] Loss_D: %.4f Loss_G: %.4f "
                  "D(x): %.4f D(G(z)): %.4f / %.4f\n", done / gnn_data_loader_get_length (loader), i,
                  gnn_data_loader_get_length (loader), err_d, err_g, d_out[0], d_out[1], d_out[2]);
          if (!isfinite (err_d) || !isfinite (err_g) || err_d <= 0 || err_g <= 0)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "a loss is not a positive number");
              return FALSE;
            }
          for (guint k = 0; k < 3; k++)
            if (!(d_out[k] > 0.0 && d_out[k] < 1.0))
              {
                g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "D's mean output %g is not in (0, 1)",
                             d_out[k]);
                return FALSE;
              }
        }
      if (error != NULL && *error != NULL)
        return FALSE;
    }
  return TRUE;
}


int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  gint64 steps = argc > 1 ? g_ascii_strtoll (argv[1], NULL, 10) : 6;

  if (steps < 1)
    {
      fprintf (stderr, "usage: gnn-example-dcgan [STEPS]\n");
      return 2;
    }
  if (!run (steps, &error))
    {
      fprintf (stderr, "dcgan: %s\n", error->message);
      return 1;
    }
  return 0;
}
