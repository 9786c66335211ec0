/* gnn-transformer-decoder-layer.h: torch.nn.TransformerDecoderLayer
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

#define GNN_TYPE_TRANSFORMER_DECODER_LAYER (gnn_transformer_decoder_layer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnTransformerDecoderLayer, gnn_transformer_decoder_layer, GNN,
                          TRANSFORMER_DECODER_LAYER, GnnModule)

/**
 * GnnTransformerDecoderLayerClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.TransformerDecoderLayer].
 *
 * Since: 0.1
 */
struct _GnnTransformerDecoderLayerClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnTransformerDecoderLayer *gnn_transformer_decoder_layer_new    (gint64                      d_model,
                                                                 gint64                      nhead,
                                                                 GError                    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor                  *gnn_transformer_decoder_layer_decode (GnnTransformerDecoderLayer *self,
                                                                 GnnTensor                  *tgt,
                                                                 GnnTensor                  *memory,
                                                                 GnnTensor                  *tgt_mask,
                                                                 GnnTensor                  *memory_mask,
                                                                 GnnTensor                  *tgt_key_padding_mask,
                                                                 GnnTensor                  *memory_key_padding_mask,
                                                                 GError                    **error);

G_END_DECLS
