/* gnn-mobile-net-v2.h: torchvision's MobileNetV2 and its InvertedResidual
 * block (torchvision.models.mobilenet_v2)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_INVERTED_RESIDUAL (gnn_inverted_residual_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnInvertedResidual, gnn_inverted_residual, GNN, INVERTED_RESIDUAL,
                      GnnModule)

GNN_AVAILABLE_IN_ALL
GnnInvertedResidual *gnn_inverted_residual_new (gint64    inp,
                                                gint64    oup,
                                                gint64    stride,
                                                gint64    expand_ratio,
                                                GError  **error);

#define GNN_TYPE_MOBILE_NET_V2 (gnn_mobile_net_v2_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMobileNetV2, gnn_mobile_net_v2, GNN, MOBILE_NET_V2, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMobileNetV2 *gnn_mobile_net_v2_new      (gint64    num_classes,
                                            double    width_mult,
                                            GError  **error);

GNN_AVAILABLE_IN_ALL
GnnMobileNetV2 *gnn_vision_mobilenet_v2    (gint64    num_classes,
                                            GError  **error);

G_END_DECLS
