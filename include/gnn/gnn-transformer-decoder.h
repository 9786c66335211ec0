/* gnn-transformer-decoder.h: torch.nn.TransformerDecoder
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

#define GNN_TYPE_TRANSFORMER_DECODER (gnn_transformer_decoder_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformerDecoder, gnn_transformer_decoder, GNN, TRANSFORMER_DECODER,
                      GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformerDecoder *gnn_transformer_decoder_new    (GnnModule              *decoder_layer,
                                                      gint64                  num_layers,
                                                      GnnModule              *norm,
                                                      GError                **error);
GNN_AVAILABLE_IN_ALL
GnnTensor             *gnn_transformer_decoder_decode (GnnTransformerDecoder  *self,
                                                      GnnTensor              *tgt,
                                                      GnnTensor              *memory,
                                                      GnnTensor              *tgt_mask,
                                                      GnnTensor              *memory_mask,
                                                      GnnTensor              *tgt_key_padding_mask,
                                                      GnnTensor              *memory_key_padding_mask,
                                                      GError                **error);

G_END_DECLS
