/* gnn-alex-net.c: torchvision's AlexNet (torchvision.models.alexnet)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnAlexNet:
 *
 * torchvision's `AlexNet(num_classes=1000, dropout=0.5)`: `features`, a
 * [class@Gnn.Sequential] of five convolutions (11×11 stride 4, 5×5, then
 * three 3×3) with ReLUs and three 3×3 stride-2 max poolings; `avgpool`, a
 * 6×6 [class@Gnn.AdaptiveAvgPool2d]; and `classifier`, dropout and three
 * linear layers of 4096, 4096 and [property@Gnn.AlexNet:num-classes]
 * outputs.
 *
 * Children, parameters and buffers have torchvision's names in its order,
 * so the state dict of `torchvision.models.alexnet()` loads into it and
 * the outputs agree. The layers keep their own initialization, as
 * torchvision's do.
 *
 * Since: 0.1
 */
struct _GnnAlexNet
{
  GnnModule  parent_instance;

  gint64     num_classes;
  double     dropout;
};

enum {
  PROP_0,
  PROP_NUM_CLASSES,
  PROP_DROPOUT,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnAlexNet, gnn_alex_net, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_alex_net_forward (GnnModule  *module,
                      GnnTensor  *input,
                      GError    **error)
{
  static const char *const path[] = { "features", "avgpool", "flatten", "classifier" };

  return gnn_vision_model_run (module, "AlexNet", path, G_N_ELEMENTS (path), input, error);
}

static gboolean
append_conv_relu (GnnModule  *seq,
                  gint64      in,
                  gint64      out,
                  gint64      kernel,
                  gint64      stride,
                  gint64      padding,
                  GError    **error)
{
  return gnn_vision_model_append (seq, gnn_vision_model_conv (in, out, kernel, stride, padding, 1,
                                                              TRUE, error), error) &&
         gnn_vision_model_append (seq, gnn_relu_new (TRUE), error);
}

static gboolean
create_children (GnnAlexNet  *self,
                 GError     **error)
{
  GnnModule *module = GNN_MODULE (self);
  g_autoptr(GnnSequential) features = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnSequential) classifier = gnn_sequential_new (NULL, 0);
  GnnModule *f = GNN_MODULE (features), *c = GNN_MODULE (classifier);

  if (!gnn_vision_model_check_classes (self->num_classes, error) ||
      !append_conv_relu (f, 3, 64, 11, 4, 2, error) ||
      !gnn_vision_model_append (f, gnn_max_pool2d_new (3, 2, 0, 1, FALSE, error), error) ||
      !append_conv_relu (f, 64, 192, 5, 1, 2, error) ||
      !gnn_vision_model_append (f, gnn_max_pool2d_new (3, 2, 0, 1, FALSE, error), error) ||
      !append_conv_relu (f, 192, 384, 3, 1, 1, error) ||
      !append_conv_relu (f, 384, 256, 3, 1, 1, error) ||
      !append_conv_relu (f, 256, 256, 3, 1, 1, error) ||
      !gnn_vision_model_append (f, gnn_max_pool2d_new (3, 2, 0, 1, FALSE, error), error) ||
      !gnn_module_register_module (module, "features", f, error) ||
      !gnn_vision_model_add (module, "avgpool", gnn_adaptive_avg_pool2d_new (6, 6, error), error))
    return FALSE;
  return gnn_vision_model_append (c, gnn_dropout_new (self->dropout, FALSE, NULL, error), error) &&
         gnn_vision_model_append (c, gnn_linear_new (256 * 6 * 6, 4096, TRUE, NULL, error), error) &&
         gnn_vision_model_append (c, gnn_relu_new (TRUE), error) &&
         gnn_vision_model_append (c, gnn_dropout_new (self->dropout, FALSE, NULL, error), error) &&
         gnn_vision_model_append (c, gnn_linear_new (4096, 4096, TRUE, NULL, error), error) &&
         gnn_vision_model_append (c, gnn_relu_new (TRUE), error) &&
         gnn_vision_model_append (c, gnn_linear_new (4096, self->num_classes, TRUE, NULL, error),
                                  error) &&
         gnn_module_register_module (module, "classifier", c, error);
}

static void
gnn_alex_net_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_alex_net_parent_class)->constructed (object);
  if (!create_children (GNN_ALEX_NET (object), &error))
    gnn_vision_model_construct_failed (object, "AlexNet", error);
}

static char *
gnn_alex_net_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_alex_net_finalize (GObject *object)
{
  gnn_vision_props_clear (object);
  G_OBJECT_CLASS (gnn_alex_net_parent_class)->finalize (object);
}

static void
gnn_alex_net_class_init (GnnAlexNetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_alex_net_constructed;
  object_class->finalize = gnn_alex_net_finalize;
  module_class->forward = gnn_alex_net_forward;
  module_class->extra_repr = gnn_alex_net_extra_repr;

  /**
   * GnnAlexNet:num-classes:
   *
   * The classifier's outputs.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_NUM_CLASSES,
    g_param_spec_int64 ("num-classes", NULL, NULL, G_MININT32, G_MAXINT32, 1000, flags),
    G_STRUCT_OFFSET (GnnAlexNet, num_classes));
  /**
   * GnnAlexNet:dropout:
   *
   * The probability of the classifier's two dropout layers.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DROPOUT,
    g_param_spec_double ("dropout", NULL, NULL, 0.0, 1.0, 0.5, flags),
    G_STRUCT_OFFSET (GnnAlexNet, dropout));
}

static void
gnn_alex_net_init (GnnAlexNet *self)
{
}

/**
 * gnn_alex_net_new:
 * @num_classes: the classifier's outputs
 * @dropout: the probability of the classifier's dropout layers
 * @error: return location for a #GError
 *
 * Creates torchvision's `AlexNet(num_classes, dropout)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnAlexNet *
gnn_alex_net_new (gint64    num_classes,
                  double    dropout,
                  GError  **error)
{
  return gnn_nn_initable_new (GNN_TYPE_ALEX_NET, error, "num-classes", num_classes,
                              "dropout", dropout, NULL);
}

/**
 * gnn_vision_alexnet:
 * @num_classes: the classifier's outputs (torchvision's default: 1000)
 * @error: return location for a #GError
 *
 * `torchvision.models.alexnet(weights=None, num_classes=num_classes)`.
 *
 * Returns: (transfer full): the network, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnAlexNet *
gnn_vision_alexnet (gint64    num_classes,
                    GError  **error)
{
  return gnn_alex_net_new (num_classes, 0.5, error);
}
