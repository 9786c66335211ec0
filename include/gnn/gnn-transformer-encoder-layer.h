/* gnn-transformer-encoder-layer.h: torch.nn.TransformerEncoderLayer
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

#define GNN_TYPE_TRANSFORMER_ENCODER_LAYER (gnn_transformer_encoder_layer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnTransformerEncoderLayer, gnn_transformer_encoder_layer, GNN,
                          TRANSFORMER_ENCODER_LAYER, GnnModule)

/**
 * GnnTransformerEncoderLayerClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.TransformerEncoderLayer].
 *
 * Since: 0.1
 */
struct _GnnTransformerEncoderLayerClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnTransformerEncoderLayer *gnn_transformer_encoder_layer_new    (gint64                      d_model,
                                                                 gint64                      nhead,
                                                                 GError                    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor                  *gnn_transformer_encoder_layer_encode (GnnTransformerEncoderLayer *self,
                                                                 GnnTensor                  *src,
                                                                 GnnTensor                  *src_mask,
                                                                 GnnTensor                  *src_key_padding_mask,
                                                                 GError                    **error);

G_END_DECLS
