/* gnn-data-loader.c: batches from a dataset, optionally with worker threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "data/gnn-worker-private.h"

/**
 * GnnDataLoader:
 *
 * Batches from a [class@Gnn.Dataset], like `torch.utils.data.DataLoader`.
 * Every option is a property; PyTorch's argument checks (with its messages)
 * run in [method@Gnn.DataLoader.validate], which
 * [method@Gnn.DataLoader.iter] calls before each pass.
 *
 * ```c
 * g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER,
 *     "dataset", dataset, "batch-size", (gint64) 64, "shuffle", TRUE,
 *     "num-workers", 4, "seed", (guint64) 1, NULL);
 * g_autoptr(GnnDataLoaderIter) iter = gnn_data_loader_iter (loader, &error);
 * GPtrArray *batch;
 *
 * while (gnn_data_loader_iter_next (iter, &batch, &error))
 *   {
 *     train_step (g_ptr_array_index (batch, 0), g_ptr_array_index (batch, 1));
 *     g_ptr_array_unref (batch);
 *   }
 * ```
 *
 * Randomness is reproducible: the loader's generator (seeded by
 * [property@Gnn.DataLoader:seed]) drives the default shuffling sampler and
 * draws each pass's base seed; worker `i` gets seed `base + i` (see
 * [func@Gnn.get_worker_info]). The order of batches does not depend on the
 * number of workers.
 *
 * A loader and its iterators belong to the thread that uses them; only the
 * dataset and the collation run in the worker threads (so they must be
 * safe for concurrent reads). Datasets implemented in JavaScript (GJS) can
 * only run with zero workers: GJS refuses calls from other threads.
 *
 * With [property@Gnn.DataLoader:worker-mode] %GNN_WORKER_MODE_PROCESSES,
 * workers are processes forked when the pass starts (once, with
 * persistent workers): each inherits the dataset as it is then, runs
 * `get_item`, `collate` and the `worker-init` handlers single-threaded, and
 * returns every batch in a shared-memory segment (memfd) that the batch
 * tensors map without a copy; the segment is unmapped when the last of
 * them is freed. A worker that dies (a crash, SIGKILL, exit) fails the
 * pass at once with "DataLoader worker (pid 1234) is killed by signal:
 * Killed."; dropping the iterator (or the loader, with persistent
 * workers) stops the children and reaps them. Changes made to the dataset
 * in the caller after the fork are not seen by the workers.
 *
 * Since: 0.1
 */
struct _GnnDataLoader
{
  GObject          parent_instance;
  GnnDataset      *dataset;
  GnnSampler      *sampler;
  GnnBatchSampler *batch_sampler;
  GnnCollate      *collate;
  GnnGenerator    *generator;
  gint64           batch_size;
  gboolean         shuffle;
  gboolean         drop_last;
  gint             num_workers;
  GnnWorkerMode    worker_mode;
  gint             prefetch_factor;
  gboolean         persistent_workers;
  double           timeout;
  guint64          seed;
  GnnWorkerBackend *persistent;      /* kept across passes with persistent-workers */
  gint64           passes;            /* passes started */
  GVariant        *pending_state;     /* load_state: the next pass resumes from it */
  GWeakRef         last_iter;
  GnnWorkerMode    persistent_mode;
  guint64          persistent_seed;   /* the base seed its workers were seeded from */
};

enum {
  PROP_0,
  PROP_DATASET,
  PROP_BATCH_SIZE,
  PROP_SHUFFLE,
  PROP_SAMPLER,
  PROP_BATCH_SAMPLER,
  PROP_DROP_LAST,
  PROP_COLLATE,
  PROP_NUM_WORKERS,
  PROP_WORKER_MODE,
  PROP_PREFETCH_FACTOR,
  PROP_PERSISTENT_WORKERS,
  PROP_TIMEOUT,
  PROP_SEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum { WORKER_INIT, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GnnDataLoader, gnn_data_loader, G_TYPE_OBJECT)

static void
gnn_data_loader_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnDataLoader *self = GNN_DATA_LOADER (object);

  switch (prop_id)
    {
    case PROP_DATASET: g_value_set_object (value, self->dataset); break;
    case PROP_BATCH_SIZE: g_value_set_int64 (value, self->batch_size); break;
    case PROP_SHUFFLE: g_value_set_boolean (value, self->shuffle); break;
    case PROP_SAMPLER: g_value_set_object (value, self->sampler); break;
    case PROP_BATCH_SAMPLER: g_value_set_object (value, self->batch_sampler); break;
    case PROP_DROP_LAST: g_value_set_boolean (value, self->drop_last); break;
    case PROP_COLLATE: g_value_set_object (value, self->collate); break;
    case PROP_NUM_WORKERS: g_value_set_int (value, self->num_workers); break;
    case PROP_WORKER_MODE: g_value_set_enum (value, self->worker_mode); break;
    case PROP_PREFETCH_FACTOR: g_value_set_int (value, self->prefetch_factor); break;
    case PROP_PERSISTENT_WORKERS: g_value_set_boolean (value, self->persistent_workers); break;
    case PROP_TIMEOUT: g_value_set_double (value, self->timeout); break;
    case PROP_SEED: g_value_set_uint64 (value, self->seed); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_data_loader_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnDataLoader *self = GNN_DATA_LOADER (object);

  switch (prop_id)
    {
    case PROP_DATASET: g_set_object (&self->dataset, g_value_get_object (value)); break;
    case PROP_BATCH_SIZE: self->batch_size = g_value_get_int64 (value); break;
    case PROP_SHUFFLE: self->shuffle = g_value_get_boolean (value); break;
    case PROP_SAMPLER: g_set_object (&self->sampler, g_value_get_object (value)); break;
    case PROP_BATCH_SAMPLER: g_set_object (&self->batch_sampler, g_value_get_object (value)); break;
    case PROP_DROP_LAST: self->drop_last = g_value_get_boolean (value); break;
    case PROP_COLLATE: g_set_object (&self->collate, g_value_get_object (value)); break;
    case PROP_NUM_WORKERS: self->num_workers = g_value_get_int (value); break;
    case PROP_WORKER_MODE: self->worker_mode = g_value_get_enum (value); break;
    case PROP_PREFETCH_FACTOR: self->prefetch_factor = g_value_get_int (value); break;
    case PROP_PERSISTENT_WORKERS: self->persistent_workers = g_value_get_boolean (value); break;
    case PROP_TIMEOUT: self->timeout = g_value_get_double (value); break;
    case PROP_SEED:
      self->seed = g_value_get_uint64 (value);
      gnn_generator_manual_seed (self->generator, self->seed);
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_data_loader_dispose (GObject *object)
{
  g_clear_pointer (&GNN_DATA_LOADER (object)->persistent, gnn_worker_backend_unref);
  G_OBJECT_CLASS (gnn_data_loader_parent_class)->dispose (object);
}

static void
gnn_data_loader_finalize (GObject *object)
{
  GnnDataLoader *self = GNN_DATA_LOADER (object);

  g_clear_object (&self->dataset);
  g_clear_object (&self->sampler);
  g_clear_object (&self->batch_sampler);
  g_clear_object (&self->collate);
  g_clear_object (&self->generator);
  g_clear_pointer (&self->pending_state, g_variant_unref);
  g_weak_ref_clear (&self->last_iter);
  G_OBJECT_CLASS (gnn_data_loader_parent_class)->finalize (object);
}

static void
gnn_data_loader_class_init (GnnDataLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  /* CONSTRUCT: a loader rebuilt from its properties (spawn workers, other
   * ranks) gets every value, and g_object_new alone gives a valid loader. */
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS;

  object_class->get_property = gnn_data_loader_get_property;
  object_class->set_property = gnn_data_loader_set_property;
  object_class->dispose = gnn_data_loader_dispose;
  object_class->finalize = gnn_data_loader_finalize;

  /**
   * GnnDataLoader:dataset:
   *
   * The dataset to load from.
   *
   * Since: 0.1
   */
  properties[PROP_DATASET] =
    g_param_spec_object ("dataset", NULL, NULL, GNN_TYPE_DATASET, rw);
  /**
   * GnnDataLoader:batch-size:
   *
   * The number of items per batch (must stay 1 with a batch sampler).
   *
   * Since: 0.1
   */
  properties[PROP_BATCH_SIZE] =
    g_param_spec_int64 ("batch-size", NULL, NULL, G_MININT64, G_MAXINT64, 1, rw);
  /**
   * GnnDataLoader:shuffle:
   *
   * Whether to reshuffle the items every pass (a [class@Gnn.RandomSampler]
   * on the loader's generator).
   *
   * Since: 0.1
   */
  properties[PROP_SHUFFLE] =
    g_param_spec_boolean ("shuffle", NULL, NULL, FALSE, rw);
  /**
   * GnnDataLoader:sampler:
   *
   * The sampler of item indices (exclusive with shuffle).
   *
   * Since: 0.1
   */
  properties[PROP_SAMPLER] =
    g_param_spec_object ("sampler", NULL, NULL, GNN_TYPE_SAMPLER, rw);
  /**
   * GnnDataLoader:batch-sampler:
   *
   * The sampler of batches (exclusive with batch-size, shuffle, sampler
   * and drop-last).
   *
   * Since: 0.1
   */
  properties[PROP_BATCH_SAMPLER] =
    g_param_spec_object ("batch-sampler", NULL, NULL, GNN_TYPE_BATCH_SAMPLER, rw);
  /**
   * GnnDataLoader:drop-last:
   *
   * Whether to drop a last, incomplete batch.
   *
   * Since: 0.1
   */
  properties[PROP_DROP_LAST] =
    g_param_spec_boolean ("drop-last", NULL, NULL, FALSE, rw);
  /**
   * GnnDataLoader:collate:
   *
   * The collation of items into batches (%NULL: the default collation).
   *
   * Since: 0.1
   */
  properties[PROP_COLLATE] =
    g_param_spec_object ("collate", NULL, NULL, GNN_TYPE_COLLATE, rw);
  /**
   * GnnDataLoader:num-workers:
   *
   * The number of workers; 0 loads in the calling thread.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_WORKERS] =
    g_param_spec_int ("num-workers", NULL, NULL, G_MININT, G_MAXINT, 0, rw);
  /**
   * GnnDataLoader:worker-mode:
   *
   * How workers run: threads sharing the dataset, or forked processes
   * returning batches through shared memory.
   *
   * Since: 0.1
   */
  properties[PROP_WORKER_MODE] =
    g_param_spec_enum ("worker-mode", NULL, NULL, GNN_TYPE_WORKER_MODE,
                       GNN_WORKER_MODE_THREADS, rw);
  /**
   * GnnDataLoader:prefetch-factor:
   *
   * Batches in flight per worker.
   *
   * Since: 0.1
   */
  properties[PROP_PREFETCH_FACTOR] =
    g_param_spec_int ("prefetch-factor", NULL, NULL, G_MININT, G_MAXINT, 2, rw);
  /**
   * GnnDataLoader:persistent-workers:
   *
   * Whether the worker threads outlive a pass and serve the next ones
   * (keeping their seeds), until the loader is disposed or its dataset or
   * number of workers changes.
   *
   * Since: 0.1
   */
  properties[PROP_PERSISTENT_WORKERS] =
    g_param_spec_boolean ("persistent-workers", NULL, NULL, FALSE, rw);
  /**
   * GnnDataLoader:timeout:
   *
   * Seconds to wait for a batch from the workers; 0 waits forever.
   *
   * Since: 0.1
   */
  properties[PROP_TIMEOUT] =
    g_param_spec_double ("timeout", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, rw);
  /**
   * GnnDataLoader:seed:
   *
   * The seed of the loader's generator (shuffling and worker seeds).
   * Setting it reseeds.
   *
   * Since: 0.1
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnDataLoader::worker-init:
   * @self: the loader
   * @info: the worker's info
   *
   * Emitted in each worker thread when it starts, after seeding and before
   * it loads anything, like PyTorch's `worker_init_fn`. Handlers run in the
   * worker thread (one emission per worker at a time, concurrently across
   * workers). Not emitted with zero workers.
   *
   * Since: 0.1
   */
  signals[WORKER_INIT] =
    g_signal_new ("worker-init", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, GNN_TYPE_WORKER_INFO);
}

/* The workers' start hook (GnnWorkerInitFunc): they get this, not the loader. */
static void
emit_worker_init (GnnWorkerInfo *info,
                  gpointer       data)
{
  g_signal_emit (data, signals[WORKER_INIT], 0, info);
}

static void
gnn_data_loader_init (GnnDataLoader *self)
{
  self->batch_size = 1;
  self->prefetch_factor = 2;
  self->generator = gnn_generator_new (0);
  g_weak_ref_init (&self->last_iter, NULL);
}

/**
 * gnn_data_loader_new:
 * @dataset: the dataset
 * @batch_size: the number of items per batch
 * @shuffle: whether to reshuffle every pass
 *
 * A loader with the other options at their defaults; set them as properties.
 *
 * Returns: (transfer full): the loader
 *
 * Since: 0.1
 */
GnnDataLoader *
gnn_data_loader_new (GnnDataset *dataset,
                     gint64      batch_size,
                     gboolean    shuffle)
{
  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  return g_object_new (GNN_TYPE_DATA_LOADER, "dataset", dataset, "batch-size", batch_size,
                       "shuffle", shuffle, NULL);
}

/**
 * gnn_data_loader_validate:
 * @self: a #GnnDataLoader
 * @error: return location for a #GError
 *
 * Checks the options as PyTorch's DataLoader constructor does, with its
 * messages: "num_workers option should be non-negative; use num_workers=0
 * to disable multiprocessing.", "timeout option should be non-negative",
 * "prefetch_factor option could only be specified in multiprocessing.let
 * num_workers > 0 to enable multiprocessing.", "persistent_workers option
 * needs num_workers > 0", "sampler option is mutually exclusive with
 * shuffle", "batch_sampler option is mutually exclusive with batch_size,
 * shuffle, sampler, and drop_last", "batch_size should be a positive integer
 * value, but got batch_size=0".
 *
 * Returns: %TRUE if the options are consistent
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_validate (GnnDataLoader  *self,
                          GError        **error)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), FALSE);
  if (self->dataset == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "DataLoader has no dataset");
      return FALSE;
    }
  if (self->num_workers < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "num_workers option should be non-negative; "
                           "use num_workers=0 to disable multiprocessing.");
      return FALSE;
    }
  if (!(self->timeout >= 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "timeout option should be non-negative");
      return FALSE;
    }
  if (self->num_workers == 0 && self->prefetch_factor != 2)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "prefetch_factor option could only be specified in multiprocessing."
                           "let num_workers > 0 to enable multiprocessing.");
      return FALSE;
    }
  if (self->prefetch_factor <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "prefetch_factor option should be positive, but got prefetch_factor=%d",
                   self->prefetch_factor);
      return FALSE;
    }
  if (self->persistent_workers && self->num_workers == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "persistent_workers option needs num_workers > 0");
      return FALSE;
    }
  if (GNN_IS_ITERABLE_DATASET (self->dataset))
    {
      if (self->shuffle)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "DataLoader with IterableDataset: expected unspecified shuffle "
                               "option, but got shuffle=True");
          return FALSE;
        }
      if (self->sampler != NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "DataLoader with IterableDataset: expected unspecified sampler option, "
                       "but got sampler=%s", G_OBJECT_TYPE_NAME (self->sampler));
          return FALSE;
        }
      if (self->batch_sampler != NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "DataLoader with IterableDataset: expected unspecified batch_sampler "
                       "option, but got batch_sampler=%s", G_OBJECT_TYPE_NAME (self->batch_sampler));
          return FALSE;
        }
    }
  if (self->sampler != NULL && self->shuffle)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "sampler option is mutually exclusive with shuffle");
      return FALSE;
    }
  if (self->batch_sampler != NULL)
    {
      if (self->batch_size != 1 || self->shuffle || self->sampler != NULL || self->drop_last)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "batch_sampler option is mutually exclusive with batch_size, "
                               "shuffle, sampler, and drop_last");
          return FALSE;
        }
    }
  else if (self->batch_size <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "batch_size should be a positive integer value, but got batch_size=%"
                   G_GINT64_FORMAT, self->batch_size);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_data_loader_get_length:
 * @self: a #GnnDataLoader
 *
 * Returns the number of batches per pass, like `len(loader)`: the length of
 * the batch sampler (`n / batch_size` with drop-last, else rounded up). For
 * a [class@Gnn.IterableDataset], the same rule on the dataset's length (0
 * when the dataset does not know it; with workers, the real count can
 * differ, as in PyTorch).
 *
 * Returns: the number of batches (0 if the options are invalid)
 *
 * Since: 0.1
 */
gint64
gnn_data_loader_get_length (GnnDataLoader *self)
{
  gint64 n;

  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), 0);
  if (!gnn_data_loader_validate (self, NULL))
    return 0;
  if (self->batch_sampler != NULL)
    return gnn_batch_sampler_get_length (self->batch_sampler);
  /* iterable datasets: len(dataset) / batch_size as in PyTorch, 0 if unknown */
  n = self->sampler != NULL ? gnn_sampler_get_length (self->sampler)
                            : gnn_dataset_get_length (self->dataset);
  return n / self->batch_size + (!self->drop_last && n % self->batch_size != 0);
}

/* Checks a pass's indices once here, so workers call get_item unchecked. */
static gboolean
check_indices (GnnDataLoader  *self,
               const gint64   *indices,
               gsize           n,
               GError        **error)
{
  gint64 length = gnn_dataset_get_length (self->dataset);

  for (gsize i = 0; i < n; i++)
    if (indices[i] < 0 || indices[i] >= length)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "index %" G_GINT64_FORMAT " (from the sampler, position %" G_GSIZE_FORMAT
                     ") is out of range for %s of length %" G_GINT64_FORMAT,
                     indices[i], i, G_OBJECT_TYPE_NAME (self->dataset), length);
        return FALSE;
      }
  return TRUE;
}

/* The indices of one pass, flattened, and the batch size that cuts them. */
static gint64 *
sample_epoch (GnnDataLoader  *self,
              gsize          *n_indices,
              gsize          *batch_size,
              GError        **error)
{
  g_autoptr(GnnSampler) sampler = NULL;
  gint64 *indices;
  gsize n;

  if (self->batch_sampler != NULL)
    {
      gsize n_batches;

      *batch_size = (gsize) gnn_batch_sampler_get_batch_size (self->batch_sampler);
      indices = gnn_batch_sampler_sample (self->batch_sampler, n_indices, &n_batches, error);
      if (indices != NULL && !check_indices (self, indices, *n_indices, error))
        g_clear_pointer (&indices, g_free);
      return indices;
    }
  if (self->sampler != NULL)
    sampler = g_object_ref (self->sampler);
  else if (self->shuffle)
    {
      sampler = GNN_SAMPLER (gnn_random_sampler_new (self->dataset, FALSE, -1, self->generator, NULL));
      if (sampler == NULL)   /* empty dataset: an empty pass, as in PyTorch's iteration */
        sampler = GNN_SAMPLER (gnn_sequential_sampler_new (self->dataset));
    }
  else
    sampler = GNN_SAMPLER (gnn_sequential_sampler_new (self->dataset));
  indices = gnn_sampler_sample (sampler, &n, error);
  if (indices == NULL)
    return NULL;
  if (!check_indices (self, indices, n, error))
    {
      g_free (indices);
      return NULL;
    }
  *batch_size = (gsize) self->batch_size;
  if (self->drop_last)
    n -= n % *batch_size;
  *n_indices = n;
  return indices;
}

/* The workers of a pass: a persistent backend is reused while it fits
 * (same mode, size, dataset and collation, nothing broken). *@base_seed:
 * the pass's seed, replaced by the one the workers were seeded from (a
 * reused backend's). */
static GnnWorkerBackend *
get_backend (GnnDataLoader  *self,
             GnnCollate     *collate,
             guint64        *base_seed,
             GError        **error)
{
  GnnWorkerSetup setup = {
    emit_worker_init, self,
    g_signal_has_handler_pending (self, signals[WORKER_INIT], 0, FALSE),
    self, self->dataset, collate, (guint) self->num_workers, *base_seed, self->timeout
  };
  GnnWorkerMode mode = self->worker_mode;
  GnnWorkerBackend *backend;

  if (self->persistent != NULL &&
      (!self->persistent_workers || self->persistent_mode != mode ||
       self->persistent->num_workers != (guint) self->num_workers ||
       !self->persistent->vtable->fits (self->persistent, self->dataset, collate)))
    g_clear_pointer (&self->persistent, gnn_worker_backend_unref);
  if (self->persistent != NULL)
    {
      *base_seed = self->persistent_seed;
      return gnn_worker_backend_ref (self->persistent);
    }
  backend = gnn_worker_backend_new (mode, &setup, error);
  if (backend != NULL && self->persistent_workers)
    {
      self->persistent = gnn_worker_backend_ref (backend);
      self->persistent_mode = mode;
      self->persistent_seed = *base_seed;
    }
  return backend;
}

/* The generator a user sampler draws with (its "generator" property), if any. */
static GnnGenerator *
sampler_generator (GnnDataLoader *self)
{
  GObject *sampler = self->sampler != NULL ? G_OBJECT (self->sampler) :
                     self->batch_sampler != NULL ? G_OBJECT (gnn_batch_sampler_get_sampler (self->batch_sampler)) :
                     NULL;
  GParamSpec *pspec;
  GnnGenerator *g = NULL;

  if (sampler == NULL)
    return NULL;
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (sampler), "generator");
  if (pspec == NULL || !g_type_is_a (pspec->value_type, GNN_TYPE_GENERATOR))
    return NULL;
  g_object_get (sampler, "generator", &g, NULL);
  return g;
}

static GVariant *
bytes_variant (GBytes *bytes)
{
  return g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, bytes, TRUE);
}

static GnnLoaderConfig
config_of (GnnDataLoader *self)
{
  GnnLoaderConfig c = { self->dataset, self->sampler, self->batch_sampler,
                        self->batch_size, self->shuffle, self->drop_last };

  return c;
}

/* Refuses a state this loader cannot have produced (see gnn-data-loader-state.c). */
static gboolean
check_state (GnnDataLoader  *self,
             GVariant       *state,
             GError        **error)
{
  GnnLoaderConfig c = config_of (self);

  if (!gnn_data_loader_validate (self, error))
    return FALSE;
  return gnn_loader_state_check (&c, state, gnn_data_loader_get_length (self), error);
}

/* The loader's state before a pass: what sampling it will consume, and
 * the configuration that cuts it into batches. */
static GVariant *
start_state (GnnDataLoader *self)
{
  GnnLoaderConfig c = config_of (self);
  g_autoptr(GnnGenerator) sg = sampler_generator (self);
  g_autoptr(GBytes) state = gnn_generator_get_state (self->generator);
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "pass", "x", self->passes);
  g_variant_dict_insert_value (&dict, "generator", bytes_variant (state));
  gnn_loader_state_add_config (&c, &dict);
  if (sg != NULL)
    {
      g_autoptr(GBytes) s2 = gnn_generator_get_state (sg);

      g_variant_dict_insert_value (&dict, "sampler-generator", bytes_variant (s2));
    }
  return g_variant_dict_end (&dict);
}

static GnnDataLoaderIter *
iter_from (GnnDataLoader  *self,
           gsize           skip,
           GVariant       *resume,
           GError        **error)
{
  g_autoptr(GnnCollate) collate = NULL;
  g_autoptr(GnnEpoch) epoch = NULL;
  g_autoptr(GnnWorkerBackend) backend = NULL;
  g_autoptr(GVariant) state = NULL;
  GnnDataLoaderIter *iter;
  gint64 *indices;
  gsize n_indices = 0, batch_size = 1;
  guint64 base_seed;

  if (!gnn_data_loader_validate (self, error) ||
      !gnn_workers_check_runnable (G_OBJECT (self->dataset), "dataset", self->num_workers, error) ||
      !gnn_workers_check_runnable (G_OBJECT (self->collate), "collate", self->num_workers, error))
    return NULL;
  /* gnn_dataset_get_length() reads a negative length as 0: an empty epoch
   * instead of the error len() gives in torch */
  if (!GNN_IS_ITERABLE_DATASET (self->dataset) &&
      GNN_DATASET_GET_CLASS (self->dataset)->get_length (self->dataset) < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: __len__() should return >= 0", G_OBJECT_TYPE_NAME (self->dataset));
      return NULL;
    }
  state = g_variant_ref_sink (start_state (self));
  collate = self->collate != NULL ? g_object_ref (self->collate) : gnn_collate_new ();
  if (GNN_IS_ITERABLE_DATASET (self->dataset))
    {
      epoch = gnn_epoch_new_iterable (GNN_ITERABLE_DATASET (self->dataset), collate,
                                      (gsize) self->batch_size, self->drop_last,
                                      MAX ((guint) self->num_workers, 1));
      if (!gnn_loader_state_resume_streams (epoch, resume, skip, error))
        return NULL;
      skip = 0;   /* sequence numbers start afresh: the streams skip instead */
    }
  else
    {
      indices = sample_epoch (self, &n_indices, &batch_size, error);
      if (indices == NULL)
        return NULL;
      epoch = gnn_epoch_new (self->dataset, collate, indices, n_indices, batch_size);
    }
  base_seed = gnn_generator_next_u64 (self->generator);
  /* drawn for every pass, persistent workers or not: each pass draws
   * other per-sample randomness, and a resumed pass the same again */
  epoch->sample_seed = base_seed;
  if (self->passes < G_MAXINT64)   /* a loaded state's "pass" is below it */
    self->passes++;
  /* Persistent workers keep the seeds of the pass that started them: a
   * resumed pass starts its workers from those, as the uninterrupted run
   * still has them. */
  if (resume != NULL && self->persistent_workers && self->persistent == NULL)
    g_variant_lookup (resume, "worker-seed", "t", &base_seed);
  if (self->num_workers > 0)
    {
      backend = get_backend (self, collate, &base_seed, error);
      if (backend == NULL)
        return NULL;
      if (self->persistent_workers)
        {
          GVariantDict dict;

          g_variant_dict_init (&dict, state);
          g_variant_dict_insert (&dict, "worker-seed", "t", base_seed);
          g_variant_unref (state);
          state = g_variant_ref_sink (g_variant_dict_end (&dict));
        }
    }
  iter = gnn_data_loader_iter_new_internal (self, epoch, backend, (guint) self->prefetch_factor,
                                            self->timeout, state, skip);
  g_weak_ref_set (&self->last_iter, iter);
  return iter;
}

/**
 * gnn_data_loader_iter:
 * @self: a #GnnDataLoader
 * @error: return location for a #GError
 *
 * Validates the options, samples one pass and starts the workers, like
 * `iter(loader)` (in worker mode %GNN_WORKER_MODE_PROCESSES, forks them; a
 * failure to do so is a %GNN_ERROR_WORKER error). After
 * [method@Gnn.DataLoader.load_state], the pass resumes where that state
 * stood.
 *
 * Returns: (transfer full): the iterator, or %NULL on error
 *
 * Since: 0.1
 */
GnnDataLoaderIter *
gnn_data_loader_iter (GnnDataLoader  *self,
                      GError        **error)
{
  g_autoptr(GVariant) pending = NULL;
  GnnDataLoaderIter *iter;

  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), NULL);
  if (self->pending_state == NULL)
    return iter_from (self, 0, NULL, error);
  /* kept until the resume succeeds: a failed one (a fork refused) can be
   * retried, and get_state() still reports it */
  pending = g_variant_ref (self->pending_state);
  iter = gnn_data_loader_iter_new_from_state (self, pending, error);
  if (iter != NULL && self->pending_state == pending)
    g_clear_pointer (&self->pending_state, g_variant_unref);
  return iter;
}

/**
 * gnn_data_loader_iter_new_from_state:
 * @loader: a #GnnDataLoader
 * @state: a state from [method@Gnn.DataLoaderIter.get_state]
 * @error: return location for a #GError
 *
 * Resumes a pass: restores the loader's (and its sampler's) generator to
 * where they stood before that pass, samples it again and skips the
 * batches already handed out, so the iterator yields exactly the batches
 * the interrupted pass would have yielded next, and later passes follow as
 * they would have. The loader must be configured as the one the state came
 * from (dataset length, sampler kind and seed, batch size, drop_last: a
 * mismatch is a %GNN_ERROR_INVALID_ARGUMENT naming the field, see
 * [method@Gnn.DataLoader.load_state]); the worker mode and count may
 * differ. Worker seeds are the same; random state a dataset keeps inside
 * its workers restarts from those seeds. Over an iterable dataset each
 * worker's stream skips what it delivered (see
 * [method@Gnn.DataLoaderIter.get_state]); the worker count must then be
 * the same.
 *
 * Returns: (transfer full): the iterator, or %NULL on error (a malformed
 *   state is a %GNN_ERROR_KEY or %GNN_ERROR_TYPE error)
 *
 * Since: 0.1
 */
GnnDataLoaderIter *
gnn_data_loader_iter_new_from_state (GnnDataLoader  *loader,
                                     GVariant       *state,
                                     GError        **error)
{
  g_autoptr(GnnGenerator) sg = NULL;
  g_autoptr(GBytes) saved = NULL, saved_sg = NULL;
  GnnDataLoaderIter *iter;
  gint64 pass = 0, batches = 0, saved_passes;

  g_return_val_if_fail (GNN_IS_DATA_LOADER (loader), NULL);
  g_return_val_if_fail (state != NULL, NULL);
  if (!g_variant_is_of_type (state, G_VARIANT_TYPE_VARDICT) ||
      !g_variant_lookup (state, "pass", "x", &pass) ||
      !g_variant_lookup (state, "batches", "x", &batches) || pass < 0 || batches < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "DataLoader state: expected an a{sv} with \"pass\" and \"batches\" "
                           "(int64, non-negative)");
      return NULL;
    }
  if (!check_state (loader, state, error))
    return NULL;
  /* Nothing changes unless every part restores. */
  saved = gnn_generator_get_state (loader->generator);
  if (!gnn_loader_state_restore_generator (loader->generator, state, "generator", error))
    return NULL;
  sg = sampler_generator (loader);
  saved_sg = sg != NULL ? gnn_generator_get_state (sg) : NULL;
  if (!gnn_loader_state_restore_generator (sg, state, "sampler-generator", error))
    {
      gnn_generator_set_state (loader->generator, saved, NULL);
      return NULL;
    }
  saved_passes = loader->passes;
  loader->passes = pass;
  iter = iter_from (loader, (gsize) batches, state, error);
  if (iter == NULL)
    {
      gnn_generator_set_state (loader->generator, saved, NULL);
      if (sg != NULL)
        gnn_generator_set_state (sg, saved_sg, NULL);
      loader->passes = saved_passes;
    }
  return iter;
}

/**
 * gnn_data_loader_get_state:
 * @self: a #GnnDataLoader
 *
 * The state given to [method@Gnn.DataLoader.load_state] if no pass has
 * resumed from it yet; else the state of the loader's latest pass if its
 * iterator is still alive (see [method@Gnn.DataLoaderIter.get_state]), else
 * that of the next pass to start — PyTorch's
 * `StatefulDataLoader.state_dict()`.
 *
 * Returns: (transfer full): the state, an `a{sv}` variant
 *
 * Since: 0.1
 */
GVariant *
gnn_data_loader_get_state (GnnDataLoader *self)
{
  g_autoptr(GnnDataLoaderIter) iter = NULL;
  g_autoptr(GVariant) start = NULL;
  GVariantDict dict;

  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), NULL);
  /* a state loaded for the next pass is what that pass will resume from */
  if (self->pending_state != NULL)
    return g_variant_ref (self->pending_state);
  iter = g_weak_ref_get (&self->last_iter);
  if (iter != NULL)
    return gnn_data_loader_iter_get_state (iter);
  start = g_variant_ref_sink (start_state (self));   /* the dict copies its entries */
  g_variant_dict_init (&dict, start);
  g_variant_dict_insert (&dict, "batches", "x", (gint64) 0);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

/**
 * gnn_data_loader_load_state:
 * @self: a #GnnDataLoader
 * @state: a state from [method@Gnn.DataLoader.get_state]
 * @error: return location for a #GError
 *
 * Makes the next [method@Gnn.DataLoader.iter] resume from @state, like
 * `StatefulDataLoader.load_state_dict()`.
 *
 * A state records what its batches depend on (dataset length, batch size,
 * sampler kind and seed, drop_last): a state this loader cannot have
 * produced — another of those, an iterable pass for a map-style loader,
 * `batches` past the end of the pass — is refused with a
 * %GNN_ERROR_INVALID_ARGUMENT naming the field.
 *
 * Returns: %TRUE, or %FALSE if @state is not a state of this loader
 *
 * Since: 0.1
 */
gboolean
gnn_data_loader_load_state (GnnDataLoader  *self,
                            GVariant       *state,
                            GError        **error)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);
  if (!g_variant_is_of_type (state, G_VARIANT_TYPE_VARDICT) ||
      !g_variant_lookup (state, "pass", "x", NULL) || !g_variant_lookup (state, "batches", "x", NULL))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "DataLoader state: expected an a{sv} with \"pass\" and \"batches\"");
      return FALSE;
    }
  if (!check_state (self, state, error))
    return FALSE;
  g_clear_pointer (&self->pending_state, g_variant_unref);
  self->pending_state = g_variant_ref_sink (state);
  return TRUE;
}
