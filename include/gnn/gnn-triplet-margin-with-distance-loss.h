/* gnn-triplet-margin-with-distance-loss.h: the TripletMarginWithDistanceLoss module (torch.nn.TripletMarginWithDistanceLoss)
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

#define GNN_TYPE_TRIPLET_MARGIN_WITH_DISTANCE_LOSS (gnn_triplet_margin_with_distance_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTripletMarginWithDistanceLoss, gnn_triplet_margin_with_distance_loss, GNN, TRIPLET_MARGIN_WITH_DISTANCE_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTripletMarginWithDistanceLoss *gnn_triplet_margin_with_distance_loss_new (GnnDistanceFunc distance_function,
                                                                             gpointer        user_data,
                                                                             GDestroyNotify  destroy,
                                                                             double          margin,
                                                                             gboolean        swap,
                                                                             GnnReduction    reduction);
GNN_AVAILABLE_IN_ALL
void gnn_triplet_margin_with_distance_loss_set_distance_function (GnnTripletMarginWithDistanceLoss *self,
                                                                  GnnDistanceFunc                   distance_function,
                                                                  gpointer                          user_data,
                                                                  GDestroyNotify                    destroy);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_triplet_margin_with_distance_loss_compute (GnnTripletMarginWithDistanceLoss  *self,
                                                          GnnTensor                         *anchor,
                                                          GnnTensor                         *positive,
                                                          GnnTensor                         *negative,
                                                          GError                           **error);

G_END_DECLS
