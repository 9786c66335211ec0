/* gnn-layer-norm.c: layer normalization (torch.nn.LayerNorm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "nn/gnn-nn-private.h"

/**
 * GnnLayerNorm:
 *
 * Layer normalization over the trailing dims of its input,
 * `torch.nn.LayerNorm`, computed by [method@Gnn.Tensor.layer_norm]. With
 * [property@Gnn.LayerNorm:elementwise-affine], it has a `weight` (ones) and
 * a `bias` (zeros) of the normalized shape; otherwise both slots are empty.
 *
 * Since: 0.1
 */
typedef struct
{
  gint64    shape[GNN_MAX_DIMS];
  guint     n;
  double    eps;
  gboolean  elementwise_affine;
  gboolean  invalid_shape;   /* normalized-shape was refused: see constructed */
} GnnLayerNormPrivate;

G_DEFINE_TYPE_WITH_CODE (GnnLayerNorm, gnn_layer_norm, GNN_TYPE_MODULE,
                         G_ADD_PRIVATE (GnnLayerNorm)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(obj) ((GnnLayerNormPrivate *) gnn_layer_norm_get_instance_private ((GnnLayerNorm *) (obj)))

enum
{
  PROP_0,
  PROP_NORMALIZED_SHAPE,
  PROP_EPS,
  PROP_ELEMENTWISE_AFFINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
gnn_layer_norm_constructed (GObject *object)
{
  GnnLayerNormPrivate *self = PRIV (object);
  g_autoptr(GnnParameter) wp = NULL;
  g_autoptr(GnnParameter) bp = NULL;
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_layer_norm_parent_class)->constructed (object);

  if (self->invalid_shape)
    g_set_error (&error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "LayerNorm: normalized_shape must have at most %d non-negative sizes",
                 GNN_MAX_DIMS);
  else if (self->elementwise_affine && self->n > 0)
    {
      g_autoptr(GnnTensor) w = gnn_tensor_ones (self->shape, self->n, GNN_DTYPE_F32, &error);
      g_autoptr(GnnTensor) b = w != NULL ? gnn_tensor_zeros (self->shape, self->n, GNN_DTYPE_F32, &error)
                                         : NULL;

      if (b != NULL)
        {
          wp = gnn_parameter_new (w, TRUE);
          bp = gnn_parameter_new (b, TRUE);
        }
      else
        g_prefix_error (&error, "LayerNorm: ");
    }
  if (error != NULL)
    gnn_nn_set_construct_error (object, error);
  gnn_module_register_parameter (GNN_MODULE (object), "weight", wp, NULL);
  gnn_module_register_parameter (GNN_MODULE (object), "bias", bp, NULL);
}

/* Ones and zeros, as PyTorch's reset_parameters. */
static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  return gnn_nn_reset_fill (module, "weight", 1.0, error) &&
         gnn_nn_reset_fill (module, "bias", 0.0, error);
}

static GnnTensor *
gnn_layer_norm_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  GnnLayerNormPrivate *self = PRIV (module);
  GObject *weight = gnn_module_get_child (module, "weight", NULL);
  GObject *bias = gnn_module_get_child (module, "bias", NULL);

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  return gnn_tensor_layer_norm (input, self->shape, self->n,
                                GNN_IS_TENSOR (weight) ? GNN_TENSOR (weight) : NULL,
                                GNN_IS_TENSOR (bias) ? GNN_TENSOR (bias) : NULL,
                                self->eps, error);
}

static char *
gnn_layer_norm_extra_repr (GnnModule *module)
{
  GnnLayerNormPrivate *self = PRIV (module);
  g_autofree char *eps = gnn_nn_format_float (self->eps);
  GString *s = g_string_new ("(");

  /* a Python tuple: "(16,)" or "(3, 4)" */
  for (guint d = 0; d < self->n; d++)
    g_string_append_printf (s, d > 0 ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, self->shape[d]);
  g_string_append (s, self->n == 1 ? ",)" : ")");
  g_string_append_printf (s, ", eps=%s, elementwise_affine=%s", eps,
                          gnn_nn_bool_str (self->elementwise_affine));
  return g_string_free (s, FALSE);
}

static void
gnn_layer_norm_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GnnLayerNormPrivate *self = PRIV (object);

  switch (prop_id)
    {
    case PROP_NORMALIZED_SHAPE:
      g_value_take_variant (value, g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, self->shape,
                                                              self->n, sizeof (gint64)));
      break;
    case PROP_EPS:
      g_value_set_double (value, self->eps);
      break;
    case PROP_ELEMENTWISE_AFFINE:
      g_value_set_boolean (value, self->elementwise_affine);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_layer_norm_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GnnLayerNormPrivate *self = PRIV (object);

  switch (prop_id)
    {
    case PROP_NORMALIZED_SHAPE:
      {
        GVariant *v = g_value_get_variant (value);
        gsize n = 0;
        const gint64 *dims = v != NULL ? g_variant_get_fixed_array (v, &n, sizeof (gint64)) : NULL;
        gboolean valid = n <= GNN_MAX_DIMS;

        for (gsize d = 0; valid && d < n; d++)
          valid = dims[d] >= 0;
        /* Refused in constructed, through GInitable. */
        self->invalid_shape = !valid;
        if (!valid)
          n = 0;
        self->n = (guint) n;
        if (n > 0)
          memcpy (self->shape, dims, sizeof (gint64) * n);
      }
      break;
    case PROP_EPS:
      self->eps = g_value_get_double (value);
      break;
    case PROP_ELEMENTWISE_AFFINE:
      self->elementwise_affine = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_layer_norm_class_init (GnnLayerNormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_layer_norm_constructed;
  object_class->get_property = gnn_layer_norm_get_property;
  object_class->set_property = gnn_layer_norm_set_property;
  module_class->forward = gnn_layer_norm_forward;
  module_class->extra_repr = gnn_layer_norm_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnLayerNorm:normalized-shape:
   *
   * The shape of the trailing dims normalized over (`normalized_shape`), a
   * variant of type `ax`.
   *
   * Since: 0.1
   */
  properties[PROP_NORMALIZED_SHAPE] =
    g_param_spec_variant ("normalized-shape", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLayerNorm:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   *
   * Since: 0.1
   */
  properties[PROP_EPS] =
    g_param_spec_double ("eps", NULL, NULL, 0.0, G_MAXDOUBLE, 1e-5,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLayerNorm:elementwise-affine:
   *
   * Whether the layer has a learnable `weight` and `bias`
   * (`elementwise_affine`).
   *
   * Since: 0.1
   */
  properties[PROP_ELEMENTWISE_AFFINE] =
    g_param_spec_boolean ("elementwise-affine", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_layer_norm_init (GnnLayerNorm *object)
{
  GnnLayerNormPrivate *self = PRIV (object);

  self->eps = 1e-5;
  self->elementwise_affine = TRUE;
}

/**
 * gnn_layer_norm_new:
 * @normalized_shape: (array length=n): the shape of the trailing dims to
 *   normalize over
 * @n: the length of @normalized_shape (1 to %GNN_MAX_DIMS)
 * @eps: the value added to the variance (PyTorch's default is 1e-5)
 * @elementwise_affine: whether to learn a scale and offset (default %TRUE)
 * @error: return location for a #GError
 *
 * Creates a layer normalization, `torch.nn.LayerNorm(normalized_shape, eps,
 * elementwise_affine)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) for an empty or negative shape or a
 *   negative @eps
 *
 * Since: 0.1
 */
GnnLayerNorm *
gnn_layer_norm_new (const gint64  *normalized_shape,
                    guint          n,
                    double         eps,
                    gboolean       elementwise_affine,
                    GError       **error)
{
  g_return_val_if_fail (normalized_shape != NULL || n == 0, NULL);

  if (n == 0 || n > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "LayerNorm: normalized_shape must have 1 to %d dims, got %u", GNN_MAX_DIMS, n);
      return NULL;
    }
  for (guint d = 0; d < n; d++)
    if (normalized_shape[d] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "LayerNorm: negative size %" G_GINT64_FORMAT " in normalized_shape",
                     normalized_shape[d]);
        return NULL;
      }
  if (!(eps >= 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "LayerNorm: eps must be non-negative, got %g", eps);
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_LAYER_NORM, error,
                              "normalized-shape",
                              g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, normalized_shape, n,
                                                         sizeof (gint64)),
                              "eps", eps, "elementwise-affine", elementwise_affine, NULL);
}

/**
 * gnn_layer_norm_get_normalized_shape:
 * @self: a layer normalization
 * @n: (out): the number of dims
 *
 * Returns the shape of the trailing dims @self normalizes over.
 *
 * Returns: (transfer none) (array length=n): the normalized shape
 *
 * Since: 0.1
 */
const gint64 *
gnn_layer_norm_get_normalized_shape (GnnLayerNorm *self,
                                     guint        *n)
{
  g_return_val_if_fail (GNN_IS_LAYER_NORM (self), NULL);
  g_return_val_if_fail (n != NULL, NULL);

  *n = PRIV (self)->n;
  return PRIV (self)->shape;
}
