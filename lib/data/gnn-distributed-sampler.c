/* gnn-distributed-sampler.c: one replica's shard of a dataset
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "data/gnn-data-private.h"

/**
 * GnnDistributedSampler:
 *
 * The share of one replica (`rank` of `num_replicas`) of a dataset, like
 * `torch.utils.data.distributed.DistributedSampler`. The indices (shuffled
 * with a generator seeded by `seed + epoch` when `shuffle`) are padded by
 * repeating from the start to a multiple of `num_replicas` (or cut down to
 * one with `drop_last`), and the replica takes `indices[rank::num_replicas]`.
 * Every replica must use the same seed and call
 * [method@Gnn.DistributedSampler.set_epoch] with the same epoch.
 *
 * Since: 0.1
 */
struct _GnnDistributedSampler
{
  GnnSampler  parent_instance;
  GnnDataset *dataset;
  gint64      num_replicas;
  gint64      rank;
  gint64      epoch;
  guint64     seed;
  gboolean    shuffle;
  gboolean    drop_last;
};

enum { PROP_0, PROP_DATASET, PROP_NUM_REPLICAS, PROP_RANK, PROP_SHUFFLE, PROP_SEED,
       PROP_DROP_LAST, PROP_EPOCH, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnDistributedSampler, gnn_distributed_sampler, GNN_TYPE_SAMPLER)

static gint64
gnn_distributed_sampler_get_length_impl (GnnSampler *sampler)
{
  GnnDistributedSampler *self = GNN_DISTRIBUTED_SAMPLER (sampler);
  gint64 n, r = self->num_replicas;

  if (self->dataset == NULL || r <= 0)
    return 0;
  n = gnn_dataset_get_length (self->dataset);

  if (self->drop_last && n % r != 0)
    return n / r;   /* ceil ((n - r) / r) for n not a multiple of r */
  return n / r + (n % r != 0);
}

static GArray *
gnn_distributed_sampler_sample_impl (GnnSampler  *sampler,
                                     GError     **error)
{
  GnnDistributedSampler *self = GNN_DISTRIBUTED_SAMPLER (sampler);
  gsize n = (gsize) gnn_dataset_get_length (self->dataset);
  gsize num_samples = (gsize) gnn_distributed_sampler_get_length_impl (sampler);
  gsize replicas = (gsize) self->num_replicas;
  g_autofree gint64 *all = NULL;
  GArray *array;
  gint64 *out;

  if (n == 0 && num_samples > 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "DistributedSampler: the dataset is empty");
      return NULL;
    }
  all = n <= G_MAXSIZE / sizeof (gint64) ? g_try_new (gint64, MAX (n, 1)) : NULL;
  if (all == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "DistributedSampler: cannot hold the %" G_GSIZE_FORMAT
                   " indices of the dataset in memory", n);
      return NULL;
    }
  array = gnn_index_garray_try_new (num_samples, "DistributedSampler", error);
  if (array == NULL)
    return NULL;
  if (self->shuffle)
    {
      g_autoptr(GnnGenerator) g = gnn_generator_new (self->seed + (guint64) self->epoch);

      gnn_randperm (g, all, n);
    }
  else
    {
      for (gsize i = 0; i < n; i++)
        all[i] = (gint64) i;
    }
  /* Position p of the padded list is all[p % n]; the replica takes
   * positions rank, rank + R, … */
  out = (gint64 *) array->data;
  for (gsize i = 0; i < num_samples; i++)
    out[i] = all[(i * replicas + (gsize) self->rank) % n];
  return array;
}

static void
gnn_distributed_sampler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnDistributedSampler *self = GNN_DISTRIBUTED_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_DATASET:
      g_value_set_object (value, self->dataset);
      break;
    case PROP_NUM_REPLICAS:
      g_value_set_int64 (value, self->num_replicas);
      break;
    case PROP_RANK:
      g_value_set_int64 (value, self->rank);
      break;
    case PROP_SHUFFLE:
      g_value_set_boolean (value, self->shuffle);
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->seed);
      break;
    case PROP_DROP_LAST:
      g_value_set_boolean (value, self->drop_last);
      break;
    case PROP_EPOCH:
      g_value_set_int64 (value, self->epoch);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_distributed_sampler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnDistributedSampler *self = GNN_DISTRIBUTED_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_DATASET:
      g_set_object (&self->dataset, g_value_get_object (value));
      break;
    case PROP_NUM_REPLICAS:
      self->num_replicas = g_value_get_int64 (value);
      break;
    case PROP_RANK:
      self->rank = g_value_get_int64 (value);
      break;
    case PROP_SHUFFLE:
      self->shuffle = g_value_get_boolean (value);
      break;
    case PROP_SEED:
      self->seed = g_value_get_uint64 (value);
      break;
    case PROP_DROP_LAST:
      self->drop_last = g_value_get_boolean (value);
      break;
    case PROP_EPOCH:
      gnn_distributed_sampler_set_epoch (GNN_DISTRIBUTED_SAMPLER (object), g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* PyTorch's checks, in its order. */
static gboolean
gnn_distributed_sampler_validate (gpointer   sampler,
                                  GError   **error)
{
  GnnDistributedSampler *self = GNN_DISTRIBUTED_SAMPLER (sampler);

  if (self->dataset == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "DistributedSampler: dataset is not set");
      return FALSE;
    }
  if (self->num_replicas <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "num_replicas should be a positive integer value, but got num_replicas=%"
                   G_GINT64_FORMAT, self->num_replicas);
      return FALSE;
    }
  if (self->rank >= self->num_replicas || self->rank < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid rank %" G_GINT64_FORMAT ", rank should be in the interval [0, %"
                   G_GINT64_FORMAT "]", self->rank, self->num_replicas - 1);
      return FALSE;
    }
  return TRUE;
}

static void
gnn_distributed_sampler_finalize (GObject *object)
{
  g_clear_object (&GNN_DISTRIBUTED_SAMPLER (object)->dataset);
  G_OBJECT_CLASS (gnn_distributed_sampler_parent_class)->finalize (object);
}

static void
gnn_distributed_sampler_class_init (GnnDistributedSamplerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnSamplerClass *sampler_class = GNN_SAMPLER_CLASS (klass);

  object_class->get_property = gnn_distributed_sampler_get_property;
  object_class->set_property = gnn_distributed_sampler_set_property;
  object_class->finalize = gnn_distributed_sampler_finalize;
  gnn_sampler_class_set_validate (klass, gnn_distributed_sampler_validate);
  sampler_class->get_length = gnn_distributed_sampler_get_length_impl;
  sampler_class->sample = gnn_distributed_sampler_sample_impl;

  /**
   * GnnDistributedSampler:dataset:
   *
   * The dataset being sharded.
   *
   * Since: 0.1
   */
  properties[PROP_DATASET] =
    g_param_spec_object ("dataset", NULL, NULL, GNN_TYPE_DATASET,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDistributedSampler:num-replicas:
   *
   * The number of replicas (processes) sharing the dataset.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_REPLICAS] =
    g_param_spec_int64 ("num-replicas", NULL, NULL, G_MININT64, G_MAXINT64, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDistributedSampler:rank:
   *
   * This replica's rank, in `[0, num_replicas)`.
   *
   * Since: 0.1
   */
  properties[PROP_RANK] =
    g_param_spec_int64 ("rank", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDistributedSampler:shuffle:
   *
   * Whether the indices are shuffled (by `seed + epoch`).
   *
   * Since: 0.1
   */
  properties[PROP_SHUFFLE] =
    g_param_spec_boolean ("shuffle", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDistributedSampler:seed:
   *
   * The shuffling seed, the same on every replica.
   *
   * Since: 0.1
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDistributedSampler:drop-last:
   *
   * Whether the tail is dropped (instead of padding) to divide evenly.
   *
   * Since: 0.1
   */
  properties[PROP_DROP_LAST] =
    g_param_spec_boolean ("drop-last", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnDistributedSampler:epoch:
   *
   * The epoch, added to the seed when shuffling.
   *
   * Since: 0.1
   */
  properties[PROP_EPOCH] =
    g_param_spec_int64 ("epoch", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_distributed_sampler_init (GnnDistributedSampler *self)
{
}

/**
 * gnn_distributed_sampler_new:
 * @dataset: the dataset
 * @num_replicas: the number of replicas, positive
 * @rank: this replica's rank, in `[0, num_replicas)`
 * @shuffle: whether to shuffle (by `seed + epoch`)
 * @seed: the shuffling seed, the same on every replica
 * @drop_last: whether to drop the tail rather than pad
 * @error: return location for a #GError
 *
 * A bad rank fails with PyTorch's "Invalid rank 4, rank should be in the
 * interval [0, 3]".
 *
 * Returns: (transfer full): the sampler, or %NULL on error
 *
 * Since: 0.1
 */
GnnDistributedSampler *
gnn_distributed_sampler_new (GnnDataset  *dataset,
                             gint64       num_replicas,
                             gint64       rank,
                             gboolean     shuffle,
                             guint64      seed,
                             gboolean     drop_last,
                             GError     **error)
{
  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  return g_initable_new (GNN_TYPE_DISTRIBUTED_SAMPLER, NULL, error, "dataset", dataset,
                         "num-replicas", num_replicas, "rank", rank, "shuffle", shuffle,
                         "seed", seed, "drop-last", drop_last, NULL);
}

/**
 * gnn_distributed_sampler_set_epoch:
 * @self: a #GnnDistributedSampler
 * @epoch: the epoch
 *
 * Sets the epoch, so each epoch shuffles differently (the same on every replica).
 *
 * Since: 0.1
 */
void
gnn_distributed_sampler_set_epoch (GnnDistributedSampler *self,
                                   gint64                 epoch)
{
  g_return_if_fail (GNN_IS_DISTRIBUTED_SAMPLER (self));
  if (self->epoch == epoch)
    return;
  self->epoch = epoch;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EPOCH]);
}

/**
 * gnn_distributed_sampler_get_total_size:
 * @self: a #GnnDistributedSampler
 *
 * Gets the number of indices over all replicas after padding or dropping.
 *
 * Returns: the padded (or cut) number of indices over all replicas
 *
 * Since: 0.1
 */
gint64
gnn_distributed_sampler_get_total_size (GnnDistributedSampler *self)
{
  g_return_val_if_fail (GNN_IS_DISTRIBUTED_SAMPLER (self), 0);
  return gnn_distributed_sampler_get_length_impl (GNN_SAMPLER (self)) * self->num_replicas;
}
