/* gnn-vgg.c: torchvision's VGG (torchvision.models.vgg11 … vgg19_bn)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnVGG:
 *
 * torchvision's `VGG(make_layers(cfg, batch_norm), num_classes=1000,
 * init_weights=True, dropout=0.5)`: `features`, a [class@Gnn.Sequential]
 * of 3×3 convolutions (each followed by a batch norm with
 * [property@Gnn.VGG:batch-norm]) and ReLUs with 2×2 max pooling where the
 * configuration says `M`; `avgpool`, a 7×7 [class@Gnn.AdaptiveAvgPool2d];
 * and `classifier`, three linear layers of 4096, 4096 and
 * [property@Gnn.VGG:num-classes] outputs with ReLU and dropout between.
 *
 * Children, parameters and buffers have torchvision's names in its order,
 * so the state dict of `torchvision.models.vgg16()` (converted to
 * safetensors, or copied tensor by tensor) loads into
 * `gnn_vision_vgg (16, FALSE, 1000)` and the outputs agree. With
 * [property@Gnn.VGG:init-weights] the weights start as torchvision's do:
 * convolutions Kaiming-normal (fan-out, ReLU gain) with zero biases, batch
 * norms 1 and 0, linear layers normal(0, 0.01) with zero biases.
 *
 * Since: 0.1
 */
struct _GnnVGG
{
  GnnModule  parent_instance;

  GVariant  *cfg;
  gboolean   batch_norm;
  gint64     num_classes;
  gboolean   init_weights;
  double     dropout;
};

enum {
  PROP_0,
  PROP_CFG,
  PROP_BATCH_NORM,
  PROP_NUM_CLASSES,
  PROP_INIT_WEIGHTS,
  PROP_DROPOUT,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnVGG, gnn_vgg, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

/* torchvision's cfgs "A", "B", "D", "E"; -1 is "M" (max pooling) */
#define M -1
static const gint64 cfg_a[] = { 64, M, 128, M, 256, 256, M, 512, 512, M, 512, 512, M };
static const gint64 cfg_b[] = { 64, 64, M, 128, 128, M, 256, 256, M, 512, 512, M, 512, 512, M };
static const gint64 cfg_d[] = { 64, 64, M, 128, 128, M, 256, 256, 256, M, 512, 512, 512, M,
                                512, 512, 512, M };
static const gint64 cfg_e[] = { 64, 64, M, 128, 128, M, 256, 256, 256, 256, M, 512, 512, 512,
                                512, M, 512, 512, 512, 512, M };
#undef M

static GnnTensor *
gnn_vgg_forward (GnnModule  *module,
                 GnnTensor  *input,
                 GError    **error)
{
  static const char *const path[] = { "features", "avgpool", "flatten", "classifier" };

  return gnn_vision_model_run (module, "VGG", path, G_N_ELEMENTS (path), input, error);
}

/* torchvision's make_layers */
static GnnModule *
make_features (GnnVGG  *self,
               GError **error)
{
  g_autoptr(GnnSequential) features = gnn_sequential_new (NULL, 0);
  GnnModule *seq = GNN_MODULE (features);
  gsize n = 0;
  const gint64 *cfg = gnn_vision_variant_int64s (self->cfg, &n);
  gint64 in = 3;

  for (gsize i = 0; i < n; i++)
    {
      if (cfg[i] == -1)
        {
          if (!gnn_vision_model_append (seq, gnn_max_pool2d_new (2, 2, 0, 1, FALSE, error), error))
            return NULL;
          continue;
        }
      if (cfg[i] < 1 || cfg[i] > 65536)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "cfg[%" G_GSIZE_FORMAT "] must be a channel count between 1 and 65536 "
                       "or -1 ('M'), got %" G_GINT64_FORMAT, i, cfg[i]);
          return NULL;
        }
      if (!gnn_vision_model_append (seq, gnn_vision_model_conv (in, cfg[i], 3, 1, 1, 1, TRUE,
                                                                error), error) ||
          (self->batch_norm &&
           !gnn_vision_model_append (seq, gnn_vision_model_bn (cfg[i], error), error)) ||
          !gnn_vision_model_append (seq, gnn_relu_new (TRUE), error))
        return NULL;
      in = cfg[i];
    }
  return GNN_MODULE (g_steal_pointer (&features));
}

static gboolean
create_children (GnnVGG  *self,
                 GError **error)
{
  GnnModule *module = GNN_MODULE (self);
  g_autoptr(GnnSequential) classifier = gnn_sequential_new (NULL, 0);
  GnnModule *c = GNN_MODULE (classifier);

  if (!gnn_vision_model_check_classes (self->num_classes, error) ||
      !gnn_vision_model_add (module, "features", make_features (self, error), error) ||
      !gnn_vision_model_add (module, "avgpool", gnn_adaptive_avg_pool2d_new (7, 7, error), error))
    return FALSE;
  /* 512 * 7 * 7 inputs whatever the configuration, as torchvision */
  if (!gnn_vision_model_append (c, gnn_linear_new (512 * 7 * 7, 4096, TRUE, NULL, error), error) ||
      !gnn_vision_model_append (c, gnn_relu_new (TRUE), error) ||
      !gnn_vision_model_append (c, gnn_dropout_new (self->dropout, FALSE, NULL, error), error) ||
      !gnn_vision_model_append (c, gnn_linear_new (4096, 4096, TRUE, NULL, error), error) ||
      !gnn_vision_model_append (c, gnn_relu_new (TRUE), error) ||
      !gnn_vision_model_append (c, gnn_dropout_new (self->dropout, FALSE, NULL, error), error) ||
      !gnn_vision_model_append (c, gnn_linear_new (4096, self->num_classes, TRUE, NULL, error),
                                error) ||
      !gnn_module_register_module (module, "classifier", c, error))
    return FALSE;
  return !self->init_weights ||
         gnn_vision_model_init (module, GNN_VISION_CONV_INIT_KAIMING_NORMAL_FAN_OUT, 0.01, error);
}

static void
gnn_vgg_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_vgg_parent_class)->constructed (object);
  if (!create_children (GNN_VGG (object), &error))
    gnn_vision_model_construct_failed (object, "VGG", error);
}

static char *
gnn_vgg_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_vgg_finalize (GObject *object)
{
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_vgg_parent_class)->finalize (object);
}

static void
gnn_vgg_class_init (GnnVGGClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_vgg_constructed;
  object_class->finalize = gnn_vgg_finalize;
  module_class->forward = gnn_vgg_forward;
  module_class->extra_repr = gnn_vgg_extra_repr;

  /**
   * GnnVGG:cfg:
   *
   * The layers of `features` (an `ax` variant): a channel count is a 3×3
   * convolution (+ batch norm) + ReLU, -1 (torchvision's `"M"`) a 2×2 max
   * pooling. The default is VGG-11's configuration `"A"`.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_CFG,
    g_param_spec_variant ("cfg", NULL, NULL, G_VARIANT_TYPE ("ax"),
                          gnn_vision_int64s_variant (cfg_a, G_N_ELEMENTS (cfg_a)), flags),
    G_STRUCT_OFFSET (GnnVGG, cfg));
  /**
   * GnnVGG:batch-norm:
   *
   * Whether each convolution is followed by a [class@Gnn.BatchNorm2d]
   * (torchvision's `vgg11_bn` …).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_BATCH_NORM,
    g_param_spec_boolean ("batch-norm", NULL, NULL, FALSE, flags),
    G_STRUCT_OFFSET (GnnVGG, batch_norm));
  /**
   * GnnVGG:num-classes:
   *
   * The classifier's outputs.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_CLASSES,
    g_param_spec_int64 ("num-classes", NULL, NULL, G_MININT32, G_MAXINT32, 1000, flags),
    G_STRUCT_OFFSET (GnnVGG, num_classes));
  /**
   * GnnVGG:init-weights:
   *
   * Whether the weights are drawn as torchvision's `init_weights=True`
   * does (otherwise each layer keeps its own initialization).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INIT_WEIGHTS,
    g_param_spec_boolean ("init-weights", NULL, NULL, TRUE, flags),
    G_STRUCT_OFFSET (GnnVGG, init_weights));
  /**
   * GnnVGG:dropout:
   *
   * The probability of the classifier's two dropout layers.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DROPOUT,
    g_param_spec_double ("dropout", NULL, NULL, 0.0, 1.0, 0.5, flags),
    G_STRUCT_OFFSET (GnnVGG, dropout));
}

static void
gnn_vgg_init (GnnVGG *self)
{
}

/**
 * gnn_vgg_new:
 * @cfg: (array length=n_cfg): the layers of `features` (see [property@Gnn.VGG:cfg])
 * @n_cfg: the length of @cfg
 * @batch_norm: whether each convolution is followed by a batch norm
 * @num_classes: the classifier's outputs
 * @error: return location for a #GError
 *
 * Creates torchvision's `VGG(make_layers(cfg, batch_norm), num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnVGG *
gnn_vgg_new (const gint64  *cfg,
             gsize          n_cfg,
             gboolean       batch_norm,
             gint64         num_classes,
             GError       **error)
{
  return gnn_nn_initable_new (GNN_TYPE_VGG, error, "cfg", gnn_vision_int64s_variant (cfg, n_cfg),
                              "batch-norm", batch_norm, "num-classes", num_classes, NULL);
}

/**
 * gnn_vision_vgg:
 * @depth: 11, 13, 16 or 19
 * @batch_norm: %TRUE for torchvision's `vgg<depth>_bn`
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.vgg<depth>[_bn](weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnVGG *
gnn_vision_vgg (gint64    depth,
                gboolean  batch_norm,
                gint64    num_classes,
                GError  **error)
{
  switch (depth)
    {
    case 11: return gnn_vgg_new (cfg_a, G_N_ELEMENTS (cfg_a), batch_norm, num_classes, error);
    case 13: return gnn_vgg_new (cfg_b, G_N_ELEMENTS (cfg_b), batch_norm, num_classes, error);
    case 16: return gnn_vgg_new (cfg_d, G_N_ELEMENTS (cfg_d), batch_norm, num_classes, error);
    case 19: return gnn_vgg_new (cfg_e, G_N_ELEMENTS (cfg_e), batch_norm, num_classes, error);
    default:
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "VGG: depth must be 11, 13, 16 or 19, got %" G_GINT64_FORMAT, depth);
      return NULL;
    }
}
