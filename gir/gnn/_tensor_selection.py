# _tensor_selection.py: torch's sort, argsort, topk and gather. The order
# (or the gathered positions) is computed on the values through numpy;
# the values themselves are picked with index_select from the flattened
# tensor, so their gradient flows back to the chosen elements as torch's.
# NaN sorts as the largest value, as in torch.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections

from ._gi import Gnn, export, np
from ._tensor import Tensor, wrap_dim

_SortResult = collections.namedtuple('sort', ['values', 'indices'])
_TopkResult = collections.namedtuple('topk', ['values', 'indices'])


def _pick(self, positions):
    """self's elements at `positions` (a numpy array of multi-indices along
    the first axis: one per dimension), shaped like positions[0]; a gradient
    flows back to them."""
    shape = positions[0].shape
    flat = np.ravel_multi_index(tuple(positions), tuple(self.get_shape())).reshape(-1)
    source = Gnn.Tensor.reshape(Gnn.Tensor.contiguous(self), [-1])
    index = Tensor.from_numpy(flat.astype(np.int64))
    return Gnn.Tensor.reshape(Gnn.Tensor.index_select(source, 0, index), list(shape))


def _order(self, dim, descending):
    values = self.detach().numpy()
    if values.dtype.kind == 'f':
        # NaN is the largest value: first when descending, last otherwise
        nan = np.isnan(values)
        key = np.where(nan, -np.inf, -values) if descending else values
    else:   # integers and bools, as int64 (negating INT64_MIN aside)
        key = -values.astype(np.int64) if descending else values
    return np.argsort(key, axis=dim, kind='stable')


def _positions(self, dim, order):
    grid = list(np.indices(order.shape))
    grid[dim] = order
    return grid


def sort(self, dim=-1, descending=False, stable=False):
    """torch's sort: (values, indices) along `dim` (ties in input order)."""
    dim = wrap_dim(self, dim)
    if self.get_ndim() == 0:
        return _SortResult(self.clone(), Tensor.from_numpy(np.zeros((), dtype=np.int64)))
    order = _order(self, dim, descending)
    return _SortResult(_pick(self, _positions(self, dim, order)),
                       Tensor.from_numpy(order.astype(np.int64)))


def argsort(self, dim=-1, descending=False, stable=False):
    return sort(self, dim, descending).indices


def topk(self, k, dim=-1, largest=True, sorted=True):
    """torch's topk: the k largest (or smallest) along `dim`, sorted."""
    dim = wrap_dim(self, dim)
    size = self.get_shape()[dim] if self.get_ndim() else 1
    if not 0 <= k <= size:
        raise RuntimeError('selected index k out of range')
    if self.get_ndim() == 0:
        return _TopkResult(self.clone(), Tensor.from_numpy(np.zeros((), dtype=np.int64)))
    order = np.take(_order(self, dim, largest), np.arange(k), axis=dim)
    return _TopkResult(_pick(self, _positions(self, dim, order)),
                       Tensor.from_numpy(order.astype(np.int64)))


def gather(self, dim, index):
    """torch's gather: out[i][j] = self[i][index[i][j]] for dim=1, and so on;
    index may be smaller than self in the other dimensions."""
    ndim = self.get_ndim()
    dim = wrap_dim(self, dim)
    idx = index.numpy()
    if idx.ndim != ndim:
        raise RuntimeError('Index tensor must have the same number of dimensions as input '
                           'tensor')
    if idx.size and (idx.min() < 0 or idx.max() >= self.get_shape()[dim]):
        raise RuntimeError('index %d is out of bounds for dimension %d with size %d'
                           % (int(idx.max() if idx.max() >= self.get_shape()[dim] else idx.min()),
                              dim, self.get_shape()[dim]))
    return _pick(self, _positions(self, dim, idx))


if np is not None:
    for _f in (sort, argsort, topk, gather):
        setattr(Tensor, _f.__name__, _f)
        export(_f, _f.__name__)
