/* gnn-batch-norm.c: batch normalization (torch.nn.BatchNorm1d/2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-norm-private.h"

/**
 * GnnBatchNormBase:
 *
 * The shared base of [class@Gnn.BatchNorm1d], [class@Gnn.BatchNorm2d] and [class@Gnn.BatchNorm3d]
 * (PyTorch's `_BatchNorm`): per-channel normalization computed by
 * [method@Gnn.Tensor.batch_norm].
 *
 * With [property@Gnn.BatchNormBase:affine] it has the parameters `weight`
 * (ones) and `bias` (zeros); with
 * [property@Gnn.BatchNormBase:track-running-stats] the buffers
 * `running_mean` (zeros), `running_var` (ones) and `num_batches_tracked`
 * (an int64 0-d tensor). Disabled ones are registered as empty slots, as in
 * PyTorch.
 *
 * In training mode each call normalizes with the batch statistics and
 * updates the running ones (the variance with Bessel's correction) and
 * `num_batches_tracked`; in evaluation mode it normalizes with the running
 * statistics (or with the batch ones when it tracks none).
 *
 * Since: 0.1
 */
typedef struct
{
  gint64   num_features;
  double   eps;
  double   momentum;
  gboolean affine;
  gboolean track_running_stats;
} GnnBatchNormBasePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnBatchNormBase, gnn_batch_norm_base, GNN_TYPE_MODULE,
                                  G_ADD_PRIVATE (GnnBatchNormBase)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

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
gnn_batch_norm_base_constructed (GObject *object)
{
  GnnBatchNormBase *self = GNN_BATCH_NORM_BASE (object);
  GnnBatchNormBasePrivate *priv = gnn_batch_norm_base_get_instance_private (self);
  GnnModule *module = GNN_MODULE (self);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_batch_norm_base_parent_class)->constructed (object);

  if (!gnn_nn_norm_create_tensors (module, priv->num_features, priv->affine, priv->track_running_stats,
                                   &error))
    {
      gnn_nn_norm_create_tensors (module, 0, FALSE, FALSE, NULL);
      g_prefix_error (&error, "%s: ", G_OBJECT_TYPE_NAME (object) + 3);
      gnn_nn_set_construct_error (object, error);
    }
}

static GnnTensor *
gnn_batch_norm_base_forward (GnnModule  *module,
                             GnnTensor  *input,
                             GError    **error)
{
  GnnBatchNormBase *self = GNN_BATCH_NORM_BASE (module);
  GnnBatchNormBasePrivate *priv = gnn_batch_norm_base_get_instance_private (self);
  GnnBatchNormBaseClass *klass = GNN_BATCH_NORM_BASE_GET_CLASS (self);
  GnnTensor *running_mean = gnn_nn_optional_tensor (module, "running_mean");
  GnnTensor *running_var = gnn_nn_optional_tensor (module, "running_var");
  GnnTensor *count = gnn_nn_optional_tensor (module, "num_batches_tracked");
  gboolean training = gnn_module_get_training (module);
  gboolean bn_training;

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  GnnTensor *out;

  if (klass->check_input_dim != NULL && !klass->check_input_dim (self, input, error))
    return NULL;

  /* PyTorch: batch statistics in training, or in evaluation without running ones */
  bn_training = training || (running_mean == NULL && running_var == NULL);
  out = gnn_tensor_batch_norm (input,
                               !training || priv->track_running_stats ? running_mean : NULL,
                               !training || priv->track_running_stats ? running_var : NULL,
                               gnn_nn_optional_tensor (module, "weight"),
                               gnn_nn_optional_tensor (module, "bias"),
                               bn_training, priv->momentum, priv->eps, error);
  if (out != NULL && training && priv->track_running_stats && count != NULL)
    {
      double n = gnn_tensor_item (count, NULL);

      gnn_tensor_fill_ (count, n + 1, NULL);
    }
  return out;
}

static char *
gnn_batch_norm_base_extra_repr (GnnModule *module)
{
  GnnBatchNormBasePrivate *priv =
    gnn_batch_norm_base_get_instance_private (GNN_BATCH_NORM_BASE (module));

  return gnn_nn_norm_extra_repr (priv->num_features, priv->eps, priv->momentum, priv->affine,
                                 priv->track_running_stats);
}

static void
gnn_batch_norm_base_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  GnnBatchNormBasePrivate *priv =
    gnn_batch_norm_base_get_instance_private (GNN_BATCH_NORM_BASE (object));

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
gnn_batch_norm_base_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  GnnBatchNormBasePrivate *priv =
    gnn_batch_norm_base_get_instance_private (GNN_BATCH_NORM_BASE (object));

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
gnn_batch_norm_base_class_init (GnnBatchNormBaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = gnn_batch_norm_base_constructed;
  object_class->get_property = gnn_batch_norm_base_get_property;
  object_class->set_property = gnn_batch_norm_base_set_property;
  module_class->forward = gnn_batch_norm_base_forward;
  module_class->extra_repr = gnn_batch_norm_base_extra_repr;
  module_class->reset_parameters = gnn_nn_norm_reset;

  /**
   * GnnBatchNormBase:num-features:
   *
   * The number of channels C of the `[N, C, ...]` input (`num_features`).
   *
   * Since: 0.1
   */
  properties[PROP_NUM_FEATURES] =
    g_param_spec_int64 ("num-features", NULL, NULL, 0, G_MAXINT32, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBatchNormBase:eps:
   *
   * The value added to the variance for numerical stability (`eps`).
   *
   * Since: 0.1
   */
  properties[PROP_EPS] =
    g_param_spec_double ("eps", NULL, NULL, 0.0, G_MAXDOUBLE, 1e-5,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBatchNormBase:momentum:
   *
   * The weight of the batch statistics in the running update (`momentum`).
   *
   * Since: 0.1
   */
  properties[PROP_MOMENTUM] =
    g_param_spec_double ("momentum", NULL, NULL, 0.0, 1.0, 0.1,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBatchNormBase:affine:
   *
   * Whether the layer has a learnable `weight` and `bias` (`affine`).
   *
   * Since: 0.1
   */
  properties[PROP_AFFINE] =
    g_param_spec_boolean ("affine", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBatchNormBase:track-running-stats:
   *
   * Whether the layer keeps running statistics (`track_running_stats`).
   *
   * Since: 0.1
   */
  properties[PROP_TRACK_RUNNING_STATS] =
    g_param_spec_boolean ("track-running-stats", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_batch_norm_base_init (GnnBatchNormBase *self)
{
  GnnBatchNormBasePrivate *priv = gnn_batch_norm_base_get_instance_private (self);

  priv->num_features = 1;
  priv->eps = 1e-5;
  priv->momentum = 0.1;
  priv->affine = TRUE;
  priv->track_running_stats = TRUE;
}

static gboolean
check_config (gint64   num_features,
              double   eps,
              double   momentum,
              GError **error)
{
  if (num_features < 0 || num_features > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "BatchNorm: invalid num_features %" G_GINT64_FORMAT, num_features);
      return FALSE;
    }
  if (!(eps >= 0) || !(momentum >= 0 && momentum <= 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "BatchNorm: eps must be non-negative and momentum in [0, 1], got eps=%g, "
                   "momentum=%g", eps, momentum);
      return FALSE;
    }
  return TRUE;
}

/* --- BatchNorm1d ----------------------------------------------------------- */

/**
 * GnnBatchNorm1d:
 *
 * Batch normalization of `[N, C]` or `[N, C, L]` inputs,
 * `torch.nn.BatchNorm1d`; see [class@Gnn.BatchNormBase].
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnBatchNorm1d, gnn_batch_norm1d, GNN_TYPE_BATCH_NORM_BASE)

/* torch's _check_input_dim: @lo to @hi dimensions, with its message. */
static gboolean
check_ndim (GnnTensor  *input,
            guint       lo,
            guint       hi,
            GError    **error)
{
  guint ndim = gnn_tensor_get_ndim (input);

  if (ndim >= lo && ndim <= hi)
    return TRUE;
  if (lo == hi)
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "expected %uD input (got %uD input)", lo, ndim);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "expected %uD or %uD input (got %uD input)",
                 lo, hi, ndim);
  return FALSE;
}

/* The checked construction every gnn_batch_normNd_new shares. */
static gpointer
batch_norm_new (GType     type,
                gint64    num_features,
                double    eps,
                double    momentum,
                gboolean  affine,
                gboolean  track_running_stats,
                GError  **error)
{
  if (!check_config (num_features, eps, momentum, error))
    return NULL;
  return gnn_nn_initable_new (type, error,
                              "num-features", num_features, "eps", eps,
                              "momentum", momentum, "affine", affine,
                              "track-running-stats", track_running_stats, NULL);
}

static gboolean
gnn_batch_norm1d_check_input_dim (GnnBatchNormBase  *self,
                                  GnnTensor         *input,
                                  GError           **error)
{
  return check_ndim (input, 2, 3, error);
}

static void
gnn_batch_norm1d_class_init (GnnBatchNorm1dClass *klass)
{
  GNN_BATCH_NORM_BASE_CLASS (klass)->check_input_dim = gnn_batch_norm1d_check_input_dim;
}

static void
gnn_batch_norm1d_init (GnnBatchNorm1d *self)
{
}

/**
 * gnn_batch_norm1d_new:
 * @num_features: the number of channels C
 * @eps: the value added to the variance (PyTorch's default is 1e-5)
 * @momentum: the weight of the batch statistics in the running update
 *   (default 0.1)
 * @affine: whether to learn a per-channel scale and offset (default %TRUE)
 * @track_running_stats: whether to keep running statistics (default %TRUE)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.BatchNorm1d(num_features, eps, momentum, affine,
 * track_running_stats)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) for an out-of-range argument
 *
 * Since: 0.1
 */
GnnBatchNorm1d *
gnn_batch_norm1d_new (gint64    num_features,
                      double    eps,
                      double    momentum,
                      gboolean  affine,
                      gboolean  track_running_stats,
                      GError  **error)
{
  return batch_norm_new (GNN_TYPE_BATCH_NORM1D, num_features, eps, momentum, affine,
                         track_running_stats, error);
}

/* --- BatchNorm2d ----------------------------------------------------------- */

/**
 * GnnBatchNorm2d:
 *
 * Batch normalization of `[N, C, H, W]` inputs, `torch.nn.BatchNorm2d`;
 * see [class@Gnn.BatchNormBase].
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnBatchNorm2d, gnn_batch_norm2d, GNN_TYPE_BATCH_NORM_BASE)

static gboolean
gnn_batch_norm2d_check_input_dim (GnnBatchNormBase  *self,
                                  GnnTensor         *input,
                                  GError           **error)
{
  return check_ndim (input, 4, 4, error);
}

static void
gnn_batch_norm2d_class_init (GnnBatchNorm2dClass *klass)
{
  GNN_BATCH_NORM_BASE_CLASS (klass)->check_input_dim = gnn_batch_norm2d_check_input_dim;
}

static void
gnn_batch_norm2d_init (GnnBatchNorm2d *self)
{
}

/**
 * gnn_batch_norm2d_new:
 * @num_features: the number of channels C
 * @eps: the value added to the variance (PyTorch's default is 1e-5)
 * @momentum: the weight of the batch statistics in the running update
 *   (default 0.1)
 * @affine: whether to learn a per-channel scale and offset (default %TRUE)
 * @track_running_stats: whether to keep running statistics (default %TRUE)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.BatchNorm2d(num_features, eps, momentum, affine,
 * track_running_stats)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) for an out-of-range argument
 *
 * Since: 0.1
 */
GnnBatchNorm2d *
gnn_batch_norm2d_new (gint64    num_features,
                      double    eps,
                      double    momentum,
                      gboolean  affine,
                      gboolean  track_running_stats,
                      GError  **error)
{
  return batch_norm_new (GNN_TYPE_BATCH_NORM2D, num_features, eps, momentum, affine,
                         track_running_stats, error);
}

/* --- BatchNorm3d ----------------------------------------------------------- */

/**
 * GnnBatchNorm3d:
 *
 * Batch normalization of `[N, C, D, H, W]` inputs, `torch.nn.BatchNorm3d`;
 * see [class@Gnn.BatchNormBase].
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnBatchNorm3d, gnn_batch_norm3d, GNN_TYPE_BATCH_NORM_BASE)

static gboolean
gnn_batch_norm3d_check_input_dim (GnnBatchNormBase  *self,
                                  GnnTensor         *input,
                                  GError           **error)
{
  return check_ndim (input, 5, 5, error);
}

static void
gnn_batch_norm3d_class_init (GnnBatchNorm3dClass *klass)
{
  GNN_BATCH_NORM_BASE_CLASS (klass)->check_input_dim = gnn_batch_norm3d_check_input_dim;
}

static void
gnn_batch_norm3d_init (GnnBatchNorm3d *self)
{
}

/**
 * gnn_batch_norm3d_new:
 * @num_features: the number of channels C
 * @eps: the value added to the variance (PyTorch's default is 1e-5)
 * @momentum: the weight of the batch statistics in the running update
 *   (default 0.1)
 * @affine: whether to learn a per-channel scale and offset (default %TRUE)
 * @track_running_stats: whether to keep running statistics (default %TRUE)
 * @error: return location for a #GError
 *
 * Creates `torch.nn.BatchNorm3d(num_features, eps, momentum, affine,
 * track_running_stats)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) for an out-of-range argument
 *
 * Since: 0.1
 */
GnnBatchNorm3d *
gnn_batch_norm3d_new (gint64    num_features,
                      double    eps,
                      double    momentum,
                      gboolean  affine,
                      gboolean  track_running_stats,
                      GError  **error)
{
  return batch_norm_new (GNN_TYPE_BATCH_NORM3D, num_features, eps, momentum, affine,
                         track_running_stats, error);
}
