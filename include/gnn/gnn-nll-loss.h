/* gnn-nll-loss.h: the negative log-likelihood loss as a module (torch.nn.NLLLoss)
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

#define GNN_TYPE_NLL_LOSS (gnn_nll_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNLLLoss, gnn_nll_loss, GNN, NLL_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnNLLLoss *gnn_nll_loss_new     (GnnTensor     *weight,
                                  gint64         ignore_index,
                                  GnnReduction   reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_nll_loss_compute (GnnNLLLoss    *self,
                                  GnnTensor     *input,
                                  GnnTensor     *target,
                                  GError       **error);

G_END_DECLS
