/* gnn-alex-net.h: torchvision's AlexNet (torchvision.models.alexnet)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_ALEX_NET (gnn_alex_net_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAlexNet, gnn_alex_net, GNN, ALEX_NET, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAlexNet *gnn_alex_net_new     (gint64    num_classes,
                                  double    dropout,
                                  GError  **error);

GNN_AVAILABLE_IN_ALL
GnnAlexNet *gnn_vision_alexnet   (gint64    num_classes,
                                  GError  **error);

G_END_DECLS
