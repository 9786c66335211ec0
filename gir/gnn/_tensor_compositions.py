# _tensor_compositions.py: torch tensor methods that Gnn composes from its
# own differentiable ops (where, sum, mean, narrow, cat, expand), so their
# gradients come for free: clamp/clip, masked_fill, var/std, chunk/split,
# repeat, expand(*sizes); and all/any, whose bool results need none.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import numbers

from ._creation import full_like
from ._gi import Gnn, export, np
from ._tensor import Tensor, wrap_dim


def _like_value(self, value):
    """`value` (a number or a tensor) as a tensor next to `self`."""
    return value if isinstance(value, Gnn.Tensor) else full_like(self, value)


def clamp(self, min=None, max=None):
    """torch's clamp: NaN stays NaN; the gradient is 1 between the bounds."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if not self.is_floating_point() and any(isinstance(b, float) for b in (min, max)):
        self = self.float()   # torch: an integer tensor and a float bound give float32
    out = self
    if min is not None:
        low = _like_value(self, min)
        out = Gnn.Tensor.where(out < low, low, out)
    if max is not None:
        high = _like_value(self, max)
        out = Gnn.Tensor.where(out > high, high, out)
    return out


def clamp_(self, min=None, max=None):
    return self.copy_(clamp(self, min, max))


def masked_fill(self, mask, value):
    """`value` where `mask` is true (mask broadcasts against self)."""
    if not isinstance(mask, Gnn.Tensor) or mask.get_dtype() != Gnn.DType.BOOL:
        raise RuntimeError('masked_fill_ only supports boolean masks, but got mask with dtype %s'
                           % (mask.dtype if isinstance(mask, Gnn.Tensor) else type(mask).__name__))
    return Gnn.Tensor.where(mask, _like_value(self, value), self)


def masked_fill_(self, mask, value):
    return self.copy_(masked_fill(self, mask, value))


def _dims(self, dim):
    if dim is None:
        return list(range(self.get_ndim()))
    dims = [dim] if isinstance(dim, numbers.Integral) else dim
    return [wrap_dim(self, d) for d in dims]


def var(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """torch's var: (x - mean)² summed over `dim`, divided by N - correction
    (1 by default: unbiased)."""
    if isinstance(dim, bool):   # torch's var(unbiased) overload
        dim, unbiased = None, dim
    dims = _dims(self, dim)
    shape = self.get_shape()
    n = math.prod(shape[d] for d in dims) if dims else 1
    correction = (1 if unbiased else 0) if correction is None else correction
    centered = self - self.mean(dims, keepdim=True)
    total = (centered * centered).sum(dims, keepdim=keepdim)
    return total / max(n - correction, 0)


def std(self, dim=None, unbiased=True, keepdim=False, *, correction=None):
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return var(self, dim, unbiased, keepdim, correction=correction).sqrt()


def _bool_reduce(name):
    def reduce(self, dim=None, keepdim=False):
        values = (self != 0).numpy()
        np_reduce = getattr(values, name)
        result = np.asarray(np_reduce() if dim is None else
                            np_reduce(axis=wrap_dim(self, dim), keepdims=keepdim), dtype=bool)
        return Tensor.from_numpy(result)
    reduce.__name__ = name
    return reduce


def split(self, split_size_or_sections, dim=0):
    """torch's split: pieces of `split_size` along `dim` (the last smaller),
    or of the given sizes."""
    if self.get_ndim() == 0:
        raise RuntimeError('split expects at least a 1-dimensional tensor')
    dim = wrap_dim(self, dim)
    size = self.get_shape()[dim]
    if isinstance(split_size_or_sections, numbers.Integral):
        step = int(split_size_or_sections)
        if step <= 0 and size > 0:
            raise RuntimeError('split_size can only be 0 if dimension size is 0, but got '
                               'dimension size of %d' % size)
        sizes = [min(step, size - start) for start in range(0, size, step)] if size else [0]
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != size:
            raise RuntimeError('split_with_sizes expects split_sizes to sum exactly to %d '
                               '(input tensor\'s size at dimension %d), but got split_sizes=%s'
                               % (size, dim, sizes))
    pieces, start = [], 0
    for n in sizes:
        pieces.append(Gnn.Tensor.narrow(self, dim, start, n))
        start += n
    return tuple(pieces)


def chunk(self, chunks, dim=0):
    """torch's chunk: at most `chunks` pieces of ceil(size / chunks)."""
    chunks = int(chunks)
    if chunks <= 0:
        raise RuntimeError('chunk expects `chunks` to be greater than 0, got: %d' % chunks)
    if self.get_ndim() == 0:
        raise RuntimeError('chunk expects at least a 1-dimensional tensor')
    size = self.get_shape()[wrap_dim(self, dim)]
    return split(self, max(-(-size // chunks), 1), dim)


def _sizes(sizes):
    return list(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], numbers.Integral) \
        else [int(s) for s in sizes]


def expand(self, *sizes):
    """torch's expand(*sizes) or expand(sizes); -1 keeps a dimension."""
    sizes = _sizes(sizes)
    shape = self.get_shape()
    lead = len(sizes) - len(shape)
    sizes = [shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(sizes)]
    return Gnn.Tensor.expand(self, sizes)


def repeat(self, *sizes):
    """torch's repeat: tiles the tensor `sizes[d]` times along each
    dimension (leading sizes add dimensions)."""
    sizes = _sizes(sizes)
    if len(sizes) < self.get_ndim():
        raise RuntimeError('Number of dimensions of repeat dims can not be smaller than number '
                           'of dimensions of tensor')
    out = self
    for _ in range(len(sizes) - self.get_ndim()):
        out = Gnn.Tensor.unsqueeze(out, 0)
    for d, r in enumerate(sizes):
        if r != 1:
            out = Gnn.Tensor.cat([out] * r, d) if r > 0 else Gnn.Tensor.narrow(out, d, 0, 0)
    return out


for _f in (clamp, clamp_, masked_fill, masked_fill_, var, std, split, chunk, expand, repeat):
    setattr(Tensor, _f.__name__, _f)
Tensor.clip, Tensor.clip_ = clamp, clamp_
Tensor.all, Tensor.any = _bool_reduce('all'), _bool_reduce('any')
for _name in ('clamp', 'clip', 'masked_fill', 'var', 'std', 'split', 'chunk', 'all', 'any'):
    export(getattr(Tensor, _name), _name)
