/* gnn-embedding-bag.h: bags of embeddings (torch.nn.EmbeddingBag)
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

G_BEGIN_DECLS

#define GNN_TYPE_EMBEDDING_BAG (gnn_embedding_bag_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnEmbeddingBag, gnn_embedding_bag, GNN, EMBEDDING_BAG, GnnModule)

G_END_DECLS
