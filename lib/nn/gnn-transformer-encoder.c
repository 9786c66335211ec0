/* gnn-transformer-encoder.c: torch.nn.TransformerEncoder, a stack of
 * copies of one encoder layer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "nn/gnn-nn-private.h"
#include "nn/gnn-transformer-private.h"

/**
 * GnnTransformerEncoder:
 *
 * `torch.nn.TransformerEncoder(encoder_layer, num_layers, norm=None)`:
 * [property@Gnn.TransformerEncoder:num-layers] copies of
 * [property@Gnn.TransformerEncoder:encoder-layer] (each with the layer's
 * configuration and a copy of its parameters, as PyTorch's deep copies),
 * the child `layers` (a [class@Gnn.ModuleList]), applied in turn, then the
 * optional child `norm`. State-dict keys are PyTorch's
 * (`layers.0.self_attn.in_proj_weight`, ..., `norm.weight`).
 *
 * Forward (a [vfunc@Gnn.Module.forward_args]) is PyTorch's
 * `forward(src, mask=None, src_key_padding_mask=None)`; each layer is
 * called through its hooks with `src_mask` and `src_key_padding_mask`.
 *
 * Since: 0.1
 */
struct _GnnTransformerEncoder
{
  GnnModule  parent_instance;
  GnnModule *encoder_layer;   /* construction only */
  gint64     num_layers;
};

enum {
  PROP_0,
  PROP_ENCODER_LAYER,
  PROP_NUM_LAYERS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnTransformerEncoder, gnn_transformer_encoder, GNN_TYPE_MODULE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, gnn_nn_initable_iface_init))

/**
 * gnn_transformer_encoder_encode:
 * @self: an encoder
 * @src: the sequence (see [method@Gnn.TransformerEncoderLayer.encode])
 * @mask: (nullable): the attention mask given to every layer
 * @src_key_padding_mask: (nullable): the key padding mask given to every
 *   layer
 * @error: return location for a #GError
 *
 * The forward of `torch.nn.TransformerEncoder` without its own hooks.
 *
 * Returns: (transfer full): the encoded sequence, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_transformer_encoder_encode (GnnTransformerEncoder  *self,
                                GnnTensor              *src,
                                GnnTensor              *mask,
                                GnnTensor              *src_key_padding_mask,
                                GError                **error)
{
  g_autoptr(GnnValue) kwargs = NULL;

  g_return_val_if_fail (GNN_IS_TRANSFORMER_ENCODER (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (src), NULL);

  if (!gnn_nn_check_constructed (self, error) ||
      !gnn_transformer_check_padding_mask (src_key_padding_mask, error))
    return NULL;

  kwargs = gnn_value_new_dict_take ("src_mask", gnn_transformer_value_of (mask),
                                    "src_key_padding_mask",
                                    gnn_transformer_value_of (src_key_padding_mask), NULL);
  return gnn_transformer_stack_forward (GNN_MODULE (self), src, NULL, kwargs, error);
}

static GnnValue *
forward_args (GnnModule  *module,
              GnnValue   *args,
              GnnValue   *kwargs,
              GError    **error)
{
  GnnTensor *src, *mask = NULL, *padding = NULL, *out;

  if (!gnn_args_parse (args, kwargs, "TransformerEncoder.forward", error,
                       "src", GNN_ARG_TENSOR, &src,
                       "mask", GNN_ARG_OPTIONAL_TENSOR, &mask,
                       "src_key_padding_mask", GNN_ARG_OPTIONAL_TENSOR, &padding,
                       NULL))
    return NULL;
  out = gnn_transformer_encoder_encode (GNN_TRANSFORMER_ENCODER (module), src, mask, padding, error);
  return out != NULL ? gnn_value_take_tensor (out) : NULL;
}

/* --- GObject -------------------------------------------------------------- */

static void
constructed (GObject *object)
{
  GnnTransformerEncoder *self = GNN_TRANSFORMER_ENCODER (object);
  GError *error = NULL;

  G_OBJECT_CLASS (gnn_transformer_encoder_parent_class)->constructed (object);
  if (!gnn_transformer_stack_build (GNN_MODULE (self), self->encoder_layer,
                                    GNN_TYPE_TRANSFORMER_ENCODER_LAYER, self->num_layers, &error))
    gnn_nn_set_construct_error (object, error);
  g_clear_object (&self->encoder_layer);
}

static void
finalize (GObject *object)
{
  g_clear_object (&GNN_TRANSFORMER_ENCODER (object)->encoder_layer);
  G_OBJECT_CLASS (gnn_transformer_encoder_parent_class)->finalize (object);
}

static void
get_property (GObject    *object,
              guint       prop_id,
              GValue     *value,
              GParamSpec *pspec)
{
  if (prop_id == PROP_NUM_LAYERS)
    g_value_set_int64 (value, GNN_TRANSFORMER_ENCODER (object)->num_layers);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
set_property (GObject      *object,
              guint         prop_id,
              const GValue *value,
              GParamSpec   *pspec)
{
  GnnTransformerEncoder *self = GNN_TRANSFORMER_ENCODER (object);

  switch (prop_id)
    {
    case PROP_ENCODER_LAYER: g_set_object (&self->encoder_layer, g_value_get_object (value)); break;
    case PROP_NUM_LAYERS: self->num_layers = g_value_get_int64 (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_transformer_encoder_class_init (GnnTransformerEncoderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->constructed = constructed;
  object_class->finalize = finalize;
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  module_class->forward_args = forward_args;

  /**
   * GnnTransformerEncoder:encoder-layer:
   *
   * The layer the stack copies, during construction only (the copies are
   * the children `layers.0` ...); %NULL copies a default
   * [class@Gnn.TransformerEncoderLayer].
   *
   * Since: 0.1
   */
  properties[PROP_ENCODER_LAYER] =
    g_param_spec_object ("encoder-layer", NULL, NULL, GNN_TYPE_MODULE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnTransformerEncoder:num-layers:
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
   * GnnTransformerEncoder:norm:
   *
   * The module applied to the last layer's output (PyTorch's `norm`), or
   * %NULL.
   *
   * Since: 0.1
   */
  gnn_module_class_install_child_slot (module_class, "norm", GNN_TYPE_MODULE);
}

static void
gnn_transformer_encoder_init (GnnTransformerEncoder *self)
{
  self->num_layers = 1;
}

/**
 * gnn_transformer_encoder_new:
 * @encoder_layer: the layer to copy
 * @num_layers: the number of copies
 * @norm: (nullable): the module applied to the output, or %NULL
 * @error: return location for a #GError
 *
 * Creates `torch.nn.TransformerEncoder(encoder_layer, num_layers, norm)`.
 *
 * Returns: (transfer full): the encoder, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTransformerEncoder *
gnn_transformer_encoder_new (GnnModule  *encoder_layer,
                             gint64      num_layers,
                             GnnModule  *norm,
                             GError    **error)
{
  g_autoptr(GnnTransformerEncoder) self = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (encoder_layer), NULL);
  g_return_val_if_fail (norm == NULL || GNN_IS_MODULE (norm), NULL);

  if (num_layers < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "num_layers must be non-negative, got %" G_GINT64_FORMAT, num_layers);
      return NULL;
    }
  self = gnn_nn_initable_new (GNN_TYPE_TRANSFORMER_ENCODER, error, "encoder-layer", encoder_layer,
                              "num-layers", num_layers, NULL);
  if (self == NULL || (norm != NULL &&
                       !gnn_module_set_child (GNN_MODULE (self), "norm", G_OBJECT (norm), error)))
    return NULL;
  return g_steal_pointer (&self);
}
