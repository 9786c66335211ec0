/* gnn-soft-margin-loss.h: the SoftMarginLoss module (torch.nn.SoftMarginLoss)
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

G_BEGIN_DECLS

#define GNN_TYPE_SOFT_MARGIN_LOSS (gnn_soft_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftMarginLoss, gnn_soft_margin_loss, GNN, SOFT_MARGIN_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftMarginLoss *gnn_soft_margin_loss_new (GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_soft_margin_loss_compute (GnnSoftMarginLoss  *self,
                                         GnnTensor          *input,
                                         GnnTensor          *target,
                                         GError            **error);

G_END_DECLS
