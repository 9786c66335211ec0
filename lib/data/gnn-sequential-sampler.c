/* gnn-sequential-sampler.c: indices 0, 1, 2, …
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "data/gnn-data-private.h"

/**
 * GnnSequentialSampler:
 *
 * Yields `0, 1, …, len(data_source) - 1`, like
 * `torch.utils.data.SequentialSampler`.
 *
 * Since: 0.1
 */
struct _GnnSequentialSampler
{
  GnnSampler  parent_instance;
  GnnDataset *data_source;
};

enum { PROP_0, PROP_DATA_SOURCE, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnSequentialSampler, gnn_sequential_sampler, GNN_TYPE_SAMPLER)

static gint64
gnn_sequential_sampler_get_length_impl (GnnSampler *sampler)
{
  return gnn_dataset_get_length (GNN_SEQUENTIAL_SAMPLER (sampler)->data_source);
}

static GArray *
gnn_sequential_sampler_sample_impl (GnnSampler  *sampler,
                                    GError     **error)
{
  gsize n = (gsize) gnn_sequential_sampler_get_length_impl (sampler);
  GArray *array = gnn_index_garray_try_new (n, "SequentialSampler", error);
  gint64 *out;

  if (array == NULL)
    return NULL;
  out = (gint64 *) array->data;
  for (gsize i = 0; i < n; i++)
    out[i] = (gint64) i;
  return array;
}

static void
gnn_sequential_sampler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnSequentialSampler *self = GNN_SEQUENTIAL_SAMPLER (object);

  switch (prop_id)
    {
    case PROP_DATA_SOURCE:
      g_value_set_object (value, self->data_source);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_sequential_sampler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_DATA_SOURCE:
      g_set_object (&GNN_SEQUENTIAL_SAMPLER (object)->data_source, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
gnn_sequential_sampler_validate (gpointer   self,
                                 GError   **error)
{
  if (GNN_SEQUENTIAL_SAMPLER (self)->data_source == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "SequentialSampler: data_source is not set");
      return FALSE;
    }
  return TRUE;
}

static void
gnn_sequential_sampler_finalize (GObject *object)
{
  g_clear_object (&GNN_SEQUENTIAL_SAMPLER (object)->data_source);
  G_OBJECT_CLASS (gnn_sequential_sampler_parent_class)->finalize (object);
}

static void
gnn_sequential_sampler_class_init (GnnSequentialSamplerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnSamplerClass *sampler_class = GNN_SAMPLER_CLASS (klass);

  object_class->get_property = gnn_sequential_sampler_get_property;
  object_class->set_property = gnn_sequential_sampler_set_property;
  object_class->finalize = gnn_sequential_sampler_finalize;
  gnn_sampler_class_set_validate (klass, gnn_sequential_sampler_validate);
  sampler_class->get_length = gnn_sequential_sampler_get_length_impl;
  sampler_class->sample = gnn_sequential_sampler_sample_impl;

  /**
   * GnnSequentialSampler:data-source:
   *
   * The dataset whose indices are yielded.
   *
   * Since: 0.1
   */
  properties[PROP_DATA_SOURCE] =
    g_param_spec_object ("data-source", NULL, NULL, GNN_TYPE_DATASET,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_sequential_sampler_init (GnnSequentialSampler *self)
{
}

/**
 * gnn_sequential_sampler_new:
 * @data_source: the dataset
 *
 * Creates a sampler yielding 0 … n-1 in order.
 *
 * Returns: (transfer full): a sampler yielding the indices of @data_source in order
 *
 * Since: 0.1
 */
GnnSequentialSampler *
gnn_sequential_sampler_new (GnnDataset *data_source)
{
  g_return_val_if_fail (GNN_IS_DATASET (data_source), NULL);
  return g_object_new (GNN_TYPE_SEQUENTIAL_SAMPLER, "data-source", data_source, NULL);
}
