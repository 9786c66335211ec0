/* gnn-weighted-random-sampler.c: draws indices with given weights
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "data/gnn-data-private.h"

/**
 * GnnWeightedRandomSampler:
 *
 * Draws `num_samples` indices in `[0, len(weights))` with probabilities
 * proportional to the weights, like `torch.utils.data.WeightedRandomSampler`
 * (`torch.multinomial`): with replacement (the default in PyTorch) or
 * without (each index at most once).
 *
 * Since: 0.1
 */
struct _GnnWeightedRandomSampler
{
  GnnSampler    parent_instance;
  GnnGenerator *generator;
  double       *weights;
  double       *cumulative;   /* running sums of the weights */
  gsize         n_weights;
  gint64        num_samples;
  gboolean      replacement;
};

enum { PROP_0, PROP_WEIGHTS, PROP_NUM_SAMPLES, PROP_REPLACEMENT, PROP_GENERATOR, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnWeightedRandomSampler, gnn_weighted_random_sampler, GNN_TYPE_SAMPLER)

static gint64
gnn_weighted_random_sampler_get_length_impl (GnnSampler *sampler)
{
  return GNN_WEIGHTED_RANDOM_SAMPLER (sampler)->num_samples;
}

static int
cmp_key_desc (gconstpointer a, gconstpointer b)
{
  const double *x = a, *y = b;

  return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0;
}

static GArray *
gnn_weighted_random_sampler_sample_impl (GnnSampler  *sampler,
                                         GError     **error)
{
  GnnWeightedRandomSampler *self = GNN_WEIGHTED_RANDOM_SAMPLER (sampler);
  gsize n = self->n_weights, count = (gsize) self->num_samples;
  double total = self->cumulative[n - 1];
  GArray *array = gnn_index_garray_try_new (count, "WeightedRandomSampler", error);
  gint64 *out;

  if (array == NULL)
    return NULL;
  out = (gint64 *) array->data;
  if (self->replacement)
    {
      for (gsize i = 0; i < count; i++)
        {
          double u = gnn_generator_next_double (self->generator) * total;
          gsize lo = 0, hi = n - 1;

          /* first index whose running sum exceeds u (zero weights never win) */
          while (lo < hi)
            {
              gsize mid = lo + (hi - lo) / 2;

              if (self->cumulative[mid] > u)
                hi = mid;
              else
                lo = mid + 1;
            }
          out[i] = (gint64) lo;
        }
    }
  else
    {
      /* Efraimidis–Spirakis: the largest keys log(u) / w are a weighted
       * sample without replacement. Pairs (key, index). */
      g_autofree double *keys = g_new (double, 2 * n);

      for (gsize i = 0; i < n; i++)
        {
          double w = self->cumulative[i] - (i > 0 ? self->cumulative[i - 1] : 0.0);
          double u;

          do
            u = gnn_generator_next_double (self->generator);
          while (u <= 0.0);
          keys[2 * i] = w > 0 ? log (u) / w : -INFINITY;
          keys[2 * i + 1] = (double) i;
        }
      qsort (keys, n, 2 * sizeof (double), cmp_key_desc);
      for (gsize i = 0; i < count; i++)
        out[i] = (gint64) keys[2 * i + 1];
    }
  return array;
}

static void
gnn_weighted_random_sampler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnWeightedRandomSampler *self = GNN_WEIGHTED_RANDOM_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_WEIGHTS:
      g_value_set_variant (value, g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, self->weights,
                                                             self->n_weights, sizeof (double)));
      break;
    case PROP_NUM_SAMPLES:
      g_value_set_int64 (value, self->num_samples);
      break;
    case PROP_REPLACEMENT:
      g_value_set_boolean (value, self->replacement);
      break;
    case PROP_GENERATOR:
      g_value_set_object (value, self->generator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_weighted_random_sampler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnWeightedRandomSampler *self = GNN_WEIGHTED_RANDOM_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_WEIGHTS:
      {
        GVariant *v = g_value_get_variant (value);
        gsize n = 0;
        const double *data = v != NULL ? g_variant_get_fixed_array (v, &n, sizeof (double)) : NULL;
        double sum = 0;

        g_free (self->weights);
        g_free (self->cumulative);
        self->weights = g_memdup2 (data, n * sizeof (double));
        self->cumulative = g_new (double, MAX (n, 1));
        self->n_weights = n;
        for (gsize i = 0; i < n; i++)
          self->cumulative[i] = sum += data[i];
      }
      break;
    case PROP_NUM_SAMPLES:
      self->num_samples = g_value_get_int64 (value);
      break;
    case PROP_REPLACEMENT:
      self->replacement = g_value_get_boolean (value);
      break;
    case PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_weighted_random_sampler_constructed (GObject *object)
{
  GnnWeightedRandomSampler *self = GNN_WEIGHTED_RANDOM_SAMPLER (object);

  G_OBJECT_CLASS (gnn_weighted_random_sampler_parent_class)->constructed (object);
  gnn_sampler_generator_ensure (&self->generator);
}

/* PyTorch's checks (torch.multinomial's messages for the weights). */
static gboolean
gnn_weighted_random_sampler_validate (gpointer   sampler,
                                      GError   **error)
{
  GnnWeightedRandomSampler *self = GNN_WEIGHTED_RANDOM_SAMPLER (sampler);
  gsize nonzero = 0;

  if (self->num_samples <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "num_samples should be a positive integer value, but got num_samples=%"
                   G_GINT64_FORMAT, self->num_samples);
      return FALSE;
    }
  for (gsize i = 0; i < self->n_weights; i++)
    {
      if (!(self->weights[i] >= 0) || isinf (self->weights[i]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "invalid multinomial distribution (encountering probability entry < 0): "
                       "weight %" G_GSIZE_FORMAT " is %g", i, self->weights[i]);
          return FALSE;
        }
      nonzero += self->weights[i] > 0;
    }
  if (nonzero == 0 || !(self->cumulative[self->n_weights - 1] > 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "invalid multinomial distribution (sum of probabilities <= 0)");
      return FALSE;
    }
  if (!self->replacement && (guint64) self->num_samples > nonzero)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot sample n_sample > prob_dist.size(-1) samples without replacement "
                   "(num_samples=%" G_GINT64_FORMAT ", %" G_GSIZE_FORMAT " non-zero weights)",
                   self->num_samples, nonzero);
      return FALSE;
    }
  return TRUE;
}

static void
gnn_weighted_random_sampler_finalize (GObject *object)
{
  GnnWeightedRandomSampler *self = GNN_WEIGHTED_RANDOM_SAMPLER (object);

  g_clear_object (&self->generator);
  g_clear_pointer (&self->weights, g_free);
  g_clear_pointer (&self->cumulative, g_free);
  G_OBJECT_CLASS (gnn_weighted_random_sampler_parent_class)->finalize (object);
}

static void
gnn_weighted_random_sampler_class_init (GnnWeightedRandomSamplerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnSamplerClass *sampler_class = GNN_SAMPLER_CLASS (klass);

  object_class->get_property = gnn_weighted_random_sampler_get_property;
  object_class->set_property = gnn_weighted_random_sampler_set_property;
  object_class->constructed = gnn_weighted_random_sampler_constructed;
  object_class->finalize = gnn_weighted_random_sampler_finalize;
  gnn_sampler_class_set_validate (klass, gnn_weighted_random_sampler_validate);
  sampler_class->get_length = gnn_weighted_random_sampler_get_length_impl;
  sampler_class->sample = gnn_weighted_random_sampler_sample_impl;

  /**
   * GnnWeightedRandomSampler:weights:
   *
   * The weight of every index, an `ad` variant.
   *
   * Since: 0.1
   */
  properties[PROP_WEIGHTS] =
    g_param_spec_variant ("weights", NULL, NULL, G_VARIANT_TYPE ("ad"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnWeightedRandomSampler:num-samples:
   *
   * The number of indices per epoch.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_SAMPLES] =
    g_param_spec_int64 ("num-samples", NULL, NULL, G_MININT64, G_MAXINT64, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnWeightedRandomSampler:replacement:
   *
   * Whether indices are drawn with replacement.
   *
   * Since: 0.1
   */
  properties[PROP_REPLACEMENT] =
    g_param_spec_boolean ("replacement", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnWeightedRandomSampler:generator:
   *
   * The generator of the draws.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    gnn_sampler_generator_param_new ();
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_weighted_random_sampler_init (GnnWeightedRandomSampler *self)
{
}

/**
 * gnn_weighted_random_sampler_new:
 * @weights: (array length=n_weights): non-negative weights, not all zero
 * @n_weights: the number of weights
 * @num_samples: the number of indices per epoch, positive
 * @replacement: whether to draw with replacement
 * @generator: (nullable): the generator (%NULL: one seeded from the default generator)
 * @error: return location for a #GError
 *
 * Errors carry PyTorch's messages: "num_samples should be a positive integer
 * value, but got num_samples=0", "invalid multinomial distribution (encountering
 * probability entry < 0)", "invalid multinomial distribution (sum of
 * probabilities <= 0)", "cannot sample n_sample > prob_dist.size(-1) samples
 * without replacement".
 *
 * Returns: (transfer full): the sampler, or %NULL on error
 *
 * Since: 0.1
 */
GnnWeightedRandomSampler *
gnn_weighted_random_sampler_new (const double  *weights,
                                 gsize          n_weights,
                                 gint64         num_samples,
                                 gboolean       replacement,
                                 GnnGenerator  *generator,
                                 GError       **error)
{
  g_return_val_if_fail (weights != NULL || n_weights == 0, NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return g_initable_new (GNN_TYPE_WEIGHTED_RANDOM_SAMPLER, NULL, error, "weights",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, weights, n_weights,
                                                    sizeof (double)),
                         "num-samples", num_samples, "replacement", replacement,
                         "generator", generator, NULL);
}
