# _attention.py: torch's spellings of the attention layers and functions
# (the C ones): MultiheadAttention's constructor,
# F.scaled_dot_product_attention (torch 2.0's) and
# F.multi_head_attention_forward (torch 1.13's).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import EXPORTS, Gnn, call_c
from ._signature import DEVICE_DTYPE, none_or, torch_class

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
