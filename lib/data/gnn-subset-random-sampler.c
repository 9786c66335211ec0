/* gnn-subset-random-sampler.c: random permutations of given indices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "data/gnn-data-private.h"

/**
 * GnnSubsetRandomSampler:
 *
 * Yields given indices in a new random order each epoch, like
 * `torch.utils.data.SubsetRandomSampler`.
 *
 * Since: 0.1
 */
struct _GnnSubsetRandomSampler
{
  GnnSampler    parent_instance;
  GnnGenerator *generator;
  gint64       *indices;
  gsize         n_indices;
};

enum { PROP_0, PROP_INDICES, PROP_GENERATOR, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnSubsetRandomSampler, gnn_subset_random_sampler, GNN_TYPE_SAMPLER)

static gint64
gnn_subset_random_sampler_get_length_impl (GnnSampler *sampler)
{
  return (gint64) GNN_SUBSET_RANDOM_SAMPLER (sampler)->n_indices;
}

static GArray *
gnn_subset_random_sampler_sample_impl (GnnSampler  *sampler,
                                       GError     **error)
{
  GnnSubsetRandomSampler *self = GNN_SUBSET_RANDOM_SAMPLER (sampler);
  gsize n = self->n_indices;
  GArray *array = gnn_index_garray_try_new (n, "SubsetRandomSampler", error);
  gint64 *out;

  if (array == NULL)
    return NULL;
  out = (gint64 *) array->data;
  gnn_randperm (self->generator, out, n);
  for (gsize i = 0; i < n; i++)
    out[i] = self->indices[out[i]];
  return array;
}

static void
gnn_subset_random_sampler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnSubsetRandomSampler *self = GNN_SUBSET_RANDOM_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_INDICES:
      g_value_set_variant (value, g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, self->indices,
                                                             self->n_indices, sizeof (gint64)));
      break;
    case PROP_GENERATOR:
      g_value_set_object (value, self->generator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_subset_random_sampler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnSubsetRandomSampler *self = GNN_SUBSET_RANDOM_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_INDICES:
      {
        GVariant *v = g_value_get_variant (value);
        gsize n = 0;
        const gint64 *data = v != NULL ? g_variant_get_fixed_array (v, &n, sizeof (gint64)) : NULL;

        g_free (self->indices);
        self->indices = g_memdup2 (data, n * sizeof (gint64));
        self->n_indices = n;
      }
      break;
    case PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_subset_random_sampler_constructed (GObject *object)
{
  GnnSubsetRandomSampler *self = GNN_SUBSET_RANDOM_SAMPLER (object);

  G_OBJECT_CLASS (gnn_subset_random_sampler_parent_class)->constructed (object);
  gnn_sampler_generator_ensure (&self->generator);
}

static void
gnn_subset_random_sampler_finalize (GObject *object)
{
  GnnSubsetRandomSampler *self = GNN_SUBSET_RANDOM_SAMPLER (object);

  g_clear_object (&self->generator);
  g_clear_pointer (&self->indices, g_free);
  G_OBJECT_CLASS (gnn_subset_random_sampler_parent_class)->finalize (object);
}

static void
gnn_subset_random_sampler_class_init (GnnSubsetRandomSamplerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnSamplerClass *sampler_class = GNN_SAMPLER_CLASS (klass);

  object_class->get_property = gnn_subset_random_sampler_get_property;
  object_class->set_property = gnn_subset_random_sampler_set_property;
  object_class->constructed = gnn_subset_random_sampler_constructed;
  object_class->finalize = gnn_subset_random_sampler_finalize;
  sampler_class->get_length = gnn_subset_random_sampler_get_length_impl;
  sampler_class->sample = gnn_subset_random_sampler_sample_impl;

  /**
   * GnnSubsetRandomSampler:indices:
   *
   * The indices to permute, an `ax` variant (%NULL: none).
   *
   * Since: 0.1
   */
  properties[PROP_INDICES] =
    g_param_spec_variant ("indices", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnSubsetRandomSampler:generator:
   *
   * The generator of the permutations (one seeded from the default
   * generator, [func@Gnn.Generator.get_default], when none is given).
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    gnn_sampler_generator_param_new ();
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_subset_random_sampler_init (GnnSubsetRandomSampler *self)
{
}

/**
 * gnn_subset_random_sampler_new:
 * @indices: (array length=n_indices) (nullable): the indices to permute
 * @n_indices: the number of indices
 * @generator: (nullable): the generator (%NULL: one seeded from the default generator)
 *
 * Creates a sampler yielding the given indices in a new random order each epoch.
 *
 * Returns: (transfer full): the sampler
 *
 * Since: 0.1
 */
GnnSubsetRandomSampler *
gnn_subset_random_sampler_new (const gint64  *indices,
                               gsize          n_indices,
                               GnnGenerator  *generator)
{
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return g_object_new (GNN_TYPE_SUBSET_RANDOM_SAMPLER, "indices",
                       g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, indices, n_indices,
                                                  sizeof (gint64)),
                       "generator", generator, NULL);
}
