/* gnn-inverted-residual.c: MobileNetV2's block
 * (torchvision.models.mobilenetv2.InvertedResidual)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "vision/gnn-vision-model-private.h"
#include "vision/gnn-vision-private.h"

/**
 * GnnInvertedResidual:
 *
 * torchvision's `InvertedResidual(inp, oup, stride, expand_ratio)`, the
 * block of [class@Gnn.MobileNetV2]: `conv`, a [class@Gnn.Sequential] of a
 * 1×1 expansion to `inp × expand_ratio` channels (left out when the ratio
 * is 1), a 3×3 depthwise convolution — each a convolution, batch norm and
 * ReLU6 (torchvision's `Conv2dNormActivation`, here a Sequential with the
 * same children) — and a 1×1 projection with its batch norm; the input is
 * added back when the stride is 1 and `inp == oup`.
 *
 * Since: 0.1
 */
struct _GnnInvertedResidual
{
  GnnModule  parent_instance;

  gint64     inp;
  gint64     oup;
  gint64     stride;
  gint64     expand_ratio;
};

enum {
  PROP_0,
  PROP_INP,
  PROP_OUP,
  PROP_STRIDE,
  PROP_EXPAND_RATIO,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnInvertedResidual, gnn_inverted_residual, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static GnnTensor *
gnn_inverted_residual_forward (GnnModule  *module,
                               GnnTensor  *input,
                               GError    **error)
{
  GnnInvertedResidual *self = GNN_INVERTED_RESIDUAL (module);
  static const char *const path[] = { "conv" };
  g_autoptr(GnnTensor) out = gnn_vision_model_run (module, "InvertedResidual", path, 1, input,
                                                   error);

  if (out == NULL || self->stride != 1 || self->inp != self->oup)
    return g_steal_pointer (&out);
  return gnn_tensor_add (input, out, error);   /* x + self.conv(x) */
}

/* torchvision's Conv2dNormActivation(in, out, kernel, stride, groups,
 * activation_layer=ReLU6): a bias-free convolution padded (kernel - 1) / 2,
 * a batch norm and ReLU6, children "0", "1", "2" */
GnnModule *
gnn_vision_conv_bn_relu6 (gint64    in,
                          gint64    out,
                          gint64    kernel,
                          gint64    stride,
                          gint64    groups,
                          GError  **error)
{
  g_autoptr(GnnSequential) seq = gnn_sequential_new (NULL, 0);
  GnnModule *s = GNN_MODULE (seq);

  if (!gnn_vision_model_append (s, gnn_vision_model_conv (in, out, kernel, stride,
                                                          (kernel - 1) / 2, groups, FALSE,
                                                          error), error) ||
      !gnn_vision_model_append (s, gnn_vision_model_bn (out, error), error) ||
      !gnn_vision_model_append (s, gnn_relu6_new (TRUE), error))
    return NULL;
  return GNN_MODULE (g_steal_pointer (&seq));
}

static gboolean
create_children (GnnInvertedResidual  *self,
                 GError              **error)
{
  g_autoptr(GnnSequential) conv = gnn_sequential_new (NULL, 0);
  GnnModule *c = GNN_MODULE (conv);
  gint64 hidden = self->inp * self->expand_ratio;   /* int(round(inp * expand_ratio)) */

  if (self->stride != 1 && self->stride != 2)
    {
      /* torchvision's message */
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "stride should be 1 or 2 instead of %" G_GINT64_FORMAT, self->stride);
      return FALSE;
    }
  if (self->expand_ratio != 1 &&
      !gnn_vision_model_append (c, gnn_vision_conv_bn_relu6 (self->inp, hidden, 1, 1, 1, error),
                                error))
    return FALSE;
  return gnn_vision_model_append (c, gnn_vision_conv_bn_relu6 (hidden, hidden, 3, self->stride,
                                                               hidden, error), error) &&
         gnn_vision_model_append (c, gnn_vision_model_conv (hidden, self->oup, 1, 1, 0, 1, FALSE,
                                                            error), error) &&
         gnn_vision_model_append (c, gnn_vision_model_bn (self->oup, error), error) &&
         gnn_module_register_module (GNN_MODULE (self), "conv", c, error);
}

static void
gnn_inverted_residual_constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_inverted_residual_parent_class)->constructed (object);
  if (!create_children (GNN_INVERTED_RESIDUAL (object), &error))
    gnn_vision_model_construct_failed (object, "InvertedResidual", error);
}

static char *
gnn_inverted_residual_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_inverted_residual_class_init (GnnInvertedResidualClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = gnn_inverted_residual_constructed;
  module_class->forward = gnn_inverted_residual_forward;
  module_class->extra_repr = gnn_inverted_residual_extra_repr;

  /**
   * GnnInvertedResidual:inp:
   *
   * The input channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_INP,
    g_param_spec_int64 ("inp", NULL, NULL, 1, G_MAXINT32, 32, flags),
    G_STRUCT_OFFSET (GnnInvertedResidual, inp));
  /**
   * GnnInvertedResidual:oup:
   *
   * The output channels.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_OUP,
    g_param_spec_int64 ("oup", NULL, NULL, 1, G_MAXINT32, 16, flags),
    G_STRUCT_OFFSET (GnnInvertedResidual, oup));
  /**
   * GnnInvertedResidual:stride:
   *
   * The stride of the depthwise convolution: 1 or 2.
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_STRIDE,
    g_param_spec_int64 ("stride", NULL, NULL, G_MININT32, G_MAXINT32, 1, flags),
    G_STRUCT_OFFSET (GnnInvertedResidual, stride));
  /**
   * GnnInvertedResidual:expand-ratio:
   *
   * The expansion of the hidden layer (`inp × expand_ratio` channels).
   *
   * Since: 0.1
   */
  gnn_vision_class_install_property (object_class, PROP_EXPAND_RATIO,
    g_param_spec_int64 ("expand-ratio", NULL, NULL, 1, 1024, 1, flags),
    G_STRUCT_OFFSET (GnnInvertedResidual, expand_ratio));
}

static void
gnn_inverted_residual_init (GnnInvertedResidual *self)
{
}

/**
 * gnn_inverted_residual_new:
 * @inp: the input channels
 * @oup: the output channels
 * @stride: 1 or 2
 * @expand_ratio: the expansion of the hidden layer
 * @error: return location for a #GError
 *
 * Creates torchvision's `InvertedResidual(inp, oup, stride, expand_ratio)`.
 *
 * Returns: (transfer full): the block, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnInvertedResidual *
gnn_inverted_residual_new (gint64    inp,
                           gint64    oup,
                           gint64    stride,
                           gint64    expand_ratio,
                           GError  **error)
{
  return gnn_nn_initable_new (GNN_TYPE_INVERTED_RESIDUAL, error, "inp", inp, "oup", oup,
                              "stride", stride, "expand-ratio", expand_ratio, NULL);
}
