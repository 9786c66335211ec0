# _tensor_search.py: torch's cummax / cummin / logcumsumexp, searchsorted,
# bucketize, isin and unique_consecutive as Tensor methods and torch.*
# functions over gnn-tensor-cumulative.c and gnn-tensor-search.c, with
# torch's named tuples and keywords. Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections

from ._gi import Gnn, export
from ._tensor import Tensor, operand_or_raise
from ._tensor_math import with_out
from ._tensor_order import _function as _tuple_function

_CummaxResult = collections.namedtuple('cummax', ['values', 'indices'])
_CumminResult = collections.namedtuple('cummin', ['values', 'indices'])


def cummax(self, dim):
    return _CummaxResult(*Gnn.Tensor.cummax(self, int(dim)))


def cummin(self, dim):
    return _CumminResult(*Gnn.Tensor.cummin(self, int(dim)))


def logcumsumexp(self, dim):
    return Gnn.Tensor.logcumsumexp(self, int(dim))


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """The first element of each run of equal consecutive elements (+ inverse, counts)."""
    if dim is not None:
        raise NotImplementedError('unique_consecutive(dim=) is not supported by Gnn')
    values, inverse, counts = Gnn.Tensor.unique_consecutive(self)
    extra = ([inverse] if return_inverse else []) + ([counts] if return_counts else [])
    return tuple([values] + extra) if extra else values


for _f in (cummax, cummin, logcumsumexp, unique_consecutive):
    setattr(Tensor, _f.__name__, _f)
for _name in ('cummax', 'cummin'):
    export(_tuple_function(_name), _name)


@with_out
def logcumsumexp_function(input, dim):
    return logcumsumexp(input, dim)


logcumsumexp_function.__name__ = 'logcumsumexp'
export(logcumsumexp_function, 'logcumsumexp')


def unique_consecutive_function(input, return_inverse=False, return_counts=False, dim=None):
    return unique_consecutive(input, return_inverse, return_counts, dim)


unique_consecutive_function.__name__ = 'unique_consecutive'
export(unique_consecutive_function, 'unique_consecutive')


def _right(side, right):
    """torch's side= / right= pair."""
    if side is None:
        return bool(right)
    if side not in ('left', 'right'):
        raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got %s"
                           % side)
    if right and side == 'left':
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                           "got side of left while right was True")
    return side == 'right'


@export
@with_out
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 sorter=None):
    return Gnn.Tensor.searchsorted(sorted_sequence, operand_or_raise('searchsorted', input, 'input'),
                                   _right(side, right), bool(out_int32), sorter)


@export
@with_out
def bucketize(input, boundaries, *, out_int32=False, right=False):
    return Gnn.Tensor.bucketize(operand_or_raise('bucketize', input, 'input'), boundaries,
                                bool(out_int32), bool(right))


@export
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    return Gnn.Tensor.isin(operand_or_raise('isin', elements, 'elements'),
                           operand_or_raise('isin', test_elements, 'test_elements'),
                           bool(assume_unique), bool(invert))
