/* gnn-mha-private.h: multi-head attention's forward (torch 1.13's
 * F.multi_head_attention_forward), shared by MultiheadAttention, the
 * transformer layers and the functional form
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Everything but query, key and value; tensors may be NULL (torch's None). */
typedef struct
{
  gint64        embed_dim;          /* embed_dim_to_check */
  gint64        num_heads;
  GnnTensor    *in_proj_weight;
  GnnTensor    *in_proj_bias;
  GnnTensor    *bias_k;
  GnnTensor    *bias_v;
  gboolean      add_zero_attn;
  double        dropout_p;
  GnnTensor    *out_proj_weight;
  GnnTensor    *out_proj_bias;
  gboolean      training;
  GnnTensor    *key_padding_mask;
  gboolean      need_weights;
  GnnTensor    *attn_mask;
  gboolean      use_separate_proj_weight;
  GnnTensor    *q_proj_weight;
  GnnTensor    *k_proj_weight;
  GnnTensor    *v_proj_weight;
  GnnTensor    *static_k;
  GnnTensor    *static_v;
  gboolean      average_attn_weights;
  /* Gnn's: batched inputs are (batch, seq, feature), read and written in
   * place (torch transposes them around the call) */
  gboolean      batch_first;
  GnnGenerator *generator;          /* dropout draws; NULL: the default generator */
} GnnMhaArgs;

/* (attn_output, attn_weights or NULL): torch's checks and messages, the
 * projections as single GEMMs, attention over head views of them (see
 * lib/tensor/gnn-attention-private.h). @weights may be NULL when
 * need_weights is FALSE. */
gboolean gnn_mha_forward (GnnTensor         *query,
                          GnnTensor         *key,
                          GnnTensor         *value,
                          const GnnMhaArgs  *a,
                          GnnTensor        **output,
                          GnnTensor        **weights,
                          GError           **error);

G_END_DECLS
