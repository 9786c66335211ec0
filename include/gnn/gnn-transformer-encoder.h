/* gnn-transformer-encoder.h: torch.nn.TransformerEncoder
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

#define GNN_TYPE_TRANSFORMER_ENCODER (gnn_transformer_encoder_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformerEncoder, gnn_transformer_encoder, GNN, TRANSFORMER_ENCODER,
                      GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformerEncoder *gnn_transformer_encoder_new    (GnnModule              *encoder_layer,
                                                      gint64                  num_layers,
                                                      GnnModule              *norm,
                                                      GError                **error);
GNN_AVAILABLE_IN_ALL
GnnTensor             *gnn_transformer_encoder_encode (GnnTransformerEncoder  *self,
                                                      GnnTensor              *src,
                                                      GnnTensor              *mask,
                                                      GnnTensor              *src_key_padding_mask,
                                                      GError                **error);

G_END_DECLS
