# _tensor.py: Gnn.Tensor with the Python number protocol, numpy conversion
# and torch.Tensor's spellings (shape, dtype, item(), indexing, to(), ...).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections
import numbers

from . import _dtype
from . import _numpy
from . import _tensor_index
from ._gi import OVERRIDE_MODULE, Gnn, export, gnn_error, np, override, require_numpy


# --- operands ------------------------------------------------------------------

def _scalar_dtype(tensor_dtype, value):
    """The dtype of `tensor <op> value` for a Python number, as in PyTorch:
    a scalar never widens a tensor of its own kind; a float scalar turns an
    integer/bool tensor into float32 (torch's default dtype), an int scalar
    turns a bool tensor into int64."""
    if isinstance(value, bool):
        return tensor_dtype
    if _dtype.is_floating(tensor_dtype):
        return tensor_dtype
    if isinstance(value, numbers.Integral):
        return Gnn.DType.I64 if tensor_dtype == Gnn.DType.BOOL else tensor_dtype
    return Gnn.DType.F32


def _result_dtype(a, b):
    """torch.result_type of two tensors: a 0-d tensor counts like a number
    next to a dimensioned one (it never widens it within its category), and
    otherwise the dtypes promote (float32 + float64 is float64, float + bool
    is float, int32 + int64 is int64)."""
    da, db = a.get_dtype(), b.get_dtype()
    if da == db:
        return da
    za, zb = a.get_ndim() == 0, b.get_ndim() == 0
    if za != zb:
        dim, zero = (db, da) if za else (da, db)
        if _dtype.category(zero) <= _dtype.category(dim):
            return dim
        if _dtype.category(zero) == 2 and _dtype.category(dim) < 2:
            return zero
    return _dtype.promote(da, db)


def _coerce(a, b):
    """Returns (a, b) as two tensors for a binary operator, or None when `b`
    is neither a tensor nor a real number (the operator then returns
    NotImplemented). A number becomes a 0-d tensor of the result dtype; two
    tensors of different dtypes are converted to torch's result type."""
    if isinstance(b, Gnn.Tensor):
        dtype = _result_dtype(a, b)
        if a.get_dtype() != dtype:
            a = a.to_dtype(dtype)
        if b.get_dtype() != dtype:
            b = b.to_dtype(dtype)
        return a, b
    if not isinstance(b, numbers.Real):
        return None
    dtype = _scalar_dtype(a.get_dtype(), b)
    if dtype != a.get_dtype():
        a = a.to_dtype(dtype)
    return a, Gnn.Tensor.new_scalar(float(b), dtype)


def _true_divide(a, b):
    # Like torch, `/` on integer or bool tensors divides in float32.
    if not _dtype.is_floating(a.get_dtype()) and not _dtype.is_floating(b.get_dtype()):
        a = a.to_dtype(Gnn.DType.F32)
        b = b.to_dtype(Gnn.DType.F32)
    return Gnn.Tensor.div(a, b)


_C_OPS = {'truediv': _true_divide}


def _binary(name, reflected=False):
    op = _C_OPS.get(name) or getattr(Gnn.Tensor, name)

    def method(self, other):
        pair = _coerce(self, other)
        if pair is None:
            return NotImplemented
        a, b = pair
        if name == 'mul' and not isinstance(other, Gnn.Tensor) and \
                _dtype.is_floating(a.get_dtype()):
            # by a number: mul_scalar saves no operand for autograd (a later
            # in-place op on `a` stays possible, as in torch)
            return Gnn.Tensor.mul_scalar(a, float(other))
        return op(b, a) if reflected else op(a, b)
    method.__name__ = name
    return method


# c10's ScalarType names, which torch's cast errors print.
_TORCH_TYPE_NAMES = {int(Gnn.DType.F32): 'Float', int(Gnn.DType.F64): 'Double',
                     int(Gnn.DType.F16): 'Half', int(Gnn.DType.BF16): 'BFloat16',
                     int(Gnn.DType.I64): 'Long', int(Gnn.DType.I32): 'Int',
                     int(Gnn.DType.I16): 'Short', int(Gnn.DType.I8): 'Char',
                     int(Gnn.DType.U8): 'Byte', int(Gnn.DType.BOOL): 'Bool'}


def _inplace(name):
    op = getattr(Gnn.Tensor, name)

    def method(self, other):
        dtype = self.get_dtype()
        if name == 'div_' and not _dtype.is_floating(dtype):
            # torch: true division cannot be stored in an integer tensor
            raise RuntimeError("result type Float can't be cast to the desired output type %s"
                               % _TORCH_TYPE_NAMES[int(dtype)])
        if isinstance(other, Gnn.Tensor):
            # torch computes in the result type and casts back, which it
            # allows within a category or down from it (a float32 tensor
            # takes float64 and int operands, an int tensor no float one)
            result = _result_dtype(self, other)
            if _dtype.category(result) > _dtype.category(dtype):
                raise RuntimeError("result type %s can't be cast to the desired output type %s"
                                   % (_TORCH_TYPE_NAMES[int(result)],
                                      _TORCH_TYPE_NAMES[int(dtype)]))
            op(self, other if other.get_dtype() == dtype else other.to_dtype(dtype))
            return self
        if not isinstance(other, numbers.Real):
            raise TypeError('%s(): argument must be a Tensor or a number, not %s'
                            % (name, type(other).__name__))
        if _scalar_dtype(dtype, other) != dtype:
            raise RuntimeError("result type %s can't be cast to the desired output type %s"
                               % ('Float' if isinstance(other, float) else 'Long',
                                  _TORCH_TYPE_NAMES[int(dtype)]))
        op(self, Gnn.Tensor.new_scalar(float(other), dtype))
        return self
    method.__name__ = name
    return method


def _operator_inplace(name):
    method = _inplace(name)

    def operator(self, other):
        if not isinstance(other, (Gnn.Tensor, numbers.Real)):
            return NotImplemented
        return method(self, other)
    return operator


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

# torch.return_types.max / min: the (values, indices) of t.max(dim).
_MaxResult = collections.namedtuple('max', ['values', 'indices'])
_MinResult = collections.namedtuple('min', ['values', 'indices'])


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
        Gnn.Tensor.copy_(self, value)

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
            return int(self.numpy().reshape(-1)[0])
        if not _dtype.is_floating(dtype):
            return int(value)
        return value

    def tolist(self):
        t = Gnn.Tensor.detach(self)
        if t.get_dtype() == Gnn.DType.BF16:
            t = t.to_dtype(Gnn.DType.F32)
        return t.numpy().tolist()

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

    def squeeze(self, dim=None):
        """Like torch: without dim, removes every dimension of size 1."""
        if dim is not None:
            return Gnn.Tensor.squeeze(self, dim)
        return Gnn.Tensor.reshape(self, [n for n in self.get_shape() if n != 1])

    def sum(self, dim=None, keepdim=False):
        return Gnn.Tensor.sum(self, dims_arg(dim), keepdim)

    def mean(self, dim=None, keepdim=False):
        return Gnn.Tensor.mean(self, dims_arg(dim), keepdim)

    def max(self, dim=None, keepdim=False):
        """With dim None, the largest value; with an int dim, torch's
        (values, indices) namedtuple (indices: the first largest); a
        list/tuple of dims gives the values only (torch.amax)."""
        if isinstance(dim, Gnn.Tensor):
            return _maximum(self, dim)
        if isinstance(dim, numbers.Integral):
            return _MaxResult(Gnn.Tensor.max(self, [int(dim)], keepdim),
                              Gnn.Tensor.argmax(self, int(dim), keepdim))
        return Gnn.Tensor.max(self, dims_arg(dim), keepdim)

    def min(self, dim=None, keepdim=False):
        """As max: t.min(other) is the elementwise minimum."""
        if isinstance(dim, Gnn.Tensor):
            return _minimum(self, dim)
        if isinstance(dim, numbers.Integral):
            return _MinResult(Gnn.Tensor.min(self, [int(dim)], keepdim),
                              Tensor.argmin(self, int(dim), keepdim))
        return Gnn.Tensor.min(self, dims_arg(dim), keepdim)

    def argmax(self, dim=None, keepdim=False):
        """With dim None, the position in the flattened tensor."""
        if dim is None:
            index = Gnn.Tensor.argmax(Gnn.Tensor.reshape(self, [-1]), 0, False)
            return Gnn.Tensor.reshape(index, [1] * self.get_ndim()) if keepdim else index
        return Gnn.Tensor.argmax(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        # through the negation, exact in a signed type: uint8 and bool
        # (whose negation wraps or is refused) widen to int16 first
        if self.get_dtype() in (Gnn.DType.U8, Gnn.DType.BOOL):
            self = self.to_dtype(Gnn.DType.I16)
        return Tensor.argmax(Gnn.Tensor.neg(self), dim, keepdim)

    def softmax(self, dim):
        return Gnn.Tensor.softmax(self, dim)

    def log_softmax(self, dim):
        return Gnn.Tensor.log_softmax(self, dim)

    def zero_(self):
        Gnn.Tensor.fill_(self, 0.0)
        return self

    def fill_(self, value):
        Gnn.Tensor.fill_(self, float(value))
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

    def pow(self, exponent):
        return Gnn.Tensor.pow(self, float(exponent))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return Gnn.Tensor.allclose(self, other, rtol, atol) if not equal_nan else \
            bool(require_numpy().allclose(self.detach().numpy(), other.detach().numpy(), rtol,
                                          atol, True))

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
        return Gnn.Tensor.backward(self, gradient, retain_graph)

    # -- arithmetic and comparison operators ----------------------------------
    # Operands may be tensors (broadcast by the library) or Python numbers
    # (0-d tensors of the result dtype). Comparisons return bool tensors as
    # in torch; identity is `is`, and hashing stays by identity.

    __hash__ = Gnn.Tensor.__hash__
    __add__ = _binary('add')
    __radd__ = _binary('add', reflected=True)
    __sub__ = _binary('sub')
    __rsub__ = _binary('sub', reflected=True)
    __mul__ = _binary('mul')
    __rmul__ = _binary('mul', reflected=True)
    __truediv__ = _binary('truediv')
    __rtruediv__ = _binary('truediv', reflected=True)
    __eq__ = _binary('eq')
    __ne__ = _binary('ne')
    __lt__ = _binary('lt')
    __le__ = _binary('le')
    __gt__ = _binary('gt')
    __ge__ = _binary('ge')

    add = _binary('add')
    sub = _binary('sub')
    mul = _binary('mul')

    def div(self, other, rounding_mode=None):
        """torch's div: true division, or rounding_mode='trunc' (the C
        division of integers) / 'floor'."""
        if rounding_mode is None:
            return Tensor.__truediv__(self, other)
        a, b = _coerce(self, other)
        if rounding_mode == 'trunc' and not _dtype.is_floating(a.get_dtype()):
            return Gnn.Tensor.div(a, b)
        q = _true_divide(a, b).detach().numpy()
        np_ = require_numpy()
        q = np_.trunc(q) if rounding_mode == 'trunc' else np_.floor(q)
        return Tensor.from_numpy(q.astype(_dtype.DTYPE_TO_NUMPY[_dtype.of(a.get_dtype())]))
    eq = _binary('eq')
    ne = _binary('ne')
    lt = _binary('lt')
    le = _binary('le')
    gt = _binary('gt')
    ge = _binary('ge')
    add_ = _inplace('add_')
    sub_ = _inplace('sub_')
    mul_ = _inplace('mul_')
    div_ = _inplace('div_')

    __iadd__ = _operator_inplace('add_')
    __isub__ = _operator_inplace('sub_')
    __imul__ = _operator_inplace('mul_')
    __itruediv__ = _operator_inplace('div_')

    def __matmul__(self, other):
        if not isinstance(other, Gnn.Tensor):
            return NotImplemented
        return Gnn.Tensor.matmul(self, other)

    def __pow__(self, exponent):
        if isinstance(exponent, Gnn.Tensor):
            return _pow_tensors(*_coerce(self, exponent))
        if not isinstance(exponent, numbers.Real):
            return NotImplemented
        return Gnn.Tensor.pow(self, float(exponent))

    def __rpow__(self, base):
        if not isinstance(base, numbers.Real):
            return NotImplemented
        return _pow_tensors(*reversed(_coerce(self, base)))

    def __neg__(self):
        return self.neg()

    def __pos__(self):
        return self

    def __abs__(self):
        return Gnn.Tensor.abs(self)


def _maximum(a, b):
    """t.max(other): the elementwise maximum."""
    return Gnn.Tensor.where(Gnn.Tensor.ge(a, b), a, b)


def _pow_tensors(base, exponent):
    """base ** exponent elementwise for tensors of one dtype (torch.pow).
    Without autograd, numpy's power gives torch's values and integer rules;
    recorded, it is exp (exponent · log base), which needs positive bases
    (the C library has no tensor-exponent pow)."""
    records = Gnn.is_grad_enabled() and (base.get_requires_grad() or
                                         exponent.get_requires_grad())
    if not records:
        np_ = require_numpy()
        b, e = base.detach().numpy(), exponent.detach().numpy()
        if not _dtype.is_floating(base.get_dtype()) and (e < 0).any():
            raise RuntimeError('Integers to negative integer powers are not allowed.')
        with np_.errstate(all='ignore'):
            # asarray: numpy gives a scalar for two 0-d operands
            return _dtype.tensor_from_numpy(np_.asarray(np_.power(b, e)).astype(b.dtype,
                                                                              copy=False))
    if not _dtype.is_floating(base.get_dtype()):
        raise RuntimeError('pow: tensor exponents with autograd need floating-point tensors')
    if not bool((base.detach().numpy() > 0).all()):
        raise RuntimeError('pow: Gnn differentiates a tensor exponent only over positive '
                           'bases (it computes exp (exponent * log base))')
    return Gnn.Tensor.exp(Gnn.Tensor.mul(exponent, Gnn.Tensor.log(base)))


def _minimum(a, b):
    """t.min(other): the elementwise minimum."""
    return Gnn.Tensor.where(Gnn.Tensor.le(a, b), a, b)


Tensor = override(Tensor)

if np is not None:
    # numpy scalars and arrays on the left of an operator defer to Tensor.
    Tensor.__array_priority__ = 1000
