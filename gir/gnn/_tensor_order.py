# _tensor_order.py: torch's order statistics (kthvalue, median, nanmedian, mode)
# as Tensor methods and torch.* functions over gnn-tensor-order.c, with
# torch's named tuples. Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections

from ._gi import Gnn, export
from ._tensor import Tensor
from ._tensor_math import with_out

_KthvalueResult = collections.namedtuple('kthvalue', ['values', 'indices'])
_MedianResult = collections.namedtuple('median', ['values', 'indices'])
_NanmedianResult = collections.namedtuple('nanmedian', ['values', 'indices'])
_ModeResult = collections.namedtuple('mode', ['values', 'indices'])


def kthvalue(self, k, dim=-1, keepdim=False):
    return _KthvalueResult(*Gnn.Tensor.kthvalue(self, int(k), int(dim), bool(keepdim)))


def median(self, dim=None, keepdim=False):
    """The lower median of all elements, or along dim torch's (values,
    indices)."""
    if dim is None:
        return Gnn.Tensor.median(self)
    return _MedianResult(*Gnn.Tensor.median_dim(self, int(dim), bool(keepdim)))


def nanmedian(self, dim=None, keepdim=False):
    if dim is None:
        return Gnn.Tensor.nanmedian(self)
    return _NanmedianResult(*Gnn.Tensor.nanmedian_dim(self, int(dim), bool(keepdim)))


def mode(self, dim=-1, keepdim=False):
    """The most frequent value along dim (the smallest among ties) and its
    last position."""
    return _ModeResult(*Gnn.Tensor.mode(self, int(dim), bool(keepdim)))


for _f in (kthvalue, median, nanmedian, mode):
    setattr(Tensor, _f.__name__, _f)


def _function(name):
    method = getattr(Tensor, name)

    def function(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    function.__name__ = name
    return with_out(function)


for _name in ('kthvalue', 'median', 'nanmedian', 'mode'):
    export(_function(_name), _name)
