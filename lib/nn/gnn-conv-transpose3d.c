/* gnn-conv-transpose3d.c: 3-d transposed convolution layer (torch.nn.ConvTranspose3d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-conv-nd-private.h"

/**
 * GnnConvTranspose3d:
 *
 * A 3-d transposed convolution over `[N, C_in, D, H, W]` (or unbatched
 * `[C_in, D, H, W]`) inputs, `torch.nn.ConvTranspose3d`, computed by
 * [method@Gnn.Tensor.convolution]. Its parameters and their
 * initialization are described in [class@Gnn.ConvNd]; a non-cubic kernel,
 * stride, padding or dilation is set through the per-axis properties.
 *
 * Since: 0.1
 */
struct _GnnConvTranspose3d
{
  GnnConvNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnConvTranspose3d, gnn_conv_transpose3d, GNN_TYPE_CONV_ND)

static void
gnn_conv_transpose3d_class_init (GnnConvTranspose3dClass *klass)
{
  /**
   * GnnConvTranspose3d:in-channels:
   *
   * The number of input channels (`in_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:out-channels:
   *
   * The number of output channels (`out_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:kernel-d:
   *
   * The kernel depth (`kernel_size[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:kernel-h:
   *
   * The kernel height (`kernel_size[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:kernel-w:
   *
   * The kernel width (`kernel_size[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:stride-d:
   *
   * The stride along the depth axis (`stride[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:stride-h:
   *
   * The stride along the height axis (`stride[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:stride-w:
   *
   * The stride along the width axis (`stride[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:padding-d:
   *
   * The implicit padding added on both sides of the depth axis
   * (`padding[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:padding-h:
   *
   * The implicit padding added on both sides of the height axis
   * (`padding[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:padding-w:
   *
   * The implicit padding added on both sides of the width axis
   * (`padding[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:output-padding-d:
   *
   * The size added to one side of the output depth axis
   * (`output_padding[0]`); smaller than the stride or the dilation of that
   * axis.
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:output-padding-h:
   *
   * The size added to one side of the output height axis
   * (`output_padding[1]`); smaller than the stride or the dilation of that
   * axis.
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:output-padding-w:
   *
   * The size added to one side of the output width axis
   * (`output_padding[2]`); smaller than the stride or the dilation of that
   * axis.
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:dilation-d:
   *
   * The spacing between kernel taps along the depth axis (`dilation[0]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:dilation-h:
   *
   * The spacing between kernel taps along the height axis (`dilation[1]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:dilation-w:
   *
   * The spacing between kernel taps along the width axis (`dilation[2]`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:groups:
   *
   * The number of blocked connections from input to output channels; it
   * divides both channel counts (`groups`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:has-bias:
   *
   * Whether the layer has a learnable `bias` (PyTorch's `bias=True`; the
   * property cannot be called "bias", which names the parameter).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose3d:generator:
   *
   * The generator the initial weights are drawn from, used during
   * construction only (so it is write-only); %NULL means the library's
   * default generator.
   *
   * Since: 0.1
   */
  gnn_conv_nd_class_setup (GNN_CONV_ND_CLASS (klass), 3, TRUE);
}

static void
gnn_conv_transpose3d_init (GnnConvTranspose3d *self)
{
}

/**
 * gnn_conv_transpose3d_new:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_size: the kernel size (cubic) (> 0)
 * @stride: the stride (> 0; PyTorch's default is 1)
 * @padding: the implicit zero padding on both sides (>= 0; PyTorch's default
 *   is 0)
 * @output_padding: the size added to one side of the output (>= 0, smaller
 *   than @stride or @dilation; PyTorch's default is 0)
 * @groups: the number of groups; divides @in_channels and @out_channels
 *   (PyTorch's default is 1)
 * @bias: whether to add a learnable bias (PyTorch's default is %TRUE)
 * @dilation: the spacing between kernel taps (> 0; PyTorch's default is 1)
 * @generator: (nullable): the generator for the initial weights, or %NULL
 *   for the library's default one
 * @error: return location for a #GError
 *
 * Creates a transposed convolution layer,
 * `torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride,
 * padding, output_padding, groups, bias, dilation)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, e.g. "in_channels must be divisible by
 *   groups")
 *
 * Since: 0.1
 */
GnnConvTranspose3d *
gnn_conv_transpose3d_new (gint64       in_channels,
                          gint64       out_channels,
                          gint64       kernel_size,
                          gint64       stride,
                          gint64       padding,
                          gint64       output_padding,
                          gint64       groups,
                          gboolean     bias,
                          gint64       dilation,
                          GnnGenerator *generator,
                          GError       **error)
{
  const gint64 kernel[] = { kernel_size, kernel_size, kernel_size }, strides[] = { stride, stride, stride }, pads[] = { padding, padding, padding };
  const gint64 out_pads[] = { output_padding, output_padding, output_padding }, dilations[] = { dilation, dilation, dilation };

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_conv_nd_new (GNN_TYPE_CONV_TRANSPOSE3D, &(GnnConvNdArgs) {
                            in_channels, out_channels, kernel, strides, pads, out_pads, dilations,
                            groups, bias, generator }, error);
}
