/* gnn-tensor-nn.h: functional neural-network ops (torch.nn.functional)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-tensor.h>

G_BEGIN_DECLS

/**
 * GnnPaddingMode:
 * @GNN_PADDING_MODE_CONSTANT: a constant value, 0 by default (torch's
 *   `'constant'`; a convolution's `padding_mode='zeros'`)
 * @GNN_PADDING_MODE_REFLECT: the input mirrored about its edge, the edge
 *   not repeated (`'reflect'`)
 * @GNN_PADDING_MODE_REPLICATE: the edge value repeated (`'replicate'`)
 * @GNN_PADDING_MODE_CIRCULAR: the input wrapped around (`'circular'`)
 *
 * How [method@Gnn.Tensor.pad] fills the padding, and how a convolution
 * layer pads its input (`padding_mode`).
 *
 * Since: 1.0
 */
typedef enum
{
  GNN_PADDING_MODE_CONSTANT,
  GNN_PADDING_MODE_REFLECT,
  GNN_PADDING_MODE_REPLICATE,
  GNN_PADDING_MODE_CIRCULAR,
} GnnPaddingMode;

/* --- convolution and pooling --------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_convolution (GnnTensor    *input,
                                   GnnTensor    *weight,
                                   GnnTensor    *bias,
                                   const gint64 *stride,
                                   guint         n_stride,
                                   const gint64 *padding,
                                   guint         n_padding,
                                   const gint64 *dilation,
                                   guint         n_dilation,
                                   gboolean      transposed,
                                   const gint64 *output_padding,
                                   guint         n_output_padding,
                                   gint64        groups,
                                   GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv1d     (GnnTensor     *input,
                                  GnnTensor     *weight,
                                  GnnTensor     *bias,
                                  gint64         stride,
                                  gint64         padding,
                                  gint64         dilation,
                                  gint64         groups,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv_transpose2d (GnnTensor *input,
                                        GnnTensor *weight,
                                        GnnTensor *bias,
                                        gint64     stride_h,
                                        gint64     stride_w,
                                        gint64     padding_h,
                                        gint64     padding_w,
                                        gint64     output_padding_h,
                                        gint64     output_padding_w,
                                        gint64     dilation_h,
                                        gint64     dilation_w,
                                        gint64     groups,
                                        GError   **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv2d     (GnnTensor     *input,
                                  GnnTensor     *weight,
                                  GnnTensor     *bias,
                                  gint64         stride_h,
                                  gint64         stride_w,
                                  gint64         padding_h,
                                  gint64         padding_w,
                                  gint64         dilation_h,
                                  gint64         dilation_w,
                                  gint64         groups,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool2d (GnnTensor     *input,
                                  gint64         kernel_h,
                                  gint64         kernel_w,
                                  gint64         stride_h,
                                  gint64         stride_w,
                                  gint64         padding_h,
                                  gint64         padding_w,
                                  gint64         dilation_h,
                                  gint64         dilation_w,
                                  gboolean       ceil_mode,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_avg_pool2d (GnnTensor     *input,
                                  gint64         kernel_h,
                                  gint64         kernel_w,
                                  gint64         stride_h,
                                  gint64         stride_w,
                                  gint64         padding_h,
                                  gint64         padding_w,
                                  gboolean       ceil_mode,
                                  gboolean       count_include_pad,
                                  gint64         divisor_override,
                                  GError       **error);

/* --- padding ------------------------------------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pad        (GnnTensor      *input,
                                  const gint64   *pad,
                                  guint           n_pad,
                                  GnnPaddingMode  mode,
                                  double          value,
                                  GError        **error);

/* --- normalization ------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_layer_norm (GnnTensor     *input,
                                  const gint64  *normalized_shape,
                                  guint          n,
                                  GnnTensor     *weight,
                                  GnnTensor     *bias,
                                  double         eps,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_batch_norm (GnnTensor     *input,
                                  GnnTensor     *running_mean,
                                  GnnTensor     *running_var,
                                  GnnTensor     *weight,
                                  GnnTensor     *bias,
                                  gboolean       training,
                                  double         momentum,
                                  double         eps,
                                  GError       **error);

/* --- embedding ----------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_embedding  (GnnTensor     *weight,
                                  GnnTensor     *indices,
                                  GError       **error);

G_END_DECLS
