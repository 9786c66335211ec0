/* gnn-margin-ranking-loss.h: the MarginRankingLoss module (torch.nn.MarginRankingLoss)
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

#define GNN_TYPE_MARGIN_RANKING_LOSS (gnn_margin_ranking_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMarginRankingLoss, gnn_margin_ranking_loss, GNN, MARGIN_RANKING_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMarginRankingLoss *gnn_margin_ranking_loss_new (double      margin,
                                                   GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_margin_ranking_loss_compute (GnnMarginRankingLoss  *self,
                                            GnnTensor             *input1,
                                            GnnTensor             *input2,
                                            GnnTensor             *target,
                                            GError               **error);

G_END_DECLS
