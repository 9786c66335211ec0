/* gnn-basic-block.h: ResNet's basic residual block (torchvision.models.resnet.BasicBlock)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_BASIC_BLOCK (gnn_basic_block_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBasicBlock, gnn_basic_block, GNN, BASIC_BLOCK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnBasicBlock *gnn_basic_block_new (gint64     inplanes,
                                    gint64     planes,
                                    gint64     stride,
                                    gboolean   downsample,
                                    GError   **error);

G_END_DECLS
