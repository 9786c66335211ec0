# _nn.py: torch's constructors for the layers without a Python protocol of
# their own, Parameter(t, requires_grad=True), and the Gnn.nn namespace
# (Gnn.nn.Linear, Gnn.nn.Module; Gnn.nn.functional, Gnn.nn.init and
# Gnn.nn.utils come from _functional, _init and _nn_utils).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from ._gi import EXPORTS, Gnn, export
from ._signature import (DEVICE, DEVICE_DTYPE, none_or, only, pair, pool_stride,
                         shape_variant, torch_class, torch_factory)

# torch's constructors, declared per class (see _signature).
_BATCH_NORM = ('num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, '
               'device=None, dtype=None')
torch_class('Linear', 'in_features, out_features, bias=True, device=None, dtype=None',
            {'bias': 'has_bias', 'device': DEVICE})
torch_class('Bilinear', 'in1_features, in2_features, out_features, bias=True, device=None, dtype=None',
            dict(DEVICE_DTYPE, bias='has_bias'))
torch_class('MaxPool2d', 'kernel_size, stride=None, padding=0, dilation=1, return_indices=False, '
            'ceil_mode=False',
            {'kernel_size': pair('kernel'), 'stride': pool_stride, 'padding': pair('padding'),
             'dilation': pair('dilation')})
torch_class('AvgPool2d', 'kernel_size, stride=None, padding=0, ceil_mode=False, '
            'count_include_pad=True, divisor_override=None',
            {'kernel_size': pair('kernel'), 'stride': pool_stride, 'padding': pair('padding'),
             'divisor_override': none_or('divisor_override')})
torch_class('BatchNorm1d', _BATCH_NORM, DEVICE_DTYPE)
torch_class('BatchNorm2d', _BATCH_NORM, DEVICE_DTYPE)
torch_class('BatchNorm3d', _BATCH_NORM, DEVICE_DTYPE)
torch_class('Dropout', 'p=0.5, inplace=False')
torch_class('Embedding', 'num_embeddings, embedding_dim, padding_idx=None, max_norm=None, '
            'norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None, '
            'device=None, dtype=None',
            dict(DEVICE_DTYPE, padding_idx=none_or('padding_idx'), max_norm=none_or('max_norm'),
                 sparse=only(False, 'sparse'), _weight=only(None, '_weight')))
torch_class('EmbeddingBag', 'num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, '
            "scale_grad_by_freq=False, mode='mean', sparse=False, _weight=None, include_last_offset=False, "
            'padding_idx=None, device=None, dtype=None',
            dict(DEVICE_DTYPE, padding_idx=none_or('padding_idx'), max_norm=none_or('max_norm'),
                 sparse=only(False, 'sparse'), _weight=only(None, '_weight')))
torch_class('LayerNorm', 'normalized_shape, eps=1e-05, elementwise_affine=True, device=None, '
            'dtype=None', dict(DEVICE_DTYPE, normalized_shape=shape_variant))
torch_class('ReLU', 'inplace=False')
torch_class('GELU', "approximate='none'")
torch_class('Softmax', 'dim=None', {'dim': none_or('dim')})
torch_class('LogSoftmax', 'dim=None', {'dim': none_or('dim')})
torch_class('Flatten', 'start_dim=1, end_dim=-1')


def _parameter(data=None, requires_grad=True):
    if data is None:
        data = Gnn.Tensor.empty([0], Gnn.DType.F32)
    return Gnn.Parameter.new(data, requires_grad)


torch_factory('Parameter', _parameter, 'data=None, requires_grad=True')

# The convolution, padding, pooling and resampling layers' declarations, before
# Gnn.nn takes the classes below.
from . import _nn_layers  # noqa: E402,F401

# Gnn.nn: the torch.nn spellings of the module classes.
_NN_NAMES = ('Module', 'Parameter', 'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList',
             'ParameterDict', 'Linear', 'Bilinear', 'Conv2d', 'MaxPool2d', 'AvgPool2d',
             'AdaptiveAvgPool2d', 'BatchNorm1d',
             'BatchNorm2d', 'Dropout', 'Embedding', 'LayerNorm', 'ReLU', 'GELU', 'Softmax',
             'LogSoftmax', 'Flatten', 'Identity', 'Sigmoid', 'Tanh', 'CrossEntropyLoss',
             'NLLLoss', 'MSELoss', 'BCEWithLogitsLoss')

nn = export(types.ModuleType('Gnn.nn', 'torch.nn\'s spellings over Gnn\'s modules.'), 'nn')
for _name in _NN_NAMES:
    setattr(nn, _name, EXPORTS.get(_name) or getattr(Gnn, _name))
