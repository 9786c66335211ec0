# _tensor_shape.py: torch's shape, index and product ops as Tensor methods
# and torch.* functions over the C ops — squeeze/unsqueeze/transpose and
# their in-place forms, movedim, expand, repeat, flip, roll, tril/triu,
# split/chunk/unbind, diag/diagonal/trace, gather/scatter/index_*,
# masked_select, mm/bmm/mv/dot/outer/addmm/baddbmm/einsum, new_* factories.
# Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from ._gi import Gnn, export
from ._tensor import Tensor, shape_arg
from ._tensor_math import operand_or_raise, returns_self, with_out


def _ints(values):
    """torch's `*dims` / `dims` argument: ints, or one tuple/list of them."""
    if len(values) == 1 and not isinstance(values[0], numbers.Integral):
        values = values[0]
    return [int(v) for v in values]


def _int_or_ints(value):
    return [int(value)] if isinstance(value, numbers.Integral) else [int(v) for v in value]


# --- views and their in-place forms ------------------------------------------------

def squeeze(self, dim=None):
    return Gnn.Tensor.squeeze_all(self) if dim is None else Gnn.Tensor.squeeze(self, int(dim))


def squeeze_(self, dim=None):
    if dim is None:
        Gnn.Tensor.squeeze_all_(self)
    else:
        Gnn.Tensor.squeeze_(self, int(dim))
    return self


def movedim(self, source, destination):
    """torch.movedim: the dims of `source` moved to `destination` (a permute)."""
    ndim = self.get_ndim()
    src = [d % ndim for d in _int_or_ints(source)] if ndim else _int_or_ints(source)
    dst = [d % ndim for d in _int_or_ints(destination)] if ndim else _int_or_ints(destination)
    if len(src) != len(dst):
        raise RuntimeError('movedim: Invalid source or destination dims: source (%s dims) should '
                           'contain the same number of dims as destination (%s dims)'
                           % (list(source) if not isinstance(source, int) else [source],
                              list(destination) if not isinstance(destination, int)
                              else [destination]))
    order = [None] * ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(ndim) if d not in src)
    return Gnn.Tensor.permute(self, [o if o is not None else next(rest) for o in order])


def expand(self, *sizes):
    """torch's expand(*sizes) or expand(sizes); -1 keeps a dimension."""
    sizes = _ints(sizes)
    shape = self.get_shape()
    lead = len(sizes) - len(shape)
    sizes = [shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(sizes)]
    return Gnn.Tensor.expand(self, sizes)


def repeat(self, *sizes):
    return Gnn.Tensor.repeat(self, _ints(sizes))


def flip(self, *dims):
    return Gnn.Tensor.flip(self, _ints(dims))


def fliplr(self):
    return Gnn.Tensor.flip(self, [1])


def flipud(self):
    return Gnn.Tensor.flip(self, [0])


def roll(self, shifts, dims=None):
    return Gnn.Tensor.roll(self, _int_or_ints(shifts), [] if dims is None else _int_or_ints(dims))


def tril(self, diagonal=0):
    return Gnn.Tensor.tril(self, int(diagonal))


def triu(self, diagonal=0):
    return Gnn.Tensor.triu(self, int(diagonal))


def tril_(self, diagonal=0):
    Gnn.Tensor.tril_(self, int(diagonal))
    return self


def triu_(self, diagonal=0):
    Gnn.Tensor.triu_(self, int(diagonal))
    return self


def split(self, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, numbers.Integral):
        return tuple(Gnn.Tensor.split(self, int(split_size_or_sections), int(dim)))
    return tuple(Gnn.Tensor.split_with_sizes(self, [int(s) for s in split_size_or_sections],
                                             int(dim)))


def chunk(self, chunks, dim=0):
    return tuple(Gnn.Tensor.chunk(self, int(chunks), int(dim)))


def unbind(self, dim=0):
    return tuple(Gnn.Tensor.unbind(self, int(dim)))


def diag(self, diagonal=0):
    return Gnn.Tensor.diag(self, int(diagonal))


def diagonal(self, offset=0, dim1=0, dim2=1):
    return Gnn.Tensor.diagonal(self, int(offset), int(dim1), int(dim2))


def unflatten(self, dim, sizes):
    """t.unflatten(dim, sizes): dim split into sizes (one may be -1), a view."""
    shape = list(self.get_shape())
    d = int(dim) + (len(shape) if int(dim) < 0 else 0)
    sizes = [int(n) for n in sizes]
    known = 1
    for n in sizes:
        known *= n if n != -1 else 1
    if (-1 not in sizes and known != shape[d]) or (-1 in sizes and (known == 0 or
                                                                    shape[d] % known)):
        raise RuntimeError("unflatten: Provided sizes [%s] don't multiply up to the size of "
                           "dim %d (%d) in the input tensor"
                           % (', '.join(map(str, sizes)), int(dim), shape[d]))
    return Gnn.Tensor.view(self, shape[:d] + sizes + shape[d + 1:])


for _f in (squeeze, squeeze_, movedim, expand, repeat, flip, fliplr, flipud, roll, tril, triu,
           tril_, triu_,
           split, chunk, unbind, diag, diagonal, unflatten):
    setattr(Tensor, _f.__name__, _f)
Tensor.moveaxis = movedim
Tensor.swapaxes = Tensor.swapdims = Tensor.transpose
Tensor.unsqueeze_ = returns_self(Gnn.Tensor.unsqueeze_, 'unsqueeze_')
Tensor.transpose_ = returns_self(Gnn.Tensor.transpose_, 'transpose_')
Tensor.t_ = returns_self(Gnn.Tensor.t_, 't_')


# --- index-based ops -------------------------------------------------------------------

def _scatter_source(name, self, index, src, value, reduce):
    """src, or value as a tensor; reduce='add' is scatter_add's sum."""
    if reduce not in (None, 'add'):
        raise NotImplementedError("%s(reduce='%s') is not supported by Gnn (reduce='add' is)"
                                  % (name, reduce))
    source = src if src is not None else value
    if reduce == 'add' and not isinstance(source, Gnn.Tensor):
        source = Gnn.Tensor.full(list(index.get_shape()), float(source), self.get_dtype())
    return source


def scatter(self, dim, index, src=None, value=None, reduce=None):
    """torch.scatter (dim, index, src) or (dim, index, value=number); reduce='add'."""
    source = _scatter_source('scatter', self, index, src, value, reduce)
    if reduce == 'add':
        return Gnn.Tensor.scatter_add(self, int(dim), index, source)
    return Gnn.Tensor.scatter(self, int(dim), index, operand_or_raise('scatter', source, 'src'))


def scatter_(self, dim, index, src=None, value=None, reduce=None):
    source = _scatter_source('scatter_', self, index, src, value, reduce)
    if reduce == 'add':
        Gnn.Tensor.scatter_add_(self, int(dim), index, source)
    else:
        Gnn.Tensor.scatter_(self, int(dim), index, operand_or_raise('scatter_', source, 'src'))
    return self


def scatter_add_(self, dim, index, src):
    Gnn.Tensor.scatter_add_(self, int(dim), index, src)
    return self


def index_add(self, dim, index, source, alpha=1):
    return Gnn.Tensor.index_add(self, int(dim), index, source, float(alpha))


def index_add_(self, dim, index, source, alpha=1):
    Gnn.Tensor.index_add_(self, int(dim), index, source, float(alpha))
    return self


def index_copy_(self, dim, index, source):
    Gnn.Tensor.index_copy_(self, int(dim), index, source)
    return self


def index_fill(self, dim, index, value):
    return Gnn.Tensor.index_fill(self, int(dim), index,
                                 operand_or_raise('index_fill', value, 'value'))


def index_fill_(self, dim, index, value):
    Gnn.Tensor.index_fill_(self, int(dim), index, operand_or_raise('index_fill_', value, 'value'))
    return self


for _f in (scatter, scatter_, scatter_add_, index_add, index_add_, index_copy_, index_fill,
           index_fill_):
    setattr(Tensor, _f.__name__, _f)


# --- products --------------------------------------------------------------------------

def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return Gnn.Tensor.addmm(self, mat1, mat2, float(beta), float(alpha))


def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    return Gnn.Tensor.baddbmm(self, batch1, batch2, float(beta), float(alpha))


Tensor.addmm, Tensor.baddbmm = addmm, baddbmm
Tensor.ger = Tensor.outer


@export
def einsum(equation, *operands):
    """torch.einsum (equation, *operands) or (equation, [operands])."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return Gnn.Tensor.einsum(equation, list(operands))


# --- new_* factories: the dtype (and device) of self -------------------------------------

def _factory_dtype(self, dtype):
    from ._dtype import from_arg
    return self.get_dtype() if dtype is None else from_arg(dtype)


def _new(make):
    def method(self, *size, dtype=None, device=None, requires_grad=False):
        from ._creation import _finish
        t = make(shape_arg(size), _factory_dtype(self, dtype))
        return _finish(t, None, requires_grad, device)
    return method


def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    from ._creation import _finish
    t = Gnn.Tensor.full(shape_arg((size,)), float(fill_value), _factory_dtype(self, dtype))
    return _finish(t, None, requires_grad, device)


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    from ._creation import tensor
    return tensor(data, dtype=_factory_dtype(self, dtype), device=device,
                  requires_grad=requires_grad)


Tensor.new_zeros = _new(Gnn.Tensor.zeros)
Tensor.new_ones = _new(Gnn.Tensor.ones)
Tensor.new_empty = _new(Gnn.Tensor.empty)
Tensor.new_full, Tensor.new_tensor = new_full, new_tensor
for _name in ('new_zeros', 'new_ones', 'new_empty'):
    getattr(Tensor, _name).__name__ = _name


# --- torch.* functions ---------------------------------------------------------------------

def _function(name):
    method = getattr(Tensor, name)

    def function(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    function.__name__ = name
    function.__doc__ = method.__doc__
    return function


for _name in ('gather', 'scatter', 'scatter_add', 'index_add', 'index_copy', 'index_fill',
              'index_select', 'masked_select', 'mm', 'bmm', 'mv', 'dot', 'outer', 'ger', 'addmm',
              'baddbmm', 'roll', 'flip', 'tril', 'triu', 'diag', 'trace', 'matmul', 'narrow'):
    export(with_out(_function(_name)), _name)
for _name in ('movedim', 'moveaxis', 'swapaxes', 'swapdims', 'split', 'chunk', 'unbind',
              'diagonal', 'fliplr', 'flipud', 'squeeze', 'unsqueeze', 'transpose', 't'):
    export(_function(_name), _name)


@export
def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, out=None,
             layout=None, pin_memory=False):
    """torch.randperm: a random permutation of range(n) (int64 by default)."""
    from ._creation import _finish
    from ._dtype import from_arg, int64
    t = Gnn.Tensor.randperm(int(n), from_arg(dtype) if dtype is not None else int64, generator)
    t = _finish(t, None, requires_grad, device)
    if out is not None:
        Gnn.Tensor.out_(out, t)
        return out
    return t


@export
def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, out=None):
    from ._creation import _finish
    from ._dtype import float32, from_arg
    t = Gnn.Tensor.eye(int(n), -1 if m is None else int(m),
                       from_arg(dtype) if dtype is not None else float32)
    t = _finish(t, None, requires_grad, device)
    if out is not None:
        Gnn.Tensor.out_(out, t)
        return out
    return t


def _spaced(name, log):
    def spaced(start, end, steps, *args, dtype=None, device=None, requires_grad=False,
               out=None, base=10.0):
        from ._creation import _finish
        from ._dtype import float32, from_arg
        if log and args:
            base = args[0]
        dt = from_arg(dtype) if dtype is not None else float32
        t = (Gnn.Tensor.logspace(float(start), float(end), int(steps), float(base), dt) if log
             else Gnn.Tensor.linspace(float(start), float(end), int(steps), dt))
        t = _finish(t, None, requires_grad, device)
        if out is not None:
            Gnn.Tensor.out_(out, t)
            return out
        return t
    spaced.__name__ = name
    return spaced


linspace = export(_spaced('linspace', False), 'linspace')
logspace = export(_spaced('logspace', True), 'logspace')
