# _creation.py: torch's tensor factories (Gnn.tensor, zeros, ones, full,
# arange, rand, randn, randint, empty, *_like, cat, stack, from_numpy),
# Gnn.manual_seed and the default generator, and the dtype names.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers
import os

from . import _dtype
from ._gi import Gnn, export
from ._tensor import Tensor, shape_arg
from ._tensor_data import from_data

# torch's default generator is the library's (Gnn.Generator.get_default()):
# the layers, initializers, random factories, dropout and samplers given no
# generator draw from it (under its lock: Python passes None, not the object).

def default_generator():
    return Gnn.Generator.get_default()


@export
def manual_seed(seed):
    """Seeds the default generator (torch.manual_seed), which everything
    random given no generator draws from; returns it."""
    return Gnn.manual_seed(int(seed) & 0xFFFFFFFFFFFFFFFF)


@export
def seed():
    """Seeds the default generator from system randomness (torch.seed);
    returns the seed."""
    value = int.from_bytes(os.urandom(8), 'little') & 0x7FFFFFFFFFFFFFFF
    Gnn.manual_seed(value)
    return value


@export
def initial_seed():
    return Gnn.initial_seed()


@export
def get_rng_state():
    """The default generator's state (a uint8 tensor), for set_rng_state."""
    return default_generator().get_state()


@export
def set_rng_state(new_state):
    default_generator().set_state(new_state)


def _on_device(device, make, *args):
    """make(*args), under the meta default device for device='meta' (the
    factories' torch spelling); other devices than the CPU raise."""
    if device is None or str(device) != 'meta':
        _dtype.check_device(device)
        return make(*args)
    previous = Gnn.set_default_device(Gnn.Device.META)
    try:
        return make(*args)
    finally:
        Gnn.set_default_device(previous)


def _finish(t, dtype, requires_grad, device):
    # device='meta' is honoured by the factories that build through
    # _on_device; the others refuse it like any non-CPU device.
    if device is None or str(device) != 'meta' or not Gnn.Tensor.is_meta(t):
        _dtype.check_device(device)
    if dtype is not None:
        t = t.to(dtype)
    if requires_grad:
        t.set_requires_grad(True)
    return t


@export
def tensor(data, dtype=None, device=None, requires_grad=False):
    """Like torch.tensor: a new tensor (a copy) from a nested list, a
    number, a numpy array or a tensor. Python floats give float32, ints
    int64, bools bool, as in torch."""
    if isinstance(data, Gnn.Tensor):
        t = data.detach().clone()
    else:
        t = from_data(data, None if dtype is None else _dtype.from_arg(dtype))
    return _finish(t, dtype, requires_grad, device)


@export
def as_tensor(data, dtype=None, device=None):
    """Like torch.as_tensor: a tensor, or an array of the same dtype, is
    used as is (the array's memory shared); anything else is converted as
    by Gnn.tensor."""
    if isinstance(data, Gnn.Tensor):
        return _finish(data, dtype, False, device)
    if _dtype.is_ndarray(data) and data.dtype.isnative and all(s >= 0 for s in data.strides):
        try:
            return _finish(Tensor.from_numpy(data), dtype, False, device)
        except (TypeError, ValueError):
            pass
    return tensor(data, dtype=dtype, device=device)


def _factory(make, name, doc):
    def factory(*size, dtype=None, device=None, requires_grad=False, out=None):
        if out is not None:
            raise TypeError('Gnn tensor factories do not take out=')
        dt = _dtype.float32 if dtype is None else _dtype.from_arg(dtype)
        return _finish(_on_device(device, make, shape_arg(size), dt), None, requires_grad,
                       device)
    factory.__name__ = name
    factory.__doc__ = doc
    return factory


zeros = export(_factory(Gnn.Tensor.zeros, 'zeros', 'Like torch.zeros(*size, dtype=None).'))
ones = export(_factory(Gnn.Tensor.ones, 'ones', 'Like torch.ones(*size, dtype=None).'))
empty = export(_factory(Gnn.Tensor.empty, 'empty', 'Like torch.empty(*size): zero-filled.'))


@export
def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    """Like torch.rand: uniform in [0, 1)."""
    # generator None: the default generator, under its lock
    t = _on_device(device, Gnn.Tensor.rand, shape_arg(size),
                   _dtype.from_arg(dtype or _dtype.float32), generator)
    return _finish(t, None, requires_grad, device)


@export
def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    """Like torch.randn: standard normal."""
    t = _on_device(device, Gnn.Tensor.randn, shape_arg(size),
                   _dtype.from_arg(dtype or _dtype.float32), generator)
    return _finish(t, None, requires_grad, device)


@export
def randint(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False,
            out=None):
    """torch.randint(high, size) / randint(low, high, size): integers drawn
    uniformly from [low, high), int64 unless dtype= says otherwise."""
    args = list(args)
    if size is None and args and not isinstance(args[-1], numbers.Integral):
        size = args.pop()
    if size is None or len(args) not in (1, 2):
        raise TypeError('randint() received an invalid combination of arguments')
    low, high = (0, args[0]) if len(args) == 1 else args
    t = _on_device(device, Gnn.Tensor.empty, shape_arg((size,)),
                   _dtype.from_arg(dtype) if dtype is not None else _dtype.int64)
    if not Gnn.Tensor.is_meta(t):
        Gnn.Tensor.random_(t, int(low), int(high), generator)
    t = _finish(t, None, requires_grad, device)
    if out is not None:
        Gnn.Tensor.out_(out, t)
        return out
    return t


@export
def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False):
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.get_shape()), dtype=dtype or input.dtype,
                   device=device, requires_grad=requires_grad)


@export
def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    """Like torch.full: the dtype follows fill_value unless given."""
    if dtype is None:
        dtype = (_dtype.bool_ if isinstance(fill_value, bool) else
                 _dtype.int64 if isinstance(fill_value, numbers.Integral) else _dtype.float32)
    t = _on_device(device, Gnn.Tensor.full, shape_arg((size,)), float(fill_value),
                   _dtype.from_arg(dtype))
    return _finish(t, None, requires_grad, device)


@export
def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    """Like torch.arange: int64 for integer arguments, else float32."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        ints = all(isinstance(v, numbers.Integral) for v in (start, end, step))
        dtype = _dtype.int64 if ints else _dtype.float32
    t = Gnn.Tensor.arange(float(start), float(end), float(step), _dtype.from_arg(dtype))
    return _finish(t, None, requires_grad, device)


def _like(factory):
    def like(input, dtype=None, device=None, requires_grad=False):
        return factory(*input.get_shape(), dtype=dtype or input.dtype, device=device,
                       requires_grad=requires_grad)
    like.__name__ = factory.__name__ + '_like'
    return like


for _f in (zeros, ones, empty, rand, randn):
    export(_like(_f))


@export
def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    return full(input.get_shape(), fill_value, dtype=dtype or input.dtype, device=device,
                requires_grad=requires_grad)


@export
def cat(tensors, dim=0):
    return Gnn.Tensor.cat(list(tensors), dim)


concat = export(cat, 'concat')


@export
def stack(tensors, dim=0):
    return Gnn.Tensor.stack(list(tensors), dim)


@export
def from_numpy(array):
    """A tensor sharing the array's memory (see Tensor.from_numpy)."""
    return Tensor.from_numpy(array)


@export
def is_tensor(obj):
    return isinstance(obj, Gnn.Tensor)


@export
def numel(input):
    return input.get_numel()


@export
def is_floating_point(input):
    return _dtype.is_floating(input.get_dtype())


for _name, _value in _dtype.ALIASES.items():
    export(_value, _name)
export(_dtype.dtype, 'dtype')
