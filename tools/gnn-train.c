/* gnn-train.c: train an MLP or a small CNN on Fashion-MNIST (the main job)
 *
 *   gnn-train [--model mlp|cnn] [--epochs N] [--batch-size 64] [--lr LR]
 *             [--optimizer sgd|adam] [--workers 2] [--seed 0] [--limit N]
 *             [--data-dir DIR] [--checkpoint FILE] [--resume FILE]
 *             [--checkpoint-every N] [--progress-interval S]
 *
 * What PyTorch's classic MNIST example does, with Gnn's public API only:
 *
 *   data        Debian's dataset-fashion-mnist read by GnnIdxDataset (pixels
 *               in [0, 1]), normalized like torchvision's
 *               Normalize((0.2860,), (0.3530,)) — Fashion-MNIST's training
 *               mean and std — once up front, into a GnnTensorDataset; a
 *               GnnDataLoader (worker threads, shuffling) batches it.
 *   model       mlp: Linear(784, 256)-ReLU-Linear(256, 128)-ReLU-Linear(128, 10)
 *               cnn: Conv(1, 32, 3, pad 1)-MaxPool(2)-ReLU-Conv(32, 64, 3,
 *               pad 1)-MaxPool(2)-ReLU-Flatten-Linear(3136, 128)-ReLU-Linear(128, 10)
 *               initialized like torch.nn from --seed. (MaxPool-ReLU is the
 *               same function as the usual ReLU-MaxPool — max and ReLU
 *               commute — with a quarter of the ReLU work.) The ReLUs are
 *               in place (ReLU(inplace=True)): no extra activation copies.
 *   training    CrossEntropyLoss, SGD with momentum 0.9 (or Adam), one pass
 *               over the training set per epoch; then the test accuracy (in
 *               eval mode, without recording gradients).
 *   checkpoint  after every epoch (and every --checkpoint-every N batches, with
 *               the loader's state: see gnn_data_loader_iter_get_state), one
 *               safetensors file (written to a temp
 *               file and renamed): the model's state dict under "model.",
 *               the optimizer's state dict under "optimizer." (tensors and
 *               metadata), and metadata "gnn-train.*" (model, optimizer,
 *               epoch, seed, batch size, limit).
 *
 * Resuming (--resume FILE) is exact: a resumed run ends with the same weights
 * as an uninterrupted one. The weights and the optimizer state (momentum
 * buffers, Adam moments and step) come from the file; the only other state
 * is the data order, and the loader is reseeded at the start of each epoch
 * with a seed derived from (--seed, epoch number), so epoch e shuffles the
 * same way whether or not the run was interrupted before it. --epochs is the
 * total: resuming a 1-epoch checkpoint with --epochs 3 trains epochs 2 and 3.
 * A mid-epoch checkpoint also holds the loader's state (pass, generator
 * states, batches handed out) and the epoch's running loss: the resumed
 * run continues with exactly the batches the interrupted one would have
 * had and prints the same losses.
 *
 * Progress: on a terminal a bar redrawn every --progress-interval (0.1 s),
 * elsewhere (a log file, a pipe) one plain line every --progress-interval
 * (10 s); both with samples/s and the epoch's ETA.
 *
 * Stopping: the first SIGINT (Ctrl-C) or SIGTERM lets the current batch
 * finish, writes a mid-epoch checkpoint (as --checkpoint-every does) and
 * exits with 128 + the signal's number; --resume continues with the next
 * batch, exactly. A second signal kills at once.
 *
 * Threads: --workers loader threads, and --blas-threads for Gnn's compute
 * (gnn_set_num_threads: the kernels' loops and the matrix products on one
 * pool, OpenBLAS single-threaded inside; default 1 unless
 * OPENBLAS_NUM_THREADS is set). The GEMMs of the MLP are small (batch 64):
 * on 2 cores a second OpenBLAS thread gained little when the machine was
 * idle and cost 2-4x when it was busy (OpenBLAS threads spin-wait for each
 * other), which is also why PyTorch picks 1 thread here.
 *
 * Errors (missing dataset, bad options, a bad or mismatched checkpoint)
 * print one message and exit with status 1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cblas.h>   /* OpenBLAS: openblas_get_num_threads () */
#include <gnn/gnn.h>

#include "gnn-train-distributed.h"   /* --distributed */
#include "gnn-train-progress.h"      /* progress lines, SIGINT/SIGTERM */

#define DEFAULT_DATA_DIR   "/usr/share/datasets/fashion-mnist"
#define DEFAULT_CHECKPOINT "gnn-train.safetensors"
#define N_CLASSES          10
#define PIXEL_MEAN         0.2860
#define PIXEL_STD          0.3530
#define EVAL_BATCH         1000
#define FORMAT_VERSION     "1"

typedef struct
{
  char    *model;        /* "mlp" or "cnn" */
  char    *optimizer;    /* "sgd" or "adam" */
  char    *data_dir;
  char    *checkpoint;
  char    *resume;
  gint64   epochs;
  gint64   batch_size;
  double   lr;
  double   momentum;
  gint64   seed;
  gint64   limit;
  gint     workers;
  gint64   checkpoint_every;  /* batches; 0: at epoch ends only */
  gint64   max_batches;       /* stop after this many batches (a test's interruption); 0: never */
  gint64   pause_after;       /* wait for a stop signal after this many batches (tests); 0: never */
  double   progress_interval; /* seconds between progress reports */
} Options;

/* Where a mid-epoch checkpoint stood: the loader's state (a printed
 * GVariant, see gnn_data_loader_iter_get_state) and the epoch's running
 * loss, so that the resumed epoch prints the same average. */
typedef struct
{
  char   *loader_state;
  double  loss_sum;
  gint64  loss_count;
  gint64  samples;
} MidEpoch;

static void
options_clear (Options *o)
{
  g_free (o->model);
  g_free (o->optimizer);
  g_free (o->data_dir);
  g_free (o->checkpoint);
  g_free (o->resume);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

static void
mid_epoch_clear (MidEpoch *m)
{
  g_free (m->loader_state);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MidEpoch, mid_epoch_clear)

static double
now_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* --- data ------------------------------------------------------------------- */

/* Loads one split as (normalized float32 images, int64 labels): images shaped
 * [N, 784] for the MLP or [N, 1, 28, 28] for the CNN, at most @limit of them
 * (0: all). */
static gboolean
load_split (const Options *opt,
            const char    *prefix,
            gint64         limit,
            GnnTensor    **images_out,
            GnnTensor    **labels_out,
            GError       **error)
{
  g_autofree char *images_name = g_strdup_printf ("%s-images-idx3-ubyte.gz", prefix);
  g_autofree char *labels_name = g_strdup_printf ("%s-labels-idx1-ubyte.gz", prefix);
  g_autofree char *images_path = g_build_filename (opt->data_dir, images_name, NULL);
  g_autofree char *labels_path = g_build_filename (opt->data_dir, labels_name, NULL);
  g_autoptr (GnnIdxDataset) idx = NULL;
  g_autoptr (GnnTensor) images = NULL;
  g_autoptr (GnnTensor) labels = NULL;
  g_autoptr (GnnTensor) scale = gnn_tensor_new_scalar (1.0 / PIXEL_STD, GNN_DTYPE_F32);
  g_autoptr (GnnTensor) shift = gnn_tensor_new_scalar (-PIXEL_MEAN / PIXEL_STD, GNN_DTYPE_F32);
  g_autoptr (GnnTensor) normalized = NULL;
  gint64 n, total;

  if (!g_file_test (images_path, G_FILE_TEST_EXISTS) || !g_file_test (labels_path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_IO,
                   "Fashion-MNIST not found: %s is missing (install Debian's "
                   "dataset-fashion-mnist or pass --data-dir)",
                   g_file_test (images_path, G_FILE_TEST_EXISTS) ? labels_path : images_path);
      return FALSE;
    }
  idx = gnn_idx_dataset_new (images_path, labels_path, error);
  if (idx == NULL)
    return FALSE;
  n = total = gnn_tensor_get_size (gnn_idx_dataset_get_images (idx), 0, NULL);
  if (limit > 0 && limit < n)
    n = limit;
  images = gnn_tensor_narrow (gnn_idx_dataset_get_images (idx), 0, 0, n, error);
  labels = images ? gnn_tensor_narrow (gnn_idx_dataset_get_labels (idx), 0, 0, n, error) : NULL;
  if (labels == NULL)
    return FALSE;

  /* (x - mean) / std as x·(1/std) + (-mean/std), in place in the decoded
   * images (the dataset object is dropped on return), so the peak memory is
   * one float copy of the split; a --limit subset is copied out so the
   * rest is freed. */
  if (!gnn_tensor_mul_ (images, scale, error) || !gnn_tensor_add_ (images, shift, error))
    return FALSE;
  normalized = n < total ? gnn_tensor_clone (images) : g_object_ref (images);
  if (g_strcmp0 (opt->model, "cnn") == 0)
    {
      const gint64 shape[4] = { n, 1, 28, 28 };

      *images_out = gnn_tensor_reshape (normalized, shape, 4, error);
    }
  else
    {
      const gint64 shape[2] = { n, 28 * 28 };

      *images_out = gnn_tensor_reshape (normalized, shape, 2, error);
    }
  if (*images_out == NULL)
    return FALSE;
  *labels_out = gnn_tensor_contiguous (labels);
  return TRUE;
}

/* --- model -------------------------------------------------------------------- */

static GnnModule *
build_mlp (GnnGenerator *gen,
           GError      **error)
{
  g_autoptr (GnnLinear) fc1 = gnn_linear_new (784, 256, TRUE, gen, error);
  g_autoptr (GnnLinear) fc2 = fc1 ? gnn_linear_new (256, 128, TRUE, gen, error) : NULL;
  g_autoptr (GnnLinear) fc3 = fc2 ? gnn_linear_new (128, N_CLASSES, TRUE, gen, error) : NULL;
  g_autoptr (GnnReLU) relu1 = gnn_relu_new (TRUE);
  g_autoptr (GnnReLU) relu2 = gnn_relu_new (TRUE);

  if (fc3 == NULL)
    return NULL;
  {
    GnnModule *layers[] = {
      GNN_MODULE (fc1), GNN_MODULE (relu1), GNN_MODULE (fc2), GNN_MODULE (relu2), GNN_MODULE (fc3),
    };

    return GNN_MODULE (gnn_sequential_new (layers, G_N_ELEMENTS (layers)));
  }
}

static GnnModule *
build_cnn (GnnGenerator *gen,
           GError      **error)
{
  g_autoptr (GnnConv2d) conv1 = gnn_conv2d_new_full (1, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, TRUE, gen, error);
  g_autoptr (GnnConv2d) conv2 = conv1 ? gnn_conv2d_new_full (32, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, TRUE, gen, error) : NULL;
  g_autoptr (GnnMaxPool2d) pool1 = conv2 ? gnn_max_pool2d_new (2, 2, 0, 1, FALSE, error) : NULL;
  g_autoptr (GnnMaxPool2d) pool2 = pool1 ? gnn_max_pool2d_new (2, 2, 0, 1, FALSE, error) : NULL;
  g_autoptr (GnnLinear) fc1 = pool2 ? gnn_linear_new (64 * 7 * 7, 128, TRUE, gen, error) : NULL;
  g_autoptr (GnnLinear) fc2 = fc1 ? gnn_linear_new (128, N_CLASSES, TRUE, gen, error) : NULL;
  g_autoptr (GnnReLU) relu1 = gnn_relu_new (TRUE);
  g_autoptr (GnnReLU) relu2 = gnn_relu_new (TRUE);
  g_autoptr (GnnReLU) relu3 = gnn_relu_new (TRUE);
  g_autoptr (GnnFlatten) flatten = gnn_flatten_new (1, -1);

  if (fc2 == NULL)
    return NULL;
  {
    GnnModule *layers[] = {
      GNN_MODULE (conv1), GNN_MODULE (pool1), GNN_MODULE (relu1),
      GNN_MODULE (conv2), GNN_MODULE (pool2), GNN_MODULE (relu2),
      GNN_MODULE (flatten), GNN_MODULE (fc1), GNN_MODULE (relu3), GNN_MODULE (fc2),
    };

    return GNN_MODULE (gnn_sequential_new (layers, G_N_ELEMENTS (layers)));
  }
}

static GnnOptimizer *
build_optimizer (const Options *opt,
                 GnnModule     *model,
                 GError       **error)
{
  g_autoptr (GPtrArray) params = gnn_module_named_parameters (model, NULL, TRUE, NULL);

  if (g_strcmp0 (opt->optimizer, "adam") == 0)
    return GNN_OPTIMIZER (gnn_adam_new (params, opt->lr, 0.9, 0.999, 1e-8, 0.0, FALSE, error));
  return GNN_OPTIMIZER (gnn_sgd_new (params, opt->lr, opt->momentum, 0.0, 0.0, FALSE, error));
}

/* --- checkpoints ---------------------------------------------------------------- */

#define META(key) ("gnn-train." key)

/* Copies @src's tensors and metadata into @dst with @prefix prepended. */
static void
merge_prefixed (GnnStateDict *dst,
                GnnStateDict *src,
                const char   *prefix)
{
  g_auto (GStrv) keys = gnn_state_dict_get_keys (src);
  g_auto (GStrv) meta = gnn_state_dict_get_metadata_keys (src);

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *name = g_strconcat (prefix, keys[i], NULL);

      gnn_state_dict_insert (dst, name, gnn_state_dict_lookup (src, keys[i]));
    }
  for (guint i = 0; meta[i] != NULL; i++)
    {
      g_autofree char *name = g_strconcat (prefix, meta[i], NULL);

      gnn_state_dict_set_metadata (dst, name, gnn_state_dict_get_metadata (src, meta[i]));
    }
}

/* The entries of @src whose tensor or metadata key starts with @prefix, with
 * the prefix removed. */
static GnnStateDict *
extract_prefixed (GnnStateDict *src,
                  const char   *prefix)
{
  GnnStateDict *dst = gnn_state_dict_new ();
  g_auto (GStrv) keys = gnn_state_dict_get_keys (src);
  g_auto (GStrv) meta = gnn_state_dict_get_metadata_keys (src);
  gsize len = strlen (prefix);

  for (guint i = 0; keys[i] != NULL; i++)
    if (g_str_has_prefix (keys[i], prefix))
      gnn_state_dict_insert (dst, keys[i] + len, gnn_state_dict_lookup (src, keys[i]));
  for (guint i = 0; meta[i] != NULL; i++)
    if (g_str_has_prefix (meta[i], prefix))
      gnn_state_dict_set_metadata (dst, meta[i] + len, gnn_state_dict_get_metadata (src, meta[i]));
  return dst;
}

static gboolean
save_checkpoint (const Options  *opt,
                 GnnModule      *model,
                 GnnOptimizer   *optimizer,
                 gint64          epochs_done,
                 const MidEpoch *mid,
                 GError        **error)
{
  g_autoptr (GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr (GnnStateDict) model_sd = gnn_module_state_dict (model);
  g_autoptr (GnnStateDict) optim_sd = gnn_optimizer_state_dict (optimizer);
  g_autofree char *epoch = g_strdup_printf ("%" G_GINT64_FORMAT, epochs_done);
  g_autofree char *seed = g_strdup_printf ("%" G_GINT64_FORMAT, opt->seed);
  g_autofree char *batch = g_strdup_printf ("%" G_GINT64_FORMAT, opt->batch_size);
  g_autofree char *limit = g_strdup_printf ("%" G_GINT64_FORMAT, opt->limit);

  merge_prefixed (sd, model_sd, "model.");
  merge_prefixed (sd, optim_sd, "optimizer.");
  gnn_state_dict_set_metadata (sd, META ("format"), FORMAT_VERSION);
  gnn_state_dict_set_metadata (sd, META ("model"), opt->model);
  gnn_state_dict_set_metadata (sd, META ("optimizer"), opt->optimizer);
  gnn_state_dict_set_metadata (sd, META ("epoch"), epoch);
  gnn_state_dict_set_metadata (sd, META ("seed"), seed);
  gnn_state_dict_set_metadata (sd, META ("batch-size"), batch);
  gnn_state_dict_set_metadata (sd, META ("limit"), limit);
  if (mid != NULL)
    {
      char sum[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, mid->loss_count);
      g_autofree char *samples = g_strdup_printf ("%" G_GINT64_FORMAT, mid->samples);

      gnn_state_dict_set_metadata (sd, META ("loader-state"), mid->loader_state);
      gnn_state_dict_set_metadata (sd, META ("loss-sum"), g_ascii_formatd (sum, sizeof sum, "%a", mid->loss_sum));
      gnn_state_dict_set_metadata (sd, META ("loss-count"), count);
      gnn_state_dict_set_metadata (sd, META ("samples"), samples);
    }
  return gnn_state_dict_save (sd, opt->checkpoint, NULL, error);
}

static gboolean
parse_meta_int (GnnStateDict *sd,
                const char   *path,
                const char   *key,
                gint64       *out,
                GError      **error)
{
  const char *value = gnn_state_dict_get_metadata (sd, key);

  if (value == NULL || !g_ascii_string_to_signed (value, 10, 0, G_MAXINT64, out, NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: not a gnn-train checkpoint: metadata \"%s\" is %s%s%s", path, key,
                   value ? "\"" : "missing", value ? value : "", value ? "\", not an integer" : "");
      return FALSE;
    }
  return TRUE;
}

/* Reads the run's settings from @sd (a loaded checkpoint) into @opt,
 * refusing options given on the command line that contradict them. */
static gboolean
read_checkpoint_settings (GnnStateDict *sd,
                          Options      *opt,
                          gboolean      batch_given,
                          gboolean      seed_given,
                          gboolean      limit_given,
                          gint64       *epochs_done,
                          GError      **error)
{
  const char *path = opt->resume;
  const char *format = gnn_state_dict_get_metadata (sd, META ("format"));
  const char *model = gnn_state_dict_get_metadata (sd, META ("model"));
  const char *optimizer = gnn_state_dict_get_metadata (sd, META ("optimizer"));
  gint64 seed, batch, limit;

  if (g_strcmp0 (format, FORMAT_VERSION) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: not a gnn-train checkpoint (metadata \"gnn-train.format\" is %s%s%s, expected \"%s\")",
                   path, format ? "\"" : "missing", format ? format : "", format ? "\"" : "",
                   FORMAT_VERSION);
      return FALSE;
    }
  if ((g_strcmp0 (model, "mlp") != 0 && g_strcmp0 (model, "cnn") != 0) ||
      (g_strcmp0 (optimizer, "sgd") != 0 && g_strcmp0 (optimizer, "adam") != 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                   "%s: unknown model \"%s\" or optimizer \"%s\" in the checkpoint",
                   path, model ? model : "(none)", optimizer ? optimizer : "(none)");
      return FALSE;
    }
  if (!parse_meta_int (sd, path, META ("epoch"), epochs_done, error) ||
      !parse_meta_int (sd, path, META ("seed"), &seed, error) ||
      !parse_meta_int (sd, path, META ("batch-size"), &batch, error) ||
      !parse_meta_int (sd, path, META ("limit"), &limit, error))
    return FALSE;
  if ((opt->model != NULL && strcmp (opt->model, model) != 0) ||
      (opt->optimizer != NULL && strcmp (opt->optimizer, optimizer) != 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s was written by --model %s --optimizer %s: cannot resume it with --model %s --optimizer %s",
                   path, model, optimizer, opt->model ? opt->model : model,
                   opt->optimizer ? opt->optimizer : optimizer);
      return FALSE;
    }
  if ((batch_given && opt->batch_size != batch) || (seed_given && opt->seed != seed) ||
      (limit_given && opt->limit != limit))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s was written with --batch-size %" G_GINT64_FORMAT " --seed %" G_GINT64_FORMAT
                   " --limit %" G_GINT64_FORMAT ": resuming with other values would not be exact",
                   path, batch, seed, limit);
      return FALSE;
    }
  g_free (opt->model);
  opt->model = g_strdup (model);
  g_free (opt->optimizer);
  opt->optimizer = g_strdup (optimizer);
  opt->seed = seed;
  opt->batch_size = batch;
  opt->limit = limit;
  return TRUE;
}

/* The mid-epoch part of a checkpoint, if it has one. */
static gboolean
read_mid_epoch (GnnStateDict  *sd,
                const char    *path,
                MidEpoch      *mid,
                GError       **error)
{
  const char *state = gnn_state_dict_get_metadata (sd, META ("loader-state"));
  const char *sum = gnn_state_dict_get_metadata (sd, META ("loss-sum"));
  char *end = NULL;

  if (state == NULL)
    return TRUE;
  if (sum == NULL || (mid->loss_sum = g_ascii_strtod (sum, &end), *end != '\0') ||
      !parse_meta_int (sd, path, META ("loss-count"), &mid->loss_count, error) ||
      !parse_meta_int (sd, path, META ("samples"), &mid->samples, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_FORMAT,
                     "%s: metadata \"gnn-train.loss-sum\" is missing or not a number", path);
      return FALSE;
    }
  mid->loader_state = g_strdup (state);
  return TRUE;
}

static gboolean
restore_checkpoint (GnnStateDict *sd,
                    const char   *path,
                    GnnModule    *model,
                    GnnOptimizer *optimizer,
                    GError      **error)
{
  g_autoptr (GnnStateDict) model_sd = extract_prefixed (sd, "model.");
  g_autoptr (GnnStateDict) optim_sd = extract_prefixed (sd, "optimizer.");

  if (!gnn_module_load_state_dict (model, model_sd, TRUE, NULL, NULL, error) ||
      !gnn_optimizer_load_state_dict (optimizer, optim_sd, error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  return TRUE;
}

/* --- training ----------------------------------------------------------------------- */

/* The loader's seed for @epoch (1-based): splitmix64 of (seed, epoch), so the
 * data order of an epoch depends only on these two numbers. */
static guint64
epoch_seed (gint64 seed,
            gint64 epoch)
{
  guint64 z = (guint64) seed + (guint64) epoch * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* A SIGINT or SIGTERM mid-epoch: the checkpoint of the batches done, so
 * that --resume continues with the next batch. */
static gboolean
checkpoint_interrupted (const Options     *opt,
                        GnnModule         *bare,
                        GnnOptimizer      *optimizer,
                        GnnDataLoaderIter *iter,
                        gint64             epoch,
                        const MidEpoch    *mid,
                        GError           **error)
{
  g_autoptr (GVariant) state = gnn_data_loader_iter_get_state (iter);
  g_autofree char *text = g_variant_print (state, TRUE);
  MidEpoch here = *mid;

  here.loader_state = text;
  return !gnn_train_is_main_rank () || save_checkpoint (opt, bare, optimizer, epoch - 1, &here, error);
}

/* One epoch of @model (the model, or DDP around @bare, whose keys the
 * checkpoints hold); @resume (consumed) continues an interrupted one. Sets
 * *@stopped when --max-batches or a stop signal ends the run (a signal
 * after a checkpoint of the batches done). */
static gboolean
train_epoch (const Options       *opt,
             GnnModule           *model,
             GnnModule           *bare,
             GnnCrossEntropyLoss *criterion,
             GnnOptimizer        *optimizer,
             GnnDataLoader       *loader,
             gint64               epoch,
             MidEpoch            *resume,
             gint64              *total_batches,
             gboolean            *stopped,
             gboolean             tty,
             GError             **error)
{
  g_autoptr (GnnDataLoaderIter) iter = NULL;
  GPtrArray *batch = NULL;
  gint64 epochs = opt->epochs, n_batches, done = 0, samples = 0, done_at_start, samples_at_start;
  double start = now_seconds (), last_print = start, loss_sum = 0.0, elapsed;
  gint64 loss_count = 0;

  gnn_module_train (model, TRUE);
  if (resume->loader_state != NULL)
    {
      g_autoptr (GVariant) state = g_variant_parse (NULL, resume->loader_state, NULL, NULL, error);

      if (state == NULL)
        return FALSE;
      iter = gnn_data_loader_iter_new_from_state (loader, state, error);
      loss_sum = resume->loss_sum;
      loss_count = resume->loss_count;
      samples = resume->samples;
      g_variant_lookup (state, "batches", "x", &done);
      g_clear_pointer (&resume->loader_state, g_free);
    }
  else
    iter = gnn_data_loader_iter (loader, error);
  if (iter == NULL)
    return FALSE;
  n_batches = gnn_data_loader_iter_get_length (iter);
  done_at_start = done;
  samples_at_start = samples;
  while (gnn_data_loader_iter_next (iter, &batch, error))
    {
      g_autoptr (GPtrArray) owned = batch;
      GnnTensor *x = g_ptr_array_index (batch, 0), *y = g_ptr_array_index (batch, 1);
      g_autoptr (GnnTensor) logits = NULL;
      g_autoptr (GnnTensor) loss = NULL;
      double value;

      gnn_optimizer_zero_grad (optimizer, TRUE);
      logits = gnn_module_call (model, x, error);
      loss = logits ? gnn_cross_entropy_loss_compute (criterion, logits, y, error) : NULL;
      if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error) ||
          !gnn_optimizer_step (optimizer, error))
        return FALSE;
      value = gnn_tensor_item (loss, NULL);
      if (!isfinite (value))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "the loss is %g at batch %" G_GINT64_FORMAT " of epoch %" G_GINT64_FORMAT
                       ": the learning rate is too high", value, done + 1, epoch);
          return FALSE;
        }
      loss_sum += value * (double) gnn_tensor_get_size (x, 0, NULL);
      loss_count += gnn_tensor_get_size (x, 0, NULL);
      samples += gnn_tensor_get_size (x, 0, NULL);
      done++;
      ++*total_batches;
      /* Rank 0 writes (the ranks' loader states differ only by rank, which
       * each resumed rank's sampler brings itself). */
      if (opt->checkpoint_every > 0 && done % opt->checkpoint_every == 0 && done < n_batches &&
          gnn_train_is_main_rank ())
        {
          g_autoptr (GVariant) state = gnn_data_loader_iter_get_state (iter);
          g_autofree char *text = g_variant_print (state, TRUE);
          MidEpoch mid = { text, loss_sum, loss_count, samples };

          if (!save_checkpoint (opt, bare, optimizer, epoch - 1, &mid, error))
            return FALSE;
        }
      if (opt->max_batches > 0 && *total_batches >= opt->max_batches)
        {
          printf ("\nstopped after %" G_GINT64_FORMAT " batches (--max-batches)\n", *total_batches);
          *stopped = TRUE;
          return TRUE;
        }
      {
        double now = now_seconds ();

        if (now - last_print >= opt->progress_interval || (tty && done == n_batches))
          {
            double run = MAX (now - start, 1e-9);
            GnnTrainProgress p = {
              epoch, epochs, done, n_batches, samples, loss_sum / MAX (loss_count, 1),
              (double) (samples - samples_at_start) / run,
              n_batches > 0 ? (double) (n_batches - done) * run / (double) (done - done_at_start) : -1,
            };

            gnn_train_print_progress (&p, tty);
            last_print = now;
          }
      }
      if (opt->pause_after > 0 && *total_batches == opt->pause_after)
        {
          printf ("%spaused after %" G_GINT64_FORMAT " batches (--pause-after)\n", tty ? "\n" : "",
                  *total_batches);
          fflush (stdout);
          gnn_train_wait_for_signal ();
        }
      /* Ctrl-C or SIGTERM: keep the batches done (at the epoch's end, the
       * epoch's own checkpoint does) */
      if (gnn_train_stop_signal () != 0 && done < n_batches)
        {
          MidEpoch mid = { NULL, loss_sum, loss_count, samples };

          if (!checkpoint_interrupted (opt, bare, optimizer, iter, epoch, &mid, error))
            return FALSE;
          printf ("%sinterrupted by %s after batch %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
                  " of epoch %" G_GINT64_FORMAT ": checkpoint %s (continue with --resume %s)\n",
                  tty ? "\n" : "", gnn_train_stop_signal () == SIGINT ? "SIGINT" : "SIGTERM",
                  done, n_batches, epoch, opt->checkpoint, opt->checkpoint);
          fflush (stdout);
          *stopped = TRUE;
          return TRUE;
        }
    }
  if (error != NULL && *error != NULL)
    return FALSE;
  elapsed = now_seconds () - start;
  if (tty)
    printf ("\n");
  printf ("epoch %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT ": train loss %.4f, %" G_GINT64_FORMAT
          " samples in %.2f s (%.0f samples/s)\n", epoch, epochs, loss_sum / MAX (loss_count, 1),
          samples, elapsed, samples / MAX (elapsed, 1e-9));
  fflush (stdout);
  return TRUE;
}

/* Test accuracy in eval mode without recording gradients. */
static gboolean
evaluate (GnnModule *model,
          GnnTensor *images,
          GnnTensor *labels,
          gint64    *correct_out,
          GError   **error)
{
  g_autoptr (GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  gint64 n = gnn_tensor_get_size (images, 0, NULL), correct = 0;

  gnn_module_eval (model);
  for (gint64 start = 0; start < n; start += EVAL_BATCH)
    {
      gint64 len = MIN (EVAL_BATCH, n - start);
      g_autoptr (GnnTensor) x = gnn_tensor_narrow (images, 0, start, len, error);
      g_autoptr (GnnTensor) y = x ? gnn_tensor_narrow (labels, 0, start, len, error) : NULL;
      g_autoptr (GnnTensor) logits = y ? gnn_module_call (model, x, error) : NULL;
      g_autoptr (GnnTensor) predicted = logits ? gnn_tensor_argmax (logits, 1, FALSE, error) : NULL;
      g_autoptr (GnnTensor) hits = predicted ? gnn_tensor_eq (predicted, y, error) : NULL;
      g_autoptr (GnnTensor) total = hits ? gnn_tensor_sum (hits, NULL, 0, FALSE, error) : NULL;

      if (total == NULL)
        return FALSE;
      correct += (gint64) gnn_tensor_item (total, NULL);
    }
  gnn_module_train (model, TRUE);
  *correct_out = correct;
  return TRUE;
}

/* --- main ------------------------------------------------------------------------- */

static int
fail (const char *what,
      GError     *error)
{
  g_printerr ("gnn-train: %s%s%s\n", what ? what : "", what ? ": " : "", error->message);
  return 1;
}

static int
usage_error (const char *message)
{
  g_printerr ("gnn-train: %s (see gnn-train --help)\n", message);
  return 1;
}

int
main (int argc, char **argv)
{
  g_auto (Options) opt = { 0 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GnnStateDict) resume_sd = NULL;
  g_autoptr (GnnGenerator) gen = NULL;
  g_autoptr (GnnModule) model = NULL;
  g_autoptr (GnnModule) train_model = NULL;   /* model, or DDP around it */
  g_autoptr (GnnSampler) sampler = NULL;
  g_autoptr (GnnOptimizer) optimizer = NULL;
  g_autoptr (GnnCrossEntropyLoss) criterion = NULL;
  g_autoptr (GnnTensor) train_x = NULL;
  g_autoptr (GnnTensor) train_y = NULL;
  g_autoptr (GnnTensor) test_x = NULL;
  g_autoptr (GnnTensor) test_y = NULL;
  g_autoptr (GnnTensorDataset) train_set = NULL;
  g_autoptr (GnnDataLoader) loader = NULL;
  g_autofree char *description = NULL;
  gint64 epochs_done = 0, n_params, test_n, total_batches = 0;
  g_auto (MidEpoch) mid = { 0 };
  gboolean stopped = FALSE;
  gboolean tty = isatty (fileno (stdout));
  const gint64 no_value = G_MININT64;
  double lr_given = NAN;
  gint64 batch_given = no_value, seed_given = no_value, limit_given = no_value;
  gint blas_threads = -1;
  gboolean distributed = FALSE;
  double progress_interval = NAN;
  int stop_signal;
  GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_STRING, &opt.model, "mlp (784-256-128-10) or cnn (default mlp)", "NAME" },
    { "epochs", 0, 0, G_OPTION_ARG_INT64, &opt.epochs, "Total number of epochs (default 1)", "N" },
    { "batch-size", 0, 0, G_OPTION_ARG_INT64, &batch_given, "Samples per batch (default 64)", "N" },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &lr_given, "Learning rate (default 0.01 for sgd, 0.001 for adam)", "LR" },
    { "momentum", 0, 0, G_OPTION_ARG_DOUBLE, &opt.momentum, "SGD momentum (default 0.9)", "M" },
    { "optimizer", 0, 0, G_OPTION_ARG_STRING, &opt.optimizer, "sgd or adam (default sgd)", "NAME" },
    { "workers", 0, 0, G_OPTION_ARG_INT, &opt.workers, "Data loader worker threads (default 2; 0: load in the main thread)", "N" },
    { "blas-threads", 0, 0, G_OPTION_ARG_INT, &blas_threads, "Threads of Gnn's kernels and matrix products (gnn_set_num_threads; default 1, or $OPENBLAS_NUM_THREADS)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed_given, "Seed of the initialization and the shuffling (default 0)", "N" },
    { "limit", 0, 0, G_OPTION_ARG_INT64, &limit_given, "Use only the first N training and test samples (default: all)", "N" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &opt.data_dir, "Directory of the Fashion-MNIST IDX files (default " DEFAULT_DATA_DIR ")", "DIR" },
    { "checkpoint", 0, 0, G_OPTION_ARG_FILENAME, &opt.checkpoint, "Checkpoint written after every epoch (default " DEFAULT_CHECKPOINT ")", "FILE" },
    { "resume", 0, 0, G_OPTION_ARG_FILENAME, &opt.resume, "Continue the run saved in FILE", "FILE" },
    { "distributed", 0, 0, G_OPTION_ARG_NONE, &distributed, "Data-parallel over the ranks of mpirun (DDP; --batch-size per rank)", NULL },
    { "checkpoint-every", 0, 0, G_OPTION_ARG_INT64, &opt.checkpoint_every, "Also checkpoint every N batches, mid-epoch (default 0: at epoch ends only)", "N" },
    { "progress-interval", 0, 0, G_OPTION_ARG_DOUBLE, &progress_interval, "Seconds between progress reports (default 0.1 on a terminal, 10 otherwise; 0: every batch)", "S" },
    { "max-batches", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT64, &opt.max_batches, "Stop after N batches (an interruption, for tests)", "N" },
    { "pause-after", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT64, &opt.pause_after, "Wait for SIGINT/SIGTERM after N batches (for tests)", "N" },
    G_OPTION_ENTRY_NULL
  };

  opt.epochs = 1;
  opt.momentum = 0.9;
  opt.workers = 2;
  context = g_option_context_new ("- train a classifier on Fashion-MNIST");
  g_option_context_set_summary (context,
    "Trains an MLP or a small CNN on Fashion-MNIST with Gnn (SGD with momentum or Adam),\n"
    "prints the loss, samples/s and test accuracy per epoch, and saves a resumable\n"
    "safetensors checkpoint after every epoch.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage_error (error->message);
  if (argc > 1)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument '%s'", argv[1]);

      return usage_error (message);
    }

  /* Validate the options. */
  if (opt.model != NULL && strcmp (opt.model, "mlp") != 0 && strcmp (opt.model, "cnn") != 0)
    return usage_error ("--model must be mlp or cnn");
  if (opt.optimizer != NULL && strcmp (opt.optimizer, "sgd") != 0 && strcmp (opt.optimizer, "adam") != 0)
    return usage_error ("--optimizer must be sgd or adam");
  if (opt.epochs < 1)
    return usage_error ("--epochs must be at least 1");
  if (batch_given != no_value && batch_given < 1)
    return usage_error ("--batch-size must be at least 1");
  if (!isnan (lr_given) && !(lr_given > 0.0 && isfinite (lr_given)))
    return usage_error ("--lr must be a positive number");
  if (!(opt.momentum >= 0.0 && opt.momentum < 1.0))
    return usage_error ("--momentum must be in [0, 1)");
  if (opt.workers < 0)
    return usage_error ("--workers must be 0 or more");
  if (opt.checkpoint_every < 0 || opt.max_batches < 0 || opt.pause_after < 0)
    return usage_error ("--checkpoint-every and --max-batches must be 0 or more");
  if (!isnan (progress_interval) && !(progress_interval >= 0 && isfinite (progress_interval)))
    return usage_error ("--progress-interval must be 0 or more seconds");
  opt.progress_interval = !isnan (progress_interval) ? progress_interval : tty ? 0.1 : 10.0;
  if (blas_threads == 0 || blas_threads < -1)
    return usage_error ("--blas-threads must be at least 1");
  /* one pool for Gnn's loops and its products (OpenBLAS single-threaded
   * inside): see gnn_set_num_threads () */
  if (blas_threads > 0)
    gnn_set_num_threads (blas_threads, NULL);   /* ≥ 1, checked above */
  else
    gnn_set_num_threads (g_getenv ("OPENBLAS_NUM_THREADS") != NULL ? openblas_get_num_threads () : 1, NULL);
  if (limit_given != no_value && limit_given < 0)
    return usage_error ("--limit must be 0 (all) or more");
  if (seed_given != no_value && seed_given < 0)
    return usage_error ("--seed must be 0 or more");
  opt.batch_size = batch_given != no_value ? batch_given : 64;
  opt.seed = seed_given != no_value ? seed_given : 0;
  opt.limit = limit_given != no_value ? limit_given : 0;
  if (opt.data_dir == NULL)
    opt.data_dir = g_strdup (DEFAULT_DATA_DIR);
  if (opt.checkpoint == NULL)
    opt.checkpoint = g_strdup (DEFAULT_CHECKPOINT);

  if (distributed && !gnn_train_distributed_init (&error))
    return fail ("--distributed", error);

  /* The run's settings come from the checkpoint when resuming. */
  if (opt.resume != NULL)
    {
      resume_sd = gnn_state_dict_load (opt.resume, &error);
      if (resume_sd == NULL)
        return fail ("cannot resume", error);
      if (!read_checkpoint_settings (resume_sd, &opt, batch_given != no_value, seed_given != no_value,
                                     limit_given != no_value, &epochs_done, &error) ||
          !read_mid_epoch (resume_sd, opt.resume, &mid, &error))
        return fail ("cannot resume", error);
    }
  if (opt.model == NULL)
    opt.model = g_strdup ("mlp");
  if (opt.optimizer == NULL)
    opt.optimizer = g_strdup ("sgd");
  opt.lr = !isnan (lr_given) ? lr_given : strcmp (opt.optimizer, "adam") == 0 ? 1e-3 : 0.01;

  if (!load_split (&opt, "train", opt.limit, &train_x, &train_y, &error) ||
      !load_split (&opt, "t10k", opt.limit, &test_x, &test_y, &error))
    return fail (NULL, error);

  gen = gnn_generator_new ((guint64) opt.seed);
  model = strcmp (opt.model, "cnn") == 0 ? build_cnn (gen, &error) : build_mlp (gen, &error);
  if (model == NULL)
    return fail ("building the model", error);
  optimizer = build_optimizer (&opt, model, &error);
  if (optimizer == NULL)
    return fail ("creating the optimizer", error);
  if (resume_sd != NULL && !restore_checkpoint (resume_sd, opt.resume, model, optimizer, &error))
    return fail ("cannot resume", error);
  g_clear_object (&resume_sd);   /* unmaps the file: the tensors were copied */
  /* A checkpoint's learning rate wins unless --lr is given. */
  if (!isnan (lr_given))
    gnn_optimizer_set_lr (optimizer, lr_given);
  opt.lr = gnn_optimizer_get_group_lr (optimizer, 0);
  criterion = gnn_cross_entropy_loss_new (NULL, -100, GNN_REDUCTION_MEAN, 0.0);
  train_model = gnn_train_distributed_wrap (model, &error);
  if (train_model == NULL)
    return fail ("--distributed", error);

  {
    GnnTensor *tensors[2] = { train_x, train_y };

    train_set = gnn_tensor_dataset_new (tensors, 2, &error);
    if (train_set == NULL)
      return fail ("making the dataset", error);
  }
  sampler = gnn_train_distributed_sampler (GNN_DATASET (train_set), (guint64) opt.seed, &error);
  loader = g_object_new (GNN_TYPE_DATA_LOADER,
                         "dataset", train_set,
                         "batch-size", opt.batch_size,
                         "shuffle", sampler == NULL,
                         "sampler", sampler,
                         "num-workers", opt.workers,
                         "persistent-workers", opt.workers > 0,
                         NULL);
  if (!gnn_data_loader_validate (loader, &error))
    return fail ("data loader", error);

  n_params = gnn_module_count_parameters (model, TRUE);
  test_n = gnn_tensor_get_size (test_x, 0, NULL);
  description = gnn_module_to_string (model);
  printf ("gnn-train: %s, %" G_GINT64_FORMAT " parameters; %s lr %g%s; batch %" G_GINT64_FORMAT
          ", %d worker thread%s, %u compute thread%s, seed %" G_GINT64_FORMAT "\n"
          "data: %" G_GINT64_FORMAT " training and %" G_GINT64_FORMAT " test images from %s, "
          "normalized (x - %.4f) / %.4f\n",
          opt.model, n_params, opt.optimizer, opt.lr,
          strcmp (opt.optimizer, "sgd") == 0 ? (opt.momentum > 0 ? ", momentum 0.9" : "") : "",
          opt.batch_size, opt.workers, opt.workers == 1 ? "" : "s",
          gnn_get_num_threads (), gnn_get_num_threads () == 1 ? "" : "s", opt.seed,
          gnn_tensor_get_size (train_x, 0, NULL), test_n, opt.data_dir, PIXEL_MEAN, PIXEL_STD);
  if (strcmp (opt.optimizer, "sgd") == 0 && opt.momentum != 0.9 && opt.momentum > 0)
    printf ("(momentum %g)\n", opt.momentum);
  if (opt.resume != NULL)
    printf ("resumed from %s after epoch %" G_GINT64_FORMAT "%s\n", opt.resume, epochs_done,
            mid.loader_state != NULL ? " and part of the next" : "");
  if (epochs_done >= opt.epochs)
    printf ("the checkpoint has %" G_GINT64_FORMAT " epoch%s already: nothing to train (--epochs is the total)\n",
            epochs_done, epochs_done == 1 ? "" : "s");
  fflush (stdout);

  gnn_train_signals_install ();
  for (gint64 epoch = epochs_done + 1; epoch <= opt.epochs; epoch++)
    {
      gint64 correct = 0;
      double eval_start;

      /* The data order of this epoch depends only on (seed, epoch). */
      g_object_set (loader, "seed", epoch_seed (opt.seed, epoch), NULL);
      gnn_train_distributed_set_epoch (loader, epoch);
      if (!train_epoch (&opt, train_model, model, criterion, optimizer, loader, epoch, &mid, &total_batches,
                        &stopped, tty, &error))
        return fail ("training", error);
      if (stopped)
        return (stop_signal = gnn_train_stop_signal ()) != 0 ? 128 + stop_signal : 0;
      if (!gnn_train_is_main_rank ())
        continue;
      eval_start = now_seconds ();
      if (!evaluate (model, test_x, test_y, &correct, &error))
        return fail ("evaluating", error);
      printf ("epoch %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT ": test accuracy %.2f%% (%" G_GINT64_FORMAT
              "/%" G_GINT64_FORMAT ", %.2f s)\n", epoch, opt.epochs, 100.0 * correct / MAX (test_n, 1),
              correct, test_n, now_seconds () - eval_start);
      if (!save_checkpoint (&opt, model, optimizer, epoch, NULL, &error))
        return fail ("saving the checkpoint", error);
      printf ("checkpoint: %s (epoch %" G_GINT64_FORMAT ")\n", opt.checkpoint, epoch);
      fflush (stdout);
      if ((stop_signal = gnn_train_stop_signal ()) != 0 && epoch < opt.epochs)
        {
          printf ("interrupted by %s after epoch %" G_GINT64_FORMAT " (continue with --resume %s)\n",
                  stop_signal == SIGINT ? "SIGINT" : "SIGTERM", epoch, opt.checkpoint);
          return 128 + stop_signal;
        }
    }
  return 0;
}
