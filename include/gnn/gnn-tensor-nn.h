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
#include <gnn/gnn-generator.h>

G_BEGIN_DECLS

/* --- linear -------------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linear     (GnnTensor     *input,
                                  GnnTensor     *weight,
                                  GnnTensor     *bias,
                                  GError       **error);

/* --- convolution and pooling --------------------------------------------- */

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

/* --- attention ----------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_scaled_dot_product_attention (GnnTensor     *query,
                                                    GnnTensor     *key,
                                                    GnnTensor     *value,
                                                    GnnTensor     *attn_mask,
                                                    double         dropout_p,
                                                    gboolean       is_causal,
                                                    GnnGenerator  *generator,
                                                    GError       **error);

/* --- embedding ----------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_embedding  (GnnTensor     *weight,
                                  GnnTensor     *indices,
                                  GError       **error);

G_END_DECLS
