/* gnn-smooth-l1-loss.h: the SmoothL1Loss module (torch.nn.SmoothL1Loss)
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

#define GNN_TYPE_SMOOTH_L1_LOSS (gnn_smooth_l1_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSmoothL1Loss, gnn_smooth_l1_loss, GNN, SMOOTH_L1_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSmoothL1Loss *gnn_smooth_l1_loss_new (GnnReduction reduction,
                                         double      beta);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_smooth_l1_loss_compute (GnnSmoothL1Loss  *self,
                                       GnnTensor        *input,
                                       GnnTensor        *target,
                                       GError          **error);

G_END_DECLS
