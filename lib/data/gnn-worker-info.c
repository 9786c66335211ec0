/* gnn-worker-info.c: what a data loader worker knows about itself
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnWorkerInfo:
 *
 * The identity of a [class@Gnn.DataLoader] worker, like
 * `torch.utils.data.get_worker_info()`: its id, the number of workers, its
 * seed (the loader's base seed for this epoch plus the id), the dataset, and
 * a generator seeded with the seed for per-worker randomness (augmentation).
 * Get it with [func@Gnn.get_worker_info] inside `get_item` or `collate`.
 *
 * Since: 0.1
 */
struct _GnnWorkerInfo
{
  GObject       parent_instance;
  guint         id;
  guint         num_workers;
  guint64       seed;
  GnnDataset   *dataset;
  GnnGenerator *generator;
};

enum { PROP_0, PROP_ID, PROP_NUM_WORKERS, PROP_SEED, PROP_DATASET, N_PROPS };
static GParamSpec *properties[N_PROPS];

static _Thread_local GnnWorkerInfo *current_info;

/* The sample generator: one per thread, reseeded for every sample a loader
 * fetches, and visible only while that sample is fetched. */
static _Thread_local GnnGenerator *current_sample_generator;
static GPrivate sample_generator_key = G_PRIVATE_INIT (g_object_unref);

G_DEFINE_FINAL_TYPE (GnnWorkerInfo, gnn_worker_info, G_TYPE_OBJECT)

static void
gnn_worker_info_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnWorkerInfo *self = GNN_WORKER_INFO (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_uint (value, self->id);
      break;
    case PROP_NUM_WORKERS:
      g_value_set_uint (value, self->num_workers);
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->seed);
      break;
    case PROP_DATASET:
      g_value_set_object (value, self->dataset);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_worker_info_finalize (GObject *object)
{
  GnnWorkerInfo *self = GNN_WORKER_INFO (object);

  g_clear_object (&self->dataset);
  g_clear_object (&self->generator);
  G_OBJECT_CLASS (gnn_worker_info_parent_class)->finalize (object);
}

static void
gnn_worker_info_class_init (GnnWorkerInfoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = gnn_worker_info_get_property;
  object_class->finalize = gnn_worker_info_finalize;

  /**
   * GnnWorkerInfo:id:
   *
   * The worker id, in `[0, num_workers)`.
   *
   * Since: 0.1
   */
  properties[PROP_ID] =
    g_param_spec_uint ("id", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnWorkerInfo:num-workers:
   *
   * The number of workers of the loader.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_WORKERS] =
    g_param_spec_uint ("num-workers", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnWorkerInfo:seed:
   *
   * The worker's seed: the base seed of the epoch plus the id.
   *
   * Since: 0.1
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnWorkerInfo:dataset:
   *
   * The dataset the worker reads.
   *
   * Since: 0.1
   */
  properties[PROP_DATASET] =
    g_param_spec_object ("dataset", NULL, NULL, GNN_TYPE_DATASET,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_worker_info_init (GnnWorkerInfo *self)
{
}

GnnWorkerInfo *
gnn_worker_info_new (guint       id,
                     guint       num_workers,
                     guint64     seed,
                     GnnDataset *dataset)
{
  GnnWorkerInfo *self = g_object_new (GNN_TYPE_WORKER_INFO, NULL);

  self->id = id;
  self->num_workers = num_workers;
  self->seed = seed;
  self->dataset = g_object_ref (dataset);
  self->generator = gnn_generator_new (seed);
  return self;
}

void
gnn_worker_info_set_current (GnnWorkerInfo *info)
{
  current_info = info;
}

/**
 * gnn_worker_info_get_id:
 * @self: a #GnnWorkerInfo
 *
 * Gets the id of the worker, from 0 to num_workers - 1.
 *
 * Returns: the worker id, in `[0, num_workers)`
 *
 * Since: 0.1
 */
guint
gnn_worker_info_get_id (GnnWorkerInfo *self)
{
  g_return_val_if_fail (GNN_IS_WORKER_INFO (self), 0);
  return self->id;
}

/**
 * gnn_worker_info_get_num_workers:
 * @self: a #GnnWorkerInfo
 *
 * Gets the number of workers of the loader.
 *
 * Returns: the number of workers
 *
 * Since: 0.1
 */
guint
gnn_worker_info_get_num_workers (GnnWorkerInfo *self)
{
  g_return_val_if_fail (GNN_IS_WORKER_INFO (self), 0);
  return self->num_workers;
}

/**
 * gnn_worker_info_get_seed:
 * @self: a #GnnWorkerInfo
 *
 * Gets the worker's seed: the loader's base seed plus the worker id.
 *
 * Returns: the worker's seed (base seed + id)
 *
 * Since: 0.1
 */
guint64
gnn_worker_info_get_seed (GnnWorkerInfo *self)
{
  g_return_val_if_fail (GNN_IS_WORKER_INFO (self), 0);
  return self->seed;
}

/**
 * gnn_worker_info_get_dataset:
 * @self: a #GnnWorkerInfo
 *
 * Gets the worker's dataset (in process workers, the forked copy).
 *
 * Returns: (transfer none): the dataset
 *
 * Since: 0.1
 */
GnnDataset *
gnn_worker_info_get_dataset (GnnWorkerInfo *self)
{
  g_return_val_if_fail (GNN_IS_WORKER_INFO (self), NULL);
  return self->dataset;
}

/**
 * gnn_worker_info_get_generator:
 * @self: a #GnnWorkerInfo
 *
 * The worker's own generator, seeded with its seed. Use it only from the
 * worker's thread.
 *
 * Returns: (transfer none): the generator
 *
 * Since: 0.1
 */
GnnGenerator *
gnn_worker_info_get_generator (GnnWorkerInfo *self)
{
  g_return_val_if_fail (GNN_IS_WORKER_INFO (self), NULL);
  return self->generator;
}

/**
 * gnn_get_worker_info:
 *
 * Returns the info of the data loader worker running the calling thread,
 * like `torch.utils.data.get_worker_info()`.
 *
 * Returns: (transfer none) (nullable): the worker info, or %NULL outside workers
 *
 * Since: 0.1
 */
GnnWorkerInfo *
gnn_get_worker_info (void)
{
  return current_info;
}

void
gnn_sample_generator_enter (guint64 sample_seed,
                            gint64  index)
{
  GnnGenerator *generator = g_private_get (&sample_generator_key);

  if (generator == NULL)
    {
      generator = gnn_generator_new (0);
      g_private_set (&sample_generator_key, generator);
    }
  /* the generator's seeding mixes this (SplitMix64), so neighbouring
   * indices get unrelated streams */
  gnn_generator_manual_seed (generator,
                             sample_seed ^ ((guint64) index * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)));
  current_sample_generator = generator;
}

void
gnn_sample_generator_leave (void)
{
  current_sample_generator = NULL;
}

/**
 * gnn_get_sample_generator:
 *
 * Returns the generator of the sample a [class@Gnn.DataLoader] is fetching
 * on the calling thread (in a worker, or in the caller without workers),
 * for the random choices `get_item` makes (augmentation: the random
 * transforms of `gnn.vision` draw from it). It is seeded from the pass's
 * seed, which the loader draws from its generator, and the sample's index:
 * the draws for a sample do not depend on which worker fetches it, on the
 * worker mode or count, or on what was fetched before, so a pass is
 * reproducible and a resumed pass ([method@Gnn.DataLoader.load_state])
 * draws what the interrupted one would have drawn. Outside a loader's
 * fetch (a direct `get_item`), %NULL: draw from the default generator
 * ([func@Gnn.Generator.get_default]) then, as torch does.
 *
 * Use it only on the calling thread, and only during the fetch.
 *
 * Returns: (transfer none) (nullable): the sample's generator, or %NULL
 *   outside a loader's fetch
 *
 * Since: 0.1
 */
GnnGenerator *
gnn_get_sample_generator (void)
{
  return current_sample_generator;
}
