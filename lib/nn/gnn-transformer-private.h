/* gnn-transformer-private.h: what the transformer layers share — their
 * configuration properties (torch's constructor arguments), their
 * sub-layers in torch's order, the attention and feed-forward blocks with
 * their residual connection, and the deep copy a stack makes of its layer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* torch's TransformerEncoderLayer / TransformerDecoderLayer arguments. */
typedef struct
{
  gint64        d_model;
  gint64        nhead;
  gint64        dim_feedforward;
  double        dropout;
  char         *activation;       /* "relu" or "gelu" (a module: the "activation" child) */
  double        layer_norm_eps;
  gboolean      batch_first;
  gboolean      norm_first;
  GnnDType      dtype;
  GnnGenerator *generator;        /* construction only */
} GnnTransformerConfig;

/* The property ids of the configuration, from @first on in this order. */
enum
{
  GNN_TRANSFORMER_PROP_D_MODEL,
  GNN_TRANSFORMER_PROP_NHEAD,
  GNN_TRANSFORMER_PROP_DIM_FEEDFORWARD,
  GNN_TRANSFORMER_PROP_DROPOUT,
  GNN_TRANSFORMER_PROP_ACTIVATION,
  GNN_TRANSFORMER_PROP_LAYER_NORM_EPS,
  GNN_TRANSFORMER_PROP_BATCH_FIRST,
  GNN_TRANSFORMER_PROP_NORM_FIRST,
  GNN_TRANSFORMER_PROP_DTYPE,
  GNN_TRANSFORMER_PROP_GENERATOR,
  GNN_TRANSFORMER_N_PROPS
};

void     gnn_transformer_config_init         (GnnTransformerConfig *c);
void     gnn_transformer_config_clear        (GnnTransformerConfig *c);
void     gnn_transformer_config_install      (GObjectClass         *klass,
                                              guint                 first);
gboolean gnn_transformer_config_get_property (GnnTransformerConfig *c,
                                              guint                 id,
                                              GValue               *value);
gboolean gnn_transformer_config_set_property (GnnTransformerConfig *c,
                                              guint                 id,
                                              const GValue         *value);
/* The arguments checked together (torch's messages). */
gboolean gnn_transformer_config_check        (const GnnTransformerConfig *c,
                                              GError              **error);

/* Sub-layers registered on @self under @name. */
gboolean gnn_transformer_add_attention       (GnnModule            *self,
                                              const char           *name,
                                              const GnnTransformerConfig *c,
                                              GError              **error);
gboolean gnn_transformer_add_linear          (GnnModule            *self,
                                              const char           *name,
                                              gint64                in,
                                              gint64                out,
                                              const GnnTransformerConfig *c,
                                              GError              **error);
gboolean gnn_transformer_add_norm            (GnnModule            *self,
                                              const char           *name,
                                              const GnnTransformerConfig *c,
                                              GError              **error);
gboolean gnn_transformer_add_dropout         (GnnModule            *self,
                                              const char           *name,
                                              const GnnTransformerConfig *c,
                                              GError              **error);

/* @dropout (@attention (query, kv, kv, attn_mask, key_padding_mask,
 * need_weights=False)[0]): torch's _sa_block and _mha_block. */
GnnTensor *gnn_transformer_attention_block   (GnnModule            *self,
                                              const char           *attention,
                                              const char           *dropout,
                                              GnnTensor            *query,
                                              GnnTensor            *kv,
                                              GnnTensor            *attn_mask,
                                              GnnTensor            *key_padding_mask,
                                              GError              **error);
/* @out_dropout (linear2 (dropout (activation (linear1 (x))))): _ff_block. */
GnnTensor *gnn_transformer_feed_forward      (GnnModule            *self,
                                              const GnnTransformerConfig *c,
                                              const char           *out_dropout,
                                              GnnTensor            *x,
                                              GError              **error);
/* x + block (norm (x)) with norm_first, else norm (x + block (x)); @x is
 * replaced by the result (FALSE with @error and @x untouched on failure). */
typedef GnnTensor *(*GnnTransformerBlock) (GnnModule  *self,
                                           GnnTensor  *x,
                                           gpointer    data,
                                           GError    **error);
gboolean   gnn_transformer_residual          (GnnModule            *self,
                                              gboolean              norm_first,
                                              const char           *norm,
                                              GnnTensor           **x,
                                              GnnTransformerBlock   block,
                                              gpointer              data,
                                              GError              **error);
/* Calls the child @name with one tensor (its hooks run). */
GnnTensor *gnn_transformer_call_child        (GnnModule            *self,
                                              const char           *name,
                                              GnnTensor            *x,
                                              GError              **error);
/* The key padding mask's dtype check the layers make first. */
gboolean   gnn_transformer_check_padding_mask (GnnTensor           *mask,
                                               GError             **error);

/* torch's copy.deepcopy of a layer for a stack: a new instance of its type
 * from its construct properties, its child modules the constructor did not
 * make copied the same way, its state dict and training flag loaded. */
GnnModule *gnn_transformer_clone_layer       (GnnModule            *layer,
                                              GError              **error);
/* A tensor argument or None. */
GnnValue  *gnn_transformer_value_of          (GnnTensor            *t);

/* A stack's child `layers`: a ModuleList of @num_layers copies of @layer
 * (of a default @default_type when NULL). */
gboolean   gnn_transformer_stack_build       (GnnModule            *self,
                                              GnnModule            *layer,
                                              GType                 default_type,
                                              gint64                num_layers,
                                              GError              **error);
/* Each of `layers` called (through its hooks) with (x[, memory]) and
 * @kwargs, then the child `norm` when set. */
GnnTensor *gnn_transformer_stack_forward     (GnnModule            *self,
                                              GnnTensor            *x,
                                              GnnTensor            *memory,
                                              GnnValue             *kwargs,
                                              GError              **error);

/* A stack's layer count check: beyond this a stack would not fit in memory
 * (and a bare loop over empty layers would hang). */
#define GNN_TRANSFORMER_MAX_LAYERS 65536

G_END_DECLS
