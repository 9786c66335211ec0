/* gnn-dense-net.c: torchvision's DenseNet (torchvision.models.densenet121 …)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnDenseNet:
 *
 * torchvision's `DenseNet(growth_rate=32, block_config=(6, 12, 24, 16),
 * num_init_features=64, bn_size=4, drop_rate=0, num_classes=1000)`:
 * `features`, a [class@Gnn.Sequential] of `conv0` (7×7 stride 2),
 * `norm0`, `relu0`, `pool0` (3×3 stride-2 max pooling), then
 * [class@Gnn.DenseBlock]s `denseblock1` … with transitions `transition1`
 * … between them (each a Sequential of `norm`, `relu`, a 1×1 `conv`
 * halving the channels and a 2×2 average `pool`), and `norm5`; then ReLU,
 * a global average pooling and the [class@Gnn.Linear] `classifier`.
 *
 * Children, parameters and buffers have torchvision's names in its order,
 * so the state dict of `torchvision.models.densenet121()` loads into it
 * and the outputs agree. The weights start as torchvision's do:
 * convolutions Kaiming-normal (fan-in), batch norms 1 and 0, the
 * classifier's bias 0.
 *
 * Since: 0.1
 */
struct _GnnDenseNet
{
  GnnModule  parent_instance;

  gint64     growth_rate;
  GVariant  *block_config;
  gint64     num_init_features;
  gint64     bn_size;
  double     drop_rate;
  gint64     num_classes;
};

enum {
  PROP_0,
  PROP_GROWTH_RATE,
  PROP_BLOCK_CONFIG,
  PROP_NUM_INIT_FEATURES,
  PROP_BN_SIZE,
  PROP_DROP_RATE,
  PROP_NUM_CLASSES,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnDenseNet, gnn_dense_net, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static const gint64 densenet121[] = { 6, 12, 24, 16 };

static GnnTensor *
gnn_dense_net_forward (GnnModule  *module,
                       GnnTensor  *input,
                       GError    **error)
{
  static const char *const path[] = { "features", "F.relu", "F.avgpool1", "flatten",
                                      "classifier" };

  return gnn_vision_model_run (module, "DenseNet", path, G_N_ELEMENTS (path), input, error);
}

/* torchvision's _Transition (a Sequential with named children) */
static GnnModule *
make_transition (gint64    in,
                 gint64    out,
                 GError  **error)
{
  g_autoptr(GnnSequential) t = gnn_sequential_new (NULL, 0);
  GnnModule *m = GNN_MODULE (t);

  if (!gnn_vision_model_add (m, "norm", gnn_vision_model_bn (in, error), error) ||
      !gnn_vision_model_add (m, "relu", gnn_relu_new (TRUE), error) ||
      !gnn_vision_model_add (m, "conv", gnn_vision_model_conv (in, out, 1, 1, 0, 1, FALSE, error),
                             error) ||
      !gnn_vision_model_add (m, "pool", gnn_avg_pool2d_new (2, 2, 0, FALSE, TRUE, 0, error),
                             error))
    return NULL;
  return GNN_MODULE (g_steal_pointer (&t));
}

static gboolean
create_children (GnnDenseNet  *self,
                 GError      **error)
{
  GnnModule *module = GNN_MODULE (self);
  g_autoptr(GnnSequential) features = gnn_sequential_new (NULL, 0);
  GnnModule *f = GNN_MODULE (features);
  gsize n = 0;
  const gint64 *blocks = gnn_vision_variant_int64s (self->block_config, &n);
  gint64 num_features = self->num_init_features;

  if (!gnn_vision_model_check_classes (self->num_classes, error) ||
      !gnn_vision_model_add (f, "conv0", gnn_vision_model_conv (3, self->num_init_features, 7, 2,
                                                                3, 1, FALSE, error), error) ||
      !gnn_vision_model_add (f, "norm0", gnn_vision_model_bn (self->num_init_features, error),
                             error) ||
      !gnn_vision_model_add (f, "relu0", gnn_relu_new (TRUE), error) ||
      !gnn_vision_model_add (f, "pool0", gnn_max_pool2d_new (3, 2, 1, 1, FALSE, error), error))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *block = g_strdup_printf ("denseblock%" G_GSIZE_FORMAT, i + 1);
      g_autofree char *transition = g_strdup_printf ("transition%" G_GSIZE_FORMAT, i + 1);

      if (blocks[i] < 1 || blocks[i] > 4096)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "block_config[%" G_GSIZE_FORMAT "] must be between 1 and 4096, got %"
                       G_GINT64_FORMAT, i, blocks[i]);
          return FALSE;
        }
      if (!gnn_vision_model_add (f, block, gnn_dense_block_new (blocks[i], num_features,
                                                                self->bn_size, self->growth_rate,
                                                                self->drop_rate, error), error))
        return FALSE;
      num_features += blocks[i] * self->growth_rate;
      if (i + 1 < n)
        {
          if (!gnn_vision_model_add (f, transition,
                                     make_transition (num_features, num_features / 2, error),
                                     error))
            return FALSE;
          num_features /= 2;
        }
    }
  return gnn_vision_model_add (f, "norm5", gnn_vision_model_bn (num_features, error), error) &&
         gnn_module_register_module (module, "features", f, error) &&
         gnn_vision_model_add (module, "classifier",
                               gnn_linear_new (num_features, self->num_classes, TRUE, NULL,
                                               error), error) &&
         gnn_vision_model_init (module, GNN_VISION_CONV_INIT_KAIMING_NORMAL_FAN_IN, 0.0, error);
}

static void
gnn_dense_net_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_dense_net_parent_class)->constructed (object);
  if (!create_children (GNN_DENSE_NET (object), &error))
    gnn_vision_model_construct_failed (object, "DenseNet", error);
}

static char *
gnn_dense_net_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_dense_net_finalize (GObject *object)
{
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_dense_net_parent_class)->finalize (object);
}

static void
gnn_dense_net_class_init (GnnDenseNetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_dense_net_constructed;
  object_class->finalize = gnn_dense_net_finalize;
  module_class->forward = gnn_dense_net_forward;
  module_class->extra_repr = gnn_dense_net_extra_repr;

  /**
   * GnnDenseNet:growth-rate:
   *
   * The channels each dense layer adds.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_GROWTH_RATE,
    g_param_spec_int64 ("growth-rate", NULL, NULL, 1, 65536, 32, flags),
    G_STRUCT_OFFSET (GnnDenseNet, growth_rate));
  /**
   * GnnDenseNet:block-config:
   *
   * The number of layers of each dense block (an `ax` variant):
   * `[6, 12, 24, 16]` is DenseNet-121.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_BLOCK_CONFIG,
    g_param_spec_variant ("block-config", NULL, NULL, G_VARIANT_TYPE ("ax"),
                          gnn_vision_int64s_variant (densenet121, G_N_ELEMENTS (densenet121)),
                          flags),
    G_STRUCT_OFFSET (GnnDenseNet, block_config));
  /**
   * GnnDenseNet:num-init-features:
   *
   * The channels of the first convolution.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_INIT_FEATURES,
    g_param_spec_int64 ("num-init-features", NULL, NULL, 1, 65536, 64, flags),
    G_STRUCT_OFFSET (GnnDenseNet, num_init_features));
  /**
   * GnnDenseNet:bn-size:
   *
   * The bottleneck of each dense layer has `bn_size × growth_rate` channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_BN_SIZE,
    g_param_spec_int64 ("bn-size", NULL, NULL, 1, 1024, 4, flags),
    G_STRUCT_OFFSET (GnnDenseNet, bn_size));
  /**
   * GnnDenseNet:drop-rate:
   *
   * The dropout probability after each dense layer (in training).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DROP_RATE,
    g_param_spec_double ("drop-rate", NULL, NULL, 0.0, 1.0, 0.0, flags),
    G_STRUCT_OFFSET (GnnDenseNet, drop_rate));
  /**
   * GnnDenseNet:num-classes:
   *
   * The classifier's outputs.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_CLASSES,
    g_param_spec_int64 ("num-classes", NULL, NULL, G_MININT32, G_MAXINT32, 1000, flags),
    G_STRUCT_OFFSET (GnnDenseNet, num_classes));
}

static void
gnn_dense_net_init (GnnDenseNet *self)
{
}

/**
 * gnn_dense_net_new:
 * @growth_rate: the channels each dense layer adds
 * @block_config: (array length=n_blocks): the layers of each dense block
 * @n_blocks: the length of @block_config
 * @num_init_features: the channels of the first convolution
 * @num_classes: the classifier's outputs
 * @error: return location for a #GError
 *
 * Creates torchvision's `DenseNet(growth_rate, block_config,
 * num_init_features, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnDenseNet *
gnn_dense_net_new (gint64         growth_rate,
                   const gint64  *block_config,
                   gsize          n_blocks,
                   gint64         num_init_features,
                   gint64         num_classes,
                   GError       **error)
{
  return gnn_nn_initable_new (GNN_TYPE_DENSE_NET, error, "growth-rate", growth_rate,
                              "block-config", gnn_vision_int64s_variant (block_config, n_blocks),
                              "num-init-features", num_init_features,
                              "num-classes", num_classes, NULL);
}

/**
 * gnn_vision_densenet121:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.densenet121(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnDenseNet *
gnn_vision_densenet121 (gint64    num_classes,
                        GError  **error)
{
  return gnn_dense_net_new (32, densenet121, G_N_ELEMENTS (densenet121), 64, num_classes, error);
}
