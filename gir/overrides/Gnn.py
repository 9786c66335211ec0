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


def _dims_arg(dim):
    """A torch `dim` argument (None, an int, or a list/tuple of ints) as the
    list the C reductions take (empty: all dims)."""
    if dim is None:
        return []
    if isinstance(dim, numbers.Integral):
        return [int(dim)]
    return [int(d) for d in dim]


def _shape_arg(shape):
    """torch's `*shape` convention: t.reshape(2, 3) or t.reshape((2, 3))."""
    if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
        shape = shape[0]
    return [int(n) for n in shape]


import collections as _collections  # noqa: E402

# torch.return_types.max: the (values, indices) of t.max(dim).
_MaxResult = _collections.namedtuple('max', ['values', 'indices'])


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

    # -- torch-style shape, reduction and autograd conveniences --------------
    # Each accepts torch's spellings (keywords, varargs or a tuple, defaults)
    # as well as the C signatures (a list of dims, positional keepdim).

    def flatten(self, start_dim=0, end_dim=-1):
        """Like torch.Tensor.flatten(start_dim=0, end_dim=-1)."""
        return Gnn.Tensor.flatten(self, start_dim, end_dim)

    def reshape(self, *shape):
        """Like torch.Tensor.reshape(*shape): t.reshape(2, -1) or
        t.reshape((2, -1)); a view when the strides allow, else a copy."""
        return Gnn.Tensor.reshape(self, _shape_arg(shape))

    def view(self, *shape):
        """Like torch.Tensor.view(*shape): t.view(2, -1) or t.view((2, -1));
        GLib.Error when the strides do not allow a view."""
        return Gnn.Tensor.view(self, _shape_arg(shape))

    def permute(self, *dims):
        """Like torch.Tensor.permute(*dims): t.permute(2, 0, 1) or
        t.permute((2, 0, 1))."""
        return Gnn.Tensor.permute(self, _shape_arg(dims))

    def transpose(self, dim0, dim1):
        """Like torch.Tensor.transpose(dim0, dim1): a view."""
        return Gnn.Tensor.transpose(self, dim0, dim1)

    @property
    def T(self):
        """The tensor with its dimensions reversed, a view: the transpose of
        a 2-d tensor, the tensor itself for 0-d and 1-d (torch deprecates T
        for other dimensions but reverses them too)."""
        ndim = self.get_ndim()
        if ndim < 2:
            return self
        return Gnn.Tensor.permute(self, list(range(ndim - 1, -1, -1)))

    def sum(self, dim=None, keepdim=False):
        """Like torch.Tensor.sum(dim=None, keepdim=False); dim is an int or a
        tuple/list of ints, None reduces over every dim."""
        return Gnn.Tensor.sum(self, _dims_arg(dim), keepdim)

    def mean(self, dim=None, keepdim=False):
        """Like torch.Tensor.mean(dim=None, keepdim=False)."""
        return Gnn.Tensor.mean(self, _dims_arg(dim), keepdim)

    def max(self, dim=None, keepdim=False):
        """Like torch.Tensor.max(): with dim None, the largest value (0-d,
        or size 1 in every dim with keepdim); with an int dim, torch's
        (values, indices) namedtuple, indices from argmax (the first
        position of the largest value). A list/tuple of dims gives the
        values only (torch.amax), the C method's behaviour."""
        if isinstance(dim, numbers.Integral):
            return _MaxResult(Gnn.Tensor.max(self, [int(dim)], keepdim),
                              Gnn.Tensor.argmax(self, int(dim), keepdim))
        return Gnn.Tensor.max(self, _dims_arg(dim), keepdim)

    def argmax(self, dim=None, keepdim=False):
        """Like torch.Tensor.argmax(dim=None, keepdim=False): with dim None,
        the position in the flattened tensor (size 1 in every dim with
        keepdim)."""
        if dim is None:
            index = Gnn.Tensor.argmax(Gnn.Tensor.reshape(self, [-1]), 0, False)
            return Gnn.Tensor.reshape(index, [1] * self.get_ndim()) if keepdim else index
        return Gnn.Tensor.argmax(self, dim, keepdim)

    def softmax(self, dim):
        """Like torch.Tensor.softmax(dim)."""
        return Gnn.Tensor.softmax(self, dim)

    @property
    def requires_grad(self):
        """Whether autograd records operations on this tensor (read/write,
        get_requires_grad / set_requires_grad). The gradient itself is
        t.grad (see the autograd section)."""
        return self.get_requires_grad()

    @requires_grad.setter
    def requires_grad(self, value):
        self.set_requires_grad(bool(value))

    def requires_grad_(self, requires_grad=True):
        """Like torch.Tensor.requires_grad_(): sets requires_grad, returns self."""
        self.set_requires_grad(bool(requires_grad))
        return self

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


# --- Module -----------------------------------------------------------------
#
# The PyTorch protocol over GnnModule: attribute assignment that registers
# children, attribute lookup that falls back to the registry, lists of
# (name, object) pairs, model(x), repr, train()/eval() returning self,
# state_dict() as an ordered mapping, load_state_dict() with a
# (missing_keys, unexpected_keys) result, and hooks with torch's signatures.
# Library errors surface as GLib.Error (domain "gnn-error-quark") with the
# C library's message text, which is PyTorch's with class names adapted.

import collections as _collections
import collections.abc as _abc
import threading as _threading

from gi.repository import GLib as _GLib
from gi.repository import GObject as _GObject

_CModule = Gnn.Module
_CStateDict = Gnn.StateDict
_GNN_ERROR_DOMAIN = 'gnn-error-quark'


def _gnn_error(code, message):
    """A GLib.Error in the GNN_ERROR domain (code: a Gnn.Error value)."""
    return _GLib.Error(message, _GNN_ERROR_DOMAIN, int(code))


# A Python exception raised inside do_forward or a hook cannot cross the C
# call path as itself: it crosses as a GLib.Error, and the original is kept
# here so that model(x) / forward(x) re-raise it, as torch would.
_pending = _threading.local()


def _stash(exc, where):
    _pending.exc = exc
    return _gnn_error(Gnn.Error.INVALID_ARGUMENT,
                      '%s failed: %s: %s' % (where, type(exc).__name__, exc))


def _guarded_call(func, *args):
    """Runs a C entry point that may call back into Python; re-raises the
    Python exception a callback raised instead of its GLib.Error stand-in."""
    previous = getattr(_pending, 'exc', None)
    _pending.exc = None
    exc = None
    try:
        return func(*args)
    except _GLib.Error:
        exc = _pending.exc
        if exc is None:
            raise
    finally:
        _pending.exc = previous
    raise exc


def _wrap_forward(func):
    def do_forward(self, input):
        try:
            return func(self, input)
        except _GLib.Error:
            raise
        except Exception as exc:
            raise _stash(exc, 'forward of %s' % type(self).__name__) from exc
    do_forward.__name__ = getattr(func, '__name__', 'do_forward')
    do_forward.__doc__ = getattr(func, '__doc__', None)
    do_forward.__wrapped__ = func
    do_forward._gnn_guarded = True
    return do_forward


def _type_name(value):
    """The type name the C library would print for `value` (the GType name
    of a GObject), else the Python type name."""
    if isinstance(value, _GObject.Object):
        return value.__gtype__.name
    return type(value).__name__


def _is_initialized(module):
    try:
        module.__grefcount__
        return True
    except TypeError:   # "GObject instance is not yet created"
        return False


def _is_slot_pspec(pspec):
    """A declared child slot is an object property of a module or tensor
    type (see gnn_module_class_install_child_slot)."""
    vtype = pspec.value_type
    return vtype.is_a(_CModule.__gtype__) or vtype.is_a(Gnn.Tensor.__gtype__)


def _find_pspec(module, name):
    if not name or not name[0].isalpha():
        return None
    try:
        return module.find_property(name.replace('_', '-'))
    except TypeError:
        return None


class _IncompatibleKeys(_collections.namedtuple('IncompatibleKeys',
                                                ['missing_keys', 'unexpected_keys'])):
    """The result of Module.load_state_dict(), as in torch."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return super().__repr__()

    __str__ = __repr__


def _hook_flags(prepend, always_call=False):
    flags = Gnn.HookFlags.NONE
    if prepend:
        flags |= Gnn.HookFlags.PREPEND
    if always_call:
        flags |= Gnn.HookFlags.ALWAYS_CALL
    return flags


def _check_attribute_free(module, name, kind_has):
    """torch's `hasattr(self, name) and name not in self._<kind>` check for
    what the C library cannot see: the Python instance dict and class
    attributes."""
    if not isinstance(name, str) or not name or '.' in name or kind_has:
        return
    if name in module.__dict__ or hasattr(type(module), name):
        raise _gnn_error(Gnn.Error.NAME, "attribute '%s' already exists" % name)


class Module(Gnn.Module):
    """A Gnn.Module with PyTorch's nn.Module protocol.

    Subclass it like torch.nn.Module: call super().__init__() first, then
    assign children (`self.fc = Gnn.Parameter...`, `self.block = Block()`).
    Implement `do_forward(self, x)` (or `forward(self, x)`, which is used as
    do_forward) and optionally `do_extra_repr(self)` (or `extra_repr`)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        ns = cls.__dict__
        if 'forward' in ns and 'do_forward' not in ns:
            cls.do_forward = ns['forward']
        if 'extra_repr' in ns and 'do_extra_repr' not in ns:
            cls.do_extra_repr = ns['extra_repr']
        if 'do_forward' in cls.__dict__ and \
                not getattr(cls.__dict__['do_forward'], '_gnn_guarded', False):
            cls.do_forward = _wrap_forward(cls.__dict__['do_forward'])

    # -- attributes -----------------------------------------------------------

    def __setattr__(self, name, value):
        if isinstance(value, (Gnn.Parameter, _CModule)):
            if not _is_initialized(self):
                raise AttributeError('cannot assign %s before Module.__init__() call'
                                     % ('parameters' if isinstance(value, Gnn.Parameter)
                                        else 'module'))
            if name in self.__dict__:
                super().__delattr__(name)
            _CModule.set_child(self, name, value)
            return
        if not _is_initialized(self):
            super().__setattr__(name, value)
            return
        pspec = None
        if not _CModule.has_child(self, name):
            pspec = _find_pspec(self, name)
            if pspec is None or (not _is_slot_pspec(pspec) and
                                 not (pspec.flags & _GObject.ParamFlags.WRITABLE)):
                super().__setattr__(name, value)
                return
            if not _is_slot_pspec(pspec):
                self.set_property(pspec.name, value)
                return
        if value is None or isinstance(value, Gnn.Tensor):
            _CModule.set_child(self, name, value)
            return
        # Not a GObject: let the library word the error for a stand-in
        # object, then name the real type.
        try:
            _CModule.set_child(self, name, _GObject.Object())
        except _GLib.Error as e:
            raise _gnn_error(e.code, e.message.replace("'GObject'", "'%s'"
                                                       % _type_name(value))) from None
        raise AssertionError('set_child accepted a plain GObject')   # pragma: no cover

    def __getattr__(self, name):
        # Only called when normal lookup fails.
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError("'%s' object has no attribute '%s'"
                                 % (type(self).__name__, name))
        if not _is_initialized(self):
            raise AttributeError("'%s' object has no attribute '%s'"
                                 % (type(self).__name__, name))
        try:
            return _CModule.get_child(self, name)
        except _GLib.Error as e:
            error = e
        pspec = _find_pspec(self, name)
        if pspec is not None and not _is_slot_pspec(pspec):
            return self.get_property(pspec.name)
        raise AttributeError(error.message)

    def __delattr__(self, name):
        if _is_initialized(self) and _CModule.has_child(self, name):
            _CModule.delete_child(self, name)
        else:
            super().__delattr__(name)

    def __dir__(self):
        names = set(super().__dir__())
        if _is_initialized(self):
            names.update(n for n, _ in self.named_parameters(recurse=False))
            names.update(n for n, _ in self.named_buffers(recurse=False))
            names.update(n for n, _ in self.named_children())
        return sorted(names)

    @property
    def training(self):
        """Whether the module is in training mode (the `training` property)."""
        return _CModule.get_training(self)

    @training.setter
    def training(self, value):
        self.set_property('training', bool(value))

    # -- registration ---------------------------------------------------------

    def register_parameter(self, name, param):
        """Registers `param` (a Gnn.Parameter or None) under `name`."""
        if not isinstance(name, str):
            raise TypeError('parameter name should be a string. Got %s' % type(name).__name__)
        if param is not None and not isinstance(param, Gnn.Parameter):
            raise _gnn_error(Gnn.Error.TYPE,
                             "cannot assign '%s' object to parameter '%s' "
                             "(GnnParameter or NULL required)" % (_type_name(param), name))
        _check_attribute_free(self, name, name in self._names('parameters'))
        _CModule.register_parameter(self, name, param)

    def register_buffer(self, name, tensor, persistent=True):
        """Registers `tensor` (a Gnn.Tensor or None) as a buffer; a
        non-persistent buffer is not part of state_dict()."""
        if not isinstance(name, str):
            raise TypeError('buffer name should be a string. Got %s' % type(name).__name__)
        if tensor is not None and not isinstance(tensor, Gnn.Tensor):
            raise _gnn_error(Gnn.Error.TYPE,
                             "cannot assign '%s' object to buffer '%s' "
                             "(GnnTensor or NULL required)" % (_type_name(tensor), name))
        _check_attribute_free(self, name, name in self._names('buffers'))
        _CModule.register_buffer(self, name, tensor, persistent)

    def register_module(self, name, module):
        """Registers `module` (a Gnn.Module or None) as a child (add_module)."""
        if module is not None and not isinstance(module, _CModule):
            raise _gnn_error(Gnn.Error.TYPE, '%s is not a Module subclass'
                             % _type_name(module))
        if not isinstance(name, str):
            raise TypeError('module name should be a string. Got %s' % type(name).__name__)
        _check_attribute_free(self, name, name in self._names('modules'))
        _CModule.register_module(self, name, module)

    add_module = register_module

    def _names(self, kind):
        """The names registered in one map, empty slots included."""
        if kind == 'modules':
            maps = [n for n, _ in self.named_children()]
        elif kind == 'parameters':
            maps = [n for n, _ in self.named_parameters(recurse=False)]
        else:
            maps = [n for n, _ in self.named_buffers(recurse=False)]
        return maps

    # -- traversal ------------------------------------------------------------

    def named_parameters(self, prefix='', recurse=True):
        """[(name, parameter)] in torch's order; shared parameters once."""
        values, names = _CModule.named_parameters(self, prefix, recurse)
        return list(zip(names, values))

    def named_buffers(self, prefix='', recurse=True):
        """[(name, buffer)], non-persistent buffers included."""
        values, names = _CModule.named_buffers(self, prefix, recurse)
        return list(zip(names, values))

    def named_children(self):
        """[(name, module)] of the direct children."""
        values, names = _CModule.named_children(self)
        return list(zip(names, values))

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        """[(name, module)], self first with `prefix`, pre-order; a module
        reachable twice is listed once (unless remove_duplicate=False;
        a module registered twice under the same parent is still listed
        once there, as the C API lists a parent's children deduplicated)."""
        if memo is None and remove_duplicate:
            values, names = _CModule.named_modules(self, prefix)
            return list(zip(names, values))
        result = []
        if memo is None:
            memo = set()

        def visit(module, pfx):
            if remove_duplicate:
                if module in memo:
                    return
                memo.add(module)
            result.append((pfx, module))
            for name, child in Module.named_children(module):
                visit(child, pfx + ('.' if pfx else '') + name)
        visit(self, prefix)
        return result

    def parameters(self, recurse=True):
        return [p for _, p in self.named_parameters(recurse=recurse)]

    def buffers(self, recurse=True):
        return [b for _, b in self.named_buffers(recurse=recurse)]

    def children(self):
        return [m for _, m in self.named_children()]

    def modules(self):
        return [m for _, m in self.named_modules()]

    def apply(self, fn):
        """Calls fn(module) on every module, children first; returns self."""
        _CModule.apply(self, lambda module, user_data: fn(module), None)
        return self

    def train(self, mode=True):
        """Sets training mode on the whole tree; returns self."""
        if not isinstance(mode, bool):
            raise ValueError('training mode is expected to be boolean')
        _CModule.train(self, mode)
        return self

    def eval(self):
        """train(False); returns self."""
        _CModule.eval(self)
        return self

    def requires_grad_(self, requires_grad=True):
        _CModule.requires_grad_(self, requires_grad)
        return self

    def zero_grad(self, set_to_none=False):
        _CModule.zero_grad(self, set_to_none)

    # -- call -----------------------------------------------------------------

    def __call__(self, input):
        """model(x): hooks and forward (Gnn.Module.call)."""
        return _guarded_call(_CModule.call, self, input)

    def forward(self, input):
        """Runs the module's forward without hooks."""
        return _guarded_call(_CModule.forward, self, input)

    def register_forward_pre_hook(self, hook, *, prepend=False):
        """hook(module, input) runs before forward; `input` is a 1-tuple
        (x,) as in torch. It returns None, or a replacement input (a tensor
        or a 1-tuple). Returns a handle with remove()."""
        def pre_hook(module, input, user_data):
            try:
                result = hook(module, (input,))
            except _GLib.Error:
                raise
            except Exception as exc:
                raise _stash(exc, 'forward pre-hook of %s' % type(module).__name__) from exc
            if isinstance(result, tuple):
                if len(result) != 1:
                    raise _stash(TypeError('forward pre-hook must return None, a tensor or '
                                           'a 1-tuple, got a %d-tuple' % len(result)),
                                 'forward pre-hook')
                result = result[0]
            return result
        return _CModule.register_forward_pre_hook(self, pre_hook, None, _hook_flags(prepend))

    def register_forward_hook(self, hook, *, prepend=False, always_call=False):
        """hook(module, input, output) runs after forward (`input` a 1-tuple
        as in torch); it returns None or a replacement output. With
        always_call it also runs when the call fails (output None).
        Returns a handle with remove()."""
        def post_hook(module, input, output, user_data):
            try:
                return hook(module, (input,), output)
            except _GLib.Error:
                raise
            except Exception as exc:
                raise _stash(exc, 'forward hook of %s' % type(module).__name__) from exc
        return _CModule.register_forward_hook(self, post_hook, None,
                                              _hook_flags(prepend, always_call))

    # -- state ----------------------------------------------------------------

    def state_dict(self, destination=None, prefix='', keep_vars=False):
        """The module's state as a Gnn.StateDict (an ordered mapping):
        parameters, then persistent buffers, then children with dotted
        prefixes. The tensors are the module's own (not copies)."""
        state = _CModule.state_dict(self)
        if destination is None and not prefix:
            return state
        if destination is None:
            destination = StateDict()
        for key in state.get_keys():
            destination.insert(prefix + key, state.lookup(key))
        return destination

    def load_state_dict(self, state_dict, strict=True):
        """Copies `state_dict` (a Gnn.StateDict or a mapping of name to
        Gnn.Tensor) into the module. Returns (missing_keys, unexpected_keys);
        raises GLib.Error with torch's message on failure, after copying
        nothing."""
        if not isinstance(state_dict, _CStateDict):
            if not isinstance(state_dict, _abc.Mapping):
                raise TypeError('Expected state_dict to be dict-like, got %s.'
                                % type(state_dict))
            converted = StateDict()
            for key, value in state_dict.items():
                if not isinstance(value, Gnn.Tensor):
                    if _np is not None and isinstance(value, _np.ndarray):
                        value = Tensor.from_numpy(value)
                    else:
                        raise TypeError("state_dict value for key '%s' must be a Gnn.Tensor, "
                                        "got %s" % (key, type(value).__name__))
                converted.insert(key, value)
            state_dict = converted
        _, missing, unexpected = _CModule.load_state_dict(self, state_dict, strict)
        return _IncompatibleKeys(list(missing or []), list(unexpected or []))

    # -- printing -------------------------------------------------------------

    def __repr__(self):
        if not _is_initialized(self):
            return '<%s (not initialized)>' % type(self).__name__
        return self.to_string()

    __str__ = __repr__


Module = override(Module)
__all__.append('Module')


class StateDict(Gnn.StateDict):
    """A Gnn.StateDict that behaves as an ordered mapping of name to tensor
    (like the OrderedDict torch's state_dict() returns)."""

    def __len__(self):
        return self.get_length()

    def __iter__(self):
        return iter(self.get_keys())

    def __contains__(self, key):
        return isinstance(key, str) and self.contains(key)

    def __getitem__(self, key):
        if not isinstance(key, str) or not self.contains(key):
            raise KeyError(key)
        return self.lookup(key)

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise TypeError('state dict keys must be str, not %s' % type(key).__name__)
        if not isinstance(value, Gnn.Tensor):
            raise TypeError("state dict values must be Gnn.Tensor, not %s"
                            % type(value).__name__)
        self.insert(key, value)

    def __delitem__(self, key):
        if not isinstance(key, str) or not self.remove(key):
            raise KeyError(key)

    def keys(self):
        return list(self.get_keys())

    def values(self):
        return [self.lookup(k) for k in self.get_keys()]

    def items(self):
        return [(k, self.lookup(k)) for k in self.get_keys()]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key, *default):
        if key in self:
            value = self.lookup(key)
            self.remove(key)
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def update(self, other=(), **kwargs):
        pairs = other.items() if isinstance(other, _abc.Mapping) else other
        for key, value in pairs:
            self[key] = value
        for key, value in kwargs.items():
            self[key] = value

    def copy(self):
        """A new state dict with the same keys and tensors (not copied)."""
        result = StateDict()
        for key in self.get_keys():
            result.insert(key, self.lookup(key))
        return result

    def __repr__(self):
        return 'StateDict([%s])' % ', '.join(repr(k) for k in self.get_keys())


StateDict = override(StateDict)
_abc.MutableMapping.register(StateDict)
__all__.append('StateDict')


# --- io: safetensors ------------------------------------------------------------
# sd.save(path, {"format": "pt"}), Gnn.StateDict.load(path, copy=False),
# model.save(path, metadata=None); model.load(path) is the C method (strict).

import os as _os


def _state_dict_save(self, path, metadata=None):
    """Writes the state dict as a safetensors file (temp file + rename);
    `metadata` is an optional dict of str → str for `__metadata__`."""
    return _CStateDict.save(self, _os.fspath(path), dict(metadata) if metadata else None)


def _state_dict_load(path, copy=False):
    """Loads a safetensors file: the tensors borrow a private mapping of the
    file (zero copy), or are copied out of it with copy=True."""
    flags = Gnn.LoadFlags.COPY if copy else Gnn.LoadFlags.NONE
    return _CStateDict.load_with_flags(_os.fspath(path), flags)


def _module_save(self, path, metadata=None):
    """Saves state_dict() as a safetensors file."""
    return _CModule.save(self, _os.fspath(path), dict(metadata) if metadata else None)


def _module_load(self, path):
    """Loads a safetensors file into the module (strict, atomic)."""
    return _CModule.load(self, _os.fspath(path))


StateDict.save = _state_dict_save
StateDict.load = staticmethod(_state_dict_load)
Module.save = _module_save
Module.load = _module_load


# --- data -------------------------------------------------------------------
#
# torch.utils.data's protocol over the data classes: len(dataset),
# dataset[i] (a tuple, negative indices wrap), do_get_item / do_collate /
# ItemIterator.do_next returning tensors, numbers or numpy arrays (converted
# like torch's default_collate: int -> int64, float -> float64, bool -> bool
# 0-d tensors), Python exceptions in them crossing the C library as GLib.Error
# with the exception and its traceback in the message (the C side adds the
# worker id and sample index), Gnn.DataLoader(dataset, batch_size=..., ...)
# with len(loader) and `for images, labels in loader`, and os.fork() as the
# fork of worker processes (worker_mode='processes').

import os as _os
import traceback as _traceback

_CDataset = Gnn.Dataset
_CDataLoader = Gnn.DataLoader


def _data_field(value, where, position):
    """One field of an item or batch as a Gnn.Tensor."""
    if isinstance(value, Gnn.Tensor):
        return value
    if isinstance(value, bool) or (_np is not None and isinstance(value, _np.bool_)):
        return Gnn.Tensor.new_scalar(float(value), Gnn.DType.BOOL)
    if isinstance(value, numbers.Integral) and not (_np is not None and isinstance(value, _np.generic)):
        if -(1 << 53) <= value <= (1 << 53):
            return Gnn.Tensor.new_scalar(float(value), Gnn.DType.I64)
        return Tensor.from_numpy(_require_numpy().asarray(value, dtype=_np.int64))
    if isinstance(value, numbers.Real) and not (_np is not None and isinstance(value, _np.generic)):
        return Gnn.Tensor.new_scalar(float(value), Gnn.DType.F64)
    if _np is not None and isinstance(value, (_np.ndarray, _np.generic)):
        return Tensor.from_numpy(_np.asarray(value))
    raise TypeError('%s: field %d is a %s; expected a Gnn.Tensor, a number or a numpy array'
                    % (where, position, type(value).__name__))


def _data_fields(value, where):
    if isinstance(value, (list, tuple)):
        return [_data_field(v, where, i) for i, v in enumerate(value)]
    return [_data_field(value, where, 0)]


def _data_error(exc):
    """A GLib.Error carrying a Python exception and its traceback."""
    text = ''.join(_traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip()
    head = '%s: %s' % (type(exc).__name__, exc)
    return _gnn_error(Gnn.Error.INVALID_ARGUMENT,
                      '%s\nOriginal %s' % (head, text))


def _data_guard(func, convert):
    def guarded(self, *args):
        try:
            return convert(self, func(self, *args), *args)
        except _GLib.Error:
            raise
        except Exception as exc:
            raise _data_error(exc) from exc
    guarded.__name__ = getattr(func, '__name__', 'vfunc')
    guarded.__doc__ = getattr(func, '__doc__', None)
    guarded.__wrapped__ = func
    guarded._gnn_guarded = True
    return guarded


def _guard_vfunc(cls, name, convert):
    func = cls.__dict__.get(name)
    if func is not None and not getattr(func, '_gnn_guarded', False):
        setattr(cls, name, _data_guard(func, convert))


class Dataset(Gnn.Dataset):
    """A Gnn.Dataset with torch's Dataset protocol: len(ds), ds[i] -> tuple.

    Subclasses implement do_get_length(self) and do_get_item(self, index);
    do_get_item may return a tuple/list of tensors, numbers and numpy
    arrays (or one of them), and may raise: the exception text and
    traceback reach the caller (through worker threads or processes)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _guard_vfunc(cls, 'do_get_item',
                     lambda self, value, index: _data_fields(
                         value, '%s.do_get_item(%d)' % (type(self).__name__, index)))

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):
            raise TypeError('dataset indices must be integers, not %s' % type(index).__name__)
        n = self.get_length()
        i = int(index) + n if index < 0 else int(index)
        if not 0 <= i < n:
            raise IndexError('index %d is out of range for dataset of length %d' % (index, n))
        return tuple(self.get_item(i))


Dataset = override(Dataset)
__all__.append('Dataset')


class Collate(Gnn.Collate):
    """A Gnn.Collate whose do_collate(self, items, n_fields) may return
    tensors, numbers or numpy arrays, and may raise."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _guard_vfunc(cls, 'do_collate',
                     lambda self, value, items, n_fields: _data_fields(
                         value, '%s.do_collate' % type(self).__name__))


Collate = override(Collate)
__all__.append('Collate')


class ItemIterator(Gnn.ItemIterator):
    """A Gnn.ItemIterator whose do_next(self) returns an item (tensors,
    numbers, numpy arrays) or None at the end, and may raise."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _guard_vfunc(cls, 'do_next',
                     lambda self, value: None if value is None else _data_fields(
                         value, '%s.do_next' % type(self).__name__))

    def __iter__(self):
        return self

    def __next__(self):
        ok, item = self.next()
        if not ok:
            raise StopIteration
        return tuple(item)


ItemIterator = override(ItemIterator)
__all__.append('ItemIterator')


_WORKER_MODES = {
    'threads': Gnn.WorkerMode.THREADS,
    'processes': Gnn.WorkerMode.PROCESSES,
    'spawn': Gnn.WorkerMode.SPAWN,
}
# --- data helper (issue 11): torch's multiprocessing_context names ---
_MP_CONTEXTS = {'fork': 'processes', 'spawn': 'spawn', 'forkserver': 'spawn'}


class DataLoader(Gnn.DataLoader):
    """torch.utils.data.DataLoader's constructor and protocol:

        loader = Gnn.DataLoader(ds, batch_size=64, shuffle=True, num_workers=2, seed=1,
                                worker_mode='processes')
        len(loader)
        for images, labels in loader: ...

    Every keyword is a property (underscores or dashes); worker_mode also
    takes 'threads' / 'processes'. A batch is a list of tensors."""

    def __init__(self, dataset=None, **kwargs):
        context = kwargs.pop('multiprocessing_context', None)   # data helper (issue 11)
        if context is not None:
            if str(context) not in _MP_CONTEXTS:
                raise ValueError("multiprocessing_context option should specify a valid start "
                                 "method in %r, but got multiprocessing_context=%r"
                                 % (list(_MP_CONTEXTS), context))
            kwargs.setdefault('worker_mode', _MP_CONTEXTS[str(context)])
        mode = kwargs.get('worker_mode')
        if isinstance(mode, str):
            if mode.lower() not in _WORKER_MODES:
                raise ValueError("worker_mode should be 'threads', 'processes' or 'spawn', not %r"
                                 % mode)
            kwargs['worker_mode'] = _WORKER_MODES[mode.lower()]
        if dataset is not None:
            kwargs['dataset'] = dataset
        super().__init__(**kwargs)

    def __len__(self):
        self.validate()   # raises PyTorch's argument errors
        return self.get_length()

    def __iter__(self):
        return self.iter()

    # data helper (issue 11): torchdata StatefulDataLoader's names
    def state_dict(self):
        """Where the latest pass stands (batches handed out, generator states)."""
        return self.get_state()

    def load_state_dict(self, state):
        """The next iter() resumes from @state (from state_dict(), or its print)."""
        if isinstance(state, str):
            from gi.repository import GLib
            state = GLib.Variant.parse(None, state, None, None)
        self.load_state(state)


DataLoader = override(DataLoader)
__all__.append('DataLoader')


class DataLoaderIter(Gnn.DataLoaderIter):
    """One pass: an iterator of batches (lists of tensors)."""

    def __iter__(self):
        return self

    def __next__(self):
        ok, batch = self.next()
        if not ok:
            raise StopIteration
        return batch

    def __len__(self):
        n = self.get_length()
        if n < 0:
            raise TypeError('the length of a pass over an IterableDataset is unknown')
        return n


DataLoaderIter = override(DataLoaderIter)
__all__.append('DataLoaderIter')


def _worker_fork(*_args):
    # os.fork() runs CPython's before/after-fork hooks (GIL, import lock,
    # threading state), which a fork() from C skips. The child returns 0 into
    # the library's worker loop and never comes back here.
    try:
        return _os.fork()
    except OSError:
        return -1


Gnn.set_worker_fork_func(_worker_fork)


# --- autograd: t.backward(), t.grad, with Gnn.no_grad(): -------------------

def _tensor_backward(self, gradient=None, retain_graph=False):
    """Like torch.Tensor.backward(gradient=None, retain_graph=False)."""
    return Gnn.Tensor.backward(self, gradient, retain_graph)


Tensor.backward = _tensor_backward
Tensor.grad = property(lambda self: self.get_grad(),
                       lambda self, value: self.set_grad(value))
Tensor.grad_fn_name = property(lambda self: self.get_grad_fn_name())


class no_grad(object):
    """`with Gnn.no_grad():` turns autograd recording off in the block."""

    def __enter__(self):
        Gnn.no_grad_push()
        return self

    def __exit__(self, *exc):
        Gnn.no_grad_pop()
        return False


__all__.append('no_grad')


# --- containers -------------------------------------------------------------
#
# torch.nn's container protocol over Sequential, ModuleList, ModuleDict,
# ParameterList and ParameterDict: constructors taking the children
# (Gnn.Sequential(a, b, c), Gnn.ModuleList([a, b]), Gnn.ModuleDict({...})),
# len(), [] with negative indices and slices, item assignment and deletion,
# iteration, `in` and keys()/values()/items() on the dicts, and
# append/extend/insert/pop. Bad indices raise IndexError and missing keys
# KeyError, with the library's message (PyTorch's wording), as torch does.

_INT64_MIN = -(1 << 63)


def _container_index(index):
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise TypeError("'%s' object cannot be interpreted as an integer"
                        % type(index).__name__)
    return int(index)


def _container_call(func, *args):
    """Runs a container method, raising IndexError / KeyError for the
    library's INDEX / KEY errors."""
    try:
        return func(*args)
    except _GLib.Error as e:
        if e.matches(Gnn.error_quark(), Gnn.Error.INDEX):
            raise IndexError(e.message) from None
        if e.matches(Gnn.error_quark(), Gnn.Error.KEY):
            raise KeyError(e.message) from None
        raise


def _slice_args(length, key):
    """A Python slice as the (start, stop, step) of the C slice functions."""
    start, stop, step = key.indices(length)
    if step < 0 and stop < 0:     # "down to and including index 0"
        stop = _INT64_MIN
    return start, stop, step


def _as_parameter_value(value):
    if _np is not None and isinstance(value, _np.ndarray):
        return Tensor.from_numpy(value)
    if not isinstance(value, Gnn.Tensor):
        raise TypeError('cannot assign %s as a parameter (Gnn.Tensor or numpy array required)'
                        % type(value).__name__)
    return value


def _module_list_protocol(cls, c_class, insert_returns_self):
    """Adds the list protocol of torch's Sequential / ModuleList to cls,
    calling the C methods of c_class; returns the __init__ helper."""

    def __init__(self, *args, **kwargs):
        c_class.__init__(self, **kwargs)
        for name, module in args:
            c_class.register_module(self, name, module)

    def __len__(self):
        return c_class.get_length(self)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return _container_call(c_class.slice, self, *_slice_args(len(self), index))
        return _container_call(c_class.get, self, _container_index(index))

    def __setitem__(self, index, module):
        _container_call(c_class.set, self, _container_index(index), module)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for i in sorted(range(*index.indices(len(self))), reverse=True):
                c_class.pop(self, i)
        else:
            _container_call(c_class.pop, self, _container_index(index))

    def __iter__(self):
        # By position: a module added twice is yielded twice, as in torch.
        return iter([c_class.get(self, i) for i in range(len(self))])

    def append(self, module):
        """Adds `module` at the end; returns self."""
        c_class.append(self, module)
        return self

    def extend(self, modules):
        """Appends each module of an iterable; returns self."""
        for module in modules:
            c_class.append(self, module)
        return self

    def insert(self, index, module):
        """Inserts `module` before `index` (renumbering the rest); returns
        self for a Sequential, None for a ModuleList (as torch does)."""
        _container_call(c_class.insert, self, _container_index(index), module)
        return self if insert_returns_self else None

    def pop(self, index=-1):
        """Removes and returns the module at `index` (renumbering the rest)."""
        return _container_call(c_class.pop, self, _container_index(index))

    def __iadd__(self, modules):
        return self.extend(modules)

    for func in (__len__, __getitem__, __setitem__, __delitem__, __iter__,
                 append, extend, insert, pop, __iadd__):
        setattr(cls, func.__name__, func)
    return __init__


class Sequential(Gnn.Sequential):
    """torch.nn.Sequential: Gnn.Sequential(a, b, c) or
    Gnn.Sequential(OrderedDict([('name', module), ...]))."""

    def __init__(self, *modules, **kwargs):
        if len(modules) == 1 and isinstance(modules[0], _abc.Mapping):
            pairs = list(modules[0].items())
        else:
            pairs = [(str(i), m) for i, m in enumerate(modules)]
        _sequential_init(self, *pairs, **kwargs)


_sequential_init = _module_list_protocol(Sequential, Gnn.Sequential, True)
Sequential = override(Sequential)
__all__.append('Sequential')


class ModuleList(Gnn.ModuleList):
    """torch.nn.ModuleList: Gnn.ModuleList([a, b]); slicing returns a
    ModuleList."""

    def __init__(self, modules=None, **kwargs):
        _module_list_init(self, *[(str(i), m) for i, m in enumerate(modules or ())],
                          **kwargs)


_module_list_init = _module_list_protocol(ModuleList, Gnn.ModuleList, False)
ModuleList = override(ModuleList)
__all__.append('ModuleList')


def _dict_protocol(cls, c_class, convert=lambda value: value):
    """Adds the mapping protocol of torch's ModuleDict / ParameterDict."""

    def __init__(self, values=None, **kwargs):
        c_class.__init__(self, **kwargs)
        if values is not None:
            self.update(values)

    def __len__(self):
        return c_class.get_length(self)

    def __iter__(self):
        return iter(c_class.get_keys(self))

    def __contains__(self, key):
        return isinstance(key, str) and c_class.contains(self, key)

    def __getitem__(self, key):
        if not isinstance(key, str) or not c_class.contains(self, key):
            raise KeyError(key)
        return c_class.get(self, key)

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise TypeError('%s keys must be str, not %s'
                            % (type(self).__name__, type(key).__name__))
        c_class.set(self, key, convert(value))

    def __delitem__(self, key):
        if key not in self:
            raise KeyError(key)
        c_class.pop(self, key)

    def keys(self):
        return list(c_class.get_keys(self))

    def values(self):
        return [c_class.get(self, k) for k in c_class.get_keys(self)]

    def items(self):
        return [(k, c_class.get(self, k)) for k in c_class.get_keys(self)]

    def pop(self, key):
        """Removes and returns the value under `key`."""
        if key not in self:
            raise KeyError(key)
        return c_class.pop(self, key)

    def update(self, values):
        """Adds the pairs of a mapping or an iterable of (key, value)."""
        pairs = values.items() if isinstance(values, _abc.Mapping) else values
        for key, value in pairs:
            self[key] = value

    def clear(self):
        c_class.clear(self)

    for func in (__init__, __len__, __iter__, __contains__, __getitem__, __setitem__,
                 __delitem__, keys, values, items, pop, update, clear):
        setattr(cls, func.__name__, func)


class ModuleDict(Gnn.ModuleDict):
    """torch.nn.ModuleDict: Gnn.ModuleDict({'name': module}), an ordered
    mapping of str to module."""


_dict_protocol(ModuleDict, Gnn.ModuleDict)
ModuleDict = override(ModuleDict)
__all__.append('ModuleDict')


class ParameterDict(Gnn.ParameterDict):
    """torch.nn.ParameterDict: an ordered mapping of str to parameter;
    tensors and numpy arrays are wrapped into parameters."""


_dict_protocol(ParameterDict, Gnn.ParameterDict, _as_parameter_value)
ParameterDict = override(ParameterDict)
__all__.append('ParameterDict')


class ParameterList(Gnn.ParameterList):
    """torch.nn.ParameterList: Gnn.ParameterList([t1, t2]); tensors and
    numpy arrays are wrapped into parameters."""

    def __init__(self, values=None, **kwargs):
        _CParameterList.__init__(self, **kwargs)
        if values is not None:
            self.extend(values)

    def __len__(self):
        return _CParameterList.get_length(self)

    def __getitem__(self, index):
        if isinstance(index, slice):
            n = len(self)
            return ParameterList([_CParameterList.get(self, i)
                                  for i in range(*index.indices(n))])
        return _container_call(_CParameterList.get, self, _container_index(index))

    def __setitem__(self, index, value):
        _container_call(_CParameterList.set, self, _container_index(index),
                        _as_parameter_value(value))

    def __iter__(self):
        return iter([_CParameterList.get(self, i) for i in range(len(self))])

    def append(self, value):
        """Adds `value` at the end; returns self."""
        _CParameterList.append(self, _as_parameter_value(value))
        return self

    def extend(self, values):
        """Appends each value of an iterable; returns self."""
        for value in values:
            self.append(value)
        return self

    def __iadd__(self, values):
        return self.extend(values)


_CParameterList = Gnn.ParameterList
ParameterList = override(ParameterList)
__all__.append('ParameterList')


# --- losses ---------------------------------------------------------------
# A loss module takes (input, target) but Gnn.Module's forward takes one
# tensor, so the C API is loss.compute(input, target); criterion(x, t) maps
# to it here as in torch. criterion(x) alone keeps torch's missing-target error.

def _loss_call(self, input, target=None):
    if target is None:
        return Module.__call__(self, input)
    return _guarded_call(type(self).compute, self, input, target)


class CrossEntropyLoss(Gnn.CrossEntropyLoss):
    __call__ = _loss_call


class NLLLoss(Gnn.NLLLoss):
    __call__ = _loss_call


class MSELoss(Gnn.MSELoss):
    __call__ = _loss_call


class BCEWithLogitsLoss(Gnn.BCEWithLogitsLoss):
    __call__ = _loss_call


CrossEntropyLoss = override(CrossEntropyLoss)
NLLLoss = override(NLLLoss)
MSELoss = override(MSELoss)
BCEWithLogitsLoss = override(BCEWithLogitsLoss)
__all__ += ['CrossEntropyLoss', 'NLLLoss', 'MSELoss', 'BCEWithLogitsLoss']
