# _nn.py: torch's constructors for the layers without a Python protocol of
# their own, Parameter(t, requires_grad=True), and the Gnn.nn namespace
# (Gnn.nn.Linear, Gnn.nn.Module; Gnn.nn.functional, Gnn.nn.init and
# Gnn.nn.utils come from _functional, _init and _nn_utils).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from ._compat_torch_signatures import torch_class
from ._gi import EXPORTS, Gnn, export

# The C layers whose constructors take torch's signature (its table row).
_TORCH_LAYERS = (
    'Linear', 'Conv1d', 'Conv2d', 'Conv3d', 'ConvTranspose1d', 'ConvTranspose2d',
    'ConvTranspose3d', 'ConstantPad1d', 'ConstantPad2d', 'ConstantPad3d', 'ZeroPad2d',
    'ReflectionPad1d', 'ReflectionPad2d', 'ReflectionPad3d', 'ReplicationPad1d',
    'ReplicationPad2d', 'ReplicationPad3d', 'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d',
    'AdaptiveAvgPool3d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d', 'AdaptiveMaxPool3d', 'Upsample',
    'UpsamplingNearest2d', 'UpsamplingBilinear2d', 'MaxPool1d', 'AvgPool1d', 'MaxPool2d', 'AvgPool2d', 'BatchNorm1d',
    'BatchNorm2d', 'Dropout', 'Embedding', 'LayerNorm', 'ReLU', 'GELU', 'Softmax', 'LogSoftmax',
    'Flatten',
)
for _name in _TORCH_LAYERS:
    torch_class(_name)


def _parameter(data=None, requires_grad=True):
    if data is None:
        data = Gnn.Tensor.empty([0], Gnn.DType.F32)
    return Gnn.Parameter.new(data, requires_grad)


torch_class('Parameter', _parameter, 'data=None, requires_grad=True')

# Gnn.nn: the torch.nn spellings of the module classes.
_NN_NAMES = (('Module', 'Parameter', 'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList',
              'ParameterDict') + _TORCH_LAYERS +
             ('Identity', 'Sigmoid', 'Tanh', 'CrossEntropyLoss', 'NLLLoss', 'MSELoss',
              'BCEWithLogitsLoss'))

nn = export(types.ModuleType('Gnn.nn', 'torch.nn\'s spellings over Gnn\'s modules.'), 'nn')
for _name in _NN_NAMES:
    setattr(nn, _name, EXPORTS.get(_name) or getattr(Gnn, _name))
