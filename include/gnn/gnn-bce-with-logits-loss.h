/* gnn-bce-with-logits-loss.h: binary cross-entropy on logits as a module (torch.nn.BCEWithLogitsLoss)
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

#define GNN_TYPE_BCE_WITH_LOGITS_LOSS (gnn_bce_with_logits_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBCEWithLogitsLoss, gnn_bce_with_logits_loss, GNN, BCE_WITH_LOGITS_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnBCEWithLogitsLoss *gnn_bce_with_logits_loss_new     (GnnTensor             *weight,
                                                        GnnTensor             *pos_weight,
                                                        GnnReduction           reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor            *gnn_bce_with_logits_loss_compute (GnnBCEWithLogitsLoss  *self,
                                                        GnnTensor             *input,
                                                        GnnTensor             *target,
                                                        GError               **error);

G_END_DECLS
