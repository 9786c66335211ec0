/* gnn-bilinear.c: a bilinear layer (torch.nn.Bilinear) and
 * torch.nn.functional.bilinear
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "nn/gnn-nn-private.h"
#include "tensor/gnn-dtype-check-private.h"
#include "tensor/gnn-tensor-private.h"

/**
 * GnnBilinear:
 *
 * A bilinear layer, like `torch.nn.Bilinear(in1_features, in2_features,
 * out_features, bias=True)`: `y[..., k] = x1ᵀ A_k x2 + b[k]` for inputs
 * whose last dimensions are [property@Gnn.Bilinear:in1-features] and
 * [property@Gnn.Bilinear:in2-features] and whose other dimensions agree.
 *
 * The parameters have torch's names: `weight` of shape (out_features,
 * in1_features, in2_features) and `bias` of shape (out_features), or an
 * empty `bias` slot when [property@Gnn.Bilinear:has-bias] is %FALSE. Both
 * start as U(-1/√in1_features, 1/√in1_features), drawn from
 * [property@Gnn.Bilinear:generator] or the default generator.
 *
 * Forward is torch's `forward(input1, input2)` through
 * [method@Gnn.Module.call_args]; [method@Gnn.Tensor.bilinear] is the
 * function.
 *
 * Since: 0.1
 */
struct _GnnBilinear
{
  GnnModule parent_instance;

  gint64 in1_features;
  gint64 in2_features;
  gint64 out_features;
  gboolean bias;
  GnnDType dtype;
  GnnGenerator *generator;   /* construction only, dropped after */
};

enum {
  PROP_0,
  PROP_IN1_FEATURES,
  PROP_IN2_FEATURES,
  PROP_OUT_FEATURES,
  PROP_HAS_BIAS,
  PROP_DTYPE,
  PROP_GENERATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnBilinear, gnn_bilinear, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

/* torch's checks of at::bilinear, in its order. */
static gboolean
check_operands (GnnTensor  *input1,
                GnnTensor  *input2,
                GnnTensor  *weight,
                GnnTensor  *bias,
                GError    **error)
{
  guint n1 = 0, n2 = 0, nw = 0;
  const gint64 *s1 = gnn_tensor_get_shape (input1, &n1);
  const gint64 *s2 = gnn_tensor_get_shape (input2, &n2);
  const gint64 *sw = gnn_tensor_get_shape (weight, &nw);
  GnnTensor *others[3] = { input2, weight, bias };

  if (n1 != n2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "bilinear(): input dimensions do not match: got %u and %u", n1, n2);
      return FALSE;
    }
  if (n1 == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INDEX,
                           "dimension specified as -1 but tensor has no dimensions");
      return FALSE;
    }
  for (guint d = 0; d + 1 < n1; d++)
    if (s1[d] != s2[d])
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "bilinear(): input batch dimensions do not match at dim %u: got %" G_GINT64_FORMAT
                     " and %" G_GINT64_FORMAT, d, s1[d], s2[d]);
        return FALSE;
      }
  if (nw != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "bilinear(): weight must be 3-D, got %u-D", nw);
      return FALSE;
    }
  if (s1[n1 - 1] != sw[1] || s2[n2 - 1] != sw[2])
    {
      gboolean first = s1[n1 - 1] != sw[1];

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "bilinear(): input%d size does not match weight size: got %" G_GINT64_FORMAT
                   " but expected %" G_GINT64_FORMAT, first ? 1 : 2, first ? s1[n1 - 1] : s2[n2 - 1],
                   first ? sw[1] : sw[2]);
      return FALSE;
    }
  if (bias != NULL && (gnn_tensor_get_ndim (bias) != 1 || gnn_tensor_get_shape (bias, NULL)[0] != sw[0]))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "bilinear(): bias size does not match weight size: got %" G_GINT64_FORMAT
                   " but expected %" G_GINT64_FORMAT,
                   gnn_tensor_get_ndim (bias) > 0 ? gnn_tensor_get_shape (bias, NULL)[0] : 1, sw[0]);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (others[i] != NULL && gnn_tensor_get_dtype (others[i]) != gnn_tensor_get_dtype (input1))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected scalar type %s but found %s",
                     gnn_torch_scalar_name (gnn_tensor_get_dtype (input1)),
                     gnn_torch_scalar_name (gnn_tensor_get_dtype (others[i])));
        return FALSE;
      }
  return gnn_check_float_dtype ("bilinear", input1, error);
}

/**
 * gnn_tensor_bilinear:
 * @input1: the first input `[..., in1_features]`
 * @input2: the second input `[..., in2_features]`, the same leading dims
 * @weight: the weight `[out_features, in1_features, in2_features]`
 * @bias: (nullable): the bias `[out_features]`, or %NULL
 * @error: return location for a #GError
 *
 * `torch.nn.functional.bilinear (input1, input2, weight, bias)`:
 * `y[..., k] = Σ_ij input1[..., i] weight[k, i, j] input2[..., j] + bias[k]`,
 * of shape `[..., out_features]`. Composed of differentiable products as
 * torch composes it (one GEMM of @input1 against the weight, then a
 * product with @input2 summed over its features), so every operand gets a
 * gradient.
 *
 * Fails with torch's messages: "bilinear(): input dimensions do not
 * match: got 2 and 3", "bilinear(): input batch dimensions do not match at
 * dim 0: got 5 and 4", "bilinear(): input1 size does not match weight size:
 * got 3 but expected 2", "expected scalar type Double but found Float".
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bilinear (GnnTensor  *input1,
                     GnnTensor  *input2,
                     GnnTensor  *weight,
                     GnnTensor  *bias,
                     GError    **error)
{
  g_autoptr(GnnTensor) x1 = NULL;
  g_autoptr(GnnTensor) x2 = NULL;
  g_autoptr(GnnTensor) w_perm = NULL;
  g_autoptr(GnnTensor) w_flat = NULL;
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) t3 = NULL;
  g_autoptr(GnnTensor) prod = NULL;
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnTensor) yb = NULL;
  gint64 out_shape[GNN_MAX_DIMS];
  const gint perm[3] = { 1, 0, 2 };
  const gint feature_dim = 2;
  gint64 rows = 1, in1, in2, out;
  const gint64 *s1, *sw;
  guint n1 = 0;

  g_return_val_if_fail (GNN_IS_TENSOR (input1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input2), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_CHECK_STORAGE ("bilinear", input1, error, NULL);
  GNN_CHECK_STORAGE ("bilinear", input2, error, NULL);
  GNN_CHECK_STORAGE ("bilinear", weight, error, NULL);
  GNN_CHECK_STORAGE ("bilinear", bias, error, NULL);
  if (!check_operands (input1, input2, weight, bias, error))
    return NULL;

  s1 = gnn_tensor_get_shape (input1, &n1);
  sw = gnn_tensor_get_shape (weight, NULL);
  out = sw[0], in1 = sw[1], in2 = sw[2];
  for (guint d = 0; d + 1 < n1; d++)
    rows *= s1[d];
  /* t[b, k * in2 + j] = Σ_i x1[b, i] W[k, i, j]; y[b, k] = Σ_j t[b, k, j] x2[b, j] */
  if ((x1 = gnn_tensor_reshape (input1, (gint64[]) { rows, in1 }, 2, error)) == NULL ||
      (x2 = gnn_tensor_reshape (input2, (gint64[]) { rows, 1, in2 }, 3, error)) == NULL ||
      (w_perm = gnn_tensor_permute (weight, perm, 3, error)) == NULL ||
      (w_flat = gnn_tensor_reshape (w_perm, (gint64[]) { in1, out * in2 }, 2, error)) == NULL ||
      (t = gnn_tensor_matmul (x1, w_flat, error)) == NULL ||
      (t3 = gnn_tensor_reshape (t, (gint64[]) { rows, out, in2 }, 3, error)) == NULL ||
      (prod = gnn_tensor_mul (t3, x2, error)) == NULL ||
      (y = gnn_tensor_sum (prod, &feature_dim, 1, FALSE, error)) == NULL)
    return NULL;
  if (bias != NULL && (yb = gnn_tensor_add (y, bias, error)) == NULL)
    return NULL;
  memcpy (out_shape, s1, sizeof (gint64) * (n1 - 1));
  out_shape[n1 - 1] = out;
  return gnn_tensor_reshape (yb != NULL ? yb : y, out_shape, n1, error);
}

static GnnValue *
gnn_bilinear_forward_args (GnnModule  *module,
                           GnnValue   *args,
                           GnnValue   *kwargs,
                           GError    **error)
{
  GnnTensor *input1 = NULL, *input2 = NULL, *out;
  GObject *weight, *bias;

  if (!gnn_nn_check_constructed (module, error) ||
      !gnn_args_parse (args, kwargs, "Bilinear.forward", error,
                       "input1", GNN_ARG_TENSOR, &input1,
                       "input2", GNN_ARG_TENSOR, &input2,
                       NULL))
    return NULL;
  weight = gnn_module_get_child (module, "weight", NULL);
  bias = gnn_module_get_child (module, "bias", NULL);
  if (weight == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE, "Bilinear weight is empty (NULL)");
      return NULL;
    }
  out = gnn_tensor_bilinear (input1, input2, GNN_TENSOR (weight), bias != NULL ? GNN_TENSOR (bias) : NULL,
                             error);
  return out != NULL ? gnn_value_take_tensor (out) : NULL;
}

static gboolean
reset_parameters_vfunc (GnnModule  *module,
                        GError    **error)
{
  return gnn_bilinear_reset_parameters (GNN_BILINEAR (module), NULL, error);
}

static char *
gnn_bilinear_extra_repr (GnnModule *module)
{
  GnnBilinear *self = GNN_BILINEAR (module);

  return g_strdup_printf ("in1_features=%" G_GINT64_FORMAT ", in2_features=%" G_GINT64_FORMAT
                          ", out_features=%" G_GINT64_FORMAT ", bias=%s", self->in1_features,
                          self->in2_features, self->out_features,
                          gnn_nn_bool_str (gnn_module_get_child (module, "bias", NULL) != NULL));
}

/* U(-1/√in1, 1/√in1) for both (no-ops on meta tensors). */
static gboolean
init_parameters (GnnBilinear   *self,
                 GObject       *weight,
                 GObject       *bias,
                 GnnGenerator  *generator,
                 GError       **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();   /* writes into parameters */
  GnnGenerator *gen = generator != NULL ? generator : gnn_nn_default_generator_lock ();
  double bound = 1.0 / sqrt ((double) self->in1_features);
  gboolean ok = TRUE;

  if (weight != NULL)
    ok = gnn_tensor_uniform_ (GNN_TENSOR (weight), -bound, bound, gen, error);
  if (ok && bias != NULL)
    ok = gnn_tensor_uniform_ (GNN_TENSOR (bias), -bound, bound, gen, error);
  if (generator == NULL)
    gnn_nn_default_generator_unlock ();
  return ok;
}

static gboolean
create_parameters (GnnBilinear  *self,
                   GError      **error)
{
  gint64 shape[3] = { self->out_features, self->in1_features, self->in2_features };
  g_autoptr(GnnParameter) weight = NULL;
  g_autoptr(GnnParameter) bias = NULL;

  for (guint d = 0; d < 3; d++)
    if (shape[d] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": [%"
                     G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]",
                     shape[d], shape[0], shape[1], shape[2]);
        return FALSE;
      }
  if (self->in1_features == 0)
    {
      /* torch's reset_parameters divides by √in1_features */
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "float division by zero");
      return FALSE;
    }
  if ((weight = gnn_parameter_new_empty (self->dtype, shape, 3, error)) == NULL ||
      (self->bias && (bias = gnn_parameter_new_empty (self->dtype, shape, 1, error)) == NULL))
    return FALSE;
  if (!gnn_module_register_parameter (GNN_MODULE (self), "weight", weight, error) ||
      !gnn_module_register_parameter (GNN_MODULE (self), "bias", bias, error))
    return FALSE;
  return init_parameters (self, (GObject *) weight, (GObject *) bias, self->generator, error);
}

static void
gnn_bilinear_constructed (GObject *object)
{
  GnnBilinear *self = GNN_BILINEAR (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_bilinear_parent_class)->constructed (object);
  if (!create_parameters (self, &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&self->generator);
}

static void
gnn_bilinear_finalize (GObject *object)
{
  g_clear_object (&GNN_BILINEAR (object)->generator);
  G_OBJECT_CLASS (gnn_bilinear_parent_class)->finalize (object);
}

static void
gnn_bilinear_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GnnBilinear *self = GNN_BILINEAR (object);

  switch (prop_id)
    {
    case PROP_IN1_FEATURES:
      g_value_set_int64 (value, self->in1_features);
      break;
    case PROP_IN2_FEATURES:
      g_value_set_int64 (value, self->in2_features);
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
gnn_bilinear_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  GnnBilinear *self = GNN_BILINEAR (object);

  switch (prop_id)
    {
    case PROP_IN1_FEATURES:
      self->in1_features = g_value_get_int64 (value);
      break;
    case PROP_IN2_FEATURES:
      self->in2_features = g_value_get_int64 (value);
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
gnn_bilinear_class_init (GnnBilinearClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_bilinear_constructed;
  object_class->finalize = gnn_bilinear_finalize;
  object_class->get_property = gnn_bilinear_get_property;
  object_class->set_property = gnn_bilinear_set_property;
  module_class->forward_args = gnn_bilinear_forward_args;
  module_class->extra_repr = gnn_bilinear_extra_repr;
  module_class->reset_parameters = reset_parameters_vfunc;

  /**
   * GnnBilinear:in1-features:
   *
   * The size of each first input sample (the last dimension of `input1`);
   * a negative size or 0 fails construction, as in torch.
   *
   * Since: 0.1
   */
  properties[PROP_IN1_FEATURES] =
    g_param_spec_int64 ("in1-features", NULL, NULL, G_MININT64, G_MAXINT64, 1, construct);
  /**
   * GnnBilinear:in2-features:
   *
   * The size of each second input sample (the last dimension of `input2`).
   *
   * Since: 0.1
   */
  properties[PROP_IN2_FEATURES] =
    g_param_spec_int64 ("in2-features", NULL, NULL, G_MININT64, G_MAXINT64, 0, construct);
  /**
   * GnnBilinear:out-features:
   *
   * The size of each output sample.
   *
   * Since: 0.1
   */
  properties[PROP_OUT_FEATURES] =
    g_param_spec_int64 ("out-features", NULL, NULL, G_MININT64, G_MAXINT64, 0, construct);
  /**
   * GnnBilinear:has-bias:
   *
   * Whether the layer has an additive bias (torch's `bias=` argument);
   * %FALSE leaves an empty `bias` slot.
   *
   * Since: 0.1
   */
  properties[PROP_HAS_BIAS] = g_param_spec_boolean ("has-bias", NULL, NULL, TRUE, construct);
  /**
   * GnnBilinear:dtype:
   *
   * The dtype of the parameters (torch's `dtype=` argument).
   *
   * Since: 0.1
   */
  properties[PROP_DTYPE] =
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_F32, construct);
  /**
   * GnnBilinear:generator:
   *
   * The generator the initial parameters are drawn from, used during
   * construction only (write-only); %NULL draws from the default generator.
   *
   * Since: 0.1
   */
  properties[PROP_GENERATOR] =
    g_param_spec_object ("generator", NULL, NULL, GNN_TYPE_GENERATOR,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnBilinear:weight:
   *
   * The `weight` parameter, of shape (out_features, in1_features,
   * in2_features): a child slot of the registry.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "weight", GNN_TYPE_PARAMETER);
  /**
   * GnnBilinear:bias:
   *
   * The `bias` parameter, of shape (out_features), or %NULL without a bias:
   * a child slot of the registry.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "bias", GNN_TYPE_PARAMETER);
}

static void
gnn_bilinear_init (GnnBilinear *self)
{
  self->in1_features = 1;
  self->bias = TRUE;
  self->dtype = GNN_DTYPE_F32;
}

/**
 * gnn_bilinear_new:
 * @in1_features: the size of each first input sample
 * @in2_features: the size of each second input sample
 * @out_features: the size of each output sample
 * @bias: whether to learn an additive bias
 * @generator: (nullable): the generator of the initial parameters, or %NULL
 *   for the default one
 * @error: return location for a #GError
 *
 * Creates a bilinear layer of float32 parameters, like
 * `torch.nn.Bilinear(in1_features, in2_features, out_features, bias)`.
 *
 * Returns: (transfer full): a new layer, or %NULL with @error set
 *   (%GNN_ERROR_SHAPE "Trying to create tensor with negative dimension -1:
 *   [4, -1, 3]" for a negative size, "float division by zero" for
 *   @in1_features 0, or when the parameters cannot be allocated)
 *
 * Since: 0.1
 */
GnnBilinear *
gnn_bilinear_new (gint64         in1_features,
                  gint64         in2_features,
                  gint64         out_features,
                  gboolean       bias,
                  GnnGenerator  *generator,
                  GError       **error)
{
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_nn_initable_new (GNN_TYPE_BILINEAR, error, "in1-features", in1_features,
                              "in2-features", in2_features, "out-features", out_features,
                              "has-bias", bias, "generator", generator, NULL);
}

/**
 * gnn_bilinear_reset_parameters:
 * @self: a bilinear layer
 * @generator: (nullable): the generator to draw from, or %NULL for the
 *   default one
 * @error: return location for a #GError
 *
 * Re-initializes the registered `weight` and `bias` in place as torch's
 * `reset_parameters()` does: U(-1/√in1_features, 1/√in1_features). Meta
 * parameters get memory first.
 *
 * Returns: %TRUE, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
gnn_bilinear_reset_parameters (GnnBilinear   *self,
                               GnnGenerator  *generator,
                               GError       **error)
{
  GObject *weight, *bias;

  g_return_val_if_fail (GNN_IS_BILINEAR (self), FALSE);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), FALSE);
  weight = gnn_module_get_child (GNN_MODULE (self), "weight", NULL);
  bias = gnn_module_get_child (GNN_MODULE (self), "bias", NULL);
  if ((weight != NULL && !gnn_tensor_materialize (GNN_TENSOR (weight), error)) ||
      (bias != NULL && !gnn_tensor_materialize (GNN_TENSOR (bias), error)))
    return FALSE;
  return init_parameters (self, weight, bias, generator, error);
}
