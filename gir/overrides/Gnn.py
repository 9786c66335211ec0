# Gnn.py: Pythonic protocol for the Gnn typelib (PyGObject override).
#
# Installed into PyGObject's overrides directory (gi/overrides/Gnn.py), and
# copied to build/gir/python/gi/overrides/ for uninstalled tests. Everything
# here is sugar over the public C API: errors raised by the library surface
# unchanged as GLib.Error (domain "gnn-error-quark", code = Gnn.Error value).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from ..module import get_introspection_module
from ..overrides import override

Gnn = get_introspection_module('Gnn')

__all__ = []

# numpy is optional: only from_numpy()/numpy()/__array__ need it.
try:
    import numpy as _np
except ImportError:  # pragma: no cover
    _np = None


def _require_numpy():
    if _np is None:
        raise ImportError('numpy is required for Gnn.Tensor <-> numpy conversion')
    return _np


# --- DType ------------------------------------------------------------------

# (numpy kind, itemsize) <-> Gnn.DType. bfloat16 has no numpy dtype.
_NUMPY_TO_DTYPE = {
    ('f', 4): Gnn.DType.F32,
    ('f', 8): Gnn.DType.F64,
    ('f', 2): Gnn.DType.F16,
    ('i', 8): Gnn.DType.I64,
    ('i', 4): Gnn.DType.I32,
    ('i', 2): Gnn.DType.I16,
    ('i', 1): Gnn.DType.I8,
    ('u', 1): Gnn.DType.U8,
    ('b', 1): Gnn.DType.BOOL,
}
_DTYPE_TO_NUMPY = {
    Gnn.DType.F32: 'float32',
    Gnn.DType.F64: 'float64',
    Gnn.DType.F16: 'float16',
    Gnn.DType.I64: 'int64',
    Gnn.DType.I32: 'int32',
    Gnn.DType.I16: 'int16',
    Gnn.DType.I8: 'int8',
    Gnn.DType.U8: 'uint8',
    Gnn.DType.BOOL: 'bool',
}
_FLOAT_DTYPES = (Gnn.DType.F32, Gnn.DType.F64, Gnn.DType.F16, Gnn.DType.BF16)


def _is_floating(dtype):
    return dtype in _FLOAT_DTYPES


# --- Tensor -----------------------------------------------------------------

def _scalar_dtype(tensor_dtype, value):
    """The dtype of `tensor <op> value` for a Python number, as in PyTorch:
    a scalar never widens a tensor of its own kind; a float scalar turns an
    integer/bool tensor into float32 (torch's default dtype), an int scalar
    turns a bool tensor into int64."""
    if isinstance(value, bool):
        return tensor_dtype
    if _is_floating(tensor_dtype):
        return tensor_dtype
    if isinstance(value, numbers.Integral):
        return Gnn.DType.I64 if tensor_dtype == Gnn.DType.BOOL else tensor_dtype
    return Gnn.DType.F32


def _coerce(a, b):
    """Returns (a, b) as two tensors for a binary operator, or None when `b`
    is neither a tensor nor a real number (the operator then returns
    NotImplemented). A number becomes a 0-d tensor of the result dtype."""
    if isinstance(b, Gnn.Tensor):
        return a, b
    if not isinstance(b, numbers.Real):
        return None
    dtype = _scalar_dtype(a.get_dtype(), b)
    if dtype != a.get_dtype():
        a = a.to_dtype(dtype)
    return a, Gnn.Tensor.new_scalar(float(b), dtype)


def _op(name):
    # Looked up at call time, so this module imports even while the
    # typelib lacks a function.
    return lambda *args: getattr(Gnn.Tensor, name)(*args)


def _binary(name, reflected=False):
    op = _true_divide if name == 'truediv' else _op(name)

    def method(self, other):
        pair = _coerce(self, other)
        if pair is None:
            return NotImplemented
        a, b = pair
        return op(b, a) if reflected else op(a, b)
    return method


def _true_divide(a, b):
    # Like torch, `/` on integer or bool tensors divides in float32.
    if not _is_floating(a.get_dtype()) and not _is_floating(b.get_dtype()):
        a = a.to_dtype(Gnn.DType.F32)
        b = b.to_dtype(Gnn.DType.F32)
    return Gnn.Tensor.div(a, b)


def _inplace(name):
    op_ = _op(name)

    def method(self, other):
        if name == 'div_' and not _is_floating(self.get_dtype()):
            # torch: true division cannot be stored in an integer tensor
            raise TypeError("result type Float can't be cast to the desired output type %s"
                            % Gnn.dtype_get_name(self.get_dtype()))
        if isinstance(other, Gnn.Tensor):
            op_(self, other)
            return self
        if not isinstance(other, numbers.Real):
            return NotImplemented
        dtype = self.get_dtype()
        if _scalar_dtype(dtype, other) != dtype:
            raise TypeError("result type %s can't be cast to the desired output type %s"
                            % ('Float' if isinstance(other, float) else 'Long',
                               Gnn.dtype_get_name(dtype)))
        op_(self, Gnn.Tensor.new_scalar(float(other), dtype))
        return self
    return method


def _index_key(self, key):
    """Applies an int / slice (step 1) / tuple of those / Ellipsis index."""
    if not isinstance(key, tuple):
        key = (key,)
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError('an index can only have a single ellipsis')
    n_real = sum(1 for k in key if k is not Ellipsis)
    ndim = self.get_ndim()
    if n_real > ndim:
        raise IndexError('too many indices for tensor of dimension %d' % ndim)
    result = self
    dim = 0
    for k in key:
        if k is Ellipsis:
            dim += ndim - n_real
        elif isinstance(k, numbers.Integral) and not isinstance(k, bool):
            result = result.select(dim, int(k))     # removes the dimension
        elif isinstance(k, slice):
            size = result.get_size(dim)
            start, stop, step = k.indices(size)
            if step != 1:
                raise IndexError('Gnn.Tensor slices support step 1 only')
            result = result.narrow(dim, start, max(0, stop - start))
            dim += 1
        else:
            raise TypeError('Gnn.Tensor indices must be integers, slices or ..., not %s'
                            % type(k).__name__)
    return result


class Tensor(Gnn.Tensor):
    """A Gnn.Tensor with the Python number protocol, numpy conversion and
    PyTorch-like properties (shape, dtype, item(), len(), indexing)."""

    # -- numpy ----------------------------------------------------------------

    @classmethod
    def from_numpy(cls, array):
        """Creates a tensor holding a COPY of `array`'s elements.

        Unlike torch.from_numpy, memory is not shared: the elements are
        packed (non-contiguous or non-native-byte-order arrays are made
        contiguous and native first), copied into Python bytes, and PyGObject
        copies those into a GLib.Bytes that the tensor then uses without a
        further copy. Supported dtypes: float32/64/16, int64/32/16/8, uint8,
        bool; anything else raises TypeError."""
        np = _require_numpy()
        if not isinstance(array, np.ndarray):
            raise TypeError('expected np.ndarray (got %s)' % type(array).__name__)
        dtype = _NUMPY_TO_DTYPE.get((array.dtype.kind, array.dtype.itemsize))
        if dtype is None:
            raise TypeError("can't convert np.ndarray of type %s. The only supported types "
                            "are: float64, float32, float16, int64, int32, int16, int8, "
                            "uint8, and bool." % array.dtype)
        if not array.dtype.isnative:
            array = array.astype(array.dtype.newbyteorder('='))
        data = np.ascontiguousarray(array).tobytes()
        from gi.repository import GLib
        return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(data), dtype, list(array.shape))

    def numpy(self):
        """Returns a new, writable numpy array with a COPY of the elements
        (dtype and shape as the tensor's). bfloat16 tensors raise TypeError:
        convert them with to_dtype(Gnn.DType.F32) first."""
        np = _require_numpy()
        dtype = self.get_dtype()
        np_dtype = _DTYPE_TO_NUMPY.get(dtype)
        if np_dtype is None:
            raise TypeError('Got unsupported ScalarType %s' % Gnn.dtype_get_name(dtype))
        data = self.get_bytes().get_data() or b''
        return np.frombuffer(data, dtype=np_dtype).reshape(self.shape).copy()

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    # -- properties -----------------------------------------------------------

    @property
    def shape(self):
        """The size of each dimension, as a tuple of ints."""
        return tuple(self.get_shape())

    @property
    def dtype(self):
        """The element type (Gnn.DType)."""
        return self.get_dtype()

    @property
    def ndim(self):
        return self.get_ndim()

    def size(self, dim=None):
        """Like torch.Tensor.size(): the shape tuple, or one dimension's size."""
        return self.shape if dim is None else self.get_size(dim)

    def numel(self):
        return self.get_numel()

    def item(self):
        """The only element as a Python int (integer dtypes), bool (bool) or
        float; GLib.Error if the tensor does not have exactly one element."""
        value = Gnn.Tensor.item(self)
        dtype = self.get_dtype()
        if dtype == Gnn.DType.BOOL:
            return bool(value)
        if dtype == Gnn.DType.I64:
            # exact beyond 2**53 (item() goes through a double)
            return int(self.numpy().reshape(-1)[0])
        if not _is_floating(dtype):
            return int(value)
        return value

    def tolist(self):
        return self.numpy().tolist()

    # -- printing -------------------------------------------------------------

    def __repr__(self):
        return self.to_string()

    __str__ = __repr__

    # -- sequence protocol ----------------------------------------------------

    def __len__(self):
        if self.get_ndim() == 0:
            raise TypeError('len() of a 0-d tensor')
        return self.get_shape()[0]

    def __getitem__(self, key):
        return _index_key(self, key)

    def __iter__(self):
        if self.get_ndim() == 0:
            raise TypeError('iteration over a 0-d tensor')
        return (self.select(0, i) for i in range(self.get_shape()[0]))

    def __bool__(self):
        numel = self.get_numel()
        if numel != 1:
            raise RuntimeError('Boolean value of Tensor with %s values is ambiguous'
                               % ('no' if numel == 0 else 'more than one'))
        return bool(Gnn.Tensor.item(self))

    def __float__(self):
        return float(Gnn.Tensor.item(self))

    def __int__(self):
        return int(self.item())

    # -- arithmetic operators -------------------------------------------------
    # Operands may be tensors (broadcast by the library) or Python numbers
    # (0-d tensors of the result dtype). `==`/`!=` keep Python's identity
    # semantics (GObjects are hashable); use t.eq(o) / t.ne(o).

    __add__ = _binary('add')
    __radd__ = _binary('add', reflected=True)
    __sub__ = _binary('sub')
    __rsub__ = _binary('sub', reflected=True)
    __mul__ = _binary('mul')
    __rmul__ = _binary('mul', reflected=True)
    __truediv__ = _binary('truediv')
    __rtruediv__ = _binary('truediv', reflected=True)
    __lt__ = _binary('lt')
    __le__ = _binary('le')
    __gt__ = _binary('gt')
    __ge__ = _binary('ge')

    __iadd__ = _inplace('add_')
    __isub__ = _inplace('sub_')
    __imul__ = _inplace('mul_')
    __itruediv__ = _inplace('div_')

    def __matmul__(self, other):
        if not isinstance(other, Gnn.Tensor):
            return NotImplemented
        return Gnn.Tensor.matmul(self, other)

    def __pow__(self, exponent):
        if not isinstance(exponent, numbers.Real):
            return NotImplemented
        return self.pow(float(exponent))

    def __neg__(self):
        return self.neg()

    def __pos__(self):
        return self

    def __abs__(self):
        return Gnn.Tensor.abs(self)


Tensor = override(Tensor)
__all__.append('Tensor')
