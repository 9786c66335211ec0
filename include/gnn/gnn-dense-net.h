/* gnn-dense-net.h: torchvision's DenseNet and its blocks
 * (torchvision.models.densenet121 …)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_DENSE_LAYER (gnn_dense_layer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDenseLayer, gnn_dense_layer, GNN, DENSE_LAYER, GnnModule)

#define GNN_TYPE_DENSE_BLOCK (gnn_dense_block_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDenseBlock, gnn_dense_block, GNN, DENSE_BLOCK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDenseBlock *gnn_dense_block_new (gint64    num_layers,
                                    gint64    num_input_features,
                                    gint64    bn_size,
                                    gint64    growth_rate,
                                    double    drop_rate,
                                    GError  **error);

#define GNN_TYPE_DENSE_NET (gnn_dense_net_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDenseNet, gnn_dense_net, GNN, DENSE_NET, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDenseNet *gnn_dense_net_new        (gint64         growth_rate,
                                       const gint64  *block_config,
                                       gsize          n_blocks,
                                       gint64         num_init_features,
                                       gint64         num_classes,
                                       GError       **error);

GNN_AVAILABLE_IN_ALL
GnnDenseNet *gnn_vision_densenet121   (gint64         num_classes,
                                       GError       **error);

G_END_DECLS
