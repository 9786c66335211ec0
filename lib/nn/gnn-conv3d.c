/* gnn-conv3d.c: 3-d convolution layer (torch.nn.Conv3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-conv-nd-private.h"

/**
 * GnnConv3d:
 *
 * A 3-d convolution over `[N, C_in, D, H, W]` (or unbatched `[C_in, D, H,
 * W]`) inputs, `torch.nn.Conv3d`, computed by
 * [method@Gnn.Tensor.convolution] (im2col over volumes and one GEMM per
 * chunk of the batch). Its parameters and their initialization are
 * described in [class@Gnn.ConvNd]; a non-cubic kernel, stride, padding or
 * dilation is set through the per-axis properties.
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnConv3d, gnn_conv3d, GNN_TYPE_CONV_ND)

static void
gnn_conv3d_class_init (GnnConv3dClass *klass)
{
  /**
   * GnnConv3d:in-channels:
   *
   * The number of input channels (`in_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:out-channels:
   *
   * The number of output channels (`out_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:kernel-d:
   *
   * The kernel depth (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:kernel-h:
   *
   * The kernel height (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:kernel-w:
   *
   * The kernel width (`kernel_size[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:stride-d:
   *
   * The stride along the depth axis (`stride[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:stride-h:
   *
   * The stride along the height axis (`stride[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:stride-w:
   *
   * The stride along the width axis (`stride[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:padding-d:
   *
   * The implicit padding added on both sides of the depth axis
   * (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:padding-h:
   *
   * The implicit padding added on both sides of the height axis
   * (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:padding-w:
   *
   * The implicit padding added on both sides of the width axis
   * (`padding[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:dilation-d:
   *
   * The spacing between kernel taps along the depth axis (`dilation[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:dilation-h:
   *
   * The spacing between kernel taps along the height axis (`dilation[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:dilation-w:
   *
   * The spacing between kernel taps along the width axis (`dilation[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:groups:
   *
   * The number of blocked connections from input to output channels; it
   * divides both channel counts (`groups`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:has-bias:
   *
   * Whether the layer has a learnable `bias` (PyTorch's `bias=True`; the
   * property cannot be called "bias", which names the parameter).
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:padding-mode:
   *
   * How the padding is filled (`padding_mode`): %GNN_PADDING_MODE_CONSTANT
   * is PyTorch's `'zeros'`, the others pad the input with
   * [method@Gnn.Tensor.pad] before convolving.
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:padding-same:
   *
   * Whether to pad so that the output has the size of the input (PyTorch's
   * `padding='same'`, stride 1 only); the padding properties are then
   * ignored.
   *
   * Since: 0.1
   */
  /**
   * GnnConv3d:generator:
   *
   * The generator the initial weights are drawn from, used during
   * construction only (so it is write-only); %NULL means the library's
   * default generator.
   *
   * Since: 0.1
   */
  gnn_conv_nd_class_setup (GNN_CONV_ND_CLASS (klass), 3, FALSE);
}

static void
gnn_conv3d_init (GnnConv3d *self)
{
}

/**
 * gnn_conv3d_new:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_size: the kernel size (cubic) (> 0)
 * @stride: the stride (> 0; PyTorch's default is 1)
 * @padding: the implicit zero padding on both sides (>= 0; PyTorch's default
 *   is 0)
 * @dilation: the spacing between kernel taps (> 0; PyTorch's default is 1)
 * @groups: the number of groups; divides @in_channels and @out_channels
 *   (PyTorch's default is 1)
 * @bias: whether to add a learnable bias (PyTorch's default is %TRUE)
 * @generator: (nullable): the generator for the initial weights, or %NULL
 *   for the library's default one
 * @error: return location for a #GError
 *
 * Creates a convolution layer, `torch.nn.Conv3d(in_channels, out_channels,
 * kernel_size, stride, padding, dilation, groups, bias)` with padding_mode
 * `'zeros'`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, e.g. "in_channels must be divisible by
 *   groups")
 *
 * Since: 0.1
 */
GnnConv3d *
gnn_conv3d_new (gint64       in_channels,
                gint64       out_channels,
                gint64       kernel_size,
                gint64       stride,
                gint64       padding,
                gint64       dilation,
                gint64       groups,
                gboolean     bias,
                GnnGenerator *generator,
                GError       **error)
{
  const gint64 kernel[] = { kernel_size, kernel_size, kernel_size }, strides[] = { stride, stride, stride }, pads[] = { padding, padding, padding };
  const gint64 dilations[] = { dilation, dilation, dilation };

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_conv_nd_new (GNN_TYPE_CONV3D, &(GnnConvNdArgs) {
                            in_channels, out_channels, kernel, strides, pads, NULL, dilations,
                            groups, bias, generator }, error);
}
