/* gnn-vision-functional.h: torchvision.transforms.functional on images and
 * tensor images
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-image.h>

G_BEGIN_DECLS

/**
 * GnnInterpolationMode:
 * @GNN_INTERPOLATION_MODE_NEAREST: the nearest pixel (torchvision's
 *   `InterpolationMode.NEAREST`)
 * @GNN_INTERPOLATION_MODE_BILINEAR: bilinear (`InterpolationMode.BILINEAR`)
 *
 * How geometric transforms sample their input: on images as PIL samples
 * (its resampling filters and affine transform), on tensors as torch's
 * `interpolate` and `grid_sample` do.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_INTERPOLATION_MODE_NEAREST,
  GNN_INTERPOLATION_MODE_BILINEAR,
} GnnInterpolationMode;

/**
 * GnnVisionPaddingMode:
 * @GNN_VISION_PADDING_MODE_CONSTANT: the fill value
 * @GNN_VISION_PADDING_MODE_EDGE: the last value at the edge
 * @GNN_VISION_PADDING_MODE_REFLECT: the values reflected without repeating
 *   the edge (`[1, 2, 3, 4]` padded by 2: `[3, 2, 1, 2, 3, 4, 3, 2]`)
 * @GNN_VISION_PADDING_MODE_SYMMETRIC: the values reflected with the edge
 *   repeated (`[2, 1, 1, 2, 3, 4, 4, 3]`)
 *
 * torchvision's `padding_mode` of [class@Gnn.Pad] and
 * [class@Gnn.RandomCrop].
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_VISION_PADDING_MODE_CONSTANT,
  GNN_VISION_PADDING_MODE_EDGE,
  GNN_VISION_PADDING_MODE_REFLECT,
  GNN_VISION_PADDING_MODE_SYMMETRIC,
} GnnVisionPaddingMode;

/* conversions */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_to_tensor            (GnnTensor             *pic,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_pil_to_tensor        (GnnTensor             *pic,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnImage  *gnn_vision_to_image             (GnnTensor             *pic,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_convert_image_dtype  (GnnTensor             *image,
                                            GnnDType               dtype,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_normalize            (GnnTensor             *tensor,
                                            const double          *mean,
                                            gsize                  n_mean,
                                            const double          *std,
                                            gsize                  n_std,
                                            gboolean               inplace,
                                            GError               **error);

/* geometry */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_crop                 (GnnTensor             *img,
                                            gint64                 top,
                                            gint64                 left,
                                            gint64                 height,
                                            gint64                 width,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_center_crop          (GnnTensor             *img,
                                            const gint64          *output_size,
                                            gsize                  n_output_size,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_resize               (GnnTensor             *img,
                                            const gint64          *size,
                                            gsize                  n_size,
                                            GnnInterpolationMode   interpolation,
                                            gint64                 max_size,
                                            gboolean               antialias,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_resized_crop         (GnnTensor             *img,
                                            gint64                 top,
                                            gint64                 left,
                                            gint64                 height,
                                            gint64                 width,
                                            const gint64          *size,
                                            gsize                  n_size,
                                            GnnInterpolationMode   interpolation,
                                            gboolean               antialias,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_hflip                (GnnTensor             *img,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_vflip                (GnnTensor             *img,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_pad                  (GnnTensor             *img,
                                            const gint64          *padding,
                                            gsize                  n_padding,
                                            const double          *fill,
                                            gsize                  n_fill,
                                            GnnVisionPaddingMode   padding_mode,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_rotate               (GnnTensor             *img,
                                            double                 angle,
                                            GnnInterpolationMode   interpolation,
                                            gboolean               expand,
                                            const double          *center,
                                            gsize                  n_center,
                                            const double          *fill,
                                            gsize                  n_fill,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_erase                (GnnTensor             *img,
                                            gint64                 i,
                                            gint64                 j,
                                            gint64                 h,
                                            gint64                 w,
                                            GnnTensor             *v,
                                            gboolean               inplace,
                                            GError               **error);

/* colour */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_rgb_to_grayscale     (GnnTensor             *img,
                                            guint                  num_output_channels,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_adjust_brightness    (GnnTensor             *img,
                                            double                 brightness_factor,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_adjust_contrast      (GnnTensor             *img,
                                            double                 contrast_factor,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_adjust_saturation    (GnnTensor             *img,
                                            double                 saturation_factor,
                                            GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_adjust_hue           (GnnTensor             *img,
                                            double                 hue_factor,
                                            GError               **error);

G_END_DECLS
