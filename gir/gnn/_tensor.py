# _tensor.py: Gnn.Tensor with the Python number protocol, numpy conversion
# and torch.Tensor's spellings (shape, dtype, item(), indexing, to(), ...).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers
import struct
import sys

from gi.repository import GLib

from . import _dtype
from . import _numpy
from . import _tensor_index
from ._gi import OVERRIDE_MODULE, Gnn, call_c, export, gnn_error, override


# --- operands ------------------------------------------------------------------

def operand(value):
    """A torch operand for the C ops: a tensor as it is, a Python number as a
    wrapped number (which the C type promotion ranks below tensors, as torch
    does), or None for anything else."""
    if isinstance(value, Gnn.Tensor):
        return value
    if isinstance(value, bool):
        return Gnn.Tensor.new_wrapped_bool(value)
    if isinstance(value, numbers.Integral):
        return Gnn.Tensor.new_wrapped_int(int(value))
    if isinstance(value, numbers.Real):
        return Gnn.Tensor.new_wrapped_number(float(value))
    return None


def operand_or_raise(name, value, arg='other'):
    result = operand(value)
    if result is None:
        raise TypeError("%s(): argument '%s' must be Tensor or Number, not %s"
                        % (name, arg, type(value).__name__))
    return result


def _binary(c_op, reflected=False):
    """A Python operator over a C op: NotImplemented for foreign operands."""
    def method(self, other):
        other = operand(other)
        if other is None:
            return NotImplemented
        return c_op(other, self) if reflected else c_op(self, other)
    method.__name__ = c_op.__name__
    return method


def _named(c_op, name):
    """torch's method spelling (TypeError for a foreign operand)."""
    def method(self, other):
        return c_op(self, operand_or_raise(name, other))
    method.__name__ = name
    return method


def _inplace(c_op, name):
    def method(self, other):
        c_op(self, operand_or_raise(name, other))
        return self
    method.__name__ = name
    return method


def _operator_inplace(c_op):
    def operator(self, other):
        other = operand(other)
        if other is None:
            return NotImplemented
        c_op(self, other)
        return self
    return operator


def wrap_dim(tensor, dim):
    """`dim` checked against `tensor` and made non-negative by the library
    (gnn_tensor_wrap_dim: the check every C operation makes), torch's
    "Dimension out of range (...)" raised as torch's IndexError."""
    try:
        return Gnn.Tensor.wrap_dim(tensor, int(dim))
    except GLib.Error as error:
        raise IndexError(error.message) from None


_ROUNDING = {None: Gnn.RoundingMode.NONE, 'trunc': Gnn.RoundingMode.TRUNC,
             'floor': Gnn.RoundingMode.FLOOR}


def rounding_mode_arg(mode):
    if mode not in _ROUNDING:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           "but found '%s'" % mode)
    return _ROUNDING[mode]


def dims_arg(dim):
    """A torch `dim` argument (None, an int, or a list/tuple of ints) as the
    list the C reductions take (empty: all dims)."""
    if dim is None:
        return []
    if isinstance(dim, numbers.Integral):
        return [int(dim)]
    return [int(d) for d in dim]


def shape_arg(shape):
    """torch's `*shape` convention: t.reshape(2, 3) or t.reshape((2, 3))."""
    if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
        shape = shape[0]
    return [int(n) for n in shape]


def parse_to(args, kwargs):
    """The dtype of torch's .to(dtype), .to(device), .to(device, dtype),
    .to(other) and keyword forms (None: keep); other devices raise."""
    dtype = kwargs.pop('dtype', None)
    _dtype.check_device(kwargs.pop('device', None))
    kwargs.pop('non_blocking', None)
    kwargs.pop('copy', None)
    if kwargs:
        raise TypeError("to() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    for arg in args:
        if isinstance(arg, Gnn.Tensor):
            dtype = arg.get_dtype()
        elif isinstance(arg, (str, device)):
            _dtype.check_device(arg)
        elif arg is not None:
            dtype = _dtype.from_arg(arg)
    return dtype


class device(object):
    """torch.device: 'cpu', 'meta' for tensors without memory, or another
    of torch's device types ('cuda:0'), which describes a device as in a
    CPU build of torch: using it (tensor.to(device), model.to(device))
    raises as there. Like torch 2.x's device, it is also a context manager:
    inside `with Gnn.device('meta'):` tensor factories and module
    constructors create meta tensors (no memory, no random draws; see
    Gnn.set_default_device)."""

    def __init__(self, type='cpu', index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        self.type, self.index = _dtype.parse_device(type, index)
        self._previous = []

    def __repr__(self):
        if self.index is None:
            return "device(type='%s')" % self.type
        return "device(type='%s', index=%d)" % (self.type, self.index)

    def __str__(self):
        return self.type if self.index is None else '%s:%d' % (self.type, self.index)

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return (isinstance(other, device) and other.type == self.type and
                other.index == self.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))

    def __enter__(self):
        if self.type not in ('cpu', 'meta'):
            _dtype.check_device(self)
        which = Gnn.Device.META if self.type == 'meta' else Gnn.Device.CPU
        self._previous.append(Gnn.set_default_device(which))
        return self

    def __exit__(self, *exc):
        Gnn.set_default_device(self._previous.pop())
        return False


export(device)


class Size(tuple):
    """The shape of a tensor: a tuple of ints printed as Gnn.Size([2, 3])
    (torch.Size)."""

    def __repr__(self):
        return 'Gnn.Size([%s])' % ', '.join(str(n) for n in self)

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        value = tuple.__getitem__(self, key)
        return Size(value) if isinstance(key, slice) else value


export(Size)

# struct formats of the dtypes, for tolist() over the packed bytes
_STRUCT_FORMATS = {int(Gnn.DType.F32): 'f', int(Gnn.DType.F64): 'd', int(Gnn.DType.F16): 'e',
                   int(Gnn.DType.I64): 'q', int(Gnn.DType.I32): 'i', int(Gnn.DType.I16): 'h',
                   int(Gnn.DType.I8): 'b', int(Gnn.DType.U8): 'B', int(Gnn.DType.BOOL): '?'}
assert struct.calcsize('q') == 8 and struct.calcsize('i') == 4


def _nest(flat, shape):
    """Row-major values as nested lists of `shape` (a number for a 0-d one)."""
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return flat
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def _allocated(result, source, what):
    if result is None:
        raise gnn_error(Gnn.Error.MEMORY, 'cannot allocate memory for %s() of a tensor of shape %s'
                        % (what, list(source.get_shape())))
    return result


class Tensor(Gnn.Tensor):
    """A Gnn.Tensor with the Python number protocol, numpy conversion and
    PyTorch-like properties (shape, dtype, item(), len(), indexing)."""

    __module__ = OVERRIDE_MODULE

    # -- numpy ----------------------------------------------------------------

    @classmethod
    def from_numpy(cls, array):
        """torch.from_numpy: a tensor sharing `array`'s memory (writes
        through either are seen by the other; the tensor keeps the array
        alive). float64/32/16, int64/32/16/8, uint8 and bool arrays; other
        dtypes, a byte order that is not the machine's and negative strides
        raise as in torch. A read-only array is copied."""
        return _numpy.tensor_sharing(array)

    def numpy(self):
        """torch's t.numpy(): an array sharing the tensor's memory (same
        dtype, shape and strides; it keeps the memory alive). bfloat16
        raises TypeError as in torch; a tensor that requires grad gives its
        data (torch insists on t.detach().numpy())."""
        return _numpy.array_sharing(self)

    # contiguous()/clone() have no GError in C: NULL means the copy could not
    # be allocated, which Python reports like any other library error.
    def contiguous(self):
        return _allocated(Gnn.Tensor.contiguous(self), self, 'contiguous')

    def clone(self):
        return _allocated(Gnn.Tensor.clone(self), self, 'clone')

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    # -- properties -----------------------------------------------------------

    @property
    def shape(self):
        """The size of each dimension, a Gnn.Size (a tuple of ints)."""
        return Size(self.get_shape())

    @property
    def dtype(self):
        """The element type, printed like torch's (Gnn.float32); equal to
        the Gnn.DType member."""
        return _dtype.of(self.get_dtype())

    @property
    def ndim(self):
        return self.get_ndim()

    @property
    def device(self):
        return device('meta' if Gnn.Tensor.is_meta(self) else 'cpu')

    @property
    def is_meta(self):
        """Whether the tensor has no memory (built under device 'meta')."""
        return Gnn.Tensor.is_meta(self)

    @property
    def is_cuda(self):
        return False

    @property
    def is_cpu(self):
        return not Gnn.Tensor.is_meta(self)

    def get_device(self):
        """-1: the CPU (torch's answer for CPU tensors)."""
        return -1

    def cuda(self, device=None, non_blocking=False):
        """As a CPU build of torch: AssertionError."""
        _dtype.check_device('cuda' if device is None else
                            device if not isinstance(device, int) else 'cuda:%d' % device)
        return self

    @property
    def is_leaf(self):
        return Gnn.Tensor.is_leaf(self)

    @property
    def data(self):
        """The tensor detached from autograd, sharing its storage."""
        return self.detach()

    @data.setter
    def data(self, value):
        Gnn.no_grad_push()      # untracked, as torch's (a parameter takes new values)
        try:
            Gnn.Tensor.copy_(self, value)
        finally:
            Gnn.no_grad_pop()

    @property
    def _version(self):
        """torch's version counter: in-place writes into this storage."""
        return Gnn.Tensor.get_version(self)

    def dim(self):
        return self.get_ndim()

    def size(self, dim=None):
        """Like torch.Tensor.size(): the shape, or one dimension's size."""
        return self.shape if dim is None else self.get_size(dim)

    def numel(self):
        return self.get_numel()

    def stride(self, dim=None):
        """The strides (in elements) as a tuple, or one dimension's."""
        strides = tuple(int(s) for s in self.get_strides())
        if dim is None:
            return strides
        if not -len(strides) <= dim < len(strides):
            raise IndexError('Dimension out of range (expected to be in range of [%d, %d], '
                             'but got %d)' % (-len(strides), len(strides) - 1, dim))
        return strides[dim]

    def storage_offset(self):
        return self.get_offset()

    def data_ptr(self):
        """The address of element 0 (0 for a meta tensor)."""
        return Gnn.Tensor.get_data_address(self)

    def element_size(self):
        return Gnn.dtype_get_size(self.get_dtype())

    def is_floating_point(self):
        return _dtype.is_floating(self.get_dtype())

    def item(self):
        """The only element as a Python int (integer dtypes), bool (bool) or
        float; GLib.Error if the tensor does not have exactly one element."""
        value = Gnn.Tensor.item(self)
        dtype = self.get_dtype()
        if dtype == Gnn.DType.BOOL:
            return bool(value)
        if dtype == Gnn.DType.I64:
            # exact beyond 2**53 (item() goes through a double)
            return int.from_bytes(Gnn.Tensor.get_bytes(self).get_data(), sys.byteorder,
                                  signed=True)
        if not _dtype.is_floating(dtype):
            return int(value)
        return value

    def tolist(self):
        """The elements as nested lists of Python numbers."""
        if Gnn.Tensor.is_meta(self):
            raise gnn_error(Gnn.Error.NOT_SUPPORTED, 'tolist: tensor has no storage (meta)')
        t = Gnn.Tensor.detach(self)
        if t.get_dtype() in (Gnn.DType.BF16, Gnn.DType.F16):
            t = t.to_dtype(Gnn.DType.F32)   # exact; memoryview casts no 'e' before 3.12
        data = Gnn.Tensor.get_bytes(t).get_data() or b''
        flat = memoryview(data).cast(_STRUCT_FORMATS[int(t.get_dtype())]).tolist()
        return _nest(flat, list(t.get_shape()))

    # -- dtype and device -----------------------------------------------------

    def to(self, *args, **kwargs):
        """Like torch.Tensor.to(dtype | device | other, ...): self when
        nothing changes; a device other than 'cpu' raises."""
        dtype = parse_to(args, kwargs)
        if dtype is None or dtype == self.get_dtype():
            return self
        return self.to_dtype(dtype)

    def type(self, dtype=None):
        """t.type(dtype) converts; t.type() names the tensor type."""
        if dtype is None:
            return 'Gnn.%sTensor' % {
                'float32': 'Float', 'float64': 'Double', 'float16': 'Half',
                'bfloat16': 'BFloat16', 'int64': 'Long', 'int32': 'Int', 'int16': 'Short',
                'int8': 'Char', 'uint8': 'Byte', 'bool': 'Bool'}[repr(self.dtype)[4:]]
        return self.to(dtype)

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def half(self):
        return self.to(_dtype.float16)

    def long(self):
        return self.to(_dtype.int64)

    def int(self):
        return self.to(_dtype.int32)

    def bool(self):
        return self.to(_dtype.bool_)

    def cpu(self):
        return self

    # -- printing -------------------------------------------------------------

    def __repr__(self):
        return self.to_string()

    __str__ = __repr__

    def __deepcopy__(self, memo):
        """copy.deepcopy: new memory, the same requires_grad, a copied
        gradient; a Parameter stays one (torch's)."""
        import copy
        if id(self) in memo:
            return memo[id(self)]
        data = Gnn.Tensor.clone(Gnn.Tensor.detach(self))
        if isinstance(self, Gnn.Parameter):
            result = Gnn.Parameter.new(data, self.get_requires_grad())
        else:
            result = data
            if self.get_requires_grad():
                result.requires_grad_(True)
        memo[id(self)] = result
        grad = self.get_grad()
        if grad is not None:
            result.set_grad(copy.deepcopy(grad, memo))
        return result

    def __format__(self, spec):
        # torch: a 0-d tensor formats as its number (f"{loss:.4f}")
        if self.get_ndim() == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    # -- sequence protocol ----------------------------------------------------

    def __len__(self):
        if self.get_ndim() == 0:
            raise TypeError('len() of a 0-d tensor')
        return self.get_shape()[0]

    def __getitem__(self, key):
        return _tensor_index.get(self, key)

    def __setitem__(self, key, value):
        _tensor_index.set(self, key, value)

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

    def __index__(self):
        if self.get_numel() != 1 or _dtype.is_floating(self.get_dtype()) or \
                self.get_dtype() == Gnn.DType.BOOL:
            raise TypeError('only integer tensors of a single element can be converted '
                            'to an index')
        return int(self.item())

    # -- torch-style shape, reduction and autograd conveniences --------------
    # Each accepts torch's spellings (keywords, varargs or a tuple, defaults)
    # as well as the C signatures (a list of dims, positional keepdim).

    def flatten(self, start_dim=0, end_dim=-1):
        return Gnn.Tensor.flatten(self, start_dim, end_dim)

    def reshape(self, *shape):
        """t.reshape(2, -1) or t.reshape((2, -1)); a view when the strides
        allow, else a copy."""
        return Gnn.Tensor.reshape(self, shape_arg(shape))

    def view(self, *shape):
        """t.view(2, -1) or t.view((2, -1)); GLib.Error when the strides do
        not allow a view."""
        return Gnn.Tensor.view(self, shape_arg(shape))

    def permute(self, *dims):
        return Gnn.Tensor.permute(self, shape_arg(dims))

    def transpose(self, dim0, dim1):
        return Gnn.Tensor.transpose(self, dim0, dim1)

    def t(self):
        return self if self.get_ndim() < 2 else Gnn.Tensor.transpose(self, 0, 1)

    @property
    def T(self):
        """The tensor with its dimensions reversed, a view."""
        ndim = self.get_ndim()
        if ndim < 2:
            return self
        return Gnn.Tensor.permute(self, list(range(ndim - 1, -1, -1)))

    def softmax(self, dim):
        return Gnn.Tensor.softmax(self, dim)

    def log_softmax(self, dim):
        return Gnn.Tensor.log_softmax(self, dim)

    def zero_(self):
        Gnn.Tensor.zero_(self)
        return self

    def fill_(self, value):
        _tensor_index.fill(self, value)
        return self

    def uniform_(self, a=0.0, b=1.0, generator=None):
        """torch's uniform_(from=0, to=1, *, generator=None), from the
        default generator unless given one."""
        Gnn.Tensor.uniform_(self, float(a), float(b), generator)
        return self

    def normal_(self, mean=0.0, std=1.0, generator=None):
        """torch's normal_(mean=0, std=1, *, generator=None)."""
        Gnn.Tensor.normal_(self, float(mean), float(std), generator)
        return self

    def copy_(self, src):
        Gnn.Tensor.copy_(self, src)
        return self

    def equal(self, other):
        return Gnn.Tensor.equal(self, other)

    # -- autograd -------------------------------------------------------------

    @property
    def requires_grad(self):
        return self.get_requires_grad()

    @requires_grad.setter
    def requires_grad(self, value):
        self.set_requires_grad(bool(value))

    def requires_grad_(self, requires_grad=True):
        self.set_requires_grad(bool(requires_grad))
        return self

    @property
    def grad(self):
        return self.get_grad()

    @grad.setter
    def grad(self, value):
        self.set_grad(value)

    @property
    def grad_fn_name(self):
        return self.get_grad_fn_name()

    def backward(self, gradient=None, retain_graph=False):
        """Like torch.Tensor.backward(gradient=None, retain_graph=False)."""
        return call_c(Gnn.Tensor.backward, self, gradient, retain_graph)

    # -- arithmetic and comparison operators ----------------------------------
    # Operands may be tensors or Python numbers (wrapped numbers); the C ops
    # promote them as torch does. Comparisons return bool tensors; identity
    # is `is`, and hashing stays by identity.

    __hash__ = Gnn.Tensor.__hash__
    __add__ = _binary(Gnn.Tensor.add)
    __radd__ = _binary(Gnn.Tensor.add, reflected=True)
    __sub__ = _binary(Gnn.Tensor.sub)
    __rsub__ = _binary(Gnn.Tensor.sub, reflected=True)
    __mul__ = _binary(Gnn.Tensor.mul)
    __rmul__ = _binary(Gnn.Tensor.mul, reflected=True)
    __truediv__ = _binary(Gnn.Tensor.div)
    __rtruediv__ = _binary(Gnn.Tensor.div, reflected=True)
    __floordiv__ = _binary(Gnn.Tensor.floor_divide)
    __rfloordiv__ = _binary(Gnn.Tensor.floor_divide, reflected=True)
    __mod__ = _binary(Gnn.Tensor.remainder)
    __rmod__ = _binary(Gnn.Tensor.remainder, reflected=True)
    __and__ = __rand__ = _binary(Gnn.Tensor.bitwise_and)
    __or__ = __ror__ = _binary(Gnn.Tensor.bitwise_or)
    __xor__ = __rxor__ = _binary(Gnn.Tensor.bitwise_xor)
    __eq__ = _binary(Gnn.Tensor.eq)
    __ne__ = _binary(Gnn.Tensor.ne)
    __lt__ = _binary(Gnn.Tensor.lt)
    __le__ = _binary(Gnn.Tensor.le)
    __gt__ = _binary(Gnn.Tensor.gt)
    __ge__ = _binary(Gnn.Tensor.ge)
    __iadd__ = _operator_inplace(Gnn.Tensor.add_)
    __isub__ = _operator_inplace(Gnn.Tensor.sub_)
    __imul__ = _operator_inplace(Gnn.Tensor.mul_)
    __itruediv__ = _operator_inplace(Gnn.Tensor.div_)
    __ifloordiv__ = _operator_inplace(Gnn.Tensor.floor_divide_)
    __imod__ = _operator_inplace(Gnn.Tensor.remainder_)
    __iand__ = _operator_inplace(Gnn.Tensor.bitwise_and_)
    __ior__ = _operator_inplace(Gnn.Tensor.bitwise_or_)
    __ixor__ = _operator_inplace(Gnn.Tensor.bitwise_xor_)

    def __invert__(self):
        if self.is_floating_point():
            raise TypeError('~ (operator.invert) is only implemented on integer and Boolean-type '
                            'tensors')
        return Gnn.Tensor.bitwise_not(self)

    def add(self, other, alpha=1):
        """torch's add(other, *, alpha=1): self + alpha · other."""
        other = operand_or_raise('add', other)
        return Gnn.Tensor.add(self, other) if alpha == 1 else \
            Gnn.Tensor.add_alpha(self, other, alpha)

    def sub(self, other, alpha=1):
        other = operand_or_raise('sub', other)
        return Gnn.Tensor.sub(self, other) if alpha == 1 else \
            Gnn.Tensor.sub_alpha(self, other, alpha)

    def add_(self, other, alpha=1):
        """torch's add_(other, *, alpha=1)."""
        other = operand_or_raise('add_', other)
        if alpha == 1:
            Gnn.Tensor.add_(self, other)
        else:
            Gnn.Tensor.add_alpha_(self, other, alpha)
        return self

    def sub_(self, other, alpha=1):
        other = operand_or_raise('sub_', other)
        if alpha == 1:
            Gnn.Tensor.sub_(self, other)
        else:
            Gnn.Tensor.sub_alpha_(self, other, alpha)
        return self

    def div(self, other, rounding_mode=None):
        """torch's div: true division, or rounding_mode='trunc' / 'floor'."""
        return Gnn.Tensor.div_mode(self, operand_or_raise('div', other),
                                   rounding_mode_arg(rounding_mode))

    def div_(self, other, rounding_mode=None):
        Gnn.Tensor.div_mode_(self, operand_or_raise('div_', other),
                             rounding_mode_arg(rounding_mode))
        return self

    mul = _named(Gnn.Tensor.mul, 'mul')
    mul_ = _inplace(Gnn.Tensor.mul_, 'mul_')
    eq = _named(Gnn.Tensor.eq, 'eq')
    ne = _named(Gnn.Tensor.ne, 'ne')
    lt = _named(Gnn.Tensor.lt, 'lt')
    le = _named(Gnn.Tensor.le, 'le')
    gt = _named(Gnn.Tensor.gt, 'gt')
    ge = _named(Gnn.Tensor.ge, 'ge')
    floor_divide = _named(Gnn.Tensor.floor_divide, 'floor_divide')
    floor_divide_ = _inplace(Gnn.Tensor.floor_divide_, 'floor_divide_')
    remainder = _named(Gnn.Tensor.remainder, 'remainder')
    remainder_ = _inplace(Gnn.Tensor.remainder_, 'remainder_')
    fmod = _named(Gnn.Tensor.fmod, 'fmod')
    fmod_ = _inplace(Gnn.Tensor.fmod_, 'fmod_')
    bitwise_and = _named(Gnn.Tensor.bitwise_and, 'bitwise_and')
    bitwise_or = _named(Gnn.Tensor.bitwise_or, 'bitwise_or')
    bitwise_xor = _named(Gnn.Tensor.bitwise_xor, 'bitwise_xor')
    bitwise_and_ = _inplace(Gnn.Tensor.bitwise_and_, 'bitwise_and_')
    bitwise_or_ = _inplace(Gnn.Tensor.bitwise_or_, 'bitwise_or_')
    bitwise_xor_ = _inplace(Gnn.Tensor.bitwise_xor_, 'bitwise_xor_')
    logical_and = _named(Gnn.Tensor.logical_and, 'logical_and')
    logical_or = _named(Gnn.Tensor.logical_or, 'logical_or')
    logical_xor = _named(Gnn.Tensor.logical_xor, 'logical_xor')
    atan2 = _named(Gnn.Tensor.atan2, 'atan2')
    atan2_ = _inplace(Gnn.Tensor.atan2_, 'atan2_')
    maximum = _named(Gnn.Tensor.maximum, 'maximum')
    minimum = _named(Gnn.Tensor.minimum, 'minimum')
    true_divide = divide = div
    multiply = mul
    subtract = sub

    def __matmul__(self, other):
        if not isinstance(other, Gnn.Tensor):
            return NotImplemented
        return Gnn.Tensor.matmul(self, other)

    def pow(self, exponent):
        """torch's pow: by a number (x ** 2 through the exact square) or a
        tensor, with torch's result dtype."""
        if isinstance(exponent, numbers.Real) and not isinstance(exponent, bool) and \
                (self.is_floating_point() or isinstance(exponent, numbers.Integral)):
            return Gnn.Tensor.pow(self, float(exponent))
        return Gnn.Tensor.pow_tensor(self, operand_or_raise('pow', exponent, 'exponent'))

    def pow_(self, exponent):
        if isinstance(exponent, Gnn.Tensor):
            Gnn.Tensor.pow_tensor_(self, exponent)
        else:
            Gnn.Tensor.pow_(self, float(exponent))
        return self

    def __pow__(self, exponent):
        if operand(exponent) is None:
            return NotImplemented
        return Tensor.pow(self, exponent)

    def __rpow__(self, base):
        base = operand(base)
        if base is None:
            return NotImplemented
        return Gnn.Tensor.pow_tensor(base, self)

    def __neg__(self):
        return self.neg()

    def __pos__(self):
        return self

    def __abs__(self):
        return Gnn.Tensor.abs(self)


Tensor = override(Tensor)
# numpy scalars and arrays on the left of an operator defer to Tensor.
Tensor.__array_priority__ = 1000
