/* gnn-cosine-embedding-loss.h: the CosineEmbeddingLoss module (torch.nn.CosineEmbeddingLoss)
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

#define GNN_TYPE_COSINE_EMBEDDING_LOSS (gnn_cosine_embedding_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCosineEmbeddingLoss, gnn_cosine_embedding_loss, GNN, COSINE_EMBEDDING_LOSS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnCosineEmbeddingLoss *gnn_cosine_embedding_loss_new (double      margin,
                                                       GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_cosine_embedding_loss_compute (GnnCosineEmbeddingLoss  *self,
                                              GnnTensor               *input1,
                                              GnnTensor               *input2,
                                              GnnTensor               *target,
                                              GError                 **error);

G_END_DECLS
