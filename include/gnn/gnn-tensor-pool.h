/* gnn-tensor-pool.h: pooling with indices, unpooling, 3-d and power-average
 * pooling, bags of embeddings, channel shuffle (torch.nn.functional)
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

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool1d_with_indices (GnnTensor     *input,
                                               gint64         kernel_size,
                                               gint64         stride,
                                               gint64         padding,
                                               gint64         dilation,
                                               gboolean       ceil_mode,
                                               GnnTensor    **indices,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool2d_with_indices (GnnTensor     *input,
                                               gint64         kernel_h,
                                               gint64         kernel_w,
                                               gint64         stride_h,
                                               gint64         stride_w,
                                               gint64         padding_h,
                                               gint64         padding_w,
                                               gint64         dilation_h,
                                               gint64         dilation_w,
                                               gboolean       ceil_mode,
                                               GnnTensor    **indices,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool3d              (GnnTensor     *input,
                                               const gint64  *kernel_size,
                                               const gint64  *stride,
                                               const gint64  *padding,
                                               const gint64  *dilation,
                                               gboolean       ceil_mode,
                                               GnnTensor    **indices,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_avg_pool3d              (GnnTensor     *input,
                                               const gint64  *kernel_size,
                                               const gint64  *stride,
                                               const gint64  *padding,
                                               gboolean       ceil_mode,
                                               gboolean       count_include_pad,
                                               gint64         divisor_override,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_unpool              (GnnTensor     *input,
                                               GnnTensor     *indices,
                                               const gint64  *output_size,
                                               guint          n_output_size,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_unpool_with_geometry (GnnTensor    *input,
                                                GnnTensor    *indices,
                                                const gint64 *kernel_size,
                                                const gint64 *stride,
                                                const gint64 *padding,
                                                guint         n,
                                                const gint64 *output_size,
                                                gsize         n_output_size,
                                                GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lp_pool1d               (GnnTensor     *input,
                                               double         norm_type,
                                               gint64         kernel_size,
                                               gint64         stride,
                                               gboolean       ceil_mode,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lp_pool2d               (GnnTensor     *input,
                                               double         norm_type,
                                               gint64         kernel_h,
                                               gint64         kernel_w,
                                               gint64         stride_h,
                                               gint64         stride_w,
                                               gboolean       ceil_mode,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_embedding_bag           (GnnTensor     *input,
                                               GnnTensor     *weight,
                                               GnnTensor     *offsets,
                                               double         max_norm,
                                               double         norm_type,
                                               gboolean       scale_grad_by_freq,
                                               const char    *mode,
                                               GnnTensor     *per_sample_weights,
                                               gboolean       include_last_offset,
                                               gboolean       has_padding_idx,
                                               gint64         padding_idx,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_channel_shuffle         (GnnTensor     *input,
                                               gint64         groups,
                                               GError       **error);

G_END_DECLS
