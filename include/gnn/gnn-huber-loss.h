/* gnn-huber-loss.h: the HuberLoss module (torch.nn.HuberLoss)
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

#define GNN_TYPE_HUBER_LOSS (gnn_huber_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHuberLoss, gnn_huber_loss, GNN, HUBER_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHuberLoss *gnn_huber_loss_new (GnnReduction reduction,
                                  double      delta);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_huber_loss_compute (GnnHuberLoss  *self,
                                   GnnTensor     *input,
                                   GnnTensor     *target,
                                   GError       **error);

G_END_DECLS
