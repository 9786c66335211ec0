/* gnn-triplet-margin-loss.h: the TripletMarginLoss module (torch.nn.TripletMarginLoss)
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

#define GNN_TYPE_TRIPLET_MARGIN_LOSS (gnn_triplet_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTripletMarginLoss, gnn_triplet_margin_loss, GNN, TRIPLET_MARGIN_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTripletMarginLoss *gnn_triplet_margin_loss_new (double      margin,
                                                   double      p,
                                                   double      eps,
                                                   gboolean    swap,
                                                   GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_triplet_margin_loss_compute (GnnTripletMarginLoss  *self,
                                            GnnTensor             *anchor,
                                            GnnTensor             *positive,
                                            GnnTensor             *negative,
                                            GError               **error);

G_END_DECLS
