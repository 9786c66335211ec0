/* gnn-l1-loss.h: the L1Loss module (torch.nn.L1Loss)
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

#define GNN_TYPE_L1_LOSS (gnn_l1_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnL1Loss, gnn_l1_loss, GNN, L1_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnL1Loss *gnn_l1_loss_new (GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_l1_loss_compute (GnnL1Loss  *self,
                                GnnTensor  *input,
                                GnnTensor  *target,
                                GError    **error);

G_END_DECLS
