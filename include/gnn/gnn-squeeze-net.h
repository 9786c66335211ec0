/* gnn-squeeze-net.h: torchvision's SqueezeNet and its Fire module
 * (torchvision.models.squeezenet1_0 / squeezenet1_1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_FIRE (gnn_fire_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFire, gnn_fire, GNN, FIRE, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnFire *gnn_fire_new (gint64    inplanes,
                       gint64    squeeze_planes,
                       gint64    expand1x1_planes,
                       gint64    expand3x3_planes,
                       GError  **error);

#define GNN_TYPE_SQUEEZE_NET (gnn_squeeze_net_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSqueezeNet, gnn_squeeze_net, GNN, SQUEEZE_NET, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSqueezeNet *gnn_squeeze_net_new       (const char  *version,
                                          gint64       num_classes,
                                          double       dropout,
                                          GError     **error);

GNN_AVAILABLE_IN_ALL
GnnSqueezeNet *gnn_vision_squeezenet1_0  (gint64       num_classes,
                                          GError     **error);
GNN_AVAILABLE_IN_ALL
GnnSqueezeNet *gnn_vision_squeezenet1_1  (gint64       num_classes,
                                          GError     **error);

G_END_DECLS
