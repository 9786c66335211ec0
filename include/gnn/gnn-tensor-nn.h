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
 * Since: 0.1
 */
typedef enum
{
  GNN_PADDING_MODE_CONSTANT,
  GNN_PADDING_MODE_REFLECT,
  GNN_PADDING_MODE_REPLICATE,
  GNN_PADDING_MODE_CIRCULAR,
} GnnPaddingMode;

/**
 * GnnInterpolateMode:
 * @GNN_INTERPOLATE_MODE_NEAREST: the nearest input position, torch's
 *   legacy rule `floor (out · scale)` (`'nearest'`)
 * @GNN_INTERPOLATE_MODE_LINEAR: linear along one dimension (`'linear'`)
 * @GNN_INTERPOLATE_MODE_BILINEAR: linear along two (`'bilinear'`)
 * @GNN_INTERPOLATE_MODE_BICUBIC: cubic convolution along two, A = −0.75
 *   (`'bicubic'`)
 * @GNN_INTERPOLATE_MODE_TRILINEAR: linear along three (`'trilinear'`)
 * @GNN_INTERPOLATE_MODE_AREA: the mean of the covered input positions,
 *   adaptive average pooling (`'area'`)
 * @GNN_INTERPOLATE_MODE_NEAREST_EXACT: the nearest input position by the
 *   pixel centres, `floor ((out + 0.5) · scale)` (`'nearest-exact'`)
 *
 * How [method@Gnn.Tensor.interpolate] and [class@Gnn.Upsample] compute an
 * output position from the input.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_INTERPOLATE_MODE_NEAREST,
  GNN_INTERPOLATE_MODE_LINEAR,
  GNN_INTERPOLATE_MODE_BILINEAR,
  GNN_INTERPOLATE_MODE_BICUBIC,
  GNN_INTERPOLATE_MODE_TRILINEAR,
  GNN_INTERPOLATE_MODE_AREA,
  GNN_INTERPOLATE_MODE_NEAREST_EXACT,
} GnnInterpolateMode;

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

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool1d (GnnTensor     *input,
                                  gint64         kernel_size,
                                  gint64         stride,
                                  gint64         padding,
                                  gint64         dilation,
                                  gboolean       ceil_mode,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_avg_pool1d (GnnTensor     *input,
                                  gint64         kernel_size,
                                  gint64         stride,
                                  gint64         padding,
                                  gboolean       ceil_mode,
                                  gboolean       count_include_pad,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_avg_pool (GnnTensor     *input,
                                         const gint64  *output_size,
                                         guint          n_output_size,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_avg_pool2d (GnnTensor  *input,
                                           gint64      output_h,
                                           gint64      output_w,
                                           GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_max_pool (GnnTensor     *input,
                                         const gint64  *output_size,
                                         guint          n_output_size,
                                         GnnTensor    **indices,
                                         GError       **error);

/* --- resampling ---------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_interpolate (GnnTensor          *input,
                                   const gint64       *size,
                                   guint               n_size,
                                   const double       *scale_factor,
                                   guint               n_scale_factor,
                                   GnnInterpolateMode  mode,
                                   gboolean            align_corners,
                                   gboolean            recompute_scale_factor,
                                   GError            **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pixel_shuffle   (GnnTensor  *input,
                                       gint64      upscale_factor,
                                       GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pixel_unshuffle (GnnTensor  *input,
                                       gint64      downscale_factor,
                                       GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_im2col          (GnnTensor  *input,
                                       gint64      kernel_h,
                                       gint64      kernel_w,
                                       gint64      dilation_h,
                                       gint64      dilation_w,
                                       gint64      padding_h,
                                       gint64      padding_w,
                                       gint64      stride_h,
                                       gint64      stride_w,
                                       GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_col2im          (GnnTensor  *input,
                                       gint64      output_h,
                                       gint64      output_w,
                                       gint64      kernel_h,
                                       gint64      kernel_w,
                                       gint64      dilation_h,
                                       gint64      dilation_w,
                                       gint64      padding_h,
                                       gint64      padding_w,
                                       gint64      stride_h,
                                       gint64      stride_w,
                                       GError    **error);

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
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_group_norm (GnnTensor     *input,
                                  gint64         num_groups,
                                  GnnTensor     *weight,
                                  GnnTensor     *bias,
                                  double         eps,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_instance_norm (GnnTensor  *input,
                                     GnnTensor  *running_mean,
                                     GnnTensor  *running_var,
                                     GnnTensor  *weight,
                                     GnnTensor  *bias,
                                     gboolean    use_input_stats,
                                     double      momentum,
                                     double      eps,
                                     GError    **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_local_response_norm (GnnTensor  *input,
                                           gint64      size,
                                           double      alpha,
                                           double      beta,
                                           double      k,
                                           GError    **error);

/* --- dropout ------------------------------------------------------------ */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_feature_dropout (GnnTensor     *input,
                                       double         p,
                                       gboolean       training,
                                       gboolean       alpha,
                                       gboolean       inplace,
                                       GnnGenerator  *generator,
                                       GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_alpha_dropout   (GnnTensor     *input,
                                       double         p,
                                       gboolean       training,
                                       gboolean       inplace,
                                       GnnGenerator  *generator,
                                       GError       **error);

/* --- embedding ----------------------------------------------------------- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_embedding  (GnnTensor     *weight,
                                  GnnTensor     *indices,
                                  GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_embedding_full (GnnTensor *weight,
                                      GnnTensor *indices,
                                      gboolean   has_padding_idx,
                                      gint64     padding_idx,
                                      gboolean   scale_grad_by_freq,
                                      GError   **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_embedding_renorm_ (GnnTensor *weight,
                                         GnnTensor *indices,
                                         double     max_norm,
                                         double     norm_type,
                                         GError   **error);

G_END_DECLS
