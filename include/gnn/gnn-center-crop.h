/* gnn-center-crop.h: the centred crop (torchvision.transforms.CenterCrop)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-transform.h>
#include <gnn/gnn-vision-functional.h>

G_BEGIN_DECLS

#define GNN_TYPE_CENTER_CROP (gnn_center_crop_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCenterCrop, gnn_center_crop, GNN, CENTER_CROP, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnCenterCrop *gnn_center_crop_new (const gint64  *size,
                                    gsize          n_size,
                                    GError       **error);

G_END_DECLS
