# _call.py: model(*args, **kwargs) through the C call path: Python values
# to and from Gnn.Value, a Python forward as the general forward vfunc,
# hooks that see torch's tuples, and TypeError for the call's type errors.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers as _numbers
import re as _re

from gi.repository import GLib as _GLib
from gi.repository import GObject as _GObject

from ._gi import (GNN_ERROR_DOMAIN, OVERRIDE_MODULE, Gnn, as_torch_error, call_c,
                  is_dimension_error, override, trampoline)

_Value = Gnn.Value
_Tensor = Gnn.Tensor
_Kind = Gnn.ValueKind
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


# --- Python objects that C cannot read ------------------------------------------
#
# A Python forward may take anything (a callable, a set, an int beyond 64
# bits). Such a value crosses C as a GObject holding it, and comes back as
# itself. Its GType is named after its Python type, so an error from a C
# forward reads as torch's ("must be Tensor, not object").

class _PythonObject(_GObject.Object):
    __gtype_name__ = 'GnnPythonObject'

    def __init__(self, payload):
        super().__init__()
        self.payload = payload


_boxes = {}


def _box(obj):
    cls = type(obj)
    box = _boxes.get(cls)
    if box is None:
        # GType names are ASCII: 'GnnPy3+object' (printed as 'object')
        name = 'GnnPy%d+%s' % (len(_boxes), _re.sub(r'[^A-Za-z0-9_]', '_', cls.__name__))
        box = _boxes[cls] = type(cls.__name__, (_PythonObject,), {'__gtype_name__': name})
    return _Value.new_object(box(obj))


def to_value(obj):
    """The Gnn.Value of a Python object: tensors, None, bool, int, float,
    str, tuples (namedtuples too), lists and str-keyed dicts of them,
    GObjects; anything else is carried as itself."""
    if isinstance(obj, _Tensor):
        return _Value.new_tensor(obj)
    if obj is None:
        return _Value.new_none()
    if isinstance(obj, _Value):
        return obj
    cls = type(obj)
    if cls is bool:
        return _Value.new_bool(obj)
    if cls is int:
        return _Value.new_int(obj) if _INT64_MIN <= obj <= _INT64_MAX else _box(obj)
    if cls is float:
        return _Value.new_double(obj)
    if cls is str:
        return _Value.new_string(obj) if '\x00' not in obj else _box(obj)
    if isinstance(obj, tuple):
        return _Value.new_tuple([to_value(item) for item in obj])
    if cls is list:
        return _Value.new_list([to_value(item) for item in obj])
    if isinstance(obj, dict) and all(type(k) is str and '\x00' not in k for k in obj):
        return _Value.new_dict(list(obj), [to_value(v) for v in obj.values()])
    if isinstance(obj, _GObject.Object) and not isinstance(obj, _PythonObject):
        return _Value.new_object(obj)
    if isinstance(obj, _numbers.Integral) and not isinstance(obj, bool):
        return to_value(int(obj))          # numpy integers
    if isinstance(obj, _numbers.Real):
        return _Value.new_double(float(obj))
    return _box(obj)


def args_value(args):
    """Positional arguments as a tuple value (tensors only: in one call)."""
    for item in args:
        if not isinstance(item, _Tensor):
            return _Value.new_tuple([to_value(item) for item in args])
    return _Value.new_tensor_tuple(args)


def kwargs_value(kwargs):
    return to_value(dict(kwargs)) if kwargs else None


def args_from_value(value):
    """A forward's positional arguments: a tuple of tensors (the common
    case) read in one call."""
    tensors = value.get_tensors()
    return tuple(tensors) if tensors else from_value(value)


def from_value(value):
    """The Python object a Gnn.Value stands for (None for None or NULL)."""
    if value is None:
        return None
    tensor = value.get_tensor()
    if tensor is not None:
        return tensor
    kind = value.get_kind()
    if kind == _Kind.NONE:
        return None
    if kind == _Kind.TUPLE:
        return tuple(from_value(item) for item in value.get_items())
    if kind == _Kind.LIST:
        return [from_value(item) for item in value.get_items()]
    if kind == _Kind.DICT:
        return dict(zip(value.get_keys(), (from_value(item) for item in value.get_items())))
    if kind == _Kind.BOOL:
        return value.get_bool()
    if kind == _Kind.INT:
        return value.get_int()
    if kind == _Kind.DOUBLE:
        return value.get_double()
    if kind == _Kind.STRING:
        return value.get_string()
    obj = value.get_object()
    return obj.payload if isinstance(obj, _PythonObject) else obj


class Value(Gnn.Value):
    """Gnn.Value with Python's repr and conversions."""

    __module__ = OVERRIDE_MODULE

    @staticmethod
    def from_python(obj):
        """The Gnn.Value of a Python object (see Module.__call__)."""
        return to_value(obj)

    def to_python(self):
        return from_value(self)

    def __repr__(self):
        return 'Gnn.Value(%s)' % self.to_string()

    def __eq__(self, other):
        return isinstance(other, Gnn.Value) and self.equal(other)

    __hash__ = None


Value = override(Value)


# --- the call's errors ------------------------------------------------------------

def as_type_error(error):
    """The exception to raise for a GLib.Error out of the call path: a
    GNN_ERROR_TYPE error (wrong arguments, a pre-hook's junk reaching
    forward) is torch's TypeError too, a dimension out of range (a layer's
    dim= property) torch's IndexError; either is still the GLib.Error C
    reported."""
    if type(error) is not _GLib.Error:
        return error
    if error.domain == GNN_ERROR_DOMAIN and error.code == Gnn.Error.TYPE:
        return as_torch_error(error, TypeError)
    if is_dimension_error(error):
        return as_torch_error(error, IndexError)
    return error


def call(func, *args):
    """call_c for the call path (see as_type_error)."""
    try:
        return call_c(func, *args)
    except _GLib.Error as error:
        raise as_type_error(error) from None


_call_one = Gnn.Module.call_one
_call_args = Gnn.Module.call_args


def call_module(module, args, kwargs):
    """module(*args, **kwargs): one tensor and no keywords takes the
    one-tensor path (no tuple built while no hook needs one); anything
    else converts to Gnn.Value. Either way C runs the hooks and forward."""
    try:
        if len(args) == 1 and not kwargs and isinstance(args[0], _Tensor):
            output, other = call_c(_call_one, module, args[0])
            return output if other is None else from_value(other)
        return from_value(call_c(_call_args, module, args_value(args), kwargs_value(kwargs)))
    except _GLib.Error as error:
        raise as_type_error(error) from None


# --- a forward written in Python, and super().forward() --------------------------

def general_forward(func):
    """The forward_args vfunc for a Python `forward(self, *args, **kwargs)`:
    C containers, hooks and global hooks reach it like a C forward. An
    exception it raises comes out of model(...) as itself."""
    def forward_args(self, args, kwargs, *rest):
        if kwargs is None:
            result = func(self, *args_from_value(args))
        else:
            result = func(self, *args_from_value(args), **from_value(kwargs))
        return _Value.new_tensor(result) if isinstance(result, _Tensor) else to_value(result)
    guarded = trampoline(forward_args, lambda self, *rest: 'forward of %s' % type(self).__name__)
    guarded._gnn_forward = func
    return guarded


_c_types = {}


def c_forward_type(cls):
    """The GType whose forward Module.forward() runs for an instance of
    `cls`: that of the class after the last one on the MRO that defines a
    Python `forward` (a super().forward() from it must not come back to
    it). For a built-in layer that is its own type; for a Python subclass
    of one, the built-in's; for a class with only a `do_forward`, its own."""
    gtype = _c_types.get(cls)
    if gtype is None:
        mro = cls.__mro__
        last = max((i for i, c in enumerate(mro)
                    if getattr(c.__dict__.get('do_forward_args'), '_gnn_guarded', False)),
                   default=-1)
        # the next GObject class: a mixin holding the forward has no GType
        gtype = _c_types[cls] = next(c for c in mro[last + 1:] if issubclass(c, _GObject.Object)).__gtype__
    return gtype


def forward_as_c(module, args, kwargs):
    """Module.forward(): the C class's forward, as super().forward() from a
    Python subclass of a built-in layer reaches it."""
    return from_value(call(Gnn.Module.forward_args_as, module, c_forward_type(type(module)),
                           args_value(args), kwargs_value(kwargs)))


# --- hooks -------------------------------------------------------------------------

def pre_hook_closure(hook_ref, with_kwargs):
    """The C pre-hook for a Python hook(module, args[, kwargs]): it sees
    torch's tuple; a non-tuple result becomes a 1-tuple in C (torch 1.13);
    with_kwargs: a (new_args, new_kwargs) pair or None (torch 2)."""
    def pre_hook(module, args, kwargs, user_data):
        hook = hook_ref()
        if hook is None:
            return None
        if not with_kwargs:
            result = hook(module, from_value(args))
            return None if result is None else to_value(result)
        result = hook(module, from_value(args), from_value(kwargs) or {})
        if result is None:
            return None
        if not (isinstance(result, tuple) and len(result) == 2):
            raise RuntimeError('forward pre-hook must return None or a tuple of (new_args, '
                               'new_kwargs), but got %s.' % (result,))
        new_args, new_kwargs = result
        return _Value.new_tuple([args_value(new_args), to_value(dict(new_kwargs))])
    return trampoline(pre_hook, lambda module, *rest: 'forward pre-hook of %s' % type(module).__name__)


def hook_closure(hook_ref, with_kwargs):
    """The C forward hook for a Python hook(module, args[, kwargs], output)."""
    def forward_hook(module, args, kwargs, output, user_data):
        hook = hook_ref()
        if hook is None:
            return None
        if with_kwargs:
            result = hook(module, from_value(args), from_value(kwargs) or {}, from_value(output))
        else:
            result = hook(module, from_value(args), from_value(output))
        return None if result is None else to_value(result)
    return trampoline(forward_hook, lambda module, *rest: 'forward hook of %s' % type(module).__name__)


def hook_flags(prepend=False, always_call=False, with_kwargs=False):
    flags = Gnn.HookFlags.NONE
    if prepend:
        flags |= Gnn.HookFlags.PREPEND
    if always_call:
        flags |= Gnn.HookFlags.ALWAYS_CALL
    if with_kwargs:
        flags |= Gnn.HookFlags.WITH_KWARGS
    return flags
