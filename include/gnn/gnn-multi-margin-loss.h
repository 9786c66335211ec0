/* gnn-multi-margin-loss.h: the MultiMarginLoss module (torch.nn.MultiMarginLoss)
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

#define GNN_TYPE_MULTI_MARGIN_LOSS (gnn_multi_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiMarginLoss, gnn_multi_margin_loss, GNN, MULTI_MARGIN_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMultiMarginLoss *gnn_multi_margin_loss_new (gint         p,
                                               double       margin,
                                               GnnTensor   *weight,
                                               GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_multi_margin_loss_compute (GnnMultiMarginLoss  *self,
                                          GnnTensor           *input,
                                          GnnTensor           *target,
                                          GError             **error);

G_END_DECLS
