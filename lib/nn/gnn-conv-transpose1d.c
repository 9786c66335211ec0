/* gnn-conv-transpose1d.c: 1-d transposed convolution layer (torch.nn.ConvTranspose1d)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-conv-nd-private.h"

/**
 * GnnConvTranspose1d:
 *
 * A 1-d transposed convolution ("deconvolution") over `[N, C_in, L]` (or
 * unbatched `[C_in, L]`) inputs, `torch.nn.ConvTranspose1d`, computed by
 * [method@Gnn.Tensor.convolution]. Its parameters and their
 * initialization are described in [class@Gnn.ConvNd].
 *
 * Since: 0.1
 */
struct _GnnConvTranspose1d
{
  GnnConvNd parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnConvTranspose1d, gnn_conv_transpose1d, GNN_TYPE_CONV_ND)

static void
gnn_conv_transpose1d_class_init (GnnConvTranspose1dClass *klass)
{
  /**
   * GnnConvTranspose1d:in-channels:
   *
   * The number of input channels (`in_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:out-channels:
   *
   * The number of output channels (`out_channels`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:kernel-size:
   *
   * The kernel size (`kernel_size`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:stride:
   *
   * The stride (`stride`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:padding:
   *
   * The implicit padding added on both sides (`padding`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:output-padding:
   *
   * The size added to one side of the output (`output_padding`); smaller
   * than the stride or the dilation.
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:dilation:
   *
   * The spacing between kernel taps (`dilation`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:groups:
   *
   * The number of blocked connections from input to output channels; it
   * divides both channel counts (`groups`).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:has-bias:
   *
   * Whether the layer has a learnable `bias` (PyTorch's `bias=True`; the
   * property cannot be called "bias", which names the parameter).
   *
   * Since: 0.1
   */
  /**
   * GnnConvTranspose1d:generator:
   *
   * The generator the initial weights are drawn from, used during
   * construction only (so it is write-only); %NULL means the library's
   * default generator.
   *
   * Since: 0.1
   */
  gnn_conv_nd_class_setup (GNN_CONV_ND_CLASS (klass), 1, TRUE);
}

static void
gnn_conv_transpose1d_init (GnnConvTranspose1d *self)
{
}

/**
 * gnn_conv_transpose1d_new:
 * @in_channels: the number of input channels (> 0)
 * @out_channels: the number of output channels (> 0)
 * @kernel_size: the kernel size (> 0)
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
 * `torch.nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride,
 * padding, output_padding, groups, bias, dilation)`.
 *
 * Returns: (transfer full): the new layer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, e.g. "in_channels must be divisible by
 *   groups")
 *
 * Since: 0.1
 */
GnnConvTranspose1d *
gnn_conv_transpose1d_new (gint64       in_channels,
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
  const gint64 kernel[] = { kernel_size }, strides[] = { stride }, pads[] = { padding };
  const gint64 out_pads[] = { output_padding }, dilations[] = { dilation };

  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  return gnn_conv_nd_new (GNN_TYPE_CONV_TRANSPOSE1D, &(GnnConvNdArgs) {
                            in_channels, out_channels, kernel, strides, pads, out_pads, dilations,
                            groups, bias, generator }, error);
}
