/* gnn-hinge-embedding-loss.h: the HingeEmbeddingLoss module (torch.nn.HingeEmbeddingLoss)
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

#define GNN_TYPE_HINGE_EMBEDDING_LOSS (gnn_hinge_embedding_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHingeEmbeddingLoss, gnn_hinge_embedding_loss, GNN, HINGE_EMBEDDING_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHingeEmbeddingLoss *gnn_hinge_embedding_loss_new (double      margin,
                                                     GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_hinge_embedding_loss_compute (GnnHingeEmbeddingLoss  *self,
                                             GnnTensor              *input,
                                             GnnTensor              *target,
                                             GError                **error);

G_END_DECLS
