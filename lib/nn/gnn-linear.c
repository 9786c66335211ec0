/* gnn-linear.c: a fully connected layer (torch.nn.Linear)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "tensor/gnn-tensor-private.h"

/**
 * GnnLinear:
 *
 * A fully connected layer, like `torch.nn.Linear(in_features, out_features,
 * bias=True)`: y = x Wᵀ + b for an input whose last dimension is
 * [property@Gnn.Linear:in-features].
 *
 * The parameters are registered under PyTorch's names: `weight` of shape
 * (out_features, in_features) and `bias` of shape (out_features), or an empty
 * `bias` slot when [property@Gnn.Linear:has-bias] is %FALSE (PyTorch's
 * `register_parameter('bias', None)`). Forward reads them from the registry,
 * so assigning new parameters with [method@Gnn.Module.set_child] takes
 * effect. Both are also the child-slot properties
 * [property@Gnn.Linear:weight] and [property@Gnn.Linear:bias].
 *
 * They are initialized as PyTorch does: the weight with Kaiming-uniform
 * (a = √5), i.e. U(-1/√in, 1/√in), and the bias with U(-1/√in, 1/√in),
 * drawn from [property@Gnn.Linear:generator]. Without a generator the layers
 * draw from the default generator ([func@Gnn.Generator.get_default]): one
 * per process, seeded with PyTorch's default seed 67280421310721 (reseeded
 * by [func@Gnn.manual_seed]) and shared (under a lock) by everything given
 * no generator, so a program that builds the same layers in the same order
 * gets the same weights on every run. The numbers
 * differ from PyTorch's (another random number algorithm); copy weights
 * with [method@Gnn.Module.load_state_dict] to reproduce a PyTorch model.
 *
 * Since: 0.1
 */
typedef struct
{
  gint64 in_features;
  gint64 out_features;
  gboolean bias;
  GnnDType dtype;
  GnnGenerator *generator;   /* construction only, dropped after */
} GnnLinearPrivate;

enum {
  PROP_0,
  PROP_IN_FEATURES,
  PROP_OUT_FEATURES,
  PROP_HAS_BIAS,
  PROP_DTYPE,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_CODE (GnnLinear, gnn_linear, GNN_TYPE_MODULE,
                         G_ADD_PRIVATE (GnnLinear)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_linear_forward (GnnModule  *module,
                    GnnTensor  *input,
                    GError    **error)
{
  GObject *weight, *bias;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  weight = gnn_module_get_child (module, "weight", error);
  if (weight == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                             "Linear weight is empty (NULL)");
      return NULL;
    }
  bias = gnn_module_get_child (module, "bias", NULL);
  return gnn_tensor_linear (input, GNN_TENSOR (weight), bias != NULL ? GNN_TENSOR (bias) : NULL,
                            error);
}

static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  return gnn_linear_reset_parameters (GNN_LINEAR (module), NULL, error);
}

static char *
gnn_linear_extra_repr (GnnModule *module)
{
  GnnLinearPrivate *self = gnn_linear_get_instance_private (GNN_LINEAR (module));
  gboolean has_bias = gnn_module_get_child (module, "bias", NULL) != NULL;

  return g_strdup_printf ("in_features=%" G_GINT64_FORMAT ", out_features=%" G_GINT64_FORMAT
                          ", bias=%s", self->in_features, self->out_features,
                          gnn_nn_bool_str (has_bias));
}

/* Kaiming-uniform weight, uniform bias (no-ops on meta tensors). */
static gboolean
init_parameters (GnnLinearPrivate *self,
                 GObject       *weight,
                 GObject       *bias,
                 GnnGenerator  *generator,
                 GError       **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();   /* writes into parameters */
  GnnGenerator *gen = generator;
  gboolean ok = TRUE;

  if (gen == NULL)
    gen = gnn_nn_default_generator_lock ();

  if (weight != NULL)
    ok = gnn_tensor_kaiming_uniform_ (GNN_TENSOR (weight), sqrt (5.0), gen, error);
  if (ok && bias != NULL)
    {
      gint64 fan_in = self->in_features;

      if (weight != NULL && gnn_tensor_get_ndim (GNN_TENSOR (weight)) >= 2)
        {
          guint ndim;
          const gint64 *shape = gnn_tensor_get_shape (GNN_TENSOR (weight), &ndim);

          fan_in = 1;
          for (guint d = 1; d < ndim; d++)
            fan_in *= shape[d];
        }

      if (fan_in > 0)
        {
          double bound = 1.0 / sqrt ((double) fan_in);
          ok = gnn_tensor_uniform_ (GNN_TENSOR (bias), -bound, bound, gen, error);
        }
      else
        ok = gnn_tensor_fill_ (GNN_TENSOR (bias), 0.0, error);
    }

  if (generator == NULL)
    gnn_nn_default_generator_unlock ();
  return ok;
}

/* Allocates and initializes the parameters; a failure (a size whose bytes
 * overflow, out of memory, a dtype the initialization refuses) leaves no
 * parameter registered and is the construct error GInitable reports. */
static gboolean
create_parameters (GnnLinear  *linear,
                   GError    **error)
{
  GnnLinearPrivate *self = gnn_linear_get_instance_private (linear);
  gint64 weight_shape[2] = { self->out_features, self->in_features };
  g_autoptr(GnnParameter) weight_param = NULL;
  g_autoptr(GnnParameter) bias_param = NULL;

  weight_param = gnn_parameter_new_empty (self->dtype, weight_shape, 2, error);
  if (weight_param == NULL)
    return FALSE;
  if (self->bias)
    {
      bias_param = gnn_parameter_new_empty (self->dtype, &self->out_features, 1, error);
      if (bias_param == NULL)
        return FALSE;
    }
  if (!gnn_module_register_parameter (GNN_MODULE (linear), "weight", weight_param, error) ||
      !gnn_module_register_parameter (GNN_MODULE (linear), "bias", bias_param, error))
    return FALSE;
  return init_parameters (self, (GObject *) weight_param, (GObject *) bias_param, self->generator,
                          error);
}

static void
gnn_linear_constructed (GObject *object)
{
  GnnLinearPrivate *self = gnn_linear_get_instance_private (GNN_LINEAR (object));
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_linear_parent_class)->constructed (object);

  if (!create_parameters (GNN_LINEAR (object), &error))
    {
      g_prefix_error (&error, "%s: ", gnn_module_get_name (GNN_MODULE (object)));
      gnn_nn_set_construct_error (object, error);
    }
  g_clear_object (&self->generator);
}

static void
gnn_linear_finalize (GObject *object)
{
  GnnLinearPrivate *self = gnn_linear_get_instance_private (GNN_LINEAR (object));

  g_clear_object (&self->generator);
  G_OBJECT_CLASS (gnn_linear_parent_class)->finalize (object);
}

static void
gnn_linear_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  GnnLinearPrivate *self = gnn_linear_get_instance_private (GNN_LINEAR (object));

  switch (prop_id)
    {
    case PROP_IN_FEATURES:
      g_value_set_int64 (value, self->in_features);
      break;
    case PROP_OUT_FEATURES:
      g_value_set_int64 (value, self->out_features);
      break;
    case PROP_HAS_BIAS:
      g_value_set_boolean (value, self->bias);
      break;
    case PROP_DTYPE:
      g_value_set_enum (value, self->dtype);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_linear_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  GnnLinearPrivate *self = gnn_linear_get_instance_private (GNN_LINEAR (object));

  switch (prop_id)
    {
    case PROP_IN_FEATURES:
      self->in_features = g_value_get_int64 (value);
      break;
    case PROP_OUT_FEATURES:
      self->out_features = g_value_get_int64 (value);
      break;
    case PROP_HAS_BIAS:
      self->bias = g_value_get_boolean (value);
      break;
    case PROP_DTYPE:
      self->dtype = g_value_get_enum (value);
      break;
    case PROP_GENERATOR:
      g_set_object (&self->generator, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_linear_class_init (GnnLinearClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_linear_constructed;
  object_class->finalize = gnn_linear_finalize;
  object_class->get_property = gnn_linear_get_property;
  object_class->set_property = gnn_linear_set_property;
  module_class->forward = gnn_linear_forward;
  module_class->extra_repr = gnn_linear_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnLinear:in-features:
   *
   * The size of each input sample (the last dimension of the input).
   *
   * Since: 0.1
   */
  properties[PROP_IN_FEATURES] =
    g_param_spec_int64 ("in-features", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLinear:out-features:
   *
   * The size of each output sample.
   *
   * Since: 0.1
   */
  properties[PROP_OUT_FEATURES] =
    g_param_spec_int64 ("out-features", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLinear:has-bias:
   *
   * Whether the layer is built with an additive bias: PyTorch's `bias=`
   * constructor argument (the name `bias` itself is the parameter's, see
   * [property@Gnn.Linear:bias]). %FALSE leaves an empty `bias` slot.
   *
   * Since: 0.1
   */
  properties[PROP_HAS_BIAS] =
    g_param_spec_boolean ("has-bias", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLinear:dtype:
   *
   * The dtype of the parameters (PyTorch's `dtype=` argument).
   *
   * Since: 0.1
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnLinear:generator:
   *
   * The generator the initial parameters are drawn from, used during
   * construction only (so it is write-only). %NULL draws from the
   * default generator (see [class@Gnn.Linear]).
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnLinear:weight:
   *
   * The `weight` parameter, of shape (out_features, in_features): a child
   * slot of the registry (PyTorch's `linear.weight`).
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "weight", GNN_TYPE_PARAMETER);
  /**
   * GnnLinear:bias:
   *
   * The `bias` parameter, of shape (out_features), or %NULL when the layer
   * has none: a child slot of the registry (PyTorch's `linear.bias`).
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "bias", GNN_TYPE_PARAMETER);
}

static void
gnn_linear_init (GnnLinear *linear)
{
  GnnLinearPrivate *self = gnn_linear_get_instance_private (linear);

  self->bias = TRUE;
  self->dtype = GNN_DTYPE_F32;
}

/**
 * gnn_linear_new:
 * @in_features: the size of each input sample
 * @out_features: the size of each output sample
 * @bias: whether to learn an additive bias
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the library-default one
 * @error: return location for a #GError
 *
 * Creates a linear layer of float32 parameters, like
 * `torch.nn.Linear(in_features, out_features, bias)`. Other dtypes:
 * `g_object_new (GNN_TYPE_LINEAR, "in-features", …, "dtype", …, NULL)`.
 *
 * Returns: (transfer full): a new linear layer, or %NULL with @error set
 *   (%GNN_ERROR_SHAPE, "Trying to create tensor with negative dimension -1:
 *   [8, -1]") if a size is negative, or if the parameters cannot be
 *   allocated (a size in bytes that overflows, out of memory)
 *
 * Since: 0.1
 */
GnnLinear *
gnn_linear_new (gint64         in_features,
                gint64         out_features,
                gboolean       bias,
                GnnGenerator  *generator,
                GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);

  if (in_features < 0 || out_features < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Trying to create tensor with negative dimension %" G_GINT64_FORMAT
                   ": [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
                   out_features < 0 ? out_features : in_features, out_features, in_features);
      return NULL;
    }
  /* has-bias (default TRUE) and generator (default NULL) are passed only
   * when they differ from their defaults: every construct property given to
   * g_object_new() costs a lookup and a set_property call. */
  if (generator != NULL)
    return gnn_nn_initable_new (GNN_TYPE_LINEAR, error,
                                "in-features", in_features,
                                "out-features", out_features,
                                "has-bias", bias,
                                "generator", generator,
                                NULL);
  if (!bias)
    return gnn_nn_initable_new (GNN_TYPE_LINEAR, error,
                                "in-features", in_features,
                                "out-features", out_features,
                                "has-bias", FALSE,
                                NULL);
  return gnn_nn_initable_new (GNN_TYPE_LINEAR, error,
                              "in-features", in_features,
                              "out-features", out_features,
                              NULL);
}

/**
 * gnn_linear_get_in_features:
 * @self: a linear layer
 *
 * Gets the size of each input sample.
 *
 * Returns: the value of [property@Gnn.Linear:in-features]
 *
 * Since: 0.1
 */
gint64
gnn_linear_get_in_features (GnnLinear *self)
{
  g_return_val_if_fail (GNN_IS_LINEAR (self), 0);

  return ((GnnLinearPrivate *) gnn_linear_get_instance_private (self))->in_features;
}

/**
 * gnn_linear_get_out_features:
 * @self: a linear layer
 *
 * Gets the size of each output sample.
 *
 * Returns: the value of [property@Gnn.Linear:out-features]
 *
 * Since: 0.1
 */
gint64
gnn_linear_get_out_features (GnnLinear *self)
{
  g_return_val_if_fail (GNN_IS_LINEAR (self), 0);

  return ((GnnLinearPrivate *) gnn_linear_get_instance_private (self))->out_features;
}

/**
 * gnn_linear_reset_parameters:
 * @self: a linear layer
 * @generator: (nullable): the generator to draw from, or %NULL for the
 *   library-default one
 * @error: return location for a #GError
 *
 * Re-initializes the registered `weight` and `bias` in place as PyTorch's
 * `reset_parameters()` does: Kaiming-uniform with a = √5 for the weight,
 * U(-1/√fan_in, 1/√fan_in) for the bias (zero when fan_in is 0). Meta
 * parameters (see [func@Gnn.set_default_device]) get memory first.
 *
 * Returns: %TRUE, or %FALSE with @error set if a registered parameter
 *   cannot be initialized (for instance it has an integer dtype)
 *
 * Since: 0.1
 */
gboolean
gnn_linear_reset_parameters (GnnLinear     *self,
                             GnnGenerator  *generator,
                             GError       **error)
{
  GObject *weight, *bias;

  g_return_val_if_fail (GNN_IS_LINEAR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);

  /* A layer built under the meta device gets its memory here. */
  weight = gnn_module_get_child (GNN_MODULE (self), "weight", NULL);
  bias = gnn_module_get_child (GNN_MODULE (self), "bias", NULL);
  if ((weight != NULL && !gnn_tensor_materialize (GNN_TENSOR (weight), error)) ||
      (bias != NULL && !gnn_tensor_materialize (GNN_TENSOR (bias), error)))
    return FALSE;
  return init_parameters (gnn_linear_get_instance_private (self), weight, bias, generator, error);
}
