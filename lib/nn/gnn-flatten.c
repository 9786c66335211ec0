/* gnn-flatten.c: flattens a range of dimensions (torch.nn.Flatten)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"

/**
 * GnnFlatten:
 *
 * Flattens the dimensions [property@Gnn.Flatten:start-dim] to
 * [property@Gnn.Flatten:end-dim] (inclusive, negative values count from the
 * end) into one, like `torch.nn.Flatten(start_dim=1, end_dim=-1)`. The
 * output is a view of the input when the strides allow it.
 *
 * Since: 0.1
 */
struct _GnnFlatten
{
  GnnModule parent_instance;
  gint start_dim;
  gint end_dim;
};

enum {
  PROP_0,
  PROP_START_DIM,
  PROP_END_DIM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnFlatten, gnn_flatten, GNN_TYPE_MODULE)

static GnnTensor *
gnn_flatten_forward (GnnModule  *module,
                     GnnTensor  *input,
                     GError    **error)
{
  GnnFlatten *self = GNN_FLATTEN (module);

  return gnn_tensor_flatten (input, self->start_dim, self->end_dim, error);
}

static char *
gnn_flatten_extra_repr (GnnModule *module)
{
  GnnFlatten *self = GNN_FLATTEN (module);

  return g_strdup_printf ("start_dim=%d, end_dim=%d", self->start_dim, self->end_dim);
}

static void
gnn_flatten_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  GnnFlatten *self = GNN_FLATTEN (object);

  switch (prop_id)
    {
    case PROP_START_DIM:
      g_value_set_int (value, self->start_dim);
      break;
    case PROP_END_DIM:
      g_value_set_int (value, self->end_dim);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_flatten_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  GnnFlatten *self = GNN_FLATTEN (object);

  switch (prop_id)
    {
    case PROP_START_DIM:
      self->start_dim = g_value_get_int (value);
      break;
    case PROP_END_DIM:
      self->end_dim = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_flatten_class_init (GnnFlattenClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = gnn_flatten_get_property;
  object_class->set_property = gnn_flatten_set_property;
  module_class->forward = gnn_flatten_forward;
  module_class->extra_repr = gnn_flatten_extra_repr;

  /**
   * GnnFlatten:start-dim:
   *
   * The first dimension to flatten.
   *
   * Since: 0.1
   */
  properties[PROP_START_DIM] =
    g_param_spec_int ("start-dim", NULL, NULL, G_MININT, G_MAXINT, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);

  /**
   * GnnFlatten:end-dim:
   *
   * The last dimension to flatten (inclusive).
   *
   * Since: 0.1
   */
  properties[PROP_END_DIM] =
    g_param_spec_int ("end-dim", NULL, NULL, G_MININT, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_flatten_init (GnnFlatten *self)
{
}

/**
 * gnn_flatten_new:
 * @start_dim:: the value of [property@Gnn.Flatten:start-dim]
 * @end_dim:: the value of [property@Gnn.Flatten:end-dim]
 *
 * Creates the layer, like `torch.nn.Flatten(start_dim, end_dim)`.
 *
 * Returns: (transfer full): a new GnnFlatten
 *
 * Since: 0.1
 */
GnnFlatten *
gnn_flatten_new (gint         start_dim,
                 gint         end_dim)
{
  return g_object_new (GNN_TYPE_FLATTEN, "start-dim", start_dim, "end-dim", end_dim, NULL);
}

/**
 * gnn_flatten_get_start_dim:
 * @self: a GnnFlatten
 *
 * Gets the first dimension to flatten.
 *
 * Returns: the value of [property@Gnn.Flatten:start-dim]
 *
 * Since: 0.1
 */
gint
gnn_flatten_get_start_dim (GnnFlatten *self)
{
  g_return_val_if_fail (GNN_IS_FLATTEN (self), 0);

  return self->start_dim;
}

/**
 * gnn_flatten_get_end_dim:
 * @self: a GnnFlatten
 *
 * Gets the last dimension to flatten.
 *
 * Returns: the value of [property@Gnn.Flatten:end-dim]
 *
 * Since: 0.1
 */
gint
gnn_flatten_get_end_dim (GnnFlatten *self)
{
  g_return_val_if_fail (GNN_IS_FLATTEN (self), 0);

  return self->end_dim;
}
