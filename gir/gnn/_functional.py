# _functional.py: torch.nn.functional's spellings (Gnn.functional, also
# Gnn.nn.functional) and the torch.* math functions (Gnn.relu, Gnn.exp ...),
# each a call of the C tensor op or loss module.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from ._gi import EXPORTS, Gnn, call_as_torch, call_c, export
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


def linear(input, weight, bias=None):
    return call_c(Gnn.Tensor.linear, input, weight, bias)


def bilinear(input1, input2, weight, bias=None):
    return call_c(Gnn.Tensor.bilinear, input1, input2, weight, bias)


def dropout(input, p=0.5, training=True, inplace=False):
    return call_as_torch(ValueError, Gnn.dropout, input, float(p), training, inplace, None)


def one_hot(tensor, num_classes=-1):
    return Gnn.one_hot(tensor, num_classes)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    result = Gnn.normalize(input, float(p), dim, float(eps))
    return result if out is None else out.copy_(result)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    return Gnn.cosine_similarity(x1, x2, dim, float(eps))


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return Gnn.pairwise_distance(x1, x2, float(p), float(eps), keepdim)


sigmoid = Gnn.Tensor.sigmoid
tanh = Gnn.Tensor.tanh

functional = export(types.ModuleType('Gnn.functional',
                                     "torch.nn.functional's spellings."), 'functional')
for _f in (relu, softmax, log_softmax, linear, bilinear, dropout, one_hot, normalize,
           cosine_similarity, pairwise_distance):
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
