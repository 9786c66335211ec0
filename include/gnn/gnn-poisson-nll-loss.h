/* gnn-poisson-nll-loss.h: the PoissonNLLLoss module (torch.nn.PoissonNLLLoss)
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

#define GNN_TYPE_POISSON_NLL_LOSS (gnn_poisson_nll_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPoissonNLLLoss, gnn_poisson_nll_loss, GNN, POISSON_NLL_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnPoissonNLLLoss *gnn_poisson_nll_loss_new (gboolean    log_input,
                                             gboolean    full,
                                             double      eps,
                                             GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_poisson_nll_loss_compute (GnnPoissonNLLLoss  *self,
                                         GnnTensor          *input,
                                         GnnTensor          *target,
                                         GError            **error);

G_END_DECLS
