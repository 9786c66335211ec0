# _tensor_reduce.py: torch's reductions, scans and selections as Tensor
# methods and torch.* functions over the C ops — sum/mean/prod (dtype=),
# max/min (values, positions or elementwise), amax/amin, argmax/argmin,
# all/any, var/std (unbiased or correction) and var_mean/std_mean,
# logsumexp, norm, cumsum/cumprod, sort/argsort/topk, unique, bincount,
# histc, nonzero. Keyword mapping and torch's named tuples only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections
import types

from ._gi import Gnn, export
from ._tensor import Tensor, dims_arg
from ._tensor_math import with_out

# torch.return_types: the named tuples of the selecting reductions
_MaxResult = collections.namedtuple('max', ['values', 'indices'])
_MinResult = collections.namedtuple('min', ['values', 'indices'])
_SortResult = collections.namedtuple('sort', ['values', 'indices'])
_TopkResult = collections.namedtuple('topk', ['values', 'indices'])


def _cast(t, dtype):
    """torch's dtype= of the reductions and scans: the input converted first."""
    return t if dtype is None else t.to(dtype)


def sum(self, dim=None, keepdim=False, dtype=None):
    return Gnn.Tensor.sum(_cast(self, dtype), dims_arg(dim), keepdim)


def mean(self, dim=None, keepdim=False, dtype=None):
    return Gnn.Tensor.mean(_cast(self, dtype), dims_arg(dim), keepdim)


def prod(self, dim=None, keepdim=False, dtype=None):
    return Gnn.Tensor.prod(_cast(self, dtype), dims_arg(dim), keepdim)


def max(self, dim=None, keepdim=False):
    """The largest value; along an int dim torch's (values, indices); a
    tensor argument gives the elementwise maximum."""
    if isinstance(dim, Gnn.Tensor):
        return Gnn.Tensor.maximum(self, dim)
    if dim is None:
        return Gnn.Tensor.max(self, [], False)
    if isinstance(dim, (list, tuple)):   # the library's spelling: dims, values only
        return Gnn.Tensor.max(self, list(dim), keepdim)
    values, indices = Gnn.Tensor.max_dim(self, int(dim), keepdim)
    return _MaxResult(values, indices)


def min(self, dim=None, keepdim=False):
    if isinstance(dim, Gnn.Tensor):
        return Gnn.Tensor.minimum(self, dim)
    if dim is None:
        return Gnn.Tensor.min(self, [], False)
    if isinstance(dim, (list, tuple)):   # the library's spelling: dims, values only
        return Gnn.Tensor.min(self, list(dim), keepdim)
    values, indices = Gnn.Tensor.min_dim(self, int(dim), keepdim)
    return _MinResult(values, indices)


def amax(self, dim=(), keepdim=False):
    return Gnn.Tensor.max(self, dims_arg(dim), keepdim)


def amin(self, dim=(), keepdim=False):
    return Gnn.Tensor.min(self, dims_arg(dim), keepdim)


def argmax(self, dim=None, keepdim=False):
    if dim is None:
        return Gnn.Tensor.argmax_all(self, keepdim)
    return Gnn.Tensor.argmax(self, int(dim), keepdim)


def argmin(self, dim=None, keepdim=False):
    if dim is None:
        return Gnn.Tensor.argmin_all(self, keepdim)
    return Gnn.Tensor.argmin(self, int(dim), keepdim)


def all(self, dim=None, keepdim=False):
    return Gnn.Tensor.all(self, dims_arg(dim), keepdim)


def any(self, dim=None, keepdim=False):
    return Gnn.Tensor.any(self, dims_arg(dim), keepdim)


def _correction(dim, unbiased, correction):
    """torch's var/std arguments: var(unbiased), var(dim, unbiased, keepdim)
    or correction=; the dims and the correction."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased else 0
    return dims_arg(dim), float(correction)


def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
    dims, c = _correction(dim, unbiased, correction)
    return Gnn.Tensor.var(self, dims, c, keepdim)


def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
    dims, c = _correction(dim, unbiased, correction)
    return Gnn.Tensor.std(self, dims, c, keepdim)


def logsumexp(self, dim, keepdim=False):
    return Gnn.Tensor.logsumexp(self, dims_arg(dim), keepdim)


def _order(p):
    if p is None or p == 'fro':
        return 2.0
    if isinstance(p, str):
        raise RuntimeError("Gnn's norm supports vector norms only, not p=%r" % p)
    return float(p)


def norm(self, p='fro', dim=None, keepdim=False, dtype=None):
    if p == 'nuc':   # torch.norm's nuclear norm is linalg.matrix_norm's
        if dim is None and self.dim() != 2:
            raise RuntimeError('Expected a tensor with 2 dimensions, but got a tensor with %d '
                               'dimensions instead.' % self.dim())
        d0, d1 = (0, 1) if dim is None else dim
        return Gnn.Tensor.linalg_matrix_norm(_cast(self, dtype), 'nuc', int(d0), int(d1), keepdim)
    return Gnn.Tensor.norm(_cast(self, dtype), _order(p), dims_arg(dim), keepdim)


def cumsum(self, dim, dtype=None):
    return Gnn.Tensor.cumsum(_cast(self, dtype), int(dim))


def cumsum_(self, dim, dtype=None):
    if dtype is not None and self.to(dtype).get_dtype() != self.get_dtype():
        raise RuntimeError('cumsum_: dtype= must be the tensor\'s own dtype in place')
    Gnn.Tensor.cumsum_(self, int(dim))
    return self


def cumprod(self, dim, dtype=None):
    return Gnn.Tensor.cumprod(_cast(self, dtype), int(dim))


def sort(self, dim=-1, descending=False, stable=False):
    values, indices = Gnn.Tensor.sort(self, int(dim), bool(descending), bool(stable))
    return _SortResult(values, indices)


def argsort(self, dim=-1, descending=False, stable=False):
    return Gnn.Tensor.argsort(self, int(dim), bool(descending))


def msort(self):
    return sort(self, 0).values


def topk(self, k, dim=-1, largest=True, sorted=True):
    values, indices = Gnn.Tensor.topk(self, int(k), int(dim), bool(largest), bool(sorted))
    return _TopkResult(values, indices)


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique: the sorted distinct values (+ inverse, counts)."""
    if dim is not None:
        raise NotImplementedError('unique(dim=) is not supported by Gnn')
    values, inverse, counts = Gnn.Tensor.unique(self)
    extra = ([inverse] if return_inverse else []) + ([counts] if return_counts else [])
    return tuple([values] + extra) if extra else values


def bincount(self, weights=None, minlength=0):
    return Gnn.Tensor.bincount(self, weights, int(minlength))


def histc(self, bins=100, min=0, max=0):
    return Gnn.Tensor.histc(self, int(bins), float(min), float(max))


def nonzero(self, as_tuple=False):
    coords = Gnn.Tensor.nonzero(self)
    return tuple(Gnn.Tensor.unbind(coords, 1)) if as_tuple else coords


def count_nonzero(self, dim=None):
    """torch.count_nonzero: the number of nonzero elements over dim."""
    return Gnn.Tensor.sum(Gnn.Tensor.ne(self, Gnn.Tensor.new_wrapped_int(0)), dims_arg(dim), False)


for _f in (sum, mean, prod, max, min, amax, amin, argmax, argmin, all, any, var, std, logsumexp,
           norm, cumsum, cumsum_, cumprod, sort, argsort, msort, topk, unique, bincount, histc, nonzero,
           count_nonzero):
    setattr(Tensor, _f.__name__, _f)


# --- torch.* functions ----------------------------------------------------------------

def _function(name):
    method = getattr(Tensor, name)

    def function(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    function.__name__ = name
    function.__doc__ = method.__doc__
    return function


# out= where torch's function takes it (not for the named-tuple results)
for _name in ('sum', 'mean', 'prod', 'amax', 'amin', 'argmax', 'argmin', 'all', 'any', 'var',
              'std', 'logsumexp', 'norm', 'cumsum', 'cumprod', 'argsort', 'bincount', 'histc',
              'nonzero'):
    export(with_out(_function(_name)), _name)
for _name in ('max', 'min', 'sort', 'topk', 'unique', 'msort', 'count_nonzero'):
    export(_function(_name), _name)


@export
def var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """torch.var_mean: (variance, mean)."""
    dims, c = _correction(dim, unbiased, correction)
    return Gnn.Tensor.var_mean(input, dims, c, keepdim)


@export
def std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    dims, c = _correction(dim, unbiased, correction)
    return Gnn.Tensor.std_mean(input, dims, c, keepdim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.vector_norm."""
    return Gnn.Tensor.vector_norm(_cast(x, dtype), float(ord), dims_arg(dim), keepdim)


_linalg = export(types.ModuleType('Gnn.linalg', "torch.linalg's vector norm."), 'linalg')
_linalg.vector_norm = with_out(vector_norm)
# torch.linalg.norm (vector or matrix): _linalg_decomp.py
