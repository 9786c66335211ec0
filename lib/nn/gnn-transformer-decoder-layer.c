/* gnn-transformer-decoder-layer.c: torch.nn.TransformerDecoderLayer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-transformer-private.h"

/**
 * GnnTransformerDecoderLayer:
 *
 * A transformer decoder layer, `torch.nn.TransformerDecoderLayer(d_model,
 * nhead, dim_feedforward=2048, dropout=0.1, activation=relu,
 * layer_norm_eps=1e-05, batch_first=False, norm_first=False)`:
 * self-attention, attention over the encoder's output (the memory) and a
 * feed-forward network, each with a residual connection and a layer norm
 * (after it, or before it with
 * [property@Gnn.TransformerDecoderLayer:norm-first]).
 *
 * Its children are PyTorch's, in PyTorch's order, so its state dict has
 * PyTorch's keys: `self_attn` and `multihead_attn` (each a
 * [class@Gnn.MultiheadAttention]), `linear1`, `dropout`, `linear2`,
 * `norm1`, `norm2`, `norm3`, `dropout1`, `dropout2`, `dropout3`; a module
 * registered as the child `activation` replaces the activation function.
 *
 * Forward (a [vfunc@Gnn.Module.forward_args]) is PyTorch's
 * `forward(tgt, memory, tgt_mask=None, memory_mask=None,
 * tgt_key_padding_mask=None, memory_key_padding_mask=None)`; each child is
 * called through its hooks.
 *
 * Since: 0.1
 */
typedef struct
{
  GnnTransformerConfig config;
} GnnTransformerDecoderLayerPrivate;

G_DEFINE_TYPE_WITH_CODE (GnnTransformerDecoderLayer, gnn_transformer_decoder_layer, GNN_TYPE_MODULE,
                         G_ADD_PRIVATE (GnnTransformerDecoderLayer)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(self) ((GnnTransformerDecoderLayerPrivate *) \
                    gnn_transformer_decoder_layer_get_instance_private (GNN_TRANSFORMER_DECODER_LAYER (self)))

typedef struct
{
  GnnTensor *memory;
  GnnTensor *tgt_mask;
  GnnTensor *memory_mask;
  GnnTensor *tgt_key_padding_mask;
  GnnTensor *memory_key_padding_mask;
} Inputs;

static GnnTensor *
self_attention_block (GnnModule  *self,
                      GnnTensor  *x,
                      gpointer    data,
                      GError    **error)
{
  Inputs *in = data;

  return gnn_transformer_attention_block (self, "self_attn", "dropout1", x, x, in->tgt_mask,
                                          in->tgt_key_padding_mask, error);
}

static GnnTensor *
memory_attention_block (GnnModule  *self,
                        GnnTensor  *x,
                        gpointer    data,
                        GError    **error)
{
  Inputs *in = data;

  return gnn_transformer_attention_block (self, "multihead_attn", "dropout2", x, in->memory,
                                          in->memory_mask, in->memory_key_padding_mask, error);
}

static GnnTensor *
feed_forward_block (GnnModule  *self,
                    GnnTensor  *x,
                    gpointer    data,
                    GError    **error)
{
  return gnn_transformer_feed_forward (self, &PRIV (self)->config, "dropout3", x, error);
}

/**
 * gnn_transformer_decoder_layer_decode:
 * @self: a decoder layer
 * @tgt: the target sequence, (T, N, d_model) ((N, T, d_model) with
 *   batch-first; (T, d_model) unbatched)
 * @memory: the encoder's output, (S, N, d_model)
 * @tgt_mask: (nullable): the self-attention mask, (T, T) or (N·nhead, T, T)
 * @memory_mask: (nullable): the memory attention mask, (T, S) or
 *   (N·nhead, T, S)
 * @tgt_key_padding_mask: (nullable): (N, T)
 * @memory_key_padding_mask: (nullable): (N, S)
 * @error: return location for a #GError
 *
 * The forward of `torch.nn.TransformerDecoderLayer` without this layer's
 * own hooks (its children's run).
 *
 * Returns: (transfer full): the decoded sequence, shaped like @tgt, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transformer_decoder_layer_decode (GnnTransformerDecoderLayer  *self,
                                      GnnTensor                   *tgt,
                                      GnnTensor                   *memory,
                                      GnnTensor                   *tgt_mask,
                                      GnnTensor                   *memory_mask,
                                      GnnTensor                   *tgt_key_padding_mask,
                                      GnnTensor                   *memory_key_padding_mask,
                                      GError                     **error)
{
  Inputs in = { memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask };
  GnnModule *module = GNN_MODULE (self);
  gboolean norm_first;
  GnnTensor *x;

  g_return_val_if_fail (GNN_IS_TRANSFORMER_DECODER_LAYER (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tgt) && GNN_IS_TENSOR (memory), NULL);

  if (!gnn_nn_check_constructed (self, error))
    return NULL;
  norm_first = PRIV (self)->config.norm_first;
  x = g_object_ref (tgt);
  if (!gnn_transformer_residual (module, norm_first, "norm1", &x, self_attention_block, &in, error) ||
      !gnn_transformer_residual (module, norm_first, "norm2", &x, memory_attention_block, &in, error) ||
      !gnn_transformer_residual (module, norm_first, "norm3", &x, feed_forward_block, NULL, error))
    {
      g_object_unref (x);
      return NULL;
    }
  return x;
}

static GnnValue *
forward_args (GnnModule  *module,
              GnnValue   *args,
              GnnValue   *kwargs,
              GError    **error)
{
  GnnTensor *tgt, *memory, *tgt_mask = NULL, *memory_mask = NULL, *tgt_kpm = NULL, *memory_kpm = NULL;
  GnnTensor *out;

  if (!gnn_args_parse (args, kwargs, "TransformerDecoderLayer.forward", error,
                       "tgt", GNN_ARG_TENSOR, &tgt,
                       "memory", GNN_ARG_TENSOR, &memory,
                       "tgt_mask", GNN_ARG_OPTIONAL_TENSOR, &tgt_mask,
                       "memory_mask", GNN_ARG_OPTIONAL_TENSOR, &memory_mask,
                       "tgt_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &tgt_kpm,
                       "memory_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &memory_kpm,
                       NULL))
    return NULL;
  out = gnn_transformer_decoder_layer_decode (GNN_TRANSFORMER_DECODER_LAYER (module), tgt, memory,
                                              tgt_mask, memory_mask, tgt_kpm, memory_kpm, error);
  return out != NULL ? gnn_value_take_tensor (out) : NULL;
}

/* --- GObject -------------------------------------------------------------- */

static gboolean
create_children (GnnModule  *self,
                 GError    **error)
{
  const GnnTransformerConfig *c = &PRIV (self)->config;

  return gnn_transformer_config_check (c, error) &&
         gnn_transformer_add_attention (self, "self_attn", c, error) &&
         gnn_transformer_add_attention (self, "multihead_attn", c, error) &&
         gnn_transformer_add_linear (self, "linear1", c->d_model, c->dim_feedforward, c, error) &&
         gnn_transformer_add_dropout (self, "dropout", c, error) &&
         gnn_transformer_add_linear (self, "linear2", c->dim_feedforward, c->d_model, c, error) &&
         gnn_transformer_add_norm (self, "norm1", c, error) &&
         gnn_transformer_add_norm (self, "norm2", c, error) &&
         gnn_transformer_add_norm (self, "norm3", c, error) &&
         gnn_transformer_add_dropout (self, "dropout1", c, error) &&
         gnn_transformer_add_dropout (self, "dropout2", c, error) &&
         gnn_transformer_add_dropout (self, "dropout3", c, error);
}

static void
constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_transformer_decoder_layer_parent_class)->constructed (object);
  if (!create_children (GNN_MODULE (object), &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&PRIV (object)->config.generator);
}

static void
finalize (GObject *object)
{
  gnn_transformer_config_clear (&PRIV (object)->config);
  G_OBJECT_CLASS (gnn_transformer_decoder_layer_parent_class)->finalize (object);
}

static void
get_property (GObject    *object,
              guint       prop_id,
              GValue     *value,
              GParamSpec *pspec)
{
  if (!gnn_transformer_config_get_property (&PRIV (object)->config, prop_id - 1, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
set_property (GObject      *object,
              guint         prop_id,
              const GValue *value,
              GParamSpec   *pspec)
{
  if (!gnn_transformer_config_set_property (&PRIV (object)->config, prop_id - 1, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_transformer_decoder_layer_class_init (GnnTransformerDecoderLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = constructed;
  object_class->finalize = finalize;
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  module_class->forward_args = forward_args;

  /**
   * GnnTransformerDecoderLayer:d-model:
   *
   * The feature size of the sequence (PyTorch's `d_model`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:nhead:
   *
   * The number of attention heads; it must divide d-model.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:dim-feedforward:
   *
   * The hidden size of the feed-forward network.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:dropout-p:
   *
   * PyTorch's `dropout` (the name of a child here): the dropout probability of the attention weights and of the four
   * dropout children.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:activation-function:
   *
   * PyTorch's `activation` given by name: the feed-forward activation, "relu" or "gelu" (unless a module is
   * registered as the child `activation`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:layer-norm-eps:
   *
   * The eps of the three layer norms.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:batch-first:
   *
   * Whether batched sequences are (batch, seq, feature).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:norm-first:
   *
   * Whether each block normalizes its input (pre-norm) rather than the sum
   * of the residual connection (post-norm).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:dtype:
   *
   * The dtype of the parameters.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerDecoderLayer:generator:
   *
   * The generator the initial parameters are drawn from, during
   * construction only; %NULL draws from the default generator.
   *
   * Since: 0.1
   */
  gnn_transformer_config_install (object_class, 1);
}

static void
gnn_transformer_decoder_layer_init (GnnTransformerDecoderLayer *self)
{
  gnn_transformer_config_init (&PRIV (self)->config);
}

/**
 * gnn_transformer_decoder_layer_new:
 * @d_model: the feature size
 * @nhead: the number of heads, dividing @d_model
 * @error: return location for a #GError
 *
 * Creates `torch.nn.TransformerDecoderLayer(d_model, nhead)` with
 * PyTorch's defaults; other settings through g_initable_new() and the
 * properties.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerDecoderLayer *
gnn_transformer_decoder_layer_new (gint64   d_model,
                                   gint64   nhead,
                                   GError **error)
{
  if (d_model < 0 || nhead < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "TransformerDecoderLayer: d_model and nhead must be non-negative, got %"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT, d_model, nhead);
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_TRANSFORMER_DECODER_LAYER, error, "d-model", d_model,
                              "nhead", nhead, NULL);
}
