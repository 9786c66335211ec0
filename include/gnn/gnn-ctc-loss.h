/* gnn-ctc-loss.h: the CTCLoss module (torch.nn.CTCLoss)
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

#define GNN_TYPE_CTC_LOSS (gnn_ctc_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCTCLoss, gnn_ctc_loss, GNN, CTC_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnCTCLoss *gnn_ctc_loss_new (gint        blank,
                              GnnReduction reduction,
                              gboolean    zero_infinity);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_ctc_loss_compute (GnnCTCLoss  *self,
                                 GnnTensor   *log_probs,
                                 GnnTensor   *targets,
                                 GnnTensor   *input_lengths,
                                 GnnTensor   *target_lengths,
                                 GError     **error);

G_END_DECLS
