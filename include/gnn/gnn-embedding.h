/* gnn-embedding.h: lookup table of embeddings (torch.nn.Embedding)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
# error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include <gnn/gnn-version-macros.h>
#include <gnn/gnn-generator.h>
#include <gnn/gnn-module.h>

G_BEGIN_DECLS

#define GNN_TYPE_EMBEDDING (gnn_embedding_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnEmbedding, gnn_embedding, GNN, EMBEDDING, GnnModule)

/**
 * GnnEmbeddingClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Embedding], derivable as `torch.nn.Embedding` is: a
 * subclass (in C, Python or JavaScript) may override the forward and
 * chain up to this one's.
 *
 * Since: 0.1
 */
struct _GnnEmbeddingClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnEmbedding *gnn_embedding_new (gint64         num_embeddings,
                                 gint64         embedding_dim,
                                 GnnGenerator  *generator,
                                 GError       **error);
GNN_AVAILABLE_IN_ALL
GnnEmbedding *gnn_embedding_new_full (gint64         num_embeddings,
                                      gint64         embedding_dim,
                                      gint64         padding_idx,
                                      double         max_norm,
                                      double         norm_type,
                                      gboolean       scale_grad_by_freq,
                                      GnnGenerator  *generator,
                                      GError       **error);

G_END_DECLS
