/* gnn-conv2d.c: 2-d convolution layer (torch.nn.Conv2d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-conv-nd-private.h"

/**
 * GnnConv2d:
 *
 * A 2-d convolution over `[N, C_in, H, W]` (or unbatched `[C_in, H, W]`)
 * inputs, `torch.nn.Conv2d`, computed by [method@Gnn.Tensor.conv2d]. Its
 * parameters and their initialization are described in
 * [class@Gnn.ConvNd].
 *
 * The configuration is held in construct-only properties, so
 * `g_object_new (GNN_TYPE_CONV2D, "in-channels", 1, "out-channels", 8,
 * "kernel-h", 3, "kernel-w", 3, NULL)` builds the same layer as
 * [ctor@Gnn.Conv2d.new].
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnConv2d, gnn_conv2d, GNN_TYPE_CONV_ND)

static void
gnn_conv2d_class_init (GnnConv2dClass *klass)
{
  /**
   * GnnConv2d:in-channels:
   *
   * The number of input channels (`in_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:out-channels:
   *
   * The number of output channels (`out_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:kernel-h:
   *
   * The kernel height (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:kernel-w:
   *
   * The kernel width (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:stride-h:
   *
   * The vertical stride (`stride[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:stride-w:
   *
   * The horizontal stride (`stride[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:padding-h:
   *
   * The zero padding added on the top and bottom (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:padding-w:
   *
   * The zero padding added on the left and right (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:dilation-h:
   *
   * The vertical spacing between kernel taps (`dilation[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:dilation-w:
   *
   * The horizontal spacing between kernel taps (`dilation[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:groups:
   *
   * The number of blocked connections from input to output channels; it
   * divides both channel counts (`groups`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:has-bias:
   *
   * Whether the layer has a learnable `bias` (PyTorch's `bias=True`; the
   * property cannot be called "bias", which names the parameter).
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:padding-mode:
   *
   * How the padding is filled (`padding_mode`): %GNN_PADDING_MODE_CONSTANT
   * is PyTorch's `'zeros'`, the others pad the input with
   * [method@Gnn.Tensor.pad] before convolving.
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:padding-same:
   *
   * Whether to pad so that the output has the size of the input (PyTorch's
   * `padding='same'`, stride 1 only); the padding properties are then
   * ignored.
   *
   * Since: 0.1
   */
  /**
   * GnnConv2d:generator:
   *
   * The generator the initial weights are drawn from, used during
   * construction only (so it is write-only); %NULL means the library's
   * default generator.
   *
   * Since: 0.1
   */
  gnn_conv_nd_class_setup (GNN_CONV_ND_CLASS (klass), 2, FALSE);
}

static void
gnn_conv2d_init (GnnConv2d *self)
{
}

/**
 * gnn_conv2d_new:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_size: the (square) kernel size (> 0)
 * @stride: the stride on both axes (> 0; PyTorch's default is 1)
 * @padding: the zero padding on both axes (>= 0; PyTorch's default is 0)
 * @bias: whether to add a learnable bias (PyTorch's default is %TRUE)
 * @error: return location for a #GError
 *
 * Creates a convolution layer, `torch.nn.Conv2d(in_channels, out_channels,
 * kernel_size, stride, padding, bias=bias)`, initialized from the library's
 * default generator. See [ctor@Gnn.Conv2d.new_full] for per-axis values,
 * dilation and groups.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT) if a size is out of range
 *
 * Since: 0.1
 */
GnnConv2d *
gnn_conv2d_new (gint64    in_channels,
                gint64    out_channels,
                gint64    kernel_size,
                gint64    stride,
                gint64    padding,
                gboolean  bias,
                GError  **error)
{
  return gnn_conv2d_new_full (in_channels, out_channels, kernel_size, kernel_size,
                              stride, stride, padding, padding, 1, 1, 1, bias, NULL, error);
}

/**
 * gnn_conv2d_new_full:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_h: the kernel height (> 0)
 * @kernel_w: the kernel width (> 0)
 * @stride_h: the vertical stride (> 0)
 * @stride_w: the horizontal stride (> 0)
 * @padding_h: the zero padding on the top and bottom (>= 0)
 * @padding_w: the zero padding on the left and right (>= 0)
 * @dilation_h: the vertical spacing between kernel taps (> 0)
 * @dilation_w: the horizontal spacing between kernel taps (> 0)
 * @groups: the number of groups; divides @in_channels and @out_channels
 * @bias: whether to add a learnable bias
 * @generator: (nullable): the generator for the initial weights, or %NULL
 *   for the library's default one
 * @error: return location for a #GError
 *
 * Creates a convolution layer with every option of `torch.nn.Conv2d` but
 * padding_mode, which is `'zeros'` (the [property@Gnn.Conv2d:padding-mode]
 * property sets another).
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, e.g. "in_channels must be divisible by
 *   groups")
 *
 * Since: 0.1
 */
GnnConv2d *
gnn_conv2d_new_full (gint64        in_channels,
                     gint64        out_channels,
                     gint64        kernel_h,
                     gint64        kernel_w,
                     gint64        stride_h,
                     gint64        stride_w,
                     gint64        padding_h,
                     gint64        padding_w,
                     gint64        dilation_h,
                     gint64        dilation_w,
                     gint64        groups,
                     gboolean      bias,
                     GnnGenerator *generator,
                     GError      **error)
{
  const gint64 kernel[] = { kernel_h, kernel_w }, strides[] = { stride_h, stride_w };
  const gint64 pads[] = { padding_h, padding_w }, dilations[] = { dilation_h, dilation_w };

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_conv_nd_new (GNN_TYPE_CONV2D, &(GnnConvNdArgs) {
                            in_channels, out_channels, kernel, strides, pads, NULL, dilations,
                            groups, bias, generator }, error);
}
