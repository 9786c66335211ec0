# _tensor_math.py: torch's elementwise math as Tensor methods and torch.*
# functions over the C ops — the unary functions and their in-place forms
# and aliases, the integer/bitwise/logical ops, clamp, lerp, addcmul,
# addcdiv, masked_fill, where, isclose/allclose — and torch's out=
# argument (Gnn.Tensor.out_). Keyword mapping only: every value is computed
# by the library, with its type promotion and autograd.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import functools

from ._gi import Gnn, export
from ._tensor import Tensor, operand, operand_or_raise


def returns_self(c_op, name):
    """An in-place C op (which returns TRUE) as torch's method returning self."""
    @functools.wraps(c_op)
    def method(self, *args):
        c_op(self, *args)
        return self
    method.__name__ = name
    return method


def store_out(result, out, name):
    """torch's out=: the result stored into `out` (resized, cast with
    torch's rule, refused when anything requires grad) and `out` returned;
    a tuple result (values, indices; Q, R; ...) into a tuple of as many
    tensors, returned as the result's named tuple."""
    if not isinstance(result, tuple):
        Gnn.Tensor.out_(out, result)
        return out
    if not isinstance(out, (tuple, list)) or not all(isinstance(t, Gnn.Tensor) for t in out):
        raise TypeError("%s(): argument 'out' must be tuple of Tensors, not %s"
                        % (name, type(out).__name__))
    if len(out) != len(result):
        raise TypeError('expected tuple of %d elements but got %d' % (len(result), len(out)))
    for target, value in zip(out, result):
        Gnn.Tensor.out_(target, value)
    return type(result)(*out)


def with_out(func, name=None):
    """torch's out= keyword on `func` (see store_out; `name` is torch's
    name of the function in its messages)."""
    name = name or func.__name__

    @functools.wraps(func)
    def wrapper(*args, out=None, **kwargs):
        result = func(*args, **kwargs)
        if out is None:
            return result
        return store_out(result, out, name)
    return wrapper


# --- unary functions ----------------------------------------------------------------

# (name, has an in-place form in C)
_UNARY = ('exp', 'log', 'sqrt', 'abs', 'neg', 'tanh', 'sigmoid', 'sin', 'cos', 'tan', 'asin',
          'acos', 'atan', 'sinh', 'cosh', 'asinh', 'acosh', 'atanh', 'log2', 'log10', 'log1p',
          'expm1', 'exp2', 'rsqrt', 'reciprocal', 'sign', 'floor', 'ceil', 'trunc', 'frac',
          'erf', 'square')
for _name in _UNARY:
    setattr(Tensor, _name + '_', returns_self(getattr(Gnn.Tensor, _name + '_'), _name + '_'))
Tensor.relu_ = returns_self(Gnn.Tensor.relu_, 'relu_')
Tensor.bitwise_not_ = returns_self(Gnn.Tensor.bitwise_not_, 'bitwise_not_')


def round_half_even(self, decimals=0):
    """torch.round: halves to even; decimals= scales by 10^decimals around it."""
    if decimals == 0:
        return Gnn.Tensor.round(self)
    scale = Gnn.Tensor.new_wrapped_number(10.0 ** decimals)
    return Gnn.Tensor.div(Gnn.Tensor.round(Gnn.Tensor.mul(self, scale)), scale)


def round_(self, decimals=0):
    if decimals != 0:
        return self.copy_(round_half_even(self, decimals))
    Gnn.Tensor.round_(self)
    return self


Tensor.round, Tensor.round_ = round_half_even, round_

# torch's other names for the same functions
_ALIASES = {'absolute': 'abs', 'negative': 'neg', 'arcsin': 'asin', 'arccos': 'acos',
            'arctan': 'atan', 'arcsinh': 'asinh', 'arccosh': 'acosh', 'arctanh': 'atanh',
            'fix': 'trunc', 'arctan2': 'atan2'}
for _alias, _name in _ALIASES.items():
    setattr(Tensor, _alias, getattr(Tensor, _name))
    if hasattr(Tensor, _name + '_'):
        setattr(Tensor, _alias + '_', getattr(Tensor, _name + '_'))


# --- clamping, interpolation, fused products, masks -------------------------------------

def _bound(value, name):
    return None if value is None else operand_or_raise('clamp', value, name)


def clamp(self, min=None, max=None):
    """torch.clamp with number or tensor bounds (NaN stays NaN)."""
    return Gnn.Tensor.clamp(self, _bound(min, 'min'), _bound(max, 'max'))


def clamp_(self, min=None, max=None):
    Gnn.Tensor.clamp_(self, _bound(min, 'min'), _bound(max, 'max'))
    return self


def clamp_min(self, min):
    return clamp(self, min=min)


def clamp_max(self, max):
    return clamp(self, max=max)


def clamp_min_(self, min):
    return clamp_(self, min=min)


def clamp_max_(self, max):
    return clamp_(self, max=max)


def lerp(self, end, weight):
    return Gnn.Tensor.lerp(self, end, operand_or_raise('lerp', weight, 'weight'))


def lerp_(self, end, weight):
    Gnn.Tensor.lerp_(self, end, operand_or_raise('lerp_', weight, 'weight'))
    return self


def addcmul(self, tensor1, tensor2, value=1):
    return Gnn.Tensor.addcmul(self, tensor1, tensor2, float(value))


def addcmul_(self, tensor1, tensor2, value=1):
    Gnn.Tensor.addcmul_(self, tensor1, tensor2, float(value))
    return self


def addcdiv(self, tensor1, tensor2, value=1):
    return Gnn.Tensor.addcdiv(self, tensor1, tensor2, float(value))


def addcdiv_(self, tensor1, tensor2, value=1):
    Gnn.Tensor.addcdiv_(self, tensor1, tensor2, float(value))
    return self


def masked_fill(self, mask, value):
    return Gnn.Tensor.masked_fill(self, mask, operand_or_raise('masked_fill', value, 'value'))


def masked_fill_(self, mask, value):
    Gnn.Tensor.masked_fill_(self, mask, operand_or_raise('masked_fill_', value, 'value'))
    return self


def where(condition, input=None, other=None):
    """torch.where (condition, input, other), numbers welcome; with the
    condition alone, its nonzero coordinates as a tuple (torch's)."""
    if input is None and other is None:
        return tuple(Gnn.Tensor.unbind(Gnn.Tensor.nonzero(condition), 1))
    return Gnn.Tensor.where(condition, operand_or_raise('where', input, 'input'),
                            operand_or_raise('where', other, 'other'))


def tensor_where(self, condition, y):
    """t.where(condition, y): torch.where(condition, t, y)."""
    return where(condition, self, y)


def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Gnn.Tensor.isclose(self, operand_or_raise('isclose', other), rtol, atol, equal_nan)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Gnn.Tensor.allclose_full(self, other, rtol, atol, equal_nan)


for _f in (clamp, clamp_, clamp_min, clamp_max, clamp_min_, clamp_max_, lerp, lerp_, addcmul,
           addcmul_, addcdiv, addcdiv_, masked_fill, masked_fill_, isclose, allclose):
    setattr(Tensor, _f.__name__, _f)
Tensor.clip, Tensor.clip_ = clamp, clamp_
Tensor.where = tensor_where


# --- torch.* functions ----------------------------------------------------------------

def _function(name):
    """torch.<name>(input, ...) over the method; out= where torch has it."""
    method = getattr(Tensor, name)

    @functools.wraps(method)
    def function(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    function.__name__ = name
    return with_out(function)


for _name in _UNARY + tuple(_ALIASES) + (
        'relu', 'sigmoid', 'round', 'clamp', 'clip', 'clamp_min', 'clamp_max', 'lerp',
        'addcmul', 'addcdiv', 'masked_fill', 'isclose', 'allclose', 'isnan', 'isinf',
        'isfinite', 'floor_divide', 'remainder', 'fmod', 'bitwise_and', 'bitwise_or',
        'bitwise_xor', 'bitwise_not', 'logical_and', 'logical_or', 'logical_xor',
        'logical_not', 'atan2', 'maximum', 'minimum', 'add', 'sub', 'mul', 'div', 'pow',
        'true_divide', 'multiply', 'subtract', 'divide', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'):
    export(_function(_name), _name)
export(with_out(where), 'where')
for _name in ('greater', 'greater_equal', 'less', 'less_equal', 'not_equal'):
    _op = {'greater': 'gt', 'greater_equal': 'ge', 'less': 'lt', 'less_equal': 'le',
           'not_equal': 'ne'}[_name]
    setattr(Tensor, _name, getattr(Tensor, _op))
    export(_function(_name), _name)


@export
def result_type(tensor1, tensor2):
    """torch.result_type: tensors or numbers."""
    from ._dtype import of
    return of(Gnn.Tensor.result_type(operand_or_raise('result_type', tensor1, 'tensor1'),
                                     operand_or_raise('result_type', tensor2, 'tensor2')))


@export
def promote_types(type1, type2):
    from ._dtype import from_arg, of
    return of(Gnn.dtype_promote_types(from_arg(type1), from_arg(type2)))


@export
def can_cast(from_, to):
    from ._dtype import from_arg
    return Gnn.dtype_can_cast(from_arg(from_), from_arg(to))


# `operand` is what the other tensor modules pass numbers through
__all__ = ['operand', 'returns_self', 'with_out']
