/* gnn-multihead-attention.h: multi-head attention (torch.nn.MultiheadAttention)
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

#define GNN_TYPE_MULTIHEAD_ATTENTION (gnn_multihead_attention_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnMultiheadAttention, gnn_multihead_attention, GNN, MULTIHEAD_ATTENTION,
                          GnnModule)

/**
 * GnnMultiheadAttentionClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.MultiheadAttention].
 *
 * Since: 0.1
 */
struct _GnnMultiheadAttentionClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnMultiheadAttention *gnn_multihead_attention_new          (gint64                  embed_dim,
                                                             gint64                  num_heads,
                                                             GError                **error);
GNN_AVAILABLE_IN_ALL
gint64                 gnn_multihead_attention_get_embed_dim (GnnMultiheadAttention *self);
GNN_AVAILABLE_IN_ALL
gint64                 gnn_multihead_attention_get_num_heads (GnnMultiheadAttention *self);
GNN_AVAILABLE_IN_ALL
GnnTensor             *gnn_multihead_attention_attend        (GnnMultiheadAttention *self,
                                                             GnnTensor              *query,
                                                             GnnTensor              *key,
                                                             GnnTensor              *value,
                                                             GnnTensor              *key_padding_mask,
                                                             gboolean                need_weights,
                                                             GnnTensor              *attn_mask,
                                                             gboolean                average_attn_weights,
                                                             GnnTensor             **attn_weights,
                                                             GError                **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_multi_head_attention_forward (GnnTensor     *query,
                                             GnnTensor     *key,
                                             GnnTensor     *value,
                                             gint64         embed_dim_to_check,
                                             gint64         num_heads,
                                             GnnTensor     *in_proj_weight,
                                             GnnTensor     *in_proj_bias,
                                             GnnTensor     *bias_k,
                                             GnnTensor     *bias_v,
                                             gboolean       add_zero_attn,
                                             double         dropout_p,
                                             GnnTensor     *out_proj_weight,
                                             GnnTensor     *out_proj_bias,
                                             gboolean       training,
                                             GnnTensor     *key_padding_mask,
                                             gboolean       need_weights,
                                             GnnTensor     *attn_mask,
                                             gboolean       use_separate_proj_weight,
                                             GnnTensor     *q_proj_weight,
                                             GnnTensor     *k_proj_weight,
                                             GnnTensor     *v_proj_weight,
                                             GnnTensor     *static_k,
                                             GnnTensor     *static_v,
                                             gboolean       average_attn_weights,
                                             GnnTensor    **attn_weights,
                                             GError       **error);

G_END_DECLS
