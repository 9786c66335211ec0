/* gnn-prelu.c: the parametric ReLU (torch.nn.PReLU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"

/**
 * GnnPReLU:
 *
 * Like `torch.nn.PReLU(num_parameters=1, init=0.25)`: `x` for `x > 0` and
 * `weight[c] × x` otherwise (see [method@Gnn.Tensor.prelu]), with a learned
 * parameter `weight` of [property@Gnn.PReLU:num-parameters] slopes (one
 * shared, or one per channel, dimension 1 of the input), each starting at
 * [property@Gnn.PReLU:init]. It prints as `PReLU(num_parameters=1)`.
 *
 * Since: 0.1
 */
struct _GnnPReLU
{
  GnnModule parent_instance;
  gint      num_parameters;
  double    init;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnPReLU, gnn_prelu, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

enum
{
  PROP_0,
  PROP_NUM_PARAMETERS,
  PROP_INIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
gnn_prelu_constructed (GObject *object)
{
  GnnPReLU *self = GNN_PRELU (object);
  const gint64 shape[1] = { self->num_parameters };
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnParameter) weight = NULL;
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_prelu_parent_class)->constructed (object);
  w = gnn_tensor_full (shape, 1, self->init, GNN_DTYPE_F32, &error);
  if (w != NULL)
    weight = gnn_parameter_new (w, TRUE);
  else
    {
      g_prefix_error (&error, "PReLU: ");
      gnn_nn_set_construct_error (object, error);
    }
  gnn_module_register_parameter (GNN_MODULE (self), "weight", weight, NULL);
}

/* torch's reset_parameters: every slope back to init. */
static gboolean
gnn_prelu_reset_parameters (GnnModule  *module,
                            GError    **error)
{
  return gnn_nn_reset_fill (module, "weight", GNN_PRELU (module)->init, error);
}

static GnnTensor *
gnn_prelu_forward (GnnModule  *module,
                   GnnTensor  *input,
                   GError    **error)
{
  GObject *weight = gnn_module_get_child (module, "weight", NULL);

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  if (!GNN_IS_TENSOR (weight))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "PReLU: the weight parameter is None");
      return NULL;
    }
  return gnn_tensor_prelu (input, GNN_TENSOR (weight), error);
}

static char *
gnn_prelu_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("num_parameters=%d", GNN_PRELU (module)->num_parameters);
}

static void
gnn_prelu_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  GnnPReLU *self = GNN_PRELU (object);

  switch (prop_id)
    {
    case PROP_NUM_PARAMETERS:
      g_value_set_int (value, self->num_parameters);
      break;
    case PROP_INIT:
      g_value_set_double (value, self->init);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_prelu_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  GnnPReLU *self = GNN_PRELU (object);

  switch (prop_id)
    {
    case PROP_NUM_PARAMETERS:
      self->num_parameters = g_value_get_int (value);
      break;
    case PROP_INIT:
      self->init = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_prelu_class_init (GnnPReLUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_prelu_constructed;
  object_class->get_property = gnn_prelu_get_property;
  object_class->set_property = gnn_prelu_set_property;
  module_class->forward = gnn_prelu_forward;
  module_class->extra_repr = gnn_prelu_extra_repr;
  module_class->reset_parameters = gnn_prelu_reset_parameters;

  /**
   * GnnPReLU:num-parameters:
   *
   * The number of slopes: 1 (shared by all channels) or the input's
   * channel count.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_PARAMETERS] =
    g_param_spec_int ("num-parameters", NULL, NULL, 0, G_MAXINT, 1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnPReLU:init:
   *
   * The initial value of every slope.
   *
   * Since: 0.1
   */
  properties[PROP_INIT] =
    g_param_spec_double ("init", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.25,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_prelu_init (GnnPReLU *self)
{
}

/**
 * gnn_prelu_new:
 * @num_parameters: the value of [property@Gnn.PReLU:num-parameters]
 * @init: the value of [property@Gnn.PReLU:init]
 * @error: return location for a #GError
 *
 * Creates the layer, like `torch.nn.PReLU(num_parameters, init)`;
 * `g_object_new (GNN_TYPE_PRELU, NULL)` gives PyTorch's defaults (1 and
 * 0.25). Under the meta default device the weight has no memory.
 *
 * Returns: (transfer full): a new GnnPReLU, or %NULL with @error set if the
 *   weight cannot be allocated
 *
 * Since: 0.1
 */
GnnPReLU *
gnn_prelu_new (gint      num_parameters,
               double    init,
               GError  **error)
{
  return gnn_nn_initable_new (GNN_TYPE_PRELU, error,
                              "num-parameters", num_parameters,
                              "init", init,
                              NULL);
}
