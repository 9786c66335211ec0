/* gnn-transformer-decoder.c: torch.nn.TransformerDecoder, a stack of
 * copies of one decoder layer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-transformer-private.h"

/**
 * GnnTransformerDecoder:
 *
 * `torch.nn.TransformerDecoder(decoder_layer, num_layers, norm=None)`:
 * [property@Gnn.TransformerDecoder:num-layers] copies of
 * [property@Gnn.TransformerDecoder:decoder-layer] (each with the layer's
 * configuration and a copy of its parameters, as PyTorch's deep copies),
 * the child `layers` (a [class@Gnn.ModuleList]), applied in turn, then the
 * optional child `norm`. State-dict keys are PyTorch's
 * (`layers.0.multihead_attn.in_proj_weight`, ..., `norm.weight`).
 *
 * Forward (a [vfunc@Gnn.Module.forward_args]) is PyTorch's
 * `forward(tgt, memory, tgt_mask=None, memory_mask=None,
 * tgt_key_padding_mask=None, memory_key_padding_mask=None)`; each layer is
 * called through its hooks with the memory and the masks.
 *
 * Since: 0.1
 */
struct _GnnTransformerDecoder
{
  GnnModule  parent_instance;
  GnnModule *decoder_layer;   /* construction only */
  gint64     num_layers;
};

enum {
  PROP_0,
  PROP_DECODER_LAYER,
  PROP_NUM_LAYERS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnTransformerDecoder, gnn_transformer_decoder, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

/**
 * gnn_transformer_decoder_decode:
 * @self: a decoder
 * @tgt: the target sequence (see [method@Gnn.TransformerDecoderLayer.decode])
 * @memory: the encoder's output
 * @tgt_mask: (nullable): the self-attention mask given to every layer
 * @memory_mask: (nullable): the memory attention mask given to every layer
 * @tgt_key_padding_mask: (nullable): (N, T)
 * @memory_key_padding_mask: (nullable): (N, S)
 * @error: return location for a #GError
 *
 * The forward of `torch.nn.TransformerDecoder` without its own hooks.
 *
 * Returns: (transfer full): the decoded sequence, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transformer_decoder_decode (GnnTransformerDecoder  *self,
                                GnnTensor              *tgt,
                                GnnTensor              *memory,
                                GnnTensor              *tgt_mask,
                                GnnTensor              *memory_mask,
                                GnnTensor              *tgt_key_padding_mask,
                                GnnTensor              *memory_key_padding_mask,
                                GError                **error)
{
  g_autoptr(GnnValue) kwargs = NULL;

  g_return_val_if_fail (GNN_IS_TRANSFORMER_DECODER (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (tgt) && GNN_IS_TENSOR (memory), NULL);

  if (!gnn_nn_check_constructed (self, error))
    return NULL;
  kwargs = gnn_value_new_dict_take ("tgt_mask", gnn_transformer_value_of (tgt_mask),
                                    "memory_mask", gnn_transformer_value_of (memory_mask),
                                    "tgt_key_padding_mask", gnn_transformer_value_of (tgt_key_padding_mask),
                                    "memory_key_padding_mask",
                                    gnn_transformer_value_of (memory_key_padding_mask), NULL);
  return gnn_transformer_stack_forward (GNN_MODULE (self), tgt, memory, kwargs, error);
}

static GnnValue *
forward_args (GnnModule  *module,
              GnnValue   *args,
              GnnValue   *kwargs,
              GError    **error)
{
  GnnTensor *tgt, *memory, *tgt_mask = NULL, *memory_mask = NULL, *tgt_kpm = NULL, *memory_kpm = NULL;
  GnnTensor *out;

  if (!gnn_args_parse (args, kwargs, "TransformerDecoder.forward", error,
                       "tgt", GNN_ARG_TENSOR, &tgt,
                       "memory", GNN_ARG_TENSOR, &memory,
                       "tgt_mask", GNN_ARG_OPTIONAL_TENSOR, &tgt_mask,
                       "memory_mask", GNN_ARG_OPTIONAL_TENSOR, &memory_mask,
                       "tgt_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &tgt_kpm,
                       "memory_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &memory_kpm,
                       NULL))
    return NULL;
  out = gnn_transformer_decoder_decode (GNN_TRANSFORMER_DECODER (module), tgt, memory, tgt_mask,
                                        memory_mask, tgt_kpm, memory_kpm, error);
  return out != NULL ? gnn_value_take_tensor (out) : NULL;
}

/* --- GObject -------------------------------------------------------------- */

static void
constructed (GObject *object)
{
  GnnTransformerDecoder *self = GNN_TRANSFORMER_DECODER (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_transformer_decoder_parent_class)->constructed (object);
  if (!gnn_transformer_stack_build (GNN_MODULE (self), self->decoder_layer,
                                    GNN_TYPE_TRANSFORMER_DECODER_LAYER, self->num_layers, &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&self->decoder_layer);
}

static void
finalize (GObject *object)
{
  g_clear_object (&GNN_TRANSFORMER_DECODER (object)->decoder_layer);
  G_OBJECT_CLASS (gnn_transformer_decoder_parent_class)->finalize (object);
}

static void
get_property (GObject    *object,
              guint       prop_id,
              GValue     *value,
              GParamSpec *pspec)
{
  if (prop_id == PROP_NUM_LAYERS)
    g_value_set_int64 (value, GNN_TRANSFORMER_DECODER (object)->num_layers);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
set_property (GObject      *object,
              guint         prop_id,
              const GValue *value,
              GParamSpec   *pspec)
{
  GnnTransformerDecoder *self = GNN_TRANSFORMER_DECODER (object);

  switch (prop_id)
    {
    case PROP_DECODER_LAYER: g_set_object (&self->decoder_layer, g_value_get_object (value)); break;
    case PROP_NUM_LAYERS: self->num_layers = g_value_get_int64 (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_transformer_decoder_class_init (GnnTransformerDecoderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = constructed;
  object_class->finalize = finalize;
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  module_class->forward_args = forward_args;

  /**
   * GnnTransformerDecoder:decoder-layer:
   *
   * The layer the stack copies, during construction only (the copies are
   * the children `layers.0` ...); %NULL copies a default
   * [class@Gnn.TransformerDecoderLayer].
   *
   * Since: 0.1
   */
  properties[PROP_DECODER_LAYER] =
    g_param_spec_object ("decoder-layer", NULL, NULL, GNN_TYPE_MODULE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnTransformerDecoder:num-layers:
   *
   * The number of layers.
   *
   * Since: 0.1
   */
  properties[PROP_NUM_LAYERS] =
    g_param_spec_int64 ("num-layers", NULL, NULL, 0, G_MAXINT64, 1,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /**
   * GnnTransformerDecoder:norm:
   *
   * The module applied to the last layer's output (PyTorch's `norm`), or
   * %NULL.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "norm", GNN_TYPE_MODULE);
}

static void
gnn_transformer_decoder_init (GnnTransformerDecoder *self)
{
  self->num_layers = 1;
}

/**
 * gnn_transformer_decoder_new:
 * @decoder_layer: the layer to copy
 * @num_layers: the number of copies
 * @norm: (nullable): the module applied to the output, or %NULL
 * @error: return location for a #GError
 *
 * Creates `torch.nn.TransformerDecoder(decoder_layer, num_layers, norm)`.
 *
 * Returns: (transfer full): the decoder, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerDecoder *
gnn_transformer_decoder_new (GnnModule  *decoder_layer,
                             gint64      num_layers,
                             GnnModule  *norm,
                             GError    **error)
{
  g_autoptr(GnnTransformerDecoder) self = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (decoder_layer), NULL);
  g_return_val_if_fail (norm == NULL || GNN_IS_MODULE (norm), NULL);

  if (num_layers < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "num_layers must be non-negative, got %" G_GINT64_FORMAT, num_layers);
      return NULL;
    }
  self = gnn_nn_initable_new (GNN_TYPE_TRANSFORMER_DECODER, error, "decoder-layer", decoder_layer,
                              "num-layers", num_layers, NULL);
  if (self == NULL || (norm != NULL &&
                       !gnn_module_set_child (GNN_MODULE (self), "norm", G_OBJECT (norm), error)))
    return NULL;
  return g_steal_pointer (&self);
}
