# _dtype.py: torch's dtype spellings (Gnn.float32, Gnn.long, ...) and the
# numpy <-> Gnn.DType tables.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import builtins
import numbers

from gi.repository import GLib

from ._gi import Gnn, np, require_numpy


class dtype(int):
    """A Gnn.DType value that prints like torch's (`Gnn.float32`). It is
    the enum's integer, so it equals the Gnn.DType member and is accepted
    wherever the C API takes a Gnn.DType."""

    def __new__(cls, value, name):
        self = int.__new__(cls, int(value))
        self._name = name
        return self

    def __repr__(self):
        return 'Gnn.' + self._name

    __str__ = __repr__

    def __getattr__(self, name):
        # the Gnn.DType member's attributes (value_nick, value_name, ...)
        return getattr(Gnn.DType(int(self)), name)

    @property
    def is_floating_point(self):
        return self in FLOAT_DTYPES

    @property
    def itemsize(self):
        return Gnn.dtype_get_size(self)


float32 = dtype(Gnn.DType.F32, 'float32')
float64 = dtype(Gnn.DType.F64, 'float64')
float16 = dtype(Gnn.DType.F16, 'float16')
bfloat16 = dtype(Gnn.DType.BF16, 'bfloat16')
int64 = dtype(Gnn.DType.I64, 'int64')
int32 = dtype(Gnn.DType.I32, 'int32')
int16 = dtype(Gnn.DType.I16, 'int16')
int8 = dtype(Gnn.DType.I8, 'int8')
uint8 = dtype(Gnn.DType.U8, 'uint8')
bool_ = dtype(Gnn.DType.BOOL, 'bool')

BY_VALUE = {int(d): d for d in (float32, float64, float16, bfloat16, int64, int32,
                                int16, int8, uint8, bool_)}

# Gnn.<name> for each torch spelling (torch.float is float32, torch.long int64...).
ALIASES = {
    'float32': float32, 'float': float32, 'float64': float64, 'double': float64,
    'float16': float16, 'half': float16, 'bfloat16': bfloat16,
    'int64': int64, 'long': int64, 'int32': int32, 'int': int32,
    'int16': int16, 'short': int16, 'int8': int8, 'uint8': uint8, 'bool': bool_,
}

FLOAT_DTYPES = (float32, float64, float16, bfloat16)

NUMPY_TO_DTYPE = {
    ('f', 4): float32, ('f', 8): float64, ('f', 2): float16,
    ('i', 8): int64, ('i', 4): int32, ('i', 2): int16, ('i', 1): int8,
    ('u', 1): uint8, ('b', 1): bool_,
}
DTYPE_TO_NUMPY = {
    float32: 'float32', float64: 'float64', float16: 'float16', int64: 'int64',
    int32: 'int32', int16: 'int16', int8: 'int8', uint8: 'uint8', bool_: 'bool',
}


def of(value):
    """The dtype object of a Gnn.DType value."""
    return BY_VALUE[int(value)]


_FLOAT_VALUES = frozenset(int(d) for d in FLOAT_DTYPES)


def is_floating(value):
    return value in _FLOAT_VALUES


def from_arg(value):
    """A dtype argument: a Gnn.DType, a Gnn.<dtype>, a Python type (float,
    int, bool as torch takes them) or a numpy dtype."""
    if isinstance(value, builtins.bool):
        raise TypeError('dtype must be a Gnn dtype, not bool')
    if isinstance(value, numbers.Integral) and int(value) in BY_VALUE:
        return BY_VALUE[int(value)]
    if value is builtins.float:
        return float64          # torch: dtype=float is torch.float64
    if value is builtins.int:
        return int64
    if value is builtins.bool:
        return bool_
    if np is not None:
        try:
            npd = np.dtype(value)
        except TypeError:
            npd = None
        if npd is not None and (npd.kind, npd.itemsize) in NUMPY_TO_DTYPE:
            return NUMPY_TO_DTYPE[(npd.kind, npd.itemsize)]
    raise TypeError('dtype must be a Gnn dtype (Gnn.float32, Gnn.int64, ...), not %r'
                    % (value,))


# torch's device types (c10::DeviceType), in the order its error lists them.
DEVICE_TYPES = ('cpu', 'cuda', 'ipu', 'xpu', 'mkldnn', 'opengl', 'opencl', 'ideep', 'hip', 've',
                'fpga', 'ort', 'xla', 'lazy', 'vulkan', 'mps', 'meta', 'hpu', 'privateuseone')


def parse_device(value, index=None):
    """(type, index) of a device spelling: 'cuda:1', ('cuda', 1), a device
    object, an int (a CUDA ordinal, as torch reads it); torch's errors."""
    if isinstance(value, builtins.int) and not isinstance(value, builtins.bool):
        return 'cuda', value
    text = str(value)
    kind, colon, number = text.partition(':')
    if kind not in DEVICE_TYPES:
        raise RuntimeError('Expected one of %s device type at start of device string: %s'
                           % (', '.join(DEVICE_TYPES), text))
    if colon:
        if not number.isdigit():
            raise RuntimeError('Invalid device string: %r' % text)
        if index is not None:
            raise RuntimeError('type (string) must not include an index because index was '
                               'passed explicitly: %s' % text)
        index = builtins.int(number)
    return kind, index


def check_device(device):
    """Gnn tensors live on the CPU: another device is the error a CPU build
    of torch gives for it (AssertionError 'Torch not compiled with CUDA
    enabled' for CUDA, as programs expect)."""
    if device is None:
        return
    kind, _ = parse_device(device)
    if kind == 'cpu':
        return
    if kind == 'cuda':
        raise AssertionError('Torch not compiled with CUDA enabled')
    if kind == 'mps':
        raise RuntimeError('PyTorch is not linked with support for mps devices')
    raise RuntimeError("Gnn supports the 'cpu' device only, not %r" % str(device))


def tensor_from_numpy(array):
    """A tensor holding a COPY of `array`'s elements (see Tensor.from_numpy)."""
    np_ = require_numpy()
    if not isinstance(array, np_.ndarray):
        raise TypeError('expected np.ndarray (got %s)' % type(array).__name__)
    dtype = NUMPY_TO_DTYPE.get((array.dtype.kind, array.dtype.itemsize))
    if dtype is None:
        raise TypeError("can't convert np.ndarray of type %s. The only supported types "
                        "are: float64, float32, float16, int64, int32, int16, int8, "
                        "uint8, and bool." % array.dtype)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder('='))
    data = np_.ascontiguousarray(array).tobytes()
    return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(data), dtype, list(array.shape))


def is_ndarray(value):
    """Whether `value` is a numpy array (False without numpy)."""
    return np is not None and isinstance(value, np.ndarray)


def is_numpy_bool(value):
    return np is not None and isinstance(value, np.bool_)
