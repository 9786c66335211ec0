/* gnn-vision-utils.h: image grids and saving them (torchvision.utils)
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

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vision_make_grid       (GnnTensor     *tensor,
                                       gint64         nrow,
                                       gint64         padding,
                                       gboolean       normalize,
                                       const double  *value_range,
                                       gsize          n_value_range,
                                       gboolean       scale_each,
                                       double         pad_value,
                                       GError       **error);
GNN_AVAILABLE_IN_ALL
GnnImage  *gnn_vision_grid_image      (GnnTensor     *tensor,
                                       gint64         nrow,
                                       gint64         padding,
                                       gboolean       normalize,
                                       const double  *value_range,
                                       gsize          n_value_range,
                                       gboolean       scale_each,
                                       double         pad_value,
                                       GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_vision_save_image      (GnnTensor     *tensor,
                                       const char    *path,
                                       const char    *format,
                                       gint64         nrow,
                                       gint64         padding,
                                       gboolean       normalize,
                                       const double  *value_range,
                                       gsize          n_value_range,
                                       gboolean       scale_each,
                                       double         pad_value,
                                       GError       **error);

G_END_DECLS
