# _finfo.py: torch.finfo / torch.iinfo, the limits of each dtype (IEEE 754's
# binary16/32/64, bfloat16's, the integers' two's complement), printed as
# torch prints them.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from . import _dtype
from ._gi import export


def _float(bits, eps, largest, tiny, resolution):
    return {'bits': bits, 'eps': eps, 'max': largest, 'min': -largest, 'tiny': tiny,
            'resolution': resolution}


_FLOATS = {
    'float16': _float(16, 2.0 ** -10, 65504.0, 2.0 ** -14, 0.001),
    # bfloat16: float32's exponent with 8 significant bits
    'bfloat16': _float(16, 2.0 ** -7, (2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -126, 0.01),
    'float32': _float(32, 2.0 ** -23, (2 - 2.0 ** -23) * 2.0 ** 127, 2.0 ** -126, 1e-06),
    'float64': _float(64, 2.0 ** -52, (2 - 2.0 ** -52) * 2.0 ** 1023, 2.0 ** -1022, 1e-15),
}
_INTS = {'uint8': (8, False), 'int8': (8, True), 'int16': (16, True), 'int32': (32, True),
         'int64': (64, True)}


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
        self.dtype = repr(type)[len('Gnn.'):]
        self.__dict__.update(_FLOATS[self.dtype])
        self.smallest_normal = self.tiny

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
        self.dtype = repr(type)[len('Gnn.'):]
        self.bits, signed = _INTS[self.dtype]
        self.min = -(1 << (self.bits - 1)) if signed else 0
        self.max = (1 << (self.bits - 1)) - 1 if signed else (1 << self.bits) - 1

    def __repr__(self):
        return 'iinfo(min=%s, max=%s, dtype=%s)' % (_short(self.min), _short(self.max),
                                                   self.dtype)
