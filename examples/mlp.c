/* mlp.c: forward pass of a 784-256-128-10 MLP built from Gnn tensors
 *
 * The network is what PyTorch would build with
 *
 *   nn.Sequential(nn.Linear(784, 256), nn.ReLU(),
 *                 nn.Linear(256, 128), nn.ReLU(),
 *                 nn.Linear(128, 10), nn.LogSoftmax(dim=1))
 *
 * written out with tensor operations (matmul, add, relu_, log_softmax), and
 * run on Fashion-MNIST test images when Debian's dataset-fashion-mnist is
 * installed, random inputs otherwise. The weights are untrained (seeded
 * initialization only), so the predictions are at chance level: training
 * comes with autograd and the optimizers.
 *
 *   gnn-mlp [--data-dir DIR] [--seed N] [--random-inputs]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <gio/gio.h>
#include <gnn/gnn.h>

#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#define IMAGE_SIZE       (28 * 28)
#define N_CLASSES        10
#define N_SAMPLES        1024   /* the largest batch we run */

/* Fashion-MNIST's per-pixel statistics (of the training set, after /255), as
 * torchvision examples use in transforms.Normalize. */
#define PIXEL_MEAN 0.2860
#define PIXEL_STD  0.3530

static const char *const class_names[N_CLASSES] = {
  "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
  "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot",
};

/* --- the model -------------------------------------------------------------- */

typedef struct
{
  GnnTensor *weight;    /* [out, in], the layout of torch.nn.Linear.weight */
  GnnTensor *weight_t;  /* [in, out] transposed view of weight, no copy */
  GnnTensor *bias;      /* [out] */
} Linear;

static void
linear_clear (Linear *layer)
{
  g_clear_object (&layer->weight);
  g_clear_object (&layer->weight_t);
  g_clear_object (&layer->bias);
}

/* Initializes like torch.nn.Linear.reset_parameters(). */
static gboolean
linear_init (Linear       *layer,
             gint64        in_features,
             gint64        out_features,
             GnnGenerator *gen,
             GError      **error)
{
  const gint64 weight_shape[2] = { out_features, in_features };
  /* torch: bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)) */
  double bound = 1.0 / sqrt ((double) in_features);

  /* The weight is kept [out, in] as in PyTorch so that kaiming_uniform_
   * computes fan_in from size(1) = in_features; a = sqrt(5) is Linear's
   * default, giving U(-1/sqrt(in), 1/sqrt(in)) as well. */
  layer->weight = gnn_tensor_empty (weight_shape, 2, GNN_DTYPE_F32, error);
  if (layer->weight == NULL || !gnn_tensor_kaiming_uniform_ (layer->weight, sqrt (5.0), gen, error))
    return FALSE;
  layer->bias = gnn_tensor_empty (&out_features, 1, GNN_DTYPE_F32, error);
  if (layer->bias == NULL || !gnn_tensor_uniform_ (layer->bias, -bound, bound, gen, error))
    return FALSE;
  /* x·Wᵀ through a transposed view: matmul hands it to BLAS as a transposed
   * operand (like F.linear), so no per-forward copy is made. */
  layer->weight_t = gnn_tensor_transpose (layer->weight, 0, 1, error);
  return layer->weight_t != NULL;
}

/* y = x·Wᵀ + b, then relu in place if asked (the product is ours to modify). */
static GnnTensor *
linear_forward (const Linear *layer,
                GnnTensor    *x,
                gboolean      relu,
                GError      **error)
{
  g_autoptr (GnnTensor) product = gnn_tensor_matmul (x, layer->weight_t, error);
  g_autoptr (GnnTensor) y = NULL;

  if (product == NULL)
    return NULL;
  /* [batch, out] + [out] broadcasts the bias over the rows. */
  y = gnn_tensor_add (product, layer->bias, error);
  if (y == NULL || (relu && !gnn_tensor_relu_ (y, error)))
    return NULL;
  return g_steal_pointer (&y);
}

typedef struct
{
  Linear layers[3];
} Mlp;

static const gint64 layer_sizes[] = { IMAGE_SIZE, 256, 128, N_CLASSES };

static void
mlp_clear (Mlp *mlp)
{
  for (guint i = 0; i < G_N_ELEMENTS (mlp->layers); i++)
    linear_clear (&mlp->layers[i]);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Mlp, mlp_clear)

static gboolean
mlp_init (Mlp *mlp, GnnGenerator *gen, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (mlp->layers); i++)
    if (!linear_init (&mlp->layers[i], layer_sizes[i], layer_sizes[i + 1], gen, error))
      return FALSE;
  return TRUE;
}

/* Returns log-probabilities [batch, 10]: ReLU between layers, none after the last. */
static GnnTensor *
mlp_forward (const Mlp *mlp, GnnTensor *x, GError **error)
{
  g_autoptr (GnnTensor) h = g_object_ref (x);

  for (guint i = 0; i < G_N_ELEMENTS (mlp->layers); i++)
    {
      gboolean last = i + 1 == G_N_ELEMENTS (mlp->layers);
      GnnTensor *next = linear_forward (&mlp->layers[i], h, !last, error);

      if (next == NULL)
        return NULL;
      g_object_unref (h);
      h = next;
    }
  return gnn_tensor_log_softmax (h, 1, error);
}

/* --- data --------------------------------------------------------------------- */

/* Reads a whole gzip file through GIO's zlib converter. */
static GBytes *
read_gzip_file (const char *path, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) raw = g_file_read (file, NULL, error);
  g_autoptr (GZlibDecompressor) gunzip = NULL;
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GOutputStream) out = NULL;

  if (raw == NULL)
    return NULL;
  gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  in = g_converter_input_stream_new (G_INPUT_STREAM (raw), G_CONVERTER (gunzip));
  out = g_memory_output_stream_new_resizable ();
  if (g_output_stream_splice (out, in,
                              G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                              NULL, error) < 0)
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

static guint32
read_be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

/* Parses an IDX file (http://yann.lecun.com/exdb/mnist/): a big-endian
 * header with magic 0x0000 08 <ndim> (08 = unsigned bytes) and ndim sizes,
 * then the bytes. Returns a pointer to the first `count` items of
 * `item_size` bytes, which stays valid as long as @bytes. */
static const guint8 *
parse_idx (GBytes      *bytes,
           const char  *path,
           guint        ndim,
           gsize        item_size,
           gsize        count,
           GError     **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  gsize header = 4 + 4 * (gsize) ndim, items, per_item = 1;

  if (size < header || read_be32 (data) != (0x0800u | ndim))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: not an IDX file of unsigned bytes with %u dimensions", path, ndim);
      return NULL;
    }
  items = read_be32 (data + 4);
  for (guint d = 1; d < ndim; d++)
    per_item *= read_be32 (data + 4 + 4 * d);
  if (per_item != item_size || items < count || size - header < items * item_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: expected at least %" G_GSIZE_FORMAT " items of %" G_GSIZE_FORMAT
                   " bytes, the header says %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                   " in %" G_GSIZE_FORMAT " bytes", path, count, item_size, items, per_item, size);
      return NULL;
    }
  return data + header;
}

/* Loads the first N_SAMPLES test images as a normalized float32 [N, 784]
 * tensor, and their labels. Sets *found to FALSE (and returns NULL without an
 * error) when the files are not installed. */
static GnnTensor *
load_fashion_mnist (const char *dir,
                    guint8     *labels,
                    gboolean   *found,
                    GError    **error)
{
  g_autofree char *images_path = g_build_filename (dir, "t10k-images-idx3-ubyte.gz", NULL);
  g_autofree char *labels_path = g_build_filename (dir, "t10k-labels-idx1-ubyte.gz", NULL);
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GBytes) image_bytes = read_gzip_file (images_path, &local_error);
  g_autoptr (GBytes) label_bytes = NULL;
  g_autofree float *pixels = NULL;
  const gint64 shape[2] = { N_SAMPLES, IMAGE_SIZE };
  const guint8 *image_data, *label_data;

  *found = TRUE;
  if (image_bytes == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          *found = FALSE;
          return NULL;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  label_bytes = read_gzip_file (labels_path, error);
  if (label_bytes == NULL)
    return NULL;
  image_data = parse_idx (image_bytes, images_path, 3, IMAGE_SIZE, N_SAMPLES, error);
  label_data = image_data ? parse_idx (label_bytes, labels_path, 1, 1, N_SAMPLES, error) : NULL;
  if (label_data == NULL)
    return NULL;

  /* ToTensor() then Normalize(mean, std), as torchvision pipelines do. */
  pixels = g_new (float, (gsize) N_SAMPLES * IMAGE_SIZE);
  for (gsize i = 0; i < (gsize) N_SAMPLES * IMAGE_SIZE; i++)
    pixels[i] = (float) ((image_data[i] / 255.0 - PIXEL_MEAN) / PIXEL_STD);
  memcpy (labels, label_data, N_SAMPLES);
  return gnn_tensor_new_from_floats (pixels, (gsize) N_SAMPLES * IMAGE_SIZE, shape, 2, error);
}

/* --- reporting ---------------------------------------------------------------- */

static double
now_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* Times forwards of @x: a few warm-ups, then enough runs for ~0.25 s. */
static gboolean
time_forward (const Mlp *mlp, GnnTensor *x, GError **error)
{
  gint64 batch = gnn_tensor_get_size (x, 0, NULL);
  guint runs = 0;
  double start, elapsed;

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GnnTensor) out = mlp_forward (mlp, x, error);

      if (out == NULL)
        return FALSE;
    }
  start = now_seconds ();
  do
    {
      g_autoptr (GnnTensor) out = mlp_forward (mlp, x, error);

      if (out == NULL)
        return FALSE;
      runs++;
      elapsed = now_seconds () - start;
    }
  while (elapsed < 0.25 && runs < 10000);
  g_print ("  batch %5" G_GINT64_FORMAT ": %8.3f ms per forward, %10.0f samples/s (%u runs)\n",
           batch, elapsed / runs * 1e3, (double) batch * runs / elapsed, runs);
  return TRUE;
}

/* Checks that each row of exp(log_softmax) sums to 1: the output is a distribution. */
static gboolean
check_distribution (GnnTensor *log_probs, GError **error)
{
  const gint dim = 1;
  g_autoptr (GnnTensor) probs = gnn_tensor_exp (log_probs, error);
  g_autoptr (GnnTensor) sums = probs ? gnn_tensor_sum (probs, &dim, 1, FALSE, error) : NULL;
  g_autofree double *values = NULL;
  gsize n = 0;
  double worst = 0.0;

  if (sums == NULL)
    return FALSE;
  values = gnn_tensor_to_doubles (sums, &n);
  for (gsize i = 0; i < n; i++)
    worst = MAX (worst, fabs (values[i] - 1.0));
  g_print ("rows of exp(output) sum to 1 within %.1e\n", worst);
  if (worst > 1e-4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "log_softmax output is not a distribution: a row sums to 1 ± %g", worst);
      return FALSE;
    }
  return TRUE;
}

static gboolean
report_predictions (GnnTensor    *log_probs,
                    const guint8 *labels,
                    GError      **error)
{
  g_autoptr (GnnTensor) predicted = gnn_tensor_argmax (log_probs, 1, FALSE, error);
  g_autofree double *classes = NULL;
  gsize n = 0, counts[N_CLASSES] = { 0 }, correct = 0;

  if (predicted == NULL)
    return FALSE;
  classes = gnn_tensor_to_doubles (predicted, &n);
  for (gsize i = 0; i < n; i++)
    {
      gsize c = (gsize) classes[i];

      if (c >= N_CLASSES)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "argmax returned class %" G_GSIZE_FORMAT " for row %" G_GSIZE_FORMAT, c, i);
          return FALSE;
        }
      counts[c]++;
      correct += labels != NULL && labels[i] == c;
    }
  g_print ("predicted classes over the batch of %" G_GSIZE_FORMAT ":\n", n);
  for (guint c = 0; c < N_CLASSES; c++)
    {
      /* one '#' per 1% of the batch */
      g_autofree char *bar = g_strnfill ((gsize) (100.0 * counts[c] / MAX (n, 1) + 0.5), '#');

      g_print ("  %u %-12s %5" G_GSIZE_FORMAT "  %s\n", c, class_names[c], counts[c], bar);
    }
  if (labels != NULL)
    g_print ("accuracy against the labels: %.1f%% (untrained: chance is 10%%)\n",
             100.0 * correct / MAX (n, 1));
  return TRUE;
}

/* --- main ----------------------------------------------------------------------- */

static int
fail (const char *what, GError *error)
{
  g_printerr ("gnn-mlp: %s: %s\n", what, error->message);
  return 1;
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnGenerator) gen = NULL;
  g_autoptr (GnnTensor) inputs = NULL;
  g_autoptr (GnnTensor) batch64 = NULL;
  g_autoptr (GnnTensor) log_probs = NULL;
  g_autoptr (GnnTensor) head = NULL;
  g_autofree char *data_dir = NULL;
  g_autofree char *head_str = NULL;
  guint8 labels[N_SAMPLES];
  gboolean found = FALSE, random_inputs = FALSE;
  gint64 seed = 0;
  const gint64 *shape;
  guint ndim;
  g_auto (Mlp) mlp = { 0 };
  GOptionEntry entries[] = {
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &data_dir,
      "Directory with t10k-images-idx3-ubyte.gz (default " DEFAULT_DATA_DIR ")", "DIR" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the weight initialization (default 0)", "N" },
    { "random-inputs", 0, 0, G_OPTION_ARG_NONE, &random_inputs, "Use random inputs even if the data is installed", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("- forward pass of an untrained 784-256-128-10 MLP");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return fail ("options", error);

  /* One explicit generator: the same seed gives the same weights (and inputs). */
  gen = gnn_generator_new ((guint64) seed);
  if (!mlp_init (&mlp, gen, &error))
    return fail ("initializing the model", error);
  g_print ("MLP 784-256-128-10 (ReLU, log_softmax), weights initialized like torch.nn.Linear "
           "from seed %" G_GINT64_FORMAT ".\n"
           "The weights are UNTRAINED (training comes in a later issue): predictions are "
           "chance level.\n\n", seed);

  if (!random_inputs)
    {
      inputs = load_fashion_mnist (data_dir ? data_dir : DEFAULT_DATA_DIR, labels, &found, &error);
      if (inputs == NULL && found)
        return fail ("loading Fashion-MNIST", error);
    }
  if (found)
    g_print ("inputs: the first %d Fashion-MNIST test images from %s, normalized\n",
             N_SAMPLES, data_dir ? data_dir : DEFAULT_DATA_DIR);
  else
    {
      const gint64 input_shape[2] = { N_SAMPLES, IMAGE_SIZE };

      if (!random_inputs)
        g_print ("Fashion-MNIST not found in %s (install dataset-fashion-mnist); ",
                 data_dir ? data_dir : DEFAULT_DATA_DIR);
      g_print ("inputs: %d random N(0, 1) vectors of 784\n", N_SAMPLES);
      inputs = gnn_tensor_empty (input_shape, 2, GNN_DTYPE_F32, &error);
      if (inputs == NULL || !gnn_tensor_normal_ (inputs, 0.0, 1.0, gen, &error))
        return fail ("making random inputs", error);
    }

  /* The first 64 rows: a view (no copy) of the full batch. */
  batch64 = gnn_tensor_narrow (inputs, 0, 0, 64, &error);
  log_probs = batch64 ? mlp_forward (&mlp, inputs, &error) : NULL;
  if (log_probs == NULL)
    return fail ("forward pass", error);

  shape = gnn_tensor_get_shape (log_probs, &ndim);
  g_print ("output shape: [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] (log-probabilities)\n",
           ndim > 0 ? shape[0] : 0, ndim > 1 ? shape[1] : 0);
  head = gnn_tensor_narrow (log_probs, 0, 0, 4, &error);
  if (head == NULL)
    return fail ("slicing the output", error);
  head_str = gnn_tensor_to_string (head);
  g_print ("first 4 rows:\n%s\n", head_str);

  if (!check_distribution (log_probs, &error) ||
      !report_predictions (log_probs, found ? labels : NULL, &error))
    return fail ("checking the output", error);

  g_print ("\nforward pass timings (matmul + bias + relu per layer, log_softmax):\n");
  if (!time_forward (&mlp, batch64, &error) || !time_forward (&mlp, inputs, &error))
    return fail ("timing", error);
  return 0;
}
