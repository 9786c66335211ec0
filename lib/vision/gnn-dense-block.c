/* gnn-dense-block.c: DenseNet's dense block and its layers
 * (torchvision.models.densenet._DenseBlock, _DenseLayer)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnDenseLayer:
 *
 * torchvision's `_DenseLayer(num_input_features, growth_rate, bn_size,
 * drop_rate)`: batch norm, ReLU, a 1×1 convolution to `bn_size ×
 * growth_rate` channels, batch norm, ReLU and a 3×3 convolution to
 * `growth_rate` channels (`norm1`, `relu1`, `conv1`, `norm2`, `relu2`,
 * `conv2`), then dropout in training when `drop_rate` > 0. Its input is
 * the concatenation of the block's input and the outputs of the layers
 * before it, which [class@Gnn.DenseBlock] passes already concatenated.
 *
 * Since: 0.1
 */
struct _GnnDenseLayer
{
  GnnModule  parent_instance;

  gint64     num_input_features;
  gint64     growth_rate;
  gint64     bn_size;
  double     drop_rate;
};

enum {
  LAYER_PROP_0,
  LAYER_PROP_NUM_INPUT_FEATURES,
  LAYER_PROP_GROWTH_RATE,
  LAYER_PROP_BN_SIZE,
  LAYER_PROP_DROP_RATE,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnDenseLayer, gnn_dense_layer, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_dense_layer_forward (GnnModule  *module,
                         GnnTensor  *input,
                         GError    **error)
{
  GnnDenseLayer *self = GNN_DENSE_LAYER (module);
  static const char *const path[] = { "norm1", "relu1", "conv1", "norm2", "relu2", "conv2" };
  g_autoptr(GnnTensor) out = gnn_vision_model_run (module, "_DenseLayer", path,
                                                   G_N_ELEMENTS (path), input, error);

  if (out == NULL || self->drop_rate <= 0.0)
    return g_steal_pointer (&out);
  return gnn_dropout (out, self->drop_rate, gnn_module_get_training (module), FALSE, NULL, error);
}

static gboolean
create_layer_children (GnnDenseLayer  *self,
                       GError        **error)
{
  GnnModule *m = GNN_MODULE (self);
  gint64 hidden = self->bn_size * self->growth_rate;

  return gnn_vision_model_add (m, "norm1", gnn_vision_model_bn (self->num_input_features, error),
                               error) &&
         gnn_vision_model_add (m, "relu1", gnn_relu_new (TRUE), error) &&
         gnn_vision_model_add (m, "conv1", gnn_vision_model_conv (self->num_input_features,
                               hidden, 1, 1, 0, 1, FALSE, error), error) &&
         gnn_vision_model_add (m, "norm2", gnn_vision_model_bn (hidden, error), error) &&
         gnn_vision_model_add (m, "relu2", gnn_relu_new (TRUE), error) &&
         gnn_vision_model_add (m, "conv2", gnn_vision_model_conv (hidden, self->growth_rate, 3, 1,
                               1, 1, FALSE, error), error);
}

static void
gnn_dense_layer_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_dense_layer_parent_class)->constructed (object);
  if (!create_layer_children (GNN_DENSE_LAYER (object), &error))
    gnn_vision_model_construct_failed (object, "_DenseLayer", error);
}

static char *
gnn_dense_layer_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

/* the settings DenseLayer and DenseBlock share */
static void
install_settings (GObjectClass *object_class,
                  guint         first_id,
                  gssize        growth_offset,
                  gssize        bn_size_offset,
                  gssize        drop_rate_offset)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  gnn_vision_class_install_property (object_class, first_id,
    g_param_spec_int64 ("growth-rate", NULL, NULL, 1, 65536, 32, flags), growth_offset);
  gnn_vision_class_install_property (object_class, first_id + 1,
    g_param_spec_int64 ("bn-size", NULL, NULL, 1, 1024, 4, flags), bn_size_offset);
  gnn_vision_class_install_property (object_class, first_id + 2,
    g_param_spec_double ("drop-rate", NULL, NULL, 0.0, 1.0, 0.0, flags), drop_rate_offset);
}

static void
gnn_dense_layer_class_init (GnnDenseLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_dense_layer_constructed;
  module_class->forward = gnn_dense_layer_forward;
  module_class->extra_repr = gnn_dense_layer_extra_repr;

  /**
   * GnnDenseLayer:num-input-features:
   *
   * The input channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, LAYER_PROP_NUM_INPUT_FEATURES,
    g_param_spec_int64 ("num-input-features", NULL, NULL, 1, G_MAXINT32, 64, flags),
    G_STRUCT_OFFSET (GnnDenseLayer, num_input_features));
  /**
   * GnnDenseLayer:growth-rate:
   *
   * The output channels.
   *
   * Since: 0.1
   */
  /**
   * GnnDenseLayer:bn-size:
   *
   * The bottleneck's channels are `bn_size × growth_rate`.
   *
   * Since: 0.1
   */
  /**
   * GnnDenseLayer:drop-rate:
   *
   * The dropout probability of the output (in training).
   *
   * Since: 0.1
   */
  install_settings (object_class, LAYER_PROP_GROWTH_RATE,
                    G_STRUCT_OFFSET (GnnDenseLayer, growth_rate),
                    G_STRUCT_OFFSET (GnnDenseLayer, bn_size),
                    G_STRUCT_OFFSET (GnnDenseLayer, drop_rate));
}

static void
gnn_dense_layer_init (GnnDenseLayer *self)
{
}

/**
 * GnnDenseBlock:
 *
 * torchvision's `_DenseBlock(num_layers, num_input_features, bn_size,
 * growth_rate, drop_rate)`: [class@Gnn.DenseLayer] children
 * `denselayer1` … `denselayerN`, each given the concatenation of the
 * block's input and every earlier layer's output; the block returns the
 * concatenation of all of them.
 *
 * Since: 0.1
 */
struct _GnnDenseBlock
{
  GnnModule  parent_instance;

  gint64     num_layers;
  gint64     num_input_features;
  gint64     growth_rate;
  gint64     bn_size;
  double     drop_rate;
};

enum {
  BLOCK_PROP_0,
  BLOCK_PROP_NUM_LAYERS,
  BLOCK_PROP_NUM_INPUT_FEATURES,
  BLOCK_PROP_GROWTH_RATE,
  BLOCK_PROP_BN_SIZE,
  BLOCK_PROP_DROP_RATE,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnDenseBlock, gnn_dense_block, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_dense_block_forward (GnnModule  *module,
                         GnnTensor  *input,
                         GError    **error)
{
  GnnDenseBlock *self = GNN_DENSE_BLOCK (module);
  g_autoptr(GPtrArray) features = g_ptr_array_new_with_free_func (g_object_unref);

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  g_ptr_array_add (features, g_object_ref (input));
  for (gint64 i = 0; i < self->num_layers; i++)
    {
      g_autofree char *name = g_strdup_printf ("denselayer%" G_GINT64_FORMAT, i + 1);
      const char *path[] = { name };
      g_autoptr(GnnTensor) concated = features->len == 1 ? g_object_ref (input) :
        gnn_tensor_cat ((GnnTensor **) features->pdata, features->len, 1, error);
      GnnTensor *out;

      if (concated == NULL)
        return NULL;
      out = gnn_vision_model_run (module, "_DenseBlock", path, 1, concated, error);
      if (out == NULL)
        return NULL;
      g_ptr_array_add (features, out);
    }
  return gnn_tensor_cat ((GnnTensor **) features->pdata, features->len, 1, error);
}

static gboolean
create_block_children (GnnDenseBlock  *self,
                       GError        **error)
{
  for (gint64 i = 0; i < self->num_layers; i++)
    {
      g_autofree char *name = g_strdup_printf ("denselayer%" G_GINT64_FORMAT, i + 1);

      if (!gnn_vision_model_add (GNN_MODULE (self), name,
                                 gnn_nn_initable_new (GNN_TYPE_DENSE_LAYER, error,
                                                      "num-input-features",
                                                      self->num_input_features +
                                                      i * self->growth_rate,
                                                      "growth-rate", self->growth_rate,
                                                      "bn-size", self->bn_size,
                                                      "drop-rate", self->drop_rate, NULL),
                                 error))
        return FALSE;
    }
  return TRUE;
}

static void
gnn_dense_block_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_dense_block_parent_class)->constructed (object);
  if (!create_block_children (GNN_DENSE_BLOCK (object), &error))
    gnn_vision_model_construct_failed (object, "_DenseBlock", error);
}

static void
gnn_dense_block_class_init (GnnDenseBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_dense_block_constructed;
  module_class->forward = gnn_dense_block_forward;
  module_class->extra_repr = gnn_dense_layer_extra_repr;

  /**
   * GnnDenseBlock:num-layers:
   *
   * The number of [class@Gnn.DenseLayer]s.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, BLOCK_PROP_NUM_LAYERS,
    g_param_spec_int64 ("num-layers", NULL, NULL, 0, 4096, 6, flags),
    G_STRUCT_OFFSET (GnnDenseBlock, num_layers));
  /**
   * GnnDenseBlock:num-input-features:
   *
   * The input channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, BLOCK_PROP_NUM_INPUT_FEATURES,
    g_param_spec_int64 ("num-input-features", NULL, NULL, 1, G_MAXINT32, 64, flags),
    G_STRUCT_OFFSET (GnnDenseBlock, num_input_features));
  /**
   * GnnDenseBlock:growth-rate:
   *
   * The output channels of each layer.
   *
   * Since: 0.1
   */
  /**
   * GnnDenseBlock:bn-size:
   *
   * The bottleneck's channels of each layer are `bn_size × growth_rate`.
   *
   * Since: 0.1
   */
  /**
   * GnnDenseBlock:drop-rate:
   *
   * The dropout probability of each layer's output (in training).
   *
   * Since: 0.1
   */
  install_settings (object_class, BLOCK_PROP_GROWTH_RATE,
                    G_STRUCT_OFFSET (GnnDenseBlock, growth_rate),
                    G_STRUCT_OFFSET (GnnDenseBlock, bn_size),
                    G_STRUCT_OFFSET (GnnDenseBlock, drop_rate));
}

static void
gnn_dense_block_init (GnnDenseBlock *self)
{
}

/**
 * gnn_dense_block_new:
 * @num_layers: the number of layers
 * @num_input_features: the input channels
 * @bn_size: the bottleneck factor
 * @growth_rate: the output channels of each layer
 * @drop_rate: the dropout probability of each layer's output
 * @error: return location for a #GError
 *
 * Creates torchvision's `_DenseBlock(num_layers, num_input_features,
 * bn_size, growth_rate, drop_rate)`.
 *
 * Returns: (transfer full): the block, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnDenseBlock *
gnn_dense_block_new (gint64    num_layers,
                     gint64    num_input_features,
                     gint64    bn_size,
                     gint64    growth_rate,
                     double    drop_rate,
                     GError  **error)
{
  return gnn_nn_initable_new (GNN_TYPE_DENSE_BLOCK, error, "num-layers", num_layers,
                              "num-input-features", num_input_features, "bn-size", bn_size,
                              "growth-rate", growth_rate, "drop-rate", drop_rate, NULL);
}
