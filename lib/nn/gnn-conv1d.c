/* gnn-conv1d.c: 1-d convolution layer (torch.nn.Conv1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-conv-nd-private.h"

/**
 * GnnConv1d:
 *
 * A 1-d convolution over `[N, C_in, L]` (or unbatched `[C_in, L]`) inputs,
 * `torch.nn.Conv1d`, computed by [method@Gnn.Tensor.convolution]. Its
 * parameters and their initialization are described in [class@Gnn.ConvNd].
 *
 * `g_object_new (GNN_TYPE_CONV1D, "in-channels", 4, "out-channels", 8,
 * "kernel-size", 3, NULL)` builds the same layer as [ctor@Gnn.Conv1d.new].
 *
 * Since: 0.1
 */
G_DEFINE_TYPE (GnnConv1d, gnn_conv1d, GNN_TYPE_CONV_ND)

static void
gnn_conv1d_class_init (GnnConv1dClass *klass)
{
  /**
   * GnnConv1d:in-channels:
   *
   * The number of input channels (`in_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:out-channels:
   *
   * The number of output channels (`out_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:kernel-size:
   *
   * The kernel size (`kernel_size`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:stride:
   *
   * The stride (`stride`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:padding:
   *
   * The implicit padding added on both sides (`padding`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:dilation:
   *
   * The spacing between kernel taps (`dilation`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:groups:
   *
   * The number of blocked connections from input to output channels; it
   * divides both channel counts (`groups`).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:has-bias:
   *
   * Whether the layer has a learnable `bias` (PyTorch's `bias=True`; the
   * property cannot be called "bias", which names the parameter).
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:padding-mode:
   *
   * How the padding is filled (`padding_mode`): %GNN_PADDING_MODE_CONSTANT
   * is PyTorch's `'zeros'`, the others pad the input with
   * [method@Gnn.Tensor.pad] before convolving.
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:padding-same:
   *
   * Whether to pad so that the output has the size of the input (PyTorch's
   * `padding='same'`, stride 1 only); the padding properties are then
   * ignored.
   *
   * Since: 0.1
   */
  /**
   * GnnConv1d:generator:
   *
   * The generator the initial weights are drawn from, used during
   * construction only (so it is write-only); %NULL means the library's
   * default generator.
   *
   * Since: 0.1
   */
  gnn_conv_nd_class_setup (GNN_CONV_ND_CLASS (klass), 1, FALSE);
}

static void
gnn_conv1d_init (GnnConv1d *self)
{
}

/**
 * gnn_conv1d_new:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_size: the kernel size (> 0)
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
 * Creates a convolution layer, `torch.nn.Conv1d(in_channels, out_channels,
 * kernel_size, stride, padding, dilation, groups, bias)` with padding_mode
 * `'zeros'`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, e.g. "in_channels must be divisible by
 *   groups")
 *
 * Since: 0.1
 */
GnnConv1d *
gnn_conv1d_new (gint64       in_channels,
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
  const gint64 kernel[] = { kernel_size }, strides[] = { stride }, pads[] = { padding };
  const gint64 dilations[] = { dilation };

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_conv_nd_new (GNN_TYPE_CONV1D, &(GnnConvNdArgs) {
                            in_channels, out_channels, kernel, strides, pads, NULL, dilations,
                            groups, bias, generator }, error);
}
