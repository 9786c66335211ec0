/* gnn-relu.c: the rectified linear unit (torch.nn.ReLU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"

/**
 * GnnReLU:
 *
 * Applies max(0, x) elementwise, like `torch.nn.ReLU(inplace=False)`.
 * With [property@Gnn.ReLU:inplace] the input is modified and returned.
 *
 * Since: 0.1
 */
struct _GnnReLU
{
  GnnModule parent_instance;
  gboolean inplace;
};

enum {
  PROP_0,
  PROP_INPLACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnReLU, gnn_relu, GNN_TYPE_MODULE)

static GnnTensor *
gnn_relu_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  GnnReLU *self = GNN_RELU (module);

  if (self->inplace)
    return gnn_tensor_relu_ (input, error) ? g_object_ref (input) : NULL;
  return gnn_tensor_relu (input, error);
}

static char *
gnn_relu_extra_repr (GnnModule *module)
{
  GnnReLU *self = GNN_RELU (module);

  return g_strdup (self->inplace ? "inplace=True" : "");
}

static void
gnn_relu_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  GnnReLU *self = GNN_RELU (object);

  switch (prop_id)
    {
    case PROP_INPLACE:
      g_value_set_boolean (value, self->inplace);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_relu_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  GnnReLU *self = GNN_RELU (object);

  switch (prop_id)
    {
    case PROP_INPLACE:
      self->inplace = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_relu_class_init (GnnReLUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = gnn_relu_get_property;
  object_class->set_property = gnn_relu_set_property;
  module_class->forward = gnn_relu_forward;
  module_class->extra_repr = gnn_relu_extra_repr;

  /**
   * GnnReLU:inplace:
   *
   * Whether forward overwrites its input and returns it (PyTorch's
   * `inplace=True`).
   *
   * Since: 0.1
   */
  properties[PROP_INPLACE] =
    g_param_spec_boolean ("inplace", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_relu_init (GnnReLU *self)
{
}

/**
 * gnn_relu_new:
 * @inplace:: the value of [property@Gnn.ReLU:inplace]
 *
 * Creates the layer, like `torch.nn.ReLU(inplace)`.
 *
 * Returns: (transfer full): a new GnnReLU
 *
 * Since: 0.1
 */
GnnReLU *
gnn_relu_new (gboolean     inplace)
{
  return g_object_new (GNN_TYPE_RELU, "inplace", inplace, NULL);
}

/**
 * gnn_relu_get_inplace:
 * @self: a GnnReLU
 *
 * Gets whether the layer modifies its input in place.
 *
 * Returns: the value of [property@Gnn.ReLU:inplace]
 *
 * Since: 0.1
 */
gboolean
gnn_relu_get_inplace (GnnReLU *self)
{
  g_return_val_if_fail (GNN_IS_RELU (self), 0);

  return self->inplace;
}
