/* gnn-batch-sampler.c: groups a sampler's indices into batches
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>

#include "data/gnn-data-private.h"

/**
 * GnnBatchSampler:
 *
 * Groups the indices of a [class@Gnn.Sampler] into batches of `batch_size`,
 * like `torch.utils.data.BatchSampler`; the last batch is shorter, or dropped
 * with `drop_last`. Its length is `n / batch_size` with `drop_last`, else
 * `ceil (n / batch_size)`.
 *
 * Since: 0.1
 */
struct _GnnBatchSampler
{
  GObject     parent_instance;
  GnnSampler *sampler;
  gint64      batch_size;
  gboolean    drop_last;
};

enum { PROP_0, PROP_SAMPLER, PROP_BATCH_SIZE, PROP_DROP_LAST, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void gnn_batch_sampler_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnBatchSampler, gnn_batch_sampler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      gnn_batch_sampler_initable_iface_init))

static gboolean
validate (GnnBatchSampler  *self,
          GError          **error)
{
  if (self->sampler == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "BatchSampler: sampler is not set");
      return FALSE;
    }
  if (self->batch_size <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "batch_size should be a positive integer value, but got batch_size=%"
                   G_GINT64_FORMAT, self->batch_size);
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_batch_sampler_initable_init (GInitable     *initable,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  return validate (GNN_BATCH_SAMPLER (initable), error);
}

static void
gnn_batch_sampler_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_batch_sampler_initable_init;
}

static void
gnn_batch_sampler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnBatchSampler *self = GNN_BATCH_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_SAMPLER:
      g_value_set_object (value, self->sampler);
      break;
    case PROP_BATCH_SIZE:
      g_value_set_int64 (value, self->batch_size);
      break;
    case PROP_DROP_LAST:
      g_value_set_boolean (value, self->drop_last);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_batch_sampler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnBatchSampler *self = GNN_BATCH_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_SAMPLER:
      g_set_object (&self->sampler, g_value_get_object (value));
      break;
    case PROP_BATCH_SIZE:
      self->batch_size = g_value_get_int64 (value);
      break;
    case PROP_DROP_LAST:
      self->drop_last = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_batch_sampler_finalize (GObject *object)
{
  g_clear_object (&GNN_BATCH_SAMPLER (object)->sampler);
  G_OBJECT_CLASS (gnn_batch_sampler_parent_class)->finalize (object);
}

static void
gnn_batch_sampler_class_init (GnnBatchSamplerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = gnn_batch_sampler_get_property;
  object_class->set_property = gnn_batch_sampler_set_property;
  object_class->finalize = gnn_batch_sampler_finalize;

  /**
   * GnnBatchSampler:sampler:
   *
   * The sampler whose indices are grouped.
   *
   * Since: 0.1
   */
  properties[PROP_SAMPLER] =
    g_param_spec_object ("sampler", NULL, NULL, GNN_TYPE_SAMPLER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBatchSampler:batch-size:
   *
   * The number of indices per batch.
   *
   * Since: 0.1
   */
  properties[PROP_BATCH_SIZE] =
    g_param_spec_int64 ("batch-size", NULL, NULL, G_MININT64, G_MAXINT64, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBatchSampler:drop-last:
   *
   * Whether a last, incomplete batch is dropped.
   *
   * Since: 0.1
   */
  properties[PROP_DROP_LAST] =
    g_param_spec_boolean ("drop-last", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_batch_sampler_init (GnnBatchSampler *self)
{
}

/**
 * gnn_batch_sampler_new:
 * @sampler: the sampler of indices
 * @batch_size: the number of indices per batch, positive
 * @drop_last: whether to drop a last, incomplete batch
 * @error: return location for a #GError
 *
 * A non-positive batch size fails with "batch_size should be a positive
 * integer value, but got batch_size=0".
 *
 * Returns: (transfer full): the batch sampler, or %NULL on error
 *
 * Since: 0.1
 */
GnnBatchSampler *
gnn_batch_sampler_new (GnnSampler  *sampler,
                       gint64       batch_size,
                       gboolean     drop_last,
                       GError     **error)
{
  g_return_val_if_fail (GNN_IS_SAMPLER (sampler), NULL);
  return g_initable_new (GNN_TYPE_BATCH_SAMPLER, NULL, error, "sampler", sampler,
                         "batch-size", batch_size, "drop-last", drop_last, NULL);
}

/**
 * gnn_batch_sampler_get_length:
 * @self: a #GnnBatchSampler
 *
 * Gets the number of batches, like `len(batch_sampler)`.
 *
 * Returns: the number of batches per epoch, like `len(batch_sampler)`
 *
 * Since: 0.1
 */
gint64
gnn_batch_sampler_get_length (GnnBatchSampler *self)
{
  gint64 n;

  g_return_val_if_fail (GNN_IS_BATCH_SAMPLER (self), 0);
  if (!validate (self, NULL))
    return 0;
  n = gnn_sampler_get_length (self->sampler);
  return n / self->batch_size + (!self->drop_last && n % self->batch_size != 0);
}

/**
 * gnn_batch_sampler_get_batch_size:
 * @self: a #GnnBatchSampler
 *
 * Gets [property@Gnn.BatchSampler:batch-size].
 *
 * Returns: the number of indices per batch
 *
 * Since: 0.1
 */
gint64
gnn_batch_sampler_get_batch_size (GnnBatchSampler *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_SAMPLER (self), 0);
  return self->batch_size;
}

/**
 * gnn_batch_sampler_get_drop_last:
 * @self: a #GnnBatchSampler
 *
 * Gets [property@Gnn.BatchSampler:drop-last].
 *
 * Returns: whether a last, incomplete batch is dropped
 *
 * Since: 0.1
 */
gboolean
gnn_batch_sampler_get_drop_last (GnnBatchSampler *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_SAMPLER (self), FALSE);
  return self->drop_last;
}

/**
 * gnn_batch_sampler_get_sampler:
 * @self: a #GnnBatchSampler
 *
 * Gets the sampler whose indices are grouped into batches.
 *
 * Returns: (transfer none): the sampler of indices
 *
 * Since: 0.1
 */
GnnSampler *
gnn_batch_sampler_get_sampler (GnnBatchSampler *self)
{
  g_return_val_if_fail (GNN_IS_BATCH_SAMPLER (self), NULL);
  return self->sampler;
}

/**
 * gnn_batch_sampler_sample:
 * @self: a #GnnBatchSampler
 * @n_indices: (out): the number of indices returned
 * @n_batches: (out): the number of batches
 * @error: return location for a #GError
 *
 * Draws one epoch of batches, flattened: batch `b` is the indices
 * `[b * batch_size, min ((b + 1) * batch_size, n_indices))`. With
 * `drop_last`, the indices of an incomplete last batch are not returned.
 *
 * Returns: (transfer full) (array length=n_indices): the indices, or %NULL on error
 *
 * Since: 0.1
 */
gint64 *
gnn_batch_sampler_sample (GnnBatchSampler  *self,
                          gsize            *n_indices,
                          gsize            *n_batches,
                          GError          **error)
{
  gint64 *indices;
  gsize n;

  g_return_val_if_fail (GNN_IS_BATCH_SAMPLER (self), NULL);
  g_return_val_if_fail (n_indices != NULL && n_batches != NULL, NULL);
  *n_indices = *n_batches = 0;
  if (!validate (self, error))
    return NULL;
  indices = gnn_sampler_sample (self->sampler, &n, error);
  if (indices == NULL)
    return NULL;
  if (self->drop_last)
    n -= n % (gsize) self->batch_size;
  *n_indices = n;
  *n_batches = n / (gsize) self->batch_size + (n % (gsize) self->batch_size != 0);
  return indices;
}
