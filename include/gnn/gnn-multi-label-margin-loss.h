/* gnn-multi-label-margin-loss.h: the MultiLabelMarginLoss module (torch.nn.MultiLabelMarginLoss)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-module.h>
#include <gnn/gnn-functional.h>
#include <gnn/gnn-functional-losses.h>

G_BEGIN_DECLS

#define GNN_TYPE_MULTI_LABEL_MARGIN_LOSS (gnn_multi_label_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiLabelMarginLoss, gnn_multi_label_margin_loss, GNN, MULTI_LABEL_MARGIN_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMultiLabelMarginLoss *gnn_multi_label_margin_loss_new (GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_multi_label_margin_loss_compute (GnnMultiLabelMarginLoss  *self,
                                                GnnTensor                *input,
                                                GnnTensor                *target,
                                                GError                  **error);

G_END_DECLS
