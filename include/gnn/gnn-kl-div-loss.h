/* gnn-kl-div-loss.h: the KLDivLoss module (torch.nn.KLDivLoss)
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

#define GNN_TYPE_KL_DIV_LOSS (gnn_kl_div_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnKLDivLoss, gnn_kl_div_loss, GNN, KL_DIV_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnKLDivLoss *gnn_kl_div_loss_new (GnnReduction reduction,
                                   gboolean    log_target);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_kl_div_loss_compute (GnnKLDivLoss  *self,
                                    GnnTensor     *input,
                                    GnnTensor     *target,
                                    GError       **error);

G_END_DECLS
