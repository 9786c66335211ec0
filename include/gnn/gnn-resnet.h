/* gnn-resnet.h: torchvision's ResNet (torchvision.models.resnet18/34/50)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

/**
 * GnnResNetBlock:
 * @GNN_RES_NET_BLOCK_BASIC: [class@Gnn.BasicBlock] (ResNet-18 and -34)
 * @GNN_RES_NET_BLOCK_BOTTLENECK: [class@Gnn.Bottleneck] (ResNet-50 and deeper)
 *
 * The residual block a [class@Gnn.ResNet] is built of (torchvision's
 * `block` argument).
 *
 * Since: 0.1
 */
typedef enum
{
  GNN_RES_NET_BLOCK_BASIC,
  GNN_RES_NET_BLOCK_BOTTLENECK,
} GnnResNetBlock;

#define GNN_TYPE_RES_NET (gnn_res_net_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnResNet, gnn_res_net, GNN, RES_NET, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnResNet *gnn_res_net_new (GnnResNetBlock   block,
                            const gint64    *layers,
                            gsize            n_layers,
                            gint64           num_classes,
                            GError         **error);

GNN_AVAILABLE_IN_ALL
GnnResNet *gnn_vision_resnet18 (gint64    num_classes,
                                GError  **error);
GNN_AVAILABLE_IN_ALL
GnnResNet *gnn_vision_resnet34 (gint64    num_classes,
                                GError  **error);
GNN_AVAILABLE_IN_ALL
GnnResNet *gnn_vision_resnet50 (gint64    num_classes,
                                GError  **error);

G_END_DECLS
