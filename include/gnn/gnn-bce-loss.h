/* gnn-bce-loss.h: the BCELoss module (torch.nn.BCELoss)
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

#define GNN_TYPE_BCE_LOSS (gnn_bce_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBCELoss, gnn_bce_loss, GNN, BCE_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnBCELoss *gnn_bce_loss_new (GnnTensor   *weight,
                              GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_bce_loss_compute (GnnBCELoss  *self,
                                 GnnTensor   *input,
                                 GnnTensor   *target,
                                 GError     **error);

G_END_DECLS
