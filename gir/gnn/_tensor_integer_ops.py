# _tensor_integer_ops.py: the operators Gnn has no kernels for — floor
# division and remainder (`//`, `%`, torch's floor_divide and remainder,
# floor-rounded as in torch 1.13), bitwise and logical ops on integer and
# bool tensors (`&`, `|`, `^`, `~`: masks like `(a > 2) & (a < 5)`) — done
# through numpy, with torch's result types, its errors, and no gradient
# (an operand that requires grad is refused rather than silently detached).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from . import _dtype
from ._gi import Gnn, export, np
from ._tensor import Tensor, _coerce

_TORCH_NAMES = {int(Gnn.DType.F32): 'Float', int(Gnn.DType.F64): 'Double',
                int(Gnn.DType.F16): 'Half', int(Gnn.DType.BF16): 'BFloat16'}


def _tensor(result):
    """A numpy result (an array, or the scalar a 0-d operation gives) as a tensor."""
    return Tensor.from_numpy(np.asarray(result))


def _operands(name, a, b):
    if isinstance(b, bool) and a.get_dtype() == Gnn.DType.BOOL:
        pair = a, Gnn.Tensor.new_scalar(float(b), Gnn.DType.BOOL)   # mask & True stays bool
    else:
        pair = _coerce(a, b)
    if pair is None:
        return None
    for t in pair:
        if t.get_requires_grad():
            raise RuntimeError('%s: Gnn computes it without autograd; the operand requires '
                               'grad (detach() it first)' % name)
    return pair


def _numpy_op(name, func, integral_only=False):
    def method(self, other, reflected=False):
        pair = _operands(name, self, other)
        if pair is None:
            return NotImplemented
        a, b = reversed(pair) if reflected else pair
        dtype = a.get_dtype()
        if integral_only and _dtype.is_floating(dtype):
            raise RuntimeError('"%s_cpu" not implemented for \'%s\''
                               % (name, _TORCH_NAMES.get(int(dtype), 'Float')))
        x, y = a.numpy(), b.numpy()
        if name in ('remainder', 'floor_divide') and not _dtype.is_floating(dtype) and \
                (y == 0).any():
            raise RuntimeError('ZeroDivisionError')   # torch's words
        return _tensor(func(x, y))
    method.__name__ = name
    return method


def _reflect(method):
    def reflected(self, other):
        return method(self, other, reflected=True)
    reflected.__name__ = '__r%s__' % method.__name__
    return reflected


def _ops():
    return {
        'floor_divide': _numpy_op('floor_divide', np.floor_divide),
        'remainder': _numpy_op('remainder', np.remainder),
        'bitwise_and': _numpy_op('bitwise_and', np.bitwise_and, True),
        'bitwise_or': _numpy_op('bitwise_or', np.bitwise_or, True),
        'bitwise_xor': _numpy_op('bitwise_xor', np.bitwise_xor, True),
    }


def _not(self):
    if self.get_requires_grad():
        raise RuntimeError('bitwise_not: Gnn computes it without autograd; the operand '
                           'requires grad (detach() it first)')
    if _dtype.is_floating(self.get_dtype()):
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return _tensor(np.invert(self.numpy()))


def _logical(name, func):
    def op(self, other=None):
        x = self.detach().numpy().astype(bool)
        result = func(x) if other is None else func(
            x, (other.detach().numpy() if isinstance(other, Gnn.Tensor)
                else np.asarray(other)).astype(bool))
        return _tensor(result)
    op.__name__ = name
    return op


if np is not None:
    _OPS = _ops()
    for _name, _method in _OPS.items():
        setattr(Tensor, _name, _method)
    Tensor.__floordiv__, Tensor.__rfloordiv__ = _OPS['floor_divide'], _reflect(_OPS['floor_divide'])
    Tensor.__mod__, Tensor.__rmod__ = _OPS['remainder'], _reflect(_OPS['remainder'])
    Tensor.__and__ = Tensor.__rand__ = _OPS['bitwise_and']
    Tensor.__or__ = Tensor.__ror__ = _OPS['bitwise_or']
    Tensor.__xor__ = Tensor.__rxor__ = _OPS['bitwise_xor']
    Tensor.__invert__ = Tensor.bitwise_not = _not
    for _name, _func in (('logical_and', np.logical_and), ('logical_or', np.logical_or),
                         ('logical_xor', np.logical_xor), ('logical_not', np.logical_not)):
        setattr(Tensor, _name, _logical(_name, _func))
    for _name in ('floor_divide', 'remainder', 'bitwise_and', 'bitwise_or', 'bitwise_xor',
                  'bitwise_not', 'logical_and', 'logical_or', 'logical_xor', 'logical_not'):
        export(getattr(Tensor, _name), _name)
