/* gnn-cross-entropy-loss.h: the cross-entropy loss as a module (torch.nn.CrossEntropyLoss)
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

#define GNN_TYPE_CROSS_ENTROPY_LOSS (gnn_cross_entropy_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCrossEntropyLoss, gnn_cross_entropy_loss, GNN, CROSS_ENTROPY_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnCrossEntropyLoss *gnn_cross_entropy_loss_new     (GnnTensor            *weight,
                                                     gint64                ignore_index,
                                                     GnnReduction          reduction,
                                                     double                label_smoothing);
GNN_AVAILABLE_IN_ALL
GnnTensor           *gnn_cross_entropy_loss_compute (GnnCrossEntropyLoss  *self,
                                                     GnnTensor            *input,
                                                     GnnTensor            *target,
                                                     GError              **error);

G_END_DECLS
