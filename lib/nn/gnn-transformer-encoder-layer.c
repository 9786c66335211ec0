/* gnn-transformer-encoder-layer.c: torch.nn.TransformerEncoderLayer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-transformer-private.h"

/**
 * GnnTransformerEncoderLayer:
 *
 * A transformer encoder layer, `torch.nn.TransformerEncoderLayer(d_model,
 * nhead, dim_feedforward=2048, dropout=0.1, activation=relu,
 * layer_norm_eps=1e-05, batch_first=False, norm_first=False)`: self-attention
 * and a feed-forward network, each with a residual connection and a layer
 * norm (after it, or before it with
 * [property@Gnn.TransformerEncoderLayer:norm-first]).
 *
 * Its children are PyTorch's, in PyTorch's order, so its state dict has
 * PyTorch's keys: `self_attn` (a [class@Gnn.MultiheadAttention]),
 * `linear1`, `dropout`, `linear2`, `norm1`, `norm2`, `dropout1`,
 * `dropout2`; a module registered as the child `activation` replaces the
 * activation function (PyTorch's `activation=` given a module).
 *
 * Forward (a [vfunc@Gnn.Module.forward_args]) is PyTorch's
 * `forward(src, src_mask=None, src_key_padding_mask=None)`; each child is
 * called through its hooks.
 *
 * Since: 0.1
 */
typedef struct
{
  GnnTransformerConfig config;
} GnnTransformerEncoderLayerPrivate;

G_DEFINE_TYPE_WITH_CODE (GnnTransformerEncoderLayer, gnn_transformer_encoder_layer, GNN_TYPE_MODULE,
                         G_ADD_PRIVATE (GnnTransformerEncoderLayer)
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

#define PRIV(self) ((GnnTransformerEncoderLayerPrivate *) \
                    gnn_transformer_encoder_layer_get_instance_private (GNN_TRANSFORMER_ENCODER_LAYER (self)))

typedef struct
{
  GnnTensor *mask;
  GnnTensor *key_padding_mask;
} Masks;

static GnnTensor *
self_attention_block (GnnModule  *self,
                      GnnTensor  *x,
                      gpointer    data,
                      GError    **error)
{
  Masks *m = data;

  return gnn_transformer_attention_block (self, "self_attn", "dropout1", x, x, m->mask,
                                          m->key_padding_mask, error);
}

static GnnTensor *
feed_forward_block (GnnModule  *self,
                    GnnTensor  *x,
                    gpointer    data,
                    GError    **error)
{
  return gnn_transformer_feed_forward (self, &PRIV (self)->config, "dropout2", x, error);
}

/**
 * gnn_transformer_encoder_layer_encode:
 * @self: an encoder layer
 * @src: the sequence, (S, N, d_model) ((N, S, d_model) with batch-first;
 *   (S, d_model) unbatched)
 * @src_mask: (nullable): the attention mask, (S, S) or (N·nhead, S, S),
 *   bool or floating (see [method@Gnn.MultiheadAttention.attend])
 * @src_key_padding_mask: (nullable): (N, S): bool (%TRUE: ignore the key)
 *   or floating
 * @error: return location for a #GError
 *
 * The forward of `torch.nn.TransformerEncoderLayer` without this layer's
 * own hooks (its children's run).
 *
 * Returns: (transfer full): the encoded sequence, shaped like @src, or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transformer_encoder_layer_encode (GnnTransformerEncoderLayer  *self,
                                      GnnTensor                   *src,
                                      GnnTensor                   *src_mask,
                                      GnnTensor                   *src_key_padding_mask,
                                      GError                     **error)
{
  Masks masks = { src_mask, src_key_padding_mask };
  GnnModule *module = GNN_MODULE (self);
  gboolean norm_first;
  GnnTensor *x;

  g_return_val_if_fail (GNN_IS_TRANSFORMER_ENCODER_LAYER (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (src), NULL);

  if (!gnn_nn_check_constructed (self, error) ||
      !gnn_transformer_check_padding_mask (src_key_padding_mask, error))
    return NULL;
  norm_first = PRIV (self)->config.norm_first;
  x = g_object_ref (src);
  if (!gnn_transformer_residual (module, norm_first, "norm1", &x, self_attention_block, &masks, error) ||
      !gnn_transformer_residual (module, norm_first, "norm2", &x, feed_forward_block, NULL, error))
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
  GnnTensor *src, *mask = NULL, *padding = NULL, *out;

  if (!gnn_args_parse (args, kwargs, "TransformerEncoderLayer.forward", error,
                       "src", GNN_ARG_TENSOR, &src,
                       "src_mask", GNN_ARG_OPTIONAL_TENSOR, &mask,
                       "src_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &padding,
                       NULL))
    return NULL;
  out = gnn_transformer_encoder_layer_encode (GNN_TRANSFORMER_ENCODER_LAYER (module), src, mask,
                                              padding, error);
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
         gnn_transformer_add_linear (self, "linear1", c->d_model, c->dim_feedforward, c, error) &&
         gnn_transformer_add_dropout (self, "dropout", c, error) &&
         gnn_transformer_add_linear (self, "linear2", c->dim_feedforward, c->d_model, c, error) &&
         gnn_transformer_add_norm (self, "norm1", c, error) &&
         gnn_transformer_add_norm (self, "norm2", c, error) &&
         gnn_transformer_add_dropout (self, "dropout1", c, error) &&
         gnn_transformer_add_dropout (self, "dropout2", c, error);
}

static void
constructed (GObject *object)
{
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_transformer_encoder_layer_parent_class)->constructed (object);
  if (!create_children (GNN_MODULE (object), &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&PRIV (object)->config.generator);
}

static void
finalize (GObject *object)
{
  gnn_transformer_config_clear (&PRIV (object)->config);
  G_OBJECT_CLASS (gnn_transformer_encoder_layer_parent_class)->finalize (object);
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
gnn_transformer_encoder_layer_class_init (GnnTransformerEncoderLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = constructed;
  object_class->finalize = finalize;
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  module_class->forward_args = forward_args;

  /**
   * GnnTransformerEncoderLayer:d-model:
   *
   * The feature size of the sequence (PyTorch's `d_model`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:nhead:
   *
   * The number of attention heads; it must divide d-model.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:dim-feedforward:
   *
   * The hidden size of the feed-forward network.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:dropout-p:
   *
   * PyTorch's `dropout` (the name of a child here): the dropout probability of the attention weights and of the three
   * dropout children.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:activation-function:
   *
   * PyTorch's `activation` given by name: the feed-forward activation, "relu" or "gelu" (unless a module is
   * registered as the child `activation`).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:layer-norm-eps:
   *
   * The eps of both layer norms.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:batch-first:
   *
   * Whether batched sequences are (batch, seq, feature).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:norm-first:
   *
   * Whether each block normalizes its input (pre-norm) rather than the sum
   * of the residual connection (post-norm).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:dtype:
   *
   * The dtype of the parameters.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformerEncoderLayer:generator:
   *
   * The generator the initial parameters are drawn from, during
   * construction only; %NULL draws from the default generator.
   *
   * Since: 0.1
   */
  gnn_transformer_config_install (object_class, 1);
}

static void
gnn_transformer_encoder_layer_init (GnnTransformerEncoderLayer *self)
{
  gnn_transformer_config_init (&PRIV (self)->config);
}

/**
 * gnn_transformer_encoder_layer_new:
 * @d_model: the feature size
 * @nhead: the number of heads, dividing @d_model
 * @error: return location for a #GError
 *
 * Creates `torch.nn.TransformerEncoderLayer(d_model, nhead)` with
 * PyTorch's defaults; other settings through g_initable_new() and the
 * properties.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerEncoderLayer *
gnn_transformer_encoder_layer_new (gint64   d_model,
                                   gint64   nhead,
                                   GError **error)
{
  if (d_model < 0 || nhead < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "TransformerEncoderLayer: d_model and nhead must be non-negative, got %"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT, d_model, nhead);
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_TRANSFORMER_ENCODER_LAYER, error, "d-model", d_model,
                              "nhead", nhead, NULL);
}
