# _attention.py: torch's spellings of the attention layers and functions
# (the C ones): MultiheadAttention's constructor,
# F.scaled_dot_product_attention (torch 2.0's) and
# F.multi_head_attention_forward (torch 1.13's).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import EXPORTS, Gnn, call_c
from ._signature import DEVICE_DTYPE, Post, ignore, none_or, torch_class

torch_class('MultiheadAttention',
            'embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, '
            'add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None, dtype=None',
            dict(DEVICE_DTYPE, kdim=none_or('kdim'), vdim=none_or('vdim')))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False):
    return call_c(Gnn.Tensor.scaled_dot_product_attention, query, key, value, attn_mask,
                  float(dropout_p), bool(is_causal), None)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True):
    return tuple(call_c(Gnn.multi_head_attention_forward, query, key, value,
                        int(embed_dim_to_check), int(num_heads), in_proj_weight, in_proj_bias,
                        bias_k, bias_v, bool(add_zero_attn), float(dropout_p), out_proj_weight,
                        out_proj_bias, bool(training), key_padding_mask, bool(need_weights),
                        attn_mask, bool(use_separate_proj_weight), q_proj_weight, k_proj_weight,
                        v_proj_weight, static_k, static_v, bool(average_attn_weights)))


for _f in (scaled_dot_product_attention, multi_head_attention_forward):
    setattr(EXPORTS['nn'].functional, _f.__name__, _f)


# --- the transformer layers -------------------------------------------------

def _activation(value):
    """activation='relu'/'gelu' or F.relu/F.gelu is the property; a module
    is registered as the child `activation` after construction."""
    if isinstance(value, str):
        return {'activation_function': value}
    if isinstance(value, Gnn.Module):
        return {}
    name = getattr(value, '__name__', None)
    if name in ('relu', 'gelu'):
        return {'activation_function': name}
    raise ValueError('activation=%r is not supported by Gnn: give "relu", "gelu" or a module'
                     % (value,))


_LAYER = ("d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu', "
          "layer_norm_eps=1e-05, batch_first=False, norm_first=False, device=None, dtype=None")
_ACTIVATION_POSITION = 4


def _layer_init(self, *args, **kwargs):
    self._torch_init(*args, **kwargs)
    activation = (args[_ACTIVATION_POSITION] if len(args) > _ACTIVATION_POSITION
                  else kwargs.get('activation'))
    if isinstance(activation, Gnn.Module):
        self.register_module('activation', activation)


def _with_relu_default(cls):
    """torch's default activation is the function F.relu (no literal in a
    signature text): the declared signature says so too."""
    declaration = cls.__torch_signature__
    params = [p.replace(default=EXPORTS['nn'].functional.relu) if p.name == 'activation' else p
              for p in declaration.signature.parameters.values()]
    declaration.signature = declaration.signature.replace(parameters=params)
    cls.__init__.__signature__ = declaration.signature
    return cls


def _set_norm(module, norm):
    if norm is not None:
        module.norm = norm


_with_relu_default(torch_class('TransformerEncoderLayer', _LAYER,
                               dict(DEVICE_DTYPE, activation=_activation, dropout='dropout_p'),
                               extra={'__init__': _layer_init}))
torch_class('TransformerEncoder',
            'encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True',
            {'norm': Post(_set_norm), 'enable_nested_tensor': ignore, 'mask_check': ignore})
_with_relu_default(torch_class('TransformerDecoderLayer', _LAYER,
                               dict(DEVICE_DTYPE, activation=_activation, dropout='dropout_p'),
                               extra={'__init__': _layer_init}))
torch_class('TransformerDecoder', 'decoder_layer, num_layers, norm=None',
            {'norm': Post(_set_norm)})


def _generate_square_subsequent_mask(sz, device='cpu'):
    return call_c(Gnn.Transformer.generate_square_subsequent_mask, int(sz))


_with_relu_default(torch_class(
    'Transformer',
    "d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048, "
    "dropout=0.1, activation='relu', custom_encoder=None, custom_decoder=None, "
    "layer_norm_eps=1e-05, batch_first=False, norm_first=False, device=None, dtype=None",
    dict(DEVICE_DTYPE, activation=_activation, dropout='dropout_p'),
    extra={'generate_square_subsequent_mask': staticmethod(_generate_square_subsequent_mask)}))
