# _legacy_tensor.py: torch's legacy constructors — Gnn.Tensor([1, 2]),
# Gnn.Tensor(2, 3), Gnn.Tensor() — and the typed tensor types FloatTensor,
# LongTensor, ... (a call builds a tensor of that dtype; isinstance tests
# the dtype, as torch's tensortype does).
#
# Keyword-only calls stay GObject construction (Gnn.Tensor(requires_grad=
# True)); the C library builds the tensors.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from . import _dtype
from ._gi import Gnn, export, gobject_created
from ._tensor import Size, Tensor
from ._tensor_data import from_data


def _legacy_new(dtype, args, kwargs):
    """torch.Tensor(*args) / torch.<Type>Tensor(*args) for `dtype`."""
    device = kwargs.pop('device', None)
    if kwargs:
        raise TypeError('new() received an invalid combination of arguments - got %s' % (
            ', '.join([type(a).__name__ for a in args] +
                      ['%s=%s' % (k, type(v).__name__) for k, v in kwargs.items()])))
    _dtype.check_device(device)
    if not args:
        return Gnn.Tensor.empty([0], dtype)
    if all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args) or \
            (len(args) == 1 and isinstance(args[0], Size)):
        shape = list(args[0]) if isinstance(args[0], Size) else [int(a) for a in args]
        return Gnn.Tensor.zeros(shape, dtype)        # torch leaves them uninitialized
    if len(args) != 1:
        raise TypeError('new() received an invalid combination of arguments - got (%s)'
                        % ', '.join(type(a).__name__ for a in args))
    data = args[0]
    if isinstance(data, Gnn.Tensor):
        if data.get_dtype() != dtype:
            raise TypeError('expected %s (got %s)' % (_dtype.of(dtype), data.dtype))
        return Gnn.Tensor.detach(data)     # an alias of its memory, as torch's
    try:
        return Gnn.Tensor.to_dtype(from_data(data), dtype)
    except TypeError:
        raise TypeError('new(): invalid data type %r' % type(data).__name__) from None


def _tensor_new(cls, *args, **kwargs):
    if cls is Tensor and (args or not kwargs):
        return _legacy_new(_dtype.float32, args, dict(kwargs))
    return super(Tensor, cls).__new__(cls)


def _tensor_init(self, *args, **kwargs):
    if gobject_created(self):          # built by _legacy_new
        return
    if args:
        raise TypeError('%s() takes keyword arguments (properties) only' % type(self).__name__)
    super(Tensor, self).__init__(**kwargs)     # GObject construction


Tensor.__new__ = staticmethod(_tensor_new)
Tensor.__init__ = _tensor_init


class _TensorType(type):
    """The type of FloatTensor & co: a call builds a tensor of its dtype;
    isinstance(t, FloatTensor) is t.dtype == float32."""

    def __call__(cls, *args, **kwargs):
        return _legacy_new(cls.dtype, args, dict(kwargs))

    def __instancecheck__(cls, obj):
        return isinstance(obj, Gnn.Tensor) and obj.get_dtype() == cls.dtype

    def __repr__(cls):
        return "<class 'Gnn.%s'>" % cls.__name__


for _name, _dt in (('FloatTensor', _dtype.float32), ('DoubleTensor', _dtype.float64),
                   ('HalfTensor', _dtype.float16), ('BFloat16Tensor', _dtype.bfloat16),
                   ('LongTensor', _dtype.int64), ('IntTensor', _dtype.int32),
                   ('ShortTensor', _dtype.int16), ('CharTensor', _dtype.int8),
                   ('ByteTensor', _dtype.uint8), ('BoolTensor', _dtype.bool_)):
    export(_TensorType(_name, (), {'dtype': _dt, '__module__': 'gnn',
                                   '__doc__': 'torch.%s: tensors of dtype %s.' % (_name, _dt)}))
