/* gnn-group-norm.c: group normalization (torch.nn.GroupNorm)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnGroupNorm:
 *
 * Group normalization of `[N, C, *]` inputs, `torch.nn.GroupNorm`,
 * computed by [method@Gnn.Tensor.group_norm]: each sample's channels, in
 * `num-groups` groups, are normalized by the statistics of their group,
 * then scaled by `weight` and shifted by `bias` (per channel, ones and
 * zeros initially, when [property@Gnn.GroupNorm:affine]).
 *
 * Since: 0.1
 */
struct _GnnGroupNorm
{
  GnnModule parent_instance;
  gint64    num_groups, num_channels;
  double    eps;
  gboolean  affine;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnGroupNorm, gnn_group_norm, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

enum
{
  PROP_0,
  PROP_NUM_GROUPS,
  PROP_NUM_CHANNELS,
  PROP_EPS,
  PROP_AFFINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* torch's constructor errors, then the parameters. */
static gboolean
create_parameters (GnnGroupNorm  *self,
                   GError       **error)
{
  gint64 c = self->num_channels;
  g_autoptr(GnnTensor) w = NULL;
  g_autoptr(GnnTensor) b = NULL;
  g_autoptr(GnnParameter) wp = NULL;
  g_autoptr(GnnParameter) bp = NULL;

  if (self->num_groups <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_ZERO_DIVISION, "integer modulo by zero (num_groups=%"
                   G_GINT64_FORMAT ")", self->num_groups);
      return FALSE;
    }
  if (c % self->num_groups != 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "num_channels must be divisible by num_groups");
      return FALSE;
    }
  if (self->affine)
    {
      if ((w = gnn_tensor_ones (&c, 1, GNN_DTYPE_F32, error)) == NULL ||
          (b = gnn_tensor_zeros (&c, 1, GNN_DTYPE_F32, error)) == NULL)
        return FALSE;
      wp = gnn_parameter_new (w, TRUE);
      bp = gnn_parameter_new (b, TRUE);
    }
  return gnn_module_register_parameter (GNN_MODULE (self), "weight", wp, error) &&
         gnn_module_register_parameter (GNN_MODULE (self), "bias", bp, error);
}

static gboolean
gnn_group_norm_reset_parameters (GnnModule  *module,
                                 GError    **error)
{
  return gnn_nn_reset_fill (module, "weight", 1.0, error) && gnn_nn_reset_fill (module, "bias", 0.0, error);
}

static void
gnn_group_norm_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_group_norm_parent_class)->constructed (object);
  if (!create_parameters (GNN_GROUP_NORM (object), &error))
    {
      gnn_module_register_parameter (GNN_MODULE (object), "weight", NULL, NULL);
      gnn_module_register_parameter (GNN_MODULE (object), "bias", NULL, NULL);
      gnn_nn_set_construct_error (object, error);
    }
}

static GnnTensor *
gnn_group_norm_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  GnnGroupNorm *self = GNN_GROUP_NORM (module);

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  return gnn_tensor_group_norm (input, self->num_groups, gnn_nn_optional_tensor (module, "weight"),
                                gnn_nn_optional_tensor (module, "bias"), self->eps, error);
}

static char *
gnn_group_norm_extra_repr (GnnModule *module)
{
  GnnGroupNorm *self = GNN_GROUP_NORM (module);
  g_autofree char *eps = gnn_nn_format_float (self->eps);

  return g_strdup_printf ("%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", eps=%s, affine=%s", self->num_groups,
                          self->num_channels, eps, gnn_nn_bool_str (self->affine));
}

static void
gnn_group_norm_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GnnGroupNorm *self = GNN_GROUP_NORM (object);

  switch (prop_id)
    {
    case PROP_NUM_GROUPS:
      g_value_set_int64 (value, self->num_groups);
      break;
    case PROP_NUM_CHANNELS:
      g_value_set_int64 (value, self->num_channels);
      break;
    case PROP_EPS:
      g_value_set_double (value, self->eps);
      break;
    case PROP_AFFINE:
      g_value_set_boolean (value, self->affine);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_group_norm_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GnnGroupNorm *self = GNN_GROUP_NORM (object);

  switch (prop_id)
    {
    case PROP_NUM_GROUPS:
      self->num_groups = g_value_get_int64 (value);
      break;
    case PROP_NUM_CHANNELS:
      self->num_channels = g_value_get_int64 (value);
      break;
    case PROP_EPS:
      self->eps = g_value_get_double (value);
      break;
    case PROP_AFFINE:
      self->affine = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_group_norm_class_init (GnnGroupNormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_group_norm_constructed;
  object_class->get_property = gnn_group_norm_get_property;
  object_class->set_property = gnn_group_norm_set_property;
  module_class->forward = gnn_group_norm_forward;
  module_class->extra_repr = gnn_group_norm_extra_repr;
  module_class->reset_parameters = gnn_group_norm_reset_parameters;

  /**
   * GnnGroupNorm:num-groups:
   *
   * The number of groups the channels are split into (`num_groups`); it
   * divides [property@Gnn.GroupNorm:num-channels].
   *
   * Since: 0.1
   */
  properties[PROP_NUM_GROUPS] = gnn_nn_int_property ("num-groups", -G_MAXINT32, 1);
  /**
   * GnnGroupNorm:num-channels:
   *
   * The number of channels C of the input (`num_channels`).
   *
   * Since: 0.1
   */
  properties[PROP_NUM_CHANNELS] = gnn_nn_int_property ("num-channels", 0, 1);
  /**
   * GnnGroupNorm:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   *
   * Since: 0.1
   */
  properties[PROP_EPS] =
    g_param_spec_double ("eps", NULL, NULL, 0.0, G_MAXDOUBLE, 1e-5,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnGroupNorm:affine:
   *
   * Whether the layer has a learnable per-channel `weight` and `bias`
   * (`affine`).
   *
   * Since: 0.1
   */
  properties[PROP_AFFINE] = gnn_nn_bool_property ("affine", TRUE);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_group_norm_init (GnnGroupNorm *self)
{
  self->num_groups = self->num_channels = 1;
  self->eps = 1e-5;
  self->affine = TRUE;
}

/**
 * gnn_group_norm_new:
 * @num_groups: the number of groups (divides @num_channels)
 * @num_channels: the number of channels C
 * @eps: the value added to the variance (PyTorch's default is 1e-5)
 * @affine: whether to learn a per-channel scale and offset (default %TRUE)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.GroupNorm(num_groups, num_channels, eps, affine)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   ("num_channels must be divisible by num_groups")
 *
 * Since: 0.1
 */
GnnGroupNorm *
gnn_group_norm_new (gint64     num_groups,
                    gint64     num_channels,
                    double     eps,
                    gboolean   affine,
                    GError   **error)
{
  const GnnIntArg args[] = { { "num_channels", num_channels, 0 } };

  if (!gnn_nn_check_int_args ("GroupNorm", args, G_N_ELEMENTS (args), error))
    return NULL;
  if (!(eps >= 0) || !isfinite (eps))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "GroupNorm: eps must be non-negative, got %g", eps);
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_GROUP_NORM, error, "num-groups", CLAMP (num_groups, -G_MAXINT32, G_MAXINT32),
                              "num-channels", num_channels, "eps", eps, "affine", affine, NULL);
}
