/* gnn-bottleneck.c: ResNet's bottleneck residual block
 * (torchvision.models.resnet.Bottleneck)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-residual-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnBottleneck:
 *
 * The residual block of ResNet-50 and deeper, like torchvision's
 * `Bottleneck(inplanes, planes, stride, downsample)`: a 1×1 convolution down
 * to `planes` channels, a 3×3 one (carrying the stride), a 1×1 one up to
 * `4 · planes`, each with batch normalization, the input added back before
 * the last ReLU.
 *
 * Its children have torchvision's names and order — `conv1`, `bn1`,
 * `conv2`, `bn2`, `conv3`, `bn3`, `relu` and, with
 * [property@Gnn.Bottleneck:has-downsample], `downsample` (a strided 1×1
 * convolution to `4 · planes` channels and a batch norm) — so torchvision's
 * state dicts load. Built entirely from its properties.
 *
 * Since: 0.1
 */
struct _GnnBottleneck
{
  GnnModule parent_instance;

  gint64    inplanes;
  gint64    planes;
  gint64    stride;
  gboolean  downsample;
};

enum {
  PROP_0,
  PROP_INPLANES,
  PROP_PLANES,
  PROP_STRIDE,
  PROP_DOWNSAMPLE,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnBottleneck, gnn_bottleneck, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

/* torchvision's Bottleneck.expansion */
#define EXPANSION 4

static GnnTensor *
gnn_bottleneck_forward (GnnModule  *module,
                        GnnTensor  *input,
                        GError    **error)
{
  static const char *const main_path[] = {
    "conv1", "bn1", "relu", "conv2", "bn2", "relu", "conv3", "bn3"
  };

  if (!gnn_nn_check_constructed (module, error))
    return NULL;
  return gnn_residual_forward (module, "Bottleneck", main_path, G_N_ELEMENTS (main_path), input,
                               error);
}

static gboolean
create_children (GnnBottleneck  *self,
                 GError        **error)
{
  GnnModule *module = GNN_MODULE (self);
  g_autoptr(GnnReLU) relu = gnn_relu_new (TRUE);
  gint64 out = self->planes * EXPANSION;

  return gnn_residual_add_conv_bn (module, "conv1", "bn1", self->inplanes, self->planes, 1, 1,
                                   error) &&
         gnn_residual_add_conv_bn (module, "conv2", "bn2", self->planes, self->planes, 3,
                                   self->stride, error) &&
         gnn_residual_add_conv_bn (module, "conv3", "bn3", self->planes, out, 1, 1, error) &&
         gnn_module_register_module (module, "relu", GNN_MODULE (relu), error) &&
         (!self->downsample ||
          gnn_residual_add_downsample (module, self->inplanes, out, self->stride, error));
}

static void
gnn_bottleneck_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_bottleneck_parent_class)->constructed (object);
  if (!create_children (GNN_BOTTLENECK (object), &error))
    {
      g_prefix_error (&error, "Bottleneck: ");
      gnn_nn_set_construct_error (object, error);
    }
}

static void
gnn_bottleneck_class_init (GnnBottleneckClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_bottleneck_constructed;
  module_class->forward = gnn_bottleneck_forward;

  /**
   * GnnBottleneck:inplanes:
   *
   * The input's channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INPLANES,
    g_param_spec_int64 ("inplanes", NULL, NULL, 1, G_MAXINT32, 64, flags),
    G_STRUCT_OFFSET (GnnBottleneck, inplanes));
  /**
   * GnnBottleneck:planes:
   *
   * The channels inside the block (the output has 4 × planes).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_PLANES,
    g_param_spec_int64 ("planes", NULL, NULL, 1, G_MAXINT32 / EXPANSION, 64, flags),
    G_STRUCT_OFFSET (GnnBottleneck, planes));
  /**
   * GnnBottleneck:stride:
   *
   * The stride of the 3×3 convolution (and of the downsampling one).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_STRIDE,
    g_param_spec_int64 ("stride", NULL, NULL, 1, G_MAXINT32, 1, flags),
    G_STRUCT_OFFSET (GnnBottleneck, stride));
  /**
   * GnnBottleneck:has-downsample:
   *
   * Whether the identity goes through a strided 1×1 convolution and a batch
   * norm (torchvision's `downsample`, needed when the stride is not 1 or
   * the channels change).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_DOWNSAMPLE,
    g_param_spec_boolean ("has-downsample", NULL, NULL, FALSE, flags),
    G_STRUCT_OFFSET (GnnBottleneck, downsample));
}

static void
gnn_bottleneck_init (GnnBottleneck *self)
{
}

/**
 * gnn_bottleneck_new:
 * @inplanes: the input's channels
 * @planes: the channels inside the block (the output has 4 × @planes)
 * @stride: the stride of the 3×3 convolution
 * @downsample: whether the identity is downsampled (a 1×1 convolution of
 *   stride @stride and a batch norm)
 * @error: return location for a #GError
 *
 * Creates torchvision's `Bottleneck(inplanes, planes, stride, downsample)`.
 *
 * Returns: (transfer full): the block, or %NULL when its layers cannot be
 *   built (sizes out of range, out of memory)
 *
 * Since: 0.1
 */
GnnBottleneck *
gnn_bottleneck_new (gint64     inplanes,
                    gint64     planes,
                    gint64     stride,
                    gboolean   downsample,
                    GError   **error)
{
  if (inplanes < 1 || planes < 1 || stride < 1 || inplanes > G_MAXINT32 ||
      planes > G_MAXINT32 / EXPANSION || stride > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Bottleneck: inplanes and stride must be between 1 and 2^31 - 1, planes "
                   "between 1 and 2^29 - 1");
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_BOTTLENECK, error, "inplanes", inplanes, "planes", planes,
                              "stride", stride, "has-downsample", downsample, NULL);
}
