/* gnn-mobile-net-v2.c: torchvision's MobileNetV2
 * (torchvision.models.mobilenet_v2)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnMobileNetV2:
 *
 * torchvision's `MobileNetV2(num_classes=1000, width_mult=1.0,
 * round_nearest=8, dropout=0.2)`: `features`, a [class@Gnn.Sequential] of a
 * strided 3×3 convolution + batch norm + ReLU6, seventeen
 * [class@Gnn.InvertedResidual] blocks and a 1×1 convolution + batch norm +
 * ReLU6 to 1280 channels; a global average pooling; `classifier`, dropout
 * and a [class@Gnn.Linear] to [property@Gnn.MobileNetV2:num-classes].
 *
 * Children, parameters and buffers have torchvision's names in its order,
 * so the state dict of `torchvision.models.mobilenet_v2()` loads into it
 * and the outputs agree. The weights start as torchvision's do:
 * convolutions Kaiming-normal (fan-out), batch norms 1 and 0, the
 * classifier normal(0, 0.01), biases 0.
 *
 * Since: 0.1
 */
struct _GnnMobileNetV2
{
  GnnModule  parent_instance;

  gint64     num_classes;
  double     width_mult;
  gint64     round_nearest;
  double     dropout;
};

enum {
  PROP_0,
  PROP_NUM_CLASSES,
  PROP_WIDTH_MULT,
  PROP_ROUND_NEAREST,
  PROP_DROPOUT,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnMobileNetV2, gnn_mobile_net_v2, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_mobile_net_v2_forward (GnnModule  *module,
                           GnnTensor  *input,
                           GError    **error)
{
  static const char *const path[] = { "features", "F.avgpool1", "flatten", "classifier" };

  return gnn_vision_model_run (module, "MobileNetV2", path, G_N_ELEMENTS (path), input, error);
}

/* torchvision's _make_divisible (min_value = divisor) */
static gint64
make_divisible (double  v,
                gint64  divisor)
{
  gint64 new_v = MAX (divisor, (gint64) (v + divisor / 2.0) / divisor * divisor);

  return new_v < 0.9 * v ? new_v + divisor : new_v;
}

/* t (expansion), c (channels), n (blocks), s (first stride) */
static const gint64 setting[][4] = {
  { 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 }, { 6, 96, 3, 1 },
  { 6, 160, 3, 2 }, { 6, 320, 1, 1 },
};

static gboolean
create_children (GnnMobileNetV2  *self,
                 GError         **error)
{
  GnnModule *module = GNN_MODULE (self);
  g_autoptr(GnnSequential) features = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnSequential) classifier = gnn_sequential_new (NULL, 0);
  GnnModule *f = GNN_MODULE (features), *c = GNN_MODULE (classifier);
  gint64 input_channel, last_channel;

  if (!gnn_vision_model_check_classes (self->num_classes, error))
    return FALSE;
  /* (a construct property GObject refused leaves its field 0) */
  if (self->round_nearest < 1 || !(self->width_mult > 0.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "round_nearest must be positive and width_mult above 0, got %" G_GINT64_FORMAT
                   " and %g", self->round_nearest, self->width_mult);
      return FALSE;
    }
  input_channel = make_divisible (32 * self->width_mult, self->round_nearest);
  last_channel = make_divisible (1280 * MAX (1.0, self->width_mult), self->round_nearest);
  if (!gnn_vision_model_append (f, gnn_vision_conv_bn_relu6 (3, input_channel, 3, 2, 1, error),
                                error))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (setting); i++)
    {
      gint64 output_channel = make_divisible (setting[i][1] * self->width_mult,
                                              self->round_nearest);

      for (gint64 b = 0; b < setting[i][2]; b++)
        {
          if (!gnn_vision_model_append (f, gnn_inverted_residual_new (input_channel,
                                        output_channel, b == 0 ? setting[i][3] : 1,
                                        setting[i][0], error), error))
            return FALSE;
          input_channel = output_channel;
        }
    }
  return gnn_vision_model_append (f, gnn_vision_conv_bn_relu6 (input_channel, last_channel, 1, 1,
                                                               1, error), error) &&
         gnn_module_register_module (module, "features", f, error) &&
         gnn_vision_model_append (c, gnn_dropout_new (self->dropout, FALSE, NULL, error), error) &&
         gnn_vision_model_append (c, gnn_linear_new (last_channel, self->num_classes, TRUE, NULL,
                                                     error), error) &&
         gnn_module_register_module (module, "classifier", c, error) &&
         gnn_vision_model_init (module, GNN_VISION_CONV_INIT_KAIMING_NORMAL_FAN_OUT, 0.01, error);
}

static void
gnn_mobile_net_v2_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_mobile_net_v2_parent_class)->constructed (object);
  if (!create_children (GNN_MOBILE_NET_V2 (object), &error))
    gnn_vision_model_construct_failed (object, "MobileNetV2", error);
}

static char *
gnn_mobile_net_v2_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_mobile_net_v2_finalize (GObject *object)
{
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_mobile_net_v2_parent_class)->finalize (object);
}

static void
gnn_mobile_net_v2_class_init (GnnMobileNetV2Class *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_mobile_net_v2_constructed;
  object_class->finalize = gnn_mobile_net_v2_finalize;
  module_class->forward = gnn_mobile_net_v2_forward;
  module_class->extra_repr = gnn_mobile_net_v2_extra_repr;

  /**
   * GnnMobileNetV2:num-classes:
   *
   * The classifier's outputs.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_CLASSES,
    g_param_spec_int64 ("num-classes", NULL, NULL, G_MININT32, G_MAXINT32, 1000, flags),
    G_STRUCT_OFFSET (GnnMobileNetV2, num_classes));
  /**
   * GnnMobileNetV2:width-mult:
   *
   * The multiplier of every layer's channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_WIDTH_MULT,
    g_param_spec_double ("width-mult", NULL, NULL, 0.01, 16.0, 1.0, flags),
    G_STRUCT_OFFSET (GnnMobileNetV2, width_mult));
  /**
   * GnnMobileNetV2:round-nearest:
   *
   * Every layer's channels are rounded to a multiple of this.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_ROUND_NEAREST,
    g_param_spec_int64 ("round-nearest", NULL, NULL, 1, 1024, 8, flags),
    G_STRUCT_OFFSET (GnnMobileNetV2, round_nearest));
  /**
   * GnnMobileNetV2:dropout:
   *
   * The probability of the classifier's dropout layer.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DROPOUT,
    g_param_spec_double ("dropout", NULL, NULL, 0.0, 1.0, 0.2, flags),
    G_STRUCT_OFFSET (GnnMobileNetV2, dropout));
}

static void
gnn_mobile_net_v2_init (GnnMobileNetV2 *self)
{
}

/**
 * gnn_mobile_net_v2_new:
 * @num_classes: the classifier's outputs
 * @width_mult: the multiplier of every layer's channels
 * @error: return location for a #GError
 *
 * Creates torchvision's `MobileNetV2(num_classes, width_mult)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnMobileNetV2 *
gnn_mobile_net_v2_new (gint64    num_classes,
                       double    width_mult,
                       GError  **error)
{
  return gnn_nn_initable_new (GNN_TYPE_MOBILE_NET_V2, error, "num-classes", num_classes,
                              "width-mult", width_mult, NULL);
}

/**
 * gnn_vision_mobilenet_v2:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.mobilenet_v2(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnMobileNetV2 *
gnn_vision_mobilenet_v2 (gint64    num_classes,
                         GError  **error)
{
  return gnn_mobile_net_v2_new (num_classes, 1.0, error);
}
