/* gnn-image.h: a decoded image, the counterpart of a PIL image
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
 * GnnImageMode:
 * @GNN_IMAGE_MODE_L: one channel, luminance (PIL's "L")
 * @GNN_IMAGE_MODE_LA: luminance and alpha (PIL's "LA")
 * @GNN_IMAGE_MODE_RGB: red, green, blue (PIL's "RGB")
 * @GNN_IMAGE_MODE_RGBA: red, green, blue, alpha (PIL's "RGBA")
 *
 * The channels of a [class@Gnn.Image], named as PIL names its modes; the
 * value of each is its number of channels.
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_IMAGE_MODE_L = 1,
  GNN_IMAGE_MODE_LA = 2,
  GNN_IMAGE_MODE_RGB = 3,
  GNN_IMAGE_MODE_RGBA = 4,
} GnnImageMode;

#define GNN_TYPE_IMAGE (gnn_image_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnImage, gnn_image, GNN, IMAGE, GnnTensor)

GNN_AVAILABLE_IN_ALL
GnnImage     *gnn_image_new             (gint64         width,
                                         gint64         height,
                                         GnnImageMode   mode,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
GnnImage     *gnn_image_new_from_tensor (GnnTensor     *pixels,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
GnnImage     *gnn_image_new_from_file   (const char    *path,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
GnnImage     *gnn_image_new_from_bytes  (GBytes        *data,
                                         const char    *name,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gint64        gnn_image_get_width       (GnnImage      *self);
GNN_AVAILABLE_IN_ALL
gint64        gnn_image_get_height      (GnnImage      *self);
GNN_AVAILABLE_IN_ALL
GnnImageMode  gnn_image_get_mode        (GnnImage      *self);
GNN_AVAILABLE_IN_ALL
GnnImage     *gnn_image_convert         (GnnImage      *self,
                                         GnnImageMode   mode,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
GBytes       *gnn_image_save_to_bytes   (GnnImage      *self,
                                         const char    *format,
                                         GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_image_save            (GnnImage      *self,
                                         const char    *path,
                                         const char    *format,
                                         GError       **error);

G_END_DECLS
