# _tensor_special.py: torch's special functions (erfc, erfinv, lgamma,
# digamma, logit), nan_to_num, hypot, fmax / fmin and the in-place
# comparisons eq_ ... ge_, as Tensor methods and torch.* functions over
# the C ops (lib/tensor/gnn-tensor-special.c). Keyword mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import Gnn, export
from ._tensor import Tensor, operand_or_raise
from ._tensor_math import _function, returns_self

_UNARY = ('erfc', 'erfinv', 'lgamma', 'digamma')
for _name in _UNARY:
    setattr(Tensor, _name + '_', returns_self(getattr(Gnn.Tensor, _name + '_'), _name + '_'))


def _eps(eps):
    return -1.0 if eps is None else float(eps)


def logit(self, eps=None):
    """torch.logit: log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given."""
    return Gnn.Tensor.logit(self, _eps(eps))


def logit_(self, eps=None):
    Gnn.Tensor.logit_(self, _eps(eps))
    return self


def _infinity(value):
    """None is the dtype's extreme value: NaN tells the C function so."""
    return float('nan') if value is None else float(value)


def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    return Gnn.Tensor.nan_to_num(self, float(nan), _infinity(posinf), _infinity(neginf))


def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    Gnn.Tensor.nan_to_num_(self, float(nan), _infinity(posinf), _infinity(neginf))
    return self


def _binary(name):
    c_op = getattr(Gnn.Tensor, name)

    def method(self, other):
        return c_op(self, operand_or_raise(name, other))
    method.__name__ = name
    return method


def _binary_(name):
    c_op = getattr(Gnn.Tensor, name + '_')

    def method(self, other):
        c_op(self, operand_or_raise(name + '_', other))
        return self
    method.__name__ = name + '_'
    return method


for _f in (logit, logit_, nan_to_num, nan_to_num_):
    setattr(Tensor, _f.__name__, _f)
for _name in ('hypot', 'fmax', 'fmin'):
    setattr(Tensor, _name, _binary(_name))
for _name in ('hypot', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'):
    setattr(Tensor, _name + '_', _binary_(_name))
for _alias, _name in (('greater_', 'gt_'), ('greater_equal_', 'ge_'), ('less_', 'lt_'),
                      ('less_equal_', 'le_'), ('not_equal_', 'ne_')):
    setattr(Tensor, _alias, getattr(Tensor, _name))


for _name in _UNARY + ('logit', 'nan_to_num', 'hypot', 'fmax', 'fmin'):
    export(_function(_name), _name)
for _name in ('nan_to_num_',):
    export(getattr(Tensor, _name), _name)
