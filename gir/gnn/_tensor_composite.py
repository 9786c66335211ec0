# _tensor_composite.py: torch's composite ops (tile, broadcast_to/
# broadcast_tensors, meshgrid, atleast_Nd, hstack/vstack/dstack/
# column_stack, diff, tensor_split, repeat_interleave, take_along_dim,
# cartesian_prod; mT, nelement) as Tensor methods and torch.* functions over
# the C ops of gnn-tensor-composite.c. Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from ._gi import Gnn, export
from ._tensor import Tensor
from ._tensor_math import with_out
from ._tensor_shape import _ints


def _tensor_list(name, tensors):
    """torch's `*tensors` or one list/tuple of them."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    for t in tensors:
        if not isinstance(t, Gnn.Tensor):
            raise TypeError('%s(): expected Tensor as element %d in argument 0, but got %s'
                            % (name, list(tensors).index(t), type(t).__name__))
    return list(tensors)


def tile(self, *dims):
    return Gnn.Tensor.tile(self, _ints(dims))


def broadcast_to(self, size):
    return Tensor.expand(self, *size)


def diff(self, n=1, dim=-1, prepend=None, append=None):
    return Gnn.Tensor.diff(self, int(n), int(dim), prepend, append)


def tensor_split(self, indices_or_sections, dim=0):
    """torch.tensor_split: a number of sections, or the indices where pieces
    start (a list, or an int64 tensor: 0-d for sections, 1-d for indices)."""
    arg = indices_or_sections
    if isinstance(arg, Gnn.Tensor):
        if arg.get_ndim() > 1 or arg.get_dtype() != Gnn.DType.I64:
            raise RuntimeError('tensor_split expected tensor_indices_or_sections to have '
                               'int64 dtype and be 0-D or 1-D, but got a tensor of %d dims'
                               % arg.get_ndim())
        arg = arg.item() if arg.get_ndim() == 0 else arg.tolist()
    if isinstance(arg, numbers.Integral):
        return tuple(Gnn.Tensor.tensor_split(self, int(arg), int(dim)))
    return tuple(Gnn.Tensor.tensor_split_indices(self, [int(i) for i in arg], int(dim)))


def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    """t.repeat_interleave(repeats, dim=None): repeats a number or a tensor
    of counts; dim None repeats the flattened elements."""
    if isinstance(repeats, Gnn.Tensor):
        return Gnn.Tensor.repeat_interleave(self, repeats, 0, 0 if dim is None else int(dim),
                                            dim is None)
    return Gnn.Tensor.repeat_interleave(self, None, int(repeats), 0 if dim is None else int(dim),
                                        dim is None)


def take_along_dim(self, indices, dim=None):
    return Gnn.Tensor.take_along_dim(self, indices, 0 if dim is None else int(dim), dim is None)


for _f in (tile, broadcast_to, diff, tensor_split, repeat_interleave, take_along_dim):
    setattr(Tensor, _f.__name__, _f)
Tensor.nelement = Tensor.numel


def _mT(self):
    """The last two dims swapped, a view."""
    if self.get_ndim() < 2:
        raise RuntimeError('tensor.mT is only supported on matrices or batches of matrices. '
                           'Got %d-D tensor.' % self.get_ndim())
    return Gnn.Tensor.transpose(self, -2, -1)


Tensor.mT = property(_mT)


# --- torch.* functions ---------------------------------------------------------------------

@export
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):  # noqa: F811
    """torch.repeat_interleave (input, repeats, dim) or (repeats): the
    positions each repeated its count."""
    if repeats is None:
        return Gnn.Tensor.repeat_interleave_index(input)
    return Tensor.repeat_interleave(input, repeats, dim)


def _method_function(name):
    method = getattr(Tensor, name)

    def function(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    function.__name__ = name
    return function


for _name in ('tile', 'broadcast_to', 'tensor_split', 'take_along_dim'):
    export(_method_function(_name), _name)
export(with_out(_method_function('diff')), 'diff')


@export
def broadcast_tensors(*tensors):
    return tuple(Gnn.Tensor.broadcast_tensors(_tensor_list('broadcast_tensors', tensors)))


@export
def meshgrid(*tensors, indexing=None):
    return tuple(Gnn.Tensor.meshgrid(_tensor_list('meshgrid', tensors), indexing))


@export
def cartesian_prod(*tensors):
    return Gnn.Tensor.cartesian_prod(_tensor_list('cartesian_prod', tensors))


def _atleast(n):
    def atleast(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], Gnn.Tensor):
            return Gnn.Tensor.atleast_nd(tensors[0], n)
        return tuple(Gnn.Tensor.atleast_nd(t, n)
                     for t in _tensor_list('atleast_%dd' % n, tensors))
    atleast.__name__ = 'atleast_%dd' % n
    return atleast


for _n in (1, 2, 3):
    export(_atleast(_n))


def _stack(name, func):
    def stack(tensors, *, out=None):
        return func(_tensor_list(name, (tensors,)))
    stack.__name__ = name
    return export(with_out(stack), name)


hstack = _stack('hstack', Gnn.Tensor.hstack)
vstack = _stack('vstack', Gnn.Tensor.vstack)
row_stack = _stack('row_stack', Gnn.Tensor.vstack)
dstack = _stack('dstack', Gnn.Tensor.dstack)
column_stack = _stack('column_stack', Gnn.Tensor.column_stack)
