/* gnn-random-sampler.c: random permutations or draws with replacement
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "data/gnn-data-private.h"

/**
 * GnnRandomSampler:
 *
 * Yields the indices of a dataset in random order, like
 * `torch.utils.data.RandomSampler`: a new permutation each epoch, or, with
 * replacement, `num_samples` independent uniform draws. Without replacement
 * and with `num_samples` larger than the dataset, whole permutations are
 * chained and the last one cut short.
 *
 * Since: 0.1
 */
struct _GnnRandomSampler
{
  GnnSampler    parent_instance;
  GnnDataset   *data_source;
  GnnGenerator *generator;
  gint64        num_samples;   /* -1: the length of the dataset */
  gboolean      replacement;
};

enum { PROP_0, PROP_DATA_SOURCE, PROP_REPLACEMENT, PROP_NUM_SAMPLES, PROP_GENERATOR, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnRandomSampler, gnn_random_sampler, GNN_TYPE_SAMPLER)

static gint64
gnn_random_sampler_get_length_impl (GnnSampler *sampler)
{
  GnnRandomSampler *self = GNN_RANDOM_SAMPLER (sampler);

  if (self->num_samples >= 0 || self->data_source == NULL)
    return MAX (self->num_samples, 0);
  return gnn_dataset_get_length (self->data_source);
}

static GArray *
gnn_random_sampler_sample_impl (GnnSampler  *sampler,
                                GError     **error)
{
  GnnRandomSampler *self = GNN_RANDOM_SAMPLER (sampler);
  gsize n = (gsize) gnn_dataset_get_length (self->data_source);
  gsize count = (gsize) gnn_random_sampler_get_length_impl (sampler);
  GArray *array;
  gint64 *out;

  if (n == 0 && count > 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "RandomSampler: cannot draw samples from an empty dataset");
      return NULL;
    }
  array = gnn_index_garray_try_new (count, "RandomSampler", error);
  if (array == NULL)
    return NULL;
  out = (gint64 *) array->data;
  if (self->replacement)
    {
      for (gsize i = 0; i < count; i++)
        out[i] = (gint64) gnn_generator_next_below (self->generator, n);
    }
  else
    {
      g_autofree gint64 *perm = g_try_new (gint64, MAX (n, 1));

      if (perm == NULL)
        {
          g_array_unref (array);
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "RandomSampler: cannot hold a permutation of %" G_GSIZE_FORMAT
                       " indices in memory", n);
          return NULL;
        }

      for (gsize done = 0; done < count; done += n)
        {
          gnn_randperm (self->generator, perm, n);
          memcpy (out + done, perm, MIN (n, count - done) * sizeof (gint64));
        }
    }
  return array;
}

static void
gnn_random_sampler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnRandomSampler *self = GNN_RANDOM_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_DATA_SOURCE:
      g_value_set_object (value, self->data_source);
      break;
    case PROP_REPLACEMENT:
      g_value_set_boolean (value, self->replacement);
      break;
    case PROP_NUM_SAMPLES:
      g_value_set_int64 (value, gnn_random_sampler_get_length_impl (GNN_SAMPLER (self)));
      break;
    case PROP_GENERATOR:
      g_value_set_object (value, self->generator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_random_sampler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnRandomSampler *self = GNN_RANDOM_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_DATA_SOURCE:
      g_set_object (&self->data_source, g_value_get_object (value));
      break;
    case PROP_REPLACEMENT:
      self->replacement = g_value_get_boolean (value);
      break;
    case PROP_NUM_SAMPLES:
      self->num_samples = g_value_get_int64 (value);
      break;
    case PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_random_sampler_constructed (GObject *object)
{
  GnnRandomSampler *self = GNN_RANDOM_SAMPLER (object);

  G_OBJECT_CLASS (gnn_random_sampler_parent_class)->constructed (object);
  gnn_sampler_generator_ensure (&self->generator);
}

static gboolean
gnn_random_sampler_validate (gpointer   sampler,
                             GError   **error)
{
  GnnRandomSampler *self = GNN_RANDOM_SAMPLER (sampler);
  gint64 effective;

  if (self->data_source == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "RandomSampler: data_source is not set");
      return FALSE;
    }
  effective = self->num_samples == -1 ? gnn_dataset_get_length (self->data_source)
                                      : self->num_samples;
  if (effective <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "num_samples should be a positive integer value, but got num_samples=%"
                   G_GINT64_FORMAT, effective);
      return FALSE;
    }
  return TRUE;
}

static void
gnn_random_sampler_finalize (GObject *object)
{
  GnnRandomSampler *self = GNN_RANDOM_SAMPLER (object);

  g_clear_object (&self->data_source);
  g_clear_object (&self->generator);
  G_OBJECT_CLASS (gnn_random_sampler_parent_class)->finalize (object);
}

static void
gnn_random_sampler_class_init (GnnRandomSamplerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnSamplerClass *sampler_class = GNN_SAMPLER_CLASS (klass);

  object_class->get_property = gnn_random_sampler_get_property;
  object_class->set_property = gnn_random_sampler_set_property;
  object_class->constructed = gnn_random_sampler_constructed;
  object_class->finalize = gnn_random_sampler_finalize;
  gnn_sampler_class_set_validate (klass, gnn_random_sampler_validate);
  sampler_class->get_length = gnn_random_sampler_get_length_impl;
  sampler_class->sample = gnn_random_sampler_sample_impl;

  /**
   * GnnRandomSampler:data-source:
   *
   * The dataset whose indices are drawn.
   *
   * Since: 0.1
   */
  properties[PROP_DATA_SOURCE] =
    g_param_spec_object ("data-source", NULL, NULL, GNN_TYPE_DATASET,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnRandomSampler:replacement:
   *
   * Whether indices are drawn with replacement.
   *
   * Since: 0.1
   */
  properties[PROP_REPLACEMENT] =
    g_param_spec_boolean ("replacement", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnRandomSampler:num-samples:
   *
   * The number of indices per epoch; -1 (the default) follows the length
   * of the dataset. Reads give the effective number.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_SAMPLES] =
    g_param_spec_int64 ("num-samples", NULL, NULL, G_MININT64, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnRandomSampler:generator:
   *
   * The generator of the draws (advanced by every epoch); one seeded from
   * the default generator ([func@Gnn.Generator.get_default]) when none is
   * given.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    gnn_sampler_generator_param_new ();
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_random_sampler_init (GnnRandomSampler *self)
{
}

/**
 * gnn_random_sampler_new:
 * @data_source: the dataset
 * @replacement: whether to draw with replacement
 * @num_samples: the number of indices per epoch, or -1 for the length of
 *   @data_source (PyTorch's `None`)
 * @generator: (nullable): the generator (%NULL: one seeded from the
 *   default generator); it is shared, not copied
 * @error: return location for a #GError
 *
 * A non-positive number of samples fails with "num_samples should be a
 * positive integer value, but got num_samples=0".
 *
 * Returns: (transfer full): the sampler, or %NULL on error
 *
 * Since: 0.1
 */
GnnRandomSampler *
gnn_random_sampler_new (GnnDataset    *data_source,
                        gboolean       replacement,
                        gint64         num_samples,
                        GnnGenerator  *generator,
                        GError       **error)
{
  g_return_val_if_fail (GNN_IS_DATASET (data_source), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return g_initable_new (GNN_TYPE_RANDOM_SAMPLER, NULL, error, "data-source", data_source,
                         "replacement", replacement, "num-samples", num_samples,
                         "generator", generator, NULL);
}
