/* gnn-transformer.h: torch.nn.Transformer
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

#define GNN_TYPE_TRANSFORMER (gnn_transformer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformer, gnn_transformer, GNN, TRANSFORMER, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformer *gnn_transformer_new                           (gint64           d_model,
                                                              gint64           nhead,
                                                              gint64           num_encoder_layers,
                                                              gint64           num_decoder_layers,
                                                              GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor      *gnn_transformer_transform                     (GnnTransformer  *self,
                                                              GnnTensor       *src,
                                                              GnnTensor       *tgt,
                                                              GnnTensor       *src_mask,
                                                              GnnTensor       *tgt_mask,
                                                              GnnTensor       *memory_mask,
                                                              GnnTensor       *src_key_padding_mask,
                                                              GnnTensor       *tgt_key_padding_mask,
                                                              GnnTensor       *memory_key_padding_mask,
                                                              GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor      *gnn_transformer_generate_square_subsequent_mask (gint64         sz,
                                                                GError       **error);

G_END_DECLS
