/* gnn-gaussian-nll-loss.h: the GaussianNLLLoss module (torch.nn.GaussianNLLLoss)
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

#define GNN_TYPE_GAUSSIAN_NLL_LOSS (gnn_gaussian_nll_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGaussianNLLLoss, gnn_gaussian_nll_loss, GNN, GAUSSIAN_NLL_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnGaussianNLLLoss *gnn_gaussian_nll_loss_new (gboolean    full,
                                               double      eps,
                                               GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_gaussian_nll_loss_compute (GnnGaussianNLLLoss  *self,
                                          GnnTensor           *input,
                                          GnnTensor           *target,
                                          GnnTensor           *var,
                                          GError             **error);

G_END_DECLS
