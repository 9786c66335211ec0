/* gnn-adaptive-pool-nd.c: the base of the adaptive pooling layers
 *
 * One implementation for AdaptiveAvgPool1d/2d/3d and AdaptiveMaxPool1d/2d/3d:
 * the subclasses declare their number of pooled dimensions and whether they
 * take the maximum; forward is [method@Gnn.Tensor.adaptive_avg_pool] or
 * [method@Gnn.Tensor.adaptive_max_pool].
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-adaptive-pool-nd-private.h"
#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnAdaptivePoolNd:
 *
 * The abstract base of the adaptive pooling layers, torch's
 * `_AdaptiveAvgPoolNd` and `_AdaptiveMaxPoolNd`: a layer pools the last 1,
 * 2 or 3 dimensions of `[N, C, *]` or unbatched `[C, *]` inputs to its
 * `output-size-*` properties, -1 meaning the input's own size (torch's
 * `None`). The layers have no parameters.
 *
 * A max layer built with `return-indices` returns torch's `(output,
 * indices)` pair from a module call ([method@Gnn.Module.call_args]; its
 * one-tensor [method@Gnn.Module.forward] refuses), and
 * [method@Gnn.AdaptivePoolNd.forward_with_indices] gives both without
 * the hooks.
 *
 * Since: 0.1
 */

enum
{
  PROP_0,
  PROP_OUTPUT_SIZE,    /* PROP_OUTPUT_SIZE + i: dimension i */
  PROP_RETURN_INDICES = PROP_OUTPUT_SIZE + 3,
};

typedef struct
{
  gint64   output_size[3];
  gboolean return_indices;
} GnnAdaptivePoolNdPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GnnAdaptivePoolNd, gnn_adaptive_pool_nd, GNN_TYPE_MODULE)

#define PRIV(self) ((GnnAdaptivePoolNdPrivate *) gnn_adaptive_pool_nd_get_instance_private (GNN_ADAPTIVE_POOL_ND (self)))

/* The output size with None resolved against @input (whose rank the
 * tensor op checks). */
static void
resolve_size (GnnAdaptivePoolNd *self,
              GnnTensor         *input,
              gint64            *size)
{
  guint k = GNN_ADAPTIVE_POOL_ND_GET_CLASS (self)->n_spatial, ndim;
  const gint64 *shape = gnn_tensor_get_shape (input, &ndim);

  for (guint i = 0; i < k; i++)
    size[i] = PRIV (self)->output_size[i] >= 0 || ndim < k ? PRIV (self)->output_size[i]
                                                           : shape[ndim - k + i];
}

/**
 * gnn_adaptive_pool_nd_forward_with_indices:
 * @self: an adaptive pooling layer
 * @input: the input
 * @indices: (out) (optional) (transfer full): for a max layer, the
 *   position of each maximum in its plane (see
 *   [method@Gnn.Tensor.adaptive_max_pool]); %NULL for an average layer
 * @error: return location for a #GError
 *
 * The layer's output and, for a max layer, its indices: torch's `forward`
 * with `return_indices=True`. The module hooks do not run.
 *
 * Returns: (transfer full): the pooled tensor, or %NULL on error
 *
 * Since: 0.1
 */
GnnTensor *
gnn_adaptive_pool_nd_forward_with_indices (GnnAdaptivePoolNd  *self,
                                           GnnTensor          *input,
                                           GnnTensor         **indices,
                                           GError            **error)
{
  GnnAdaptivePoolNdClass *klass;
  gint64 size[3];

  g_return_val_if_fail (GNN_IS_ADAPTIVE_POOL_ND (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  klass = GNN_ADAPTIVE_POOL_ND_GET_CLASS (self);
  if (indices != NULL)
    *indices = NULL;
  resolve_size (self, input, size);
  if (klass->max)
    return gnn_tensor_adaptive_max_pool (input, size, klass->n_spatial, indices, error);
  return gnn_tensor_adaptive_avg_pool (input, size, klass->n_spatial, error);
}

static GnnTensor *
forward_with_indices (GnnModule   *module,
                      GnnTensor   *input,
                      GnnTensor  **indices,
                      GError     **error)
{
  return gnn_adaptive_pool_nd_forward_with_indices (GNN_ADAPTIVE_POOL_ND (module), input, indices, error);
}

static GnnTensor *
gnn_adaptive_pool_nd_forward (GnnModule  *module,
                              GnnTensor  *input,
                              GError    **error)
{
  return gnn_nn_forward_without_indices (module, input, PRIV (module)->return_indices,
                                         forward_with_indices, error);
}

/* A max layer's call: torch's `(output, indices)` with return_indices. */
static GnnValue *
gnn_adaptive_max_pool_forward_args (GnnModule  *module,
                                    GnnValue   *args,
                                    GnnValue   *kwargs,
                                    GError    **error)
{
  return gnn_nn_forward_with_indices (module, args, kwargs, PRIV (module)->return_indices,
                                      forward_with_indices, error);
}

static char *
gnn_adaptive_pool_nd_extra_repr (GnnModule *module)
{
  guint k = GNN_ADAPTIVE_POOL_ND_GET_CLASS (module)->n_spatial;
  const gint64 *size = PRIV (module)->output_size;
  gboolean one = k == 1 && size[0] >= 0;
  GString *s = g_string_new ("output_size=");

  /* torch prints what it was given; the sizes of 2 or 3 dimensions print
   * as the tuple they are nearly always given as (torchvision's
   * AdaptiveAvgPool2d((1, 1)), (7, 7)) */
  if (one)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, size[0]);
  else
    {
      g_string_append_c (s, '(');
      for (guint i = 0; i < k; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          if (size[i] < 0)
            g_string_append (s, "None");
          else
            g_string_append_printf (s, "%" G_GINT64_FORMAT, size[i]);
        }
      g_string_append_c (s, ')');
    }
  return g_string_free (s, FALSE);
}

static void
gnn_adaptive_pool_nd_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  GnnAdaptivePoolNdPrivate *priv = PRIV (object);

  if (prop_id >= PROP_OUTPUT_SIZE && prop_id < PROP_RETURN_INDICES)
    g_value_set_int64 (value, priv->output_size[prop_id - PROP_OUTPUT_SIZE]);
  else if (prop_id == PROP_RETURN_INDICES)
    g_value_set_boolean (value, priv->return_indices);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_adaptive_pool_nd_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  GnnAdaptivePoolNdPrivate *priv = PRIV (object);

  if (prop_id >= PROP_OUTPUT_SIZE && prop_id < PROP_RETURN_INDICES)
    priv->output_size[prop_id - PROP_OUTPUT_SIZE] = g_value_get_int64 (value);
  else if (prop_id == PROP_RETURN_INDICES)
    priv->return_indices = g_value_get_boolean (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_adaptive_pool_nd_class_init (GnnAdaptivePoolNdClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_adaptive_pool_nd_forward;
  module_class->extra_repr = gnn_adaptive_pool_nd_extra_repr;
}

static void
gnn_adaptive_pool_nd_init (GnnAdaptivePoolNd *self)
{
  for (guint i = 0; i < 3; i++)
    PRIV (self)->output_size[i] = 1;
}

static const char *const size_names[3][3] = {
  { "output-size" }, { "output-size-h", "output-size-w" }, { "output-size-d", "output-size-h", "output-size-w" },
};

void
gnn_adaptive_pool_nd_class_setup (GnnAdaptivePoolNdClass *klass,
                                  guint                   n_spatial,
                                  gboolean                max)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  g_return_if_fail (n_spatial >= 1 && n_spatial <= 3);
  klass->n_spatial = n_spatial;
  klass->max = max;
  /* GObject does not inherit these: each subclass routes to the base's */
  object_class->get_property = gnn_adaptive_pool_nd_get_property;
  object_class->set_property = gnn_adaptive_pool_nd_set_property;
  for (guint i = 0; i < n_spatial; i++)
    g_object_class_install_property (object_class, PROP_OUTPUT_SIZE + i,
                                     gnn_nn_int_property (size_names[n_spatial - 1][i], -1, 1));
  if (max)
    {
      g_object_class_install_property (object_class, PROP_RETURN_INDICES,
                                       gnn_nn_bool_property ("return-indices", FALSE));
      /* set here, by the subclass, so that it wins over the base's forward */
      GNN_MODULE_CLASS (klass)->forward_args = gnn_adaptive_max_pool_forward_args;
    }
}

gpointer
gnn_adaptive_pool_nd_new (GType         type,
                          const gint64 *output_size,
                          gboolean      return_indices,
                          GError      **error)
{
  GnnAdaptivePoolNdClass *klass = g_type_class_ref (type);
  guint k = klass->n_spatial, n = 0;
  gboolean max = klass->max;
  const char *names[4];
  GValue values[4] = { G_VALUE_INIT };
  gpointer self;

  g_type_class_unref (klass);
  for (guint i = 0; i < k; i++)
    if (output_size[i] < -1 || output_size[i] > G_MAXINT32)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: output_size must be a non-negative integer or None (-1), got %" G_GINT64_FORMAT,
                     g_type_name (type) + 3, output_size[i]);
        return NULL;
      }
  for (; n < k; n++)
    {
      names[n] = size_names[k - 1][n];
      g_value_init (&values[n], G_TYPE_INT64);
      g_value_set_int64 (&values[n], output_size[n]);
    }
  if (max)
    {
      names[n] = "return-indices";
      g_value_init (&values[n], G_TYPE_BOOLEAN);
      g_value_set_boolean (&values[n++], return_indices);
    }
  self = g_object_new_with_properties (type, n, names, values);
  for (guint i = 0; i < n; i++)
    g_value_unset (&values[i]);
  return self;
}
