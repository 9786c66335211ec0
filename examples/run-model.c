/* run-model.c: classify Fashion-MNIST images with a model this program
 * knows nothing about
 *
 * The program contains no description of the architecture. The model file
 * gives it: a model trained in Python with Gnn and saved with
 * `Gnn.save(model, "cnn.safetensors")` (or converted from PyTorch with
 * `python3 -m gnn.convert`) is rebuilt by gnn_module_load_model() from its
 * type names and configuration. With --weights, a state dict saved by
 * PyTorch itself (`torch.save(model.state_dict(), "cnn.pth")`) is then
 * loaded into that architecture: gnn_module_load() reads torch's zip files
 * without Python, through a restricted unpickler that runs nothing.
 *
 *   gnn-run-model MODEL [--weights WEIGHTS.pth] [--count N] [--data-dir DIR]
 *
 * It prints the architecture, the first predictions and the accuracy on
 * the first N test images (random inputs, and no accuracy, without
 * Debian's dataset-fashion-mnist). examples/from-pytorch.py runs the whole
 * story as a test. See docs/from-pytorch.md.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"

/* The first @count test images as [count, 1, 28, 28] and their labels. */
static gboolean
test_images (const char  *dir,
             gint64       count,
             GnnTensor  **images,
             GnnTensor  **labels,
             GError     **error)
{
  g_autofree char *images_path = g_build_filename (dir, "t10k-images-idx3-ubyte.gz", NULL);
  g_autofree char *labels_path = g_build_filename (dir, "t10k-labels-idx1-ubyte.gz", NULL);
  g_autoptr(GnnIdxDataset) dataset = gnn_idx_dataset_new (images_path, labels_path, error);
  g_autoptr(GnnTensor) first = NULL;

  if (dataset == NULL)
    return FALSE;
  count = MIN (count, gnn_tensor_get_size (gnn_idx_dataset_get_images (dataset), 0, NULL));
  first = gnn_tensor_narrow (gnn_idx_dataset_get_images (dataset), 0, 0, count, error);
  if (first == NULL)
    return FALSE;
  *images = gnn_tensor_reshape (first, (gint64[]) { count, 1, 28, 28 }, 4, error);
  *labels = gnn_tensor_narrow (gnn_idx_dataset_get_labels (dataset), 0, 0, count, error);
  return *images != NULL && *labels != NULL;
}

int
main (int argc, char **argv)
{
  g_autofree char *weights = NULL;
  g_autofree char *data_dir = NULL;
  gint64 count = 200;
  GOptionEntry entries[] = {
    { "weights", 'w', 0, G_OPTION_ARG_FILENAME, &weights, "A state dict to load into the model "
      "(torch.save's .pth, or safetensors)", "FILE" },
    { "count", 'n', 0, G_OPTION_ARG_INT64, &count, "How many test images (200)", "N" },
    { "data-dir", 'd', 0, G_OPTION_ARG_FILENAME, &data_dir, "Fashion-MNIST's folder", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("MODEL");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnTensor) images = NULL;
  g_autoptr(GnnTensor) labels = NULL;
  g_autoptr(GnnTensor) logits = NULL;
  g_autoptr(GnnTensor) predictions = NULL;
  g_autofree char *repr = NULL;
  gint64 correct = 0, n;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || count < 1)
    {
      g_printerr ("gnn-run-model: %s\n", error != NULL ? error->message
                                                        : "expected one MODEL file (see --help)");
      return 2;
    }

  /* The architecture and the weights, from the file alone. */
  model = gnn_module_load_model (argv[1], GNN_LOAD_FLAGS_NONE, &error);
  if (model == NULL)
    goto fail;
  /* PyTorch's own weights for that architecture (strict and atomic). */
  if (weights != NULL && !gnn_module_load (model, weights, &error))
    goto fail;
  gnn_module_eval (model);
  repr = gnn_module_to_string (model);
  g_print ("%s\n", repr);

  if (!test_images (data_dir != NULL ? data_dir : DEFAULT_DATA_DIR, count, &images, &labels,
                    &error))
    {
      const gint64 shape[4] = { count, 1, 28, 28 };
      g_autoptr(GnnGenerator) gen = gnn_generator_new (1);

      if (!g_error_matches (error, GNN_ERROR, GNN_ERROR_IO))
        goto fail;
      g_print ("(%s: random inputs instead)\n", error->message);
      g_clear_error (&error);
      g_clear_object (&images);
      g_clear_object (&labels);
      images = gnn_tensor_empty (shape, 4, GNN_DTYPE_F32, &error);
      if (images == NULL || !gnn_tensor_uniform_ (images, 0, 1, gen, &error))
        goto fail;
    }

  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    logits = gnn_module_call (model, images, &error);
  }
  if (logits == NULL)
    goto fail;
  predictions = gnn_tensor_argmax (logits, 1, FALSE, &error);
  if (predictions == NULL)
    goto fail;
  n = gnn_tensor_get_size (predictions, 0, NULL);
  g_print ("predictions:");
  for (gint64 i = 0; i < n; i++)
    {
      gint64 p = (gint64) gnn_tensor_get_element (predictions, &i, 1, NULL);

      if (i < 20)
        g_print (" %" G_GINT64_FORMAT, p);
      if (labels != NULL)
        correct += p == (gint64) gnn_tensor_get_element (labels, &i, 1, NULL);
    }
  g_print ("\n");
  if (labels != NULL)
    g_print ("accuracy: %.4f (%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT ")\n",
             (double) correct / n, correct, n);
  {
    g_autofree float *values = gnn_tensor_to_floats (logits, NULL);
    double sum = 0;

    for (gint64 i = 0; i < gnn_tensor_get_numel (logits); i++)
      sum += values[i];
    g_print ("logit sum: %.6f\n", sum);
  }
  return 0;

fail:
  g_printerr ("gnn-run-model: %s\n", error->message);
  return 1;
}
