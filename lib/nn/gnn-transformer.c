/* gnn-transformer.c: torch.nn.Transformer, an encoder and a decoder stack
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "nn/gnn-nn-private.h"
#include "nn/gnn-transformer-private.h"

/**
 * GnnTransformer:
 *
 * `torch.nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6,
 * num_decoder_layers=6, dim_feedforward=2048, dropout=0.1,
 * activation=relu, custom_encoder=None, custom_decoder=None,
 * layer_norm_eps=1e-05, batch_first=False, norm_first=False)`: the child
 * `encoder`, a [class@Gnn.TransformerEncoder] of
 * [class@Gnn.TransformerEncoderLayer]s with a final LayerNorm, and the
 * child `decoder`, a [class@Gnn.TransformerDecoder] likewise (or the
 * modules given as custom-encoder / custom-decoder). As PyTorch's, every
 * parameter of more than one dimension is then drawn Xavier-uniform.
 *
 * Forward (a [vfunc@Gnn.Module.forward_args]) is PyTorch's
 * `forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
 * src_key_padding_mask=None, tgt_key_padding_mask=None,
 * memory_key_padding_mask=None)`.
 *
 * Since: 0.1
 */
struct _GnnTransformer
{
  GnnModule             parent_instance;
  GnnTransformerConfig  config;
  gint64                num_encoder_layers;
  gint64                num_decoder_layers;
  GnnModule            *custom_encoder;     /* construction only */
  GnnModule            *custom_decoder;
};

enum {
  PROP_0,
  PROP_NUM_ENCODER_LAYERS,
  PROP_NUM_DECODER_LAYERS,
  PROP_CUSTOM_ENCODER,
  PROP_CUSTOM_DECODER,
  PROP_FIRST_CONFIG
};

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnTransformer, gnn_transformer, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

static gint64
batch_size_of (GnnTensor *t,
               gboolean   batch_first)
{
  return gnn_tensor_get_shape (t, NULL)[batch_first ? 0 : 1];
}

/**
 * gnn_transformer_transform:
 * @self: a transformer
 * @src: the source sequence, (S, N, d_model) ((N, S, d_model) with
 *   batch-first; (S, d_model) unbatched)
 * @tgt: the target sequence, (T, N, d_model)
 * @src_mask: (nullable): the encoder's attention mask, (S, S)
 * @tgt_mask: (nullable): the decoder's self-attention mask, (T, T)
 * @memory_mask: (nullable): the decoder's memory attention mask, (T, S)
 * @src_key_padding_mask: (nullable): (N, S)
 * @tgt_key_padding_mask: (nullable): (N, T)
 * @memory_key_padding_mask: (nullable): (N, S)
 * @error: return location for a #GError
 *
 * The forward of `torch.nn.Transformer` without its own hooks.
 *
 * Returns: (transfer full): the output, shaped like @tgt, or %NULL with
 *   @error set ("the batch number of src and tgt must be equal")
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transformer_transform (GnnTransformer  *self,
                           GnnTensor       *src,
                           GnnTensor       *tgt,
                           GnnTensor       *src_mask,
                           GnnTensor       *tgt_mask,
                           GnnTensor       *memory_mask,
                           GnnTensor       *src_key_padding_mask,
                           GnnTensor       *tgt_key_padding_mask,
                           GnnTensor       *memory_key_padding_mask,
                           GError         **error)
{
  GnnModule *module = GNN_MODULE (self);
  GObject *encoder, *decoder;
  guint src_ndim, tgt_ndim;
  g_autoptr(GnnValue) args = NULL;
  g_autoptr(GnnValue) kwargs = NULL;
  g_autoptr(GnnValue) memory = NULL;
  g_autoptr(GnnValue) out = NULL;

  g_return_val_if_fail (GNN_IS_TRANSFORMER (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (src) && GNN_IS_TENSOR (tgt), NULL);

  if (!gnn_nn_check_constructed (self, error))
    return NULL;
  gnn_tensor_get_shape (src, &src_ndim);
  gnn_tensor_get_shape (tgt, &tgt_ndim);
  if (src_ndim == 3 && tgt_ndim >= 2 &&
      batch_size_of (src, self->config.batch_first) != batch_size_of (tgt, self->config.batch_first))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE, "the batch number of src and tgt must be equal");
      return NULL;
    }
  if (src_ndim == 0 || tgt_ndim == 0 ||
      gnn_tensor_get_shape (src, NULL)[src_ndim - 1] != self->config.d_model ||
      gnn_tensor_get_shape (tgt, NULL)[tgt_ndim - 1] != self->config.d_model)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "the feature number of src and tgt must be equal to d_model");
      return NULL;
    }
  encoder = gnn_module_get_child (module, "encoder", NULL);
  decoder = gnn_module_get_child (module, "decoder", NULL);
  if (!GNN_IS_MODULE (encoder) || !GNN_IS_MODULE (decoder))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_TYPE,
                           "Transformer.encoder and Transformer.decoder must be modules");
      return NULL;
    }
  args = gnn_value_new_tuple_take (1, gnn_value_new_tensor (src));
  kwargs = gnn_value_new_dict_take ("mask", gnn_transformer_value_of (src_mask),
                                    "src_key_padding_mask", gnn_transformer_value_of (src_key_padding_mask),
                                    NULL);
  if ((memory = gnn_module_call_args (GNN_MODULE (encoder), args, kwargs, error)) == NULL)
    return NULL;
  if (gnn_value_get_kind (memory) != GNN_VALUE_TENSOR)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "encoder returned %s, not a tensor",
                   gnn_value_get_type_name (memory));
      return NULL;
    }
  g_clear_pointer (&args, gnn_value_unref);
  g_clear_pointer (&kwargs, gnn_value_unref);
  args = gnn_value_new_tuple_take (2, gnn_value_new_tensor (tgt),
                                   gnn_value_new_tensor (gnn_value_get_tensor (memory)));
  kwargs = gnn_value_new_dict_take ("tgt_mask", gnn_transformer_value_of (tgt_mask),
                                    "memory_mask", gnn_transformer_value_of (memory_mask),
                                    "tgt_key_padding_mask", gnn_transformer_value_of (tgt_key_padding_mask),
                                    "memory_key_padding_mask",
                                    gnn_transformer_value_of (memory_key_padding_mask), NULL);
  if ((out = gnn_module_call_args (GNN_MODULE (decoder), args, kwargs, error)) == NULL)
    return NULL;
  if (gnn_value_get_kind (out) != GNN_VALUE_TENSOR)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_TYPE, "decoder returned %s, not a tensor",
                   gnn_value_get_type_name (out));
      return NULL;
    }
  return g_object_ref (gnn_value_get_tensor (out));
}

static GnnValue *
forward_args (GnnModule  *module,
              GnnValue   *args,
              GnnValue   *kwargs,
              GError    **error)
{
  GnnTensor *src, *tgt, *m[6] = { NULL }, *out;

  if (!gnn_args_parse (args, kwargs, "Transformer.forward", error,
                       "src", GNN_ARG_TENSOR, &src,
                       "tgt", GNN_ARG_TENSOR, &tgt,
                       "src_mask", GNN_ARG_OPTIONAL_TENSOR, &m[0],
                       "tgt_mask", GNN_ARG_OPTIONAL_TENSOR, &m[1],
                       "memory_mask", GNN_ARG_OPTIONAL_TENSOR, &m[2],
                       "src_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &m[3],
                       "tgt_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &m[4],
                       "memory_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &m[5],
                       NULL))
    return NULL;
  out = gnn_transformer_transform (GNN_TRANSFORMER (module), src, tgt, m[0], m[1], m[2], m[3], m[4],
                                   m[5], error);
  return out != NULL ? gnn_value_take_tensor (out) : NULL;
}

/**
 * gnn_transformer_generate_square_subsequent_mask:
 * @sz: the sequence length
 * @error: return location for a #GError
 *
 * `torch.nn.Transformer.generate_square_subsequent_mask(sz)`: the causal
 * mask, (sz, sz) float32, -inf above the diagonal (a position may not
 * attend to later ones) and 0 elsewhere.
 *
 * Returns: (transfer full): the mask, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transformer_generate_square_subsequent_mask (gint64   sz,
                                                 GError **error)
{
  g_autofree float *values = NULL;

  if (sz < 0 || (sz > 0 && sz > G_MAXINT32 / sz))
    {
      g_set_error (error, GNN_ERROR, sz < 0 ? GNN_ERROR_SHAPE : GNN_ERROR_MEMORY,
                   "generate_square_subsequent_mask: size %" G_GINT64_FORMAT " is %s", sz,
                   sz < 0 ? "negative" : "too large");
      return NULL;
    }
  values = g_try_new0 (float, MAX (sz * sz, 1));
  if (values == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY, "generate_square_subsequent_mask: out of memory");
      return NULL;
    }
  for (gint64 i = 0; i < sz; i++)
    for (gint64 j = i + 1; j < sz; j++)
      values[i * sz + j] = -INFINITY;
  return gnn_tensor_new_from_floats (values, (gsize) (sz * sz), (gint64[]) { sz, sz }, 2, error);
}

/* --- GObject -------------------------------------------------------------- */

/* An encoder or decoder stack of a new layer of @layer_type, with a final
 * LayerNorm. */
static gboolean
add_stack (GnnTransformer  *self,
           const char      *name,
           GnnModule       *custom,
           GType            stack_type,
           GType            layer_type,
           gint64           num_layers,
           GError         **error)
{
  const GnnTransformerConfig *c = &self->config;
  g_autoptr(GnnModule) layer = NULL;
  g_autoptr(GnnModule) stack = NULL;
  g_autoptr(GnnModule) norm = NULL;

  if (custom != NULL)
    return gnn_module_register_module (GNN_MODULE (self), name, custom, error);
  layer = gnn_nn_initable_new (layer_type, error, "d-model", c->d_model, "nhead", c->nhead,
                               "dim-feedforward", c->dim_feedforward, "dropout-p", c->dropout,
                               "activation-function", c->activation,
                               "layer-norm-eps", c->layer_norm_eps, "batch-first", c->batch_first,
                               "norm-first", c->norm_first, "dtype", c->dtype,
                               "generator", c->generator, NULL);
  if (layer == NULL)
    return FALSE;
  stack = gnn_nn_initable_new (stack_type, error, stack_type == GNN_TYPE_TRANSFORMER_ENCODER
                               ? "encoder-layer" : "decoder-layer", layer,
                               "num-layers", num_layers, NULL);
  norm = GNN_MODULE (gnn_layer_norm_new ((gint64[]) { c->d_model }, 1, c->layer_norm_eps, TRUE, error));
  return stack != NULL && norm != NULL &&
         gnn_module_set_child (stack, "norm", G_OBJECT (norm), error) &&
         gnn_module_register_module (GNN_MODULE (self), name, stack, error);
}

/* torch's _reset_parameters: Xavier-uniform for every matrix. */
static gboolean
reset_parameters (GnnTransformer  *self,
                  GError         **error)
{
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (GNN_MODULE (self), NULL, TRUE, NULL);
  GnnGenerator *gen = self->config.generator != NULL ? self->config.generator
                                                     : gnn_nn_default_generator_lock ();
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < params->len; i++)
    {
      guint ndim = 0;

      gnn_tensor_get_shape (g_ptr_array_index (params, i), &ndim);
      if (ndim > 1)
        ok = gnn_nn_xavier_ (g_ptr_array_index (params, i), FALSE, gen, error);
    }
  if (self->config.generator == NULL)
    gnn_nn_default_generator_unlock ();
  return ok;
}

static void
constructed (GObject *object)
{
  GnnTransformer *self = GNN_TRANSFORMER (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_transformer_parent_class)->constructed (object);
  if (!gnn_transformer_config_check (&self->config, &error) ||
      !add_stack (self, "encoder", self->custom_encoder, GNN_TYPE_TRANSFORMER_ENCODER,
                  GNN_TYPE_TRANSFORMER_ENCODER_LAYER, self->num_encoder_layers, &error) ||
      !add_stack (self, "decoder", self->custom_decoder, GNN_TYPE_TRANSFORMER_DECODER,
                  GNN_TYPE_TRANSFORMER_DECODER_LAYER, self->num_decoder_layers, &error) ||
      !reset_parameters (self, &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&self->config.generator);
  g_clear_object (&self->custom_encoder);
  g_clear_object (&self->custom_decoder);
}

static void
finalize (GObject *object)
{
  GnnTransformer *self = GNN_TRANSFORMER (object);

  gnn_transformer_config_clear (&self->config);
  g_clear_object (&self->custom_encoder);
  g_clear_object (&self->custom_decoder);
  G_OBJECT_CLASS (gnn_transformer_parent_class)->finalize (object);
}

static void
get_property (GObject    *object,
              guint       prop_id,
              GValue     *value,
              GParamSpec *pspec)
{
  GnnTransformer *self = GNN_TRANSFORMER (object);

  if (prop_id == PROP_NUM_ENCODER_LAYERS)
    g_value_set_int64 (value, self->num_encoder_layers);
  else if (prop_id == PROP_NUM_DECODER_LAYERS)
    g_value_set_int64 (value, self->num_decoder_layers);
  else if (prop_id < PROP_FIRST_CONFIG ||
           !gnn_transformer_config_get_property (&self->config, prop_id - PROP_FIRST_CONFIG, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
set_property (GObject      *object,
              guint         prop_id,
              const GValue *value,
              GParamSpec   *pspec)
{
  GnnTransformer *self = GNN_TRANSFORMER (object);

  switch (prop_id)
    {
    case PROP_NUM_ENCODER_LAYERS: self->num_encoder_layers = g_value_get_int64 (value); break;
    case PROP_NUM_DECODER_LAYERS: self->num_decoder_layers = g_value_get_int64 (value); break;
    case PROP_CUSTOM_ENCODER: g_set_object (&self->custom_encoder, g_value_get_object (value)); break;
    case PROP_CUSTOM_DECODER: g_set_object (&self->custom_decoder, g_value_get_object (value)); break;
    default:
      if (prop_id < PROP_FIRST_CONFIG ||
          !gnn_transformer_config_set_property (&self->config, prop_id - PROP_FIRST_CONFIG, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

#define CONSTRUCT_FLAGS (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS)

static void
gnn_transformer_class_init (GnnTransformerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = constructed;
  object_class->finalize = finalize;
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  module_class->forward_args = forward_args;

  /**
   * GnnTransformer:num-encoder-layers:
   *
   * The number of encoder layers.
   *
   * Since: 0.1
   */
  g_object_class_install_property (object_class, PROP_NUM_ENCODER_LAYERS,
    g_param_spec_int64 ("num-encoder-layers", NULL, NULL, 0, G_MAXINT64, 6, CONSTRUCT_FLAGS));
  /**
   * GnnTransformer:num-decoder-layers:
   *
   * The number of decoder layers.
   *
   * Since: 0.1
   */
  g_object_class_install_property (object_class, PROP_NUM_DECODER_LAYERS,
    g_param_spec_int64 ("num-decoder-layers", NULL, NULL, 0, G_MAXINT64, 6, CONSTRUCT_FLAGS));
  /**
   * GnnTransformer:custom-encoder:
   *
   * A module to use as the encoder (construction only), or %NULL.
   *
   * Since: 0.1
   */
  g_object_class_install_property (object_class, PROP_CUSTOM_ENCODER,
    g_param_spec_object ("custom-encoder", NULL, NULL, GNN_TYPE_MODULE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * GnnTransformer:custom-decoder:
   *
   * A module to use as the decoder (construction only), or %NULL.
   *
   * Since: 0.1
   */
  g_object_class_install_property (object_class, PROP_CUSTOM_DECODER,
    g_param_spec_object ("custom-decoder", NULL, NULL, GNN_TYPE_MODULE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /**
   * GnnTransformer:d-model:
   *
   * The feature size of the sequences.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:nhead:
   *
   * The number of attention heads of every layer.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:dim-feedforward:
   *
   * The hidden size of every layer's feed-forward network.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:dropout-p:
   *
   * PyTorch's `dropout`: the dropout probability of every layer.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:activation-function:
   *
   * PyTorch's `activation` by name: "relu" or "gelu".
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:layer-norm-eps:
   *
   * The eps of every layer norm.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:batch-first:
   *
   * Whether batched sequences are (batch, seq, feature).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:norm-first:
   *
   * Whether the layers normalize before each block (pre-norm).
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:dtype:
   *
   * The dtype of the parameters.
   *
   * Since: 0.1
   */
  /**
   * GnnTransformer:generator:
   *
   * The generator the initial parameters are drawn from, during
   * construction only; %NULL draws from the default generator.
   *
   * Since: 0.1
   */
  gnn_transformer_config_install (object_class, PROP_FIRST_CONFIG);
}

static void
gnn_transformer_init (GnnTransformer *self)
{
  gnn_transformer_config_init (&self->config);
  self->num_encoder_layers = 6;
  self->num_decoder_layers = 6;
}

/**
 * gnn_transformer_new:
 * @d_model: the feature size
 * @nhead: the number of heads, dividing @d_model
 * @num_encoder_layers: the number of encoder layers
 * @num_decoder_layers: the number of decoder layers
 * @error: return location for a #GError
 *
 * Creates `torch.nn.Transformer(d_model, nhead, num_encoder_layers,
 * num_decoder_layers)` with PyTorch's other defaults.
 *
 * Returns: (transfer full): the transformer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformer *
gnn_transformer_new (gint64   d_model,
                     gint64   nhead,
                     gint64   num_encoder_layers,
                     gint64   num_decoder_layers,
                     GError **error)
{
  if (d_model < 0 || nhead < 0 || num_encoder_layers < 0 || num_decoder_layers < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "Transformer: sizes and layer counts must be non-negative");
      return NULL;
    }
  return gnn_nn_initable_new (GNN_TYPE_TRANSFORMER, error, "d-model", d_model, "nhead", nhead,
                              "num-encoder-layers", num_encoder_layers,
                              "num-decoder-layers", num_decoder_layers, NULL);
}
