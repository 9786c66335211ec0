/* gnn-vgg.h: torchvision's VGG (torchvision.models.vgg11 … vgg19_bn)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_VGG (gnn_vgg_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnVGG, gnn_vgg, GNN, VGG, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnVGG *gnn_vgg_new        (const gint64  *cfg,
                            gsize          n_cfg,
                            gboolean       batch_norm,
                            gint64         num_classes,
                            GError       **error);

GNN_AVAILABLE_IN_ALL
GnnVGG *gnn_vision_vgg     (gint64         depth,
                            gboolean       batch_norm,
                            gint64         num_classes,
                            GError       **error);

G_END_DECLS
