/* gnn-gelu.c: the Gaussian error linear unit (torch.nn.GELU)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"

/**
 * GnnGELU:
 *
 * Applies the Gaussian error linear unit elementwise, like
 * `torch.nn.GELU(approximate='none')`: x Φ(x) exactly when
 * [property@Gnn.GELU:approximate] is "none", or
 * 0.5 x (1 + tanh (√(2/π) (x + 0.044715 x³))) when it is "tanh". Any other
 * value fails in forward with PyTorch's message.
 *
 * Since: 0.1
 */
struct _GnnGELU
{
  GnnModule parent_instance;
  char *approximate;
};

enum {
  PROP_0,
  PROP_APPROXIMATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnGELU, gnn_gelu, GNN_TYPE_MODULE)

static GnnTensor *
gnn_gelu_forward (GnnModule  *module,
                  GnnTensor  *input,
                  GError    **error)
{
  return gnn_tensor_gelu_approximate (input, GNN_GELU (module)->approximate, error);
}

static char *
gnn_gelu_extra_repr (GnnModule *module)
{
  GnnGELU *self = GNN_GELU (module);

  return g_strdup_printf ("approximate='%s'", self->approximate);
}

static void
gnn_gelu_finalize (GObject *object)
{
  GnnGELU *self = GNN_GELU (object);

  g_clear_pointer (&self->approximate, g_free);
  G_OBJECT_CLASS (gnn_gelu_parent_class)->finalize (object);
}

static void
gnn_gelu_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  GnnGELU *self = GNN_GELU (object);

  switch (prop_id)
    {
    case PROP_APPROXIMATE:
      g_value_set_string (value, self->approximate);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_gelu_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  GnnGELU *self = GNN_GELU (object);

  switch (prop_id)
    {
    case PROP_APPROXIMATE:
      g_free (self->approximate);
      self->approximate = g_strdup (g_value_get_string (value) != NULL ? g_value_get_string (value) : "none");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_gelu_class_init (GnnGELUClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->finalize = gnn_gelu_finalize;
  object_class->get_property = gnn_gelu_get_property;
  object_class->set_property = gnn_gelu_set_property;
  module_class->forward = gnn_gelu_forward;
  module_class->extra_repr = gnn_gelu_extra_repr;

  /**
   * GnnGELU:approximate:
   *
   * The approximation: "none" (exact) or "tanh".
   *
   * Since: 0.1
   */
  properties[PROP_APPROXIMATE] =
    g_param_spec_string ("approximate", NULL, NULL, "none",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_gelu_init (GnnGELU *self)
{
}

/**
 * gnn_gelu_new:
 * @approximate: (nullable): the value of [property@Gnn.GELU:approximate] (%NULL for "none")
 *
 * Creates the layer, like `torch.nn.GELU(approximate)`.
 *
 * Returns: (transfer full): a new GnnGELU
 *
 * Since: 0.1
 */
GnnGELU *
gnn_gelu_new (const char * approximate)
{
  return g_object_new (GNN_TYPE_GELU, "approximate", approximate, NULL);
}

/**
 * gnn_gelu_get_approximate:
 * @self: a GnnGELU
 *
 * Gets the approximation used: "none" or "tanh".
 *
 * Returns: (transfer none): the value of [property@Gnn.GELU:approximate]
 *
 * Since: 0.1
 */
const char *
gnn_gelu_get_approximate (GnnGELU *self)
{
  g_return_val_if_fail (GNN_IS_GELU (self), NULL);

  return self->approximate;
}
