/* gnn-color-jitter.h: random brightness, contrast, saturation and hue (torchvision.transforms.ColorJitter)
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

#define GNN_TYPE_COLOR_JITTER (gnn_color_jitter_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnColorJitter, gnn_color_jitter, GNN, COLOR_JITTER, GnnTransform)

GNN_AVAILABLE_IN_ALL
GnnColorJitter *gnn_color_jitter_new (double   brightness,
                                      double   contrast,
                                      double   saturation,
                                      double   hue,
                                      GError **error);

G_END_DECLS
