/* gnn-instance-norm-nd.c: the base of the instance normalization layers
 * (torch.nn's _InstanceNorm): InstanceNorm1d/2d/3d
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-instance-norm-nd-private.h"
#include "nn/gnn-nn-private.h"
#include "nn/gnn-norm-private.h"
#include "nn/gnn-pair-private.h"

/**
 * GnnInstanceNormNd:
 *
 * The abstract base of the instance normalization layers, torch's
 * `_InstanceNorm`: each sample's channels are normalized by their own
 * mean and variance ([method@Gnn.Tensor.instance_norm]), then, when
 * [property@Gnn.InstanceNormNd:affine], scaled by `weight` and shifted by
 * `bias`. With [property@Gnn.InstanceNormNd:track-running-stats] the layer
 * keeps `running_mean`, `running_var` (and `num_batches_tracked`, which, as
 * torch's, never moves) and normalizes by them in evaluation. Inputs are
 * `[N, C, *]`, or unbatched `[C, *]`.
 *
 * Since: 0.1
 */

typedef struct
{
  gint64   num_features;
  double   eps, momentum;
  gboolean affine, track_running_stats;
} GnnInstanceNormNdPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnInstanceNormNd, gnn_instance_norm_nd, GNN_TYPE_MODULE,
                                  G_ADD_PRIVATE (GnnInstanceNormNd)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(self) ((GnnInstanceNormNdPrivate *) gnn_instance_norm_nd_get_instance_private (GNN_INSTANCE_NORM_ND (self)))

enum
{
  PROP_0,
  PROP_NUM_FEATURES,
  PROP_EPS,
  PROP_MOMENTUM,
  PROP_AFFINE,
  PROP_TRACK_RUNNING_STATS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
gnn_instance_norm_nd_constructed (GObject *object)
{
  GnnInstanceNormNdPrivate *priv = PRIV (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_instance_norm_nd_parent_class)->constructed (object);
  if (!gnn_nn_norm_create_tensors (GNN_MODULE (object), priv->num_features, priv->affine,
                                   priv->track_running_stats, &error))
    {
      gnn_nn_norm_create_tensors (GNN_MODULE (object), 0, FALSE, FALSE, NULL);
      g_prefix_error (&error, "%s: ", G_OBJECT_TYPE_NAME (object) + 3);
      gnn_nn_set_construct_error (object, error);
    }
}

static GnnTensor *
normalize (GnnModule  *module,
           GnnTensor  *input,
           GError    **error)
{
  GnnInstanceNormNdPrivate *priv = PRIV (module);
  gboolean use_input_stats = gnn_module_get_training (module) || !priv->track_running_stats;

  return gnn_tensor_instance_norm (input, gnn_nn_optional_tensor (module, "running_mean"),
                                   gnn_nn_optional_tensor (module, "running_var"),
                                   gnn_nn_optional_tensor (module, "weight"),
                                   gnn_nn_optional_tensor (module, "bias"), use_input_stats, priv->momentum,
                                   priv->eps, error);
}

static GnnTensor *
gnn_instance_norm_nd_forward (GnnModule  *module,
                              GnnTensor  *input,
                              GError    **error)
{
  guint k = GNN_INSTANCE_NORM_ND_GET_CLASS (module)->n_spatial, ndim = gnn_tensor_get_ndim (input);
  g_autoptr(GnnTensor) batched = NULL;
  g_autoptr(GnnTensor) out = NULL;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  if (ndim != k + 1 && ndim != k + 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "expected %uD or %uD input (got %uD input)", k + 1, k + 2,
                   ndim);
      return NULL;
    }
  if (ndim == k + 2)
    return normalize (module, input, error);
  /* unbatched: a batch of one, as torch's _handle_no_batch_input */
  if ((batched = gnn_tensor_unsqueeze (input, 0, error)) == NULL ||
      (out = normalize (module, batched, error)) == NULL)
    return NULL;
  return gnn_tensor_squeeze (out, 0, error);
}

static char *
gnn_instance_norm_nd_extra_repr (GnnModule *module)
{
  GnnInstanceNormNdPrivate *priv = PRIV (module);

  return gnn_nn_norm_extra_repr (priv->num_features, priv->eps, priv->momentum, priv->affine,
                                 priv->track_running_stats);
}

static void
gnn_instance_norm_nd_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  GnnInstanceNormNdPrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_NUM_FEATURES:
      g_value_set_int64 (value, priv->num_features);
      break;
    case PROP_EPS:
      g_value_set_double (value, priv->eps);
      break;
    case PROP_MOMENTUM:
      g_value_set_double (value, priv->momentum);
      break;
    case PROP_AFFINE:
      g_value_set_boolean (value, priv->affine);
      break;
    case PROP_TRACK_RUNNING_STATS:
      g_value_set_boolean (value, priv->track_running_stats);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_instance_norm_nd_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  GnnInstanceNormNdPrivate *priv = PRIV (object);

  switch (prop_id)
    {
    case PROP_NUM_FEATURES:
      priv->num_features = g_value_get_int64 (value);
      break;
    case PROP_EPS:
      priv->eps = g_value_get_double (value);
      break;
    case PROP_MOMENTUM:
      priv->momentum = g_value_get_double (value);
      break;
    case PROP_AFFINE:
      priv->affine = g_value_get_boolean (value);
      break;
    case PROP_TRACK_RUNNING_STATS:
      priv->track_running_stats = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_instance_norm_nd_class_init (GnnInstanceNormNdClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_instance_norm_nd_constructed;
  object_class->get_property = gnn_instance_norm_nd_get_property;
  object_class->set_property = gnn_instance_norm_nd_set_property;
  module_class->forward = gnn_instance_norm_nd_forward;
  module_class->extra_repr = gnn_instance_norm_nd_extra_repr;
  module_class->reset_parameters = gnn_nn_norm_reset;

  /**
   * GnnInstanceNormNd:num-features:
   *
   * The number of channels C of the input (`num_features`).
   *
   * Since: 0.1
   */
  properties[PROP_NUM_FEATURES] = gnn_nn_int_property ("num-features", 0, 1);
  /**
   * GnnInstanceNormNd:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   *
   * Since: 0.1
   */
  properties[PROP_EPS] = g_param_spec_double ("eps", NULL, NULL, 0.0, G_MAXDOUBLE, 1e-5, flags);
  /**
   * GnnInstanceNormNd:momentum:
   *
   * The weight of the batch's statistics in the running update
   * (`momentum`).
   *
   * Since: 0.1
   */
  properties[PROP_MOMENTUM] = g_param_spec_double ("momentum", NULL, NULL, 0.0, 1.0, 0.1, flags);
  /**
   * GnnInstanceNormNd:affine:
   *
   * Whether the layer has a learnable per-channel `weight` and `bias`
   * (`affine`; %FALSE by default, as torch's).
   *
   * Since: 0.1
   */
  properties[PROP_AFFINE] = g_param_spec_boolean ("affine", NULL, NULL, FALSE, flags);
  /**
   * GnnInstanceNormNd:track-running-stats:
   *
   * Whether the layer keeps running statistics and normalizes by them in
   * evaluation (`track_running_stats`; %FALSE by default).
   *
   * Since: 0.1
   */
  properties[PROP_TRACK_RUNNING_STATS] = g_param_spec_boolean ("track-running-stats", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_instance_norm_nd_init (GnnInstanceNormNd *self)
{
  PRIV (self)->num_features = 1;
  PRIV (self)->eps = 1e-5;
  PRIV (self)->momentum = 0.1;
}

gpointer
gnn_instance_norm_nd_new (GType      type,
                          gint64     num_features,
                          double     eps,
                          double     momentum,
                          gboolean   affine,
                          gboolean   track_running_stats,
                          GError   **error)
{
  const GnnIntArg args[] = { { "num_features", num_features, 0 } };

  if (!gnn_nn_check_int_args (g_type_name (type) + 3, args, G_N_ELEMENTS (args), error))
    return NULL;
  if (!(eps >= 0) || !isfinite (eps) || !(momentum >= 0 && momentum <= 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: eps must be non-negative and momentum in [0, 1], got eps=%g, momentum=%g",
                   g_type_name (type) + 3, eps, momentum);
      return NULL;
    }
  return gnn_nn_initable_new (type, error, "num-features", num_features, "eps", eps, "momentum", momentum,
                              "affine", affine, "track-running-stats", track_running_stats, NULL);
}
