# _finfo.py: torch.finfo / torch.iinfo, the limits of each dtype (numpy's
# for the types numpy has, bfloat16's own), printed as torch prints them.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from . import _dtype
from ._gi import export, require_numpy

# bfloat16: float32's exponent with 8 significant bits
_BFLOAT16 = {'bits': 16, 'eps': 0.0078125, 'max': 3.3895313892515355e+38,
             'min': -3.3895313892515355e+38, 'tiny': 1.1754943508222875e-38,
             'resolution': 0.01}


def _short(value):
    return '%g' % value


class _DtypeInfo(object):
    """What finfo and iinfo share: equal when they describe one dtype."""

    def __eq__(self, other):
        return type(other) is type(self) and other.dtype == self.dtype

    def __hash__(self):
        return hash(self.dtype)


@export
class finfo(_DtypeInfo):
    """torch.finfo(dtype=float32): bits, eps, max, min, tiny,
    smallest_normal, resolution and dtype (its name) of a float dtype."""

    def __init__(self, type=None):
        type = _dtype.float32 if type is None else _dtype.from_arg(type)
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo "
                            "to handle 'torch.finfo'")
        if type == _dtype.bfloat16:
            values = dict(_BFLOAT16)
        else:
            info = require_numpy().finfo(_dtype.DTYPE_TO_NUMPY[type])
            values = {'bits': int(info.bits), 'eps': float(info.eps), 'max': float(info.max),
                      'min': float(info.min), 'tiny': float(info.tiny),
                      'resolution': 10.0 ** -int(info.precision)}
        self.__dict__.update(values)
        self.smallest_normal = self.tiny
        self.dtype = repr(type)[len('Gnn.'):]

    def __repr__(self):
        return ('finfo(resolution=%s, min=%s, max=%s, eps=%s, smallest_normal=%s, tiny=%s, '
                'dtype=%s)' % (_short(self.resolution), _short(self.min), _short(self.max),
                               _short(self.eps), _short(self.smallest_normal),
                               _short(self.tiny), self.dtype))


@export
class iinfo(_DtypeInfo):
    """torch.iinfo(dtype): bits, max, min and dtype of an integer dtype."""

    def __init__(self, type):
        type = _dtype.from_arg(type)
        if type == _dtype.bool_:
            raise TypeError('torch.bool is not supported by torch.iinfo')
        if type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        info = require_numpy().iinfo(_dtype.DTYPE_TO_NUMPY[type])
        self.bits, self.max, self.min = int(info.bits), int(info.max), int(info.min)
        self.dtype = repr(type)[len('Gnn.'):]

    def __repr__(self):
        return 'iinfo(min=%s, max=%s, dtype=%s)' % (_short(self.min), _short(self.max),
                                                   self.dtype)
