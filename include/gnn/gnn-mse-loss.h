/* gnn-mse-loss.h: the mean squared error loss as a module (torch.nn.MSELoss)
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

#define GNN_TYPE_MSE_LOSS (gnn_mse_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMSELoss, gnn_mse_loss, GNN, MSE_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMSELoss *gnn_mse_loss_new     (GnnReduction   reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_mse_loss_compute (GnnMSELoss    *self,
                                  GnnTensor     *input,
                                  GnnTensor     *target,
                                  GError       **error);

G_END_DECLS
