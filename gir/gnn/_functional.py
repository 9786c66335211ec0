# _functional.py: torch.nn.functional's spellings (Gnn.functional, also
# Gnn.nn.functional) and the torch.* math functions (Gnn.relu, Gnn.exp ...),
# each a call of the C tensor op or loss module.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from ._gi import EXPORTS, Gnn, call_c, export
from ._tensor import Tensor


def relu(input, inplace=False):
    if inplace:
        Gnn.Tensor.relu_(input)
        return input
    return Gnn.Tensor.relu(input)


def softmax(input, dim=None, dtype=None):
    return Gnn.Tensor.softmax(input if dtype is None else input.to(dtype), dim)


def log_softmax(input, dim=None, dtype=None):
    return Gnn.Tensor.log_softmax(input if dtype is None else input.to(dtype), dim)


def _loss(cls_name):
    def loss(input, target, **options):
        module = EXPORTS[cls_name](**options)
        return call_c(module.compute, input, target)
    return loss


cross_entropy = _loss('CrossEntropyLoss')
nll_loss = _loss('NLLLoss')
mse_loss = _loss('MSELoss')
binary_cross_entropy_with_logits = _loss('BCEWithLogitsLoss')
for _name, _f in (('cross_entropy', cross_entropy), ('nll_loss', nll_loss),
                  ('mse_loss', mse_loss),
                  ('binary_cross_entropy_with_logits', binary_cross_entropy_with_logits)):
    _f.__name__ = _name


def linear(input, weight, bias=None):
    out = Gnn.Tensor.matmul(input, Tensor.t(weight))
    return out if bias is None else Gnn.Tensor.add(out, bias)


def bilinear(input1, input2, weight, bias=None):
    return call_c(Gnn.Tensor.bilinear, input1, input2, weight, bias)


def dropout(input, p=0.5, training=True, inplace=False):
    return EXPORTS['Dropout'](p)(input) if training else input


def one_hot(tensor, num_classes=-1):
    n = num_classes if num_classes >= 0 else int(tensor.max().item()) + 1
    eye = Gnn.Tensor.eq(Gnn.Tensor.unsqueeze(tensor, -1),
                        Gnn.Tensor.arange(0, n, 1, Gnn.DType.I64))
    return eye.to_dtype(Gnn.DType.I64)


sigmoid = Gnn.Tensor.sigmoid
tanh = Gnn.Tensor.tanh

functional = export(types.ModuleType('Gnn.functional',
                                     "torch.nn.functional's spellings."), 'functional')
for _f in (relu, softmax, log_softmax, cross_entropy, nll_loss, mse_loss,
           binary_cross_entropy_with_logits, linear, bilinear, dropout, one_hot):
    setattr(functional, _f.__name__, _f)
functional.sigmoid = sigmoid
functional.tanh = tanh
EXPORTS['nn'].functional = functional

# torch.<op>(tensor, ...) spellings of the tensor methods.
for _name in ('exp', 'log', 'sqrt', 'abs', 'sigmoid', 'tanh', 'relu', 'matmul', 'where',
              'allclose', 'equal', 'flatten', 'reshape', 'squeeze', 'unsqueeze', 'transpose',
              'permute', 'sum', 'mean', 'max', 'min', 'argmax', 'argmin', 'softmax',
              'log_softmax', 'clone', 'detach', 'neg', 'pow', 'eq', 'ne', 'lt', 'le', 'gt', 'ge',
              'add', 'sub', 'mul', 'div'):
    export(getattr(Tensor, _name), _name)
