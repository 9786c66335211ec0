# _module.py: PyTorch's nn.Module protocol over Gnn.Module, and the losses'
# (input, target) call.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections as _collections
import os as _os
import types as _types
import weakref as _weakref

from gi.repository import GLib as _GLib
from gi.repository import GObject as _GObject

from . import _dtype
from ._call import (call_module, forward_as_c, general_forward, hook_closure, hook_flags,
                    pre_hook_closure)
from ._gi import (OVERRIDE_MODULE, Gnn, as_torch_error as _as_torch_error, call_c, export,
                  gnn_error as _gnn_error, gobject_created, override, trampoline,
                  type_name as _type_name)
from ._names import is_c_key, refuse as _refuse_name
from ._state import StateDict, as_state_dict
from ._tensor import parse_to

_CModule = Gnn.Module
# Taken before _names guards it: __getattr__ (every `self.fc` in a forward)
# checks the name itself.
_get_child = _CModule.get_child

def _wrap_forward(func):
    return trampoline(func, lambda self, input: 'forward of %s' % type(self).__name__,
                      _forward_result)


def _forward_result(result, self, input):
    """What C gets from a `do_forward` (the one-tensor vfunc) written in
    Python: one tensor. Anything else is an error naming it — PyGObject
    would take a tuple's first item and drop the rest. (A `forward` method
    is the general vfunc and returns anything.)"""
    if isinstance(result, Gnn.Tensor):
        return result
    raise TypeError('do_forward of %s returned %s: the one-tensor forward returns one tensor; '
                    'define forward(self, ...) to return anything' % (type(self).__name__,
                                                                      type(result).__name__))


# torch's exception types for the registry's errors; the exceptions are
# GLib.Errors too (see _gi.as_torch_error).
_TORCH_KINDS = {int(Gnn.Error.TYPE): TypeError, int(Gnn.Error.NAME): KeyError}


def _torch_kind(error):
    kind = _TORCH_KINDS.get(error.code) if error.domain == 'gnn-error-quark' else None
    return error if kind is None else _as_torch_error(error, kind)


def _registry_call(func, *args):
    """A registry call whose type and name errors raise as torch's
    TypeError / KeyError (still GLib.Errors)."""
    try:
        return func(*args)
    except _GLib.Error as e:
        raise _torch_kind(e) from None


def _checked_name(kind, name):
    """C strings end at the first NUL: 'a\x00b' would be registered as 'a'."""
    if isinstance(name, str) and not is_c_key(name):
        raise _torch_kind(_refuse_name('%s name' % kind, name))
    return name


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



def _hook_reference(hook):
    """How a hook's C closure holds it. A bound method of a module is held
    weakly: the closure lives in C, where Python's garbage collector cannot
    see it, so `outer.child.register_forward_hook(outer.save)` would keep
    outer alive forever (torch collects it); once outer is gone the hook
    does nothing. Any other callable is held as is."""
    if isinstance(hook, _types.MethodType) and isinstance(hook.__self__, Gnn.Module):
        return _weakref.WeakMethod(hook)
    return lambda: hook

class _IncompatibleKeys(_collections.namedtuple('IncompatibleKeys',
                                                ['missing_keys', 'unexpected_keys'])):
    """The result of Module.load_state_dict(), as in torch."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return super().__repr__()

    __str__ = __repr__


def _check_attribute_free(module, name, kind_has):
    """torch's `hasattr(self, name) and name not in self._<kind>` check for
    what the C library cannot see: the Python instance dict and class
    attributes."""
    if not isinstance(name, str) or not name or '.' in name or kind_has:
        return
    if name in module.__dict__ or hasattr(type(module), name):
        raise _torch_kind(_gnn_error(Gnn.Error.NAME, "attribute '%s' already exists" % name))


def _inherited_python_forward(cls):
    """A forward `cls` inherits from a class that is no Module (a mixin
    listed before the built-in base, `class Net(Mixin, nn.Sequential)`),
    which no do_forward_args wraps yet; None otherwise."""
    forward = getattr(cls, 'forward', None)
    if forward is None or forward is Module.forward:
        return None
    wrapped = getattr(getattr(cls, 'do_forward_args', None), '_gnn_forward', None)
    return None if forward is wrapped else forward


class Module(Gnn.Module):
    """A Gnn.Module with PyTorch's nn.Module protocol.

    Subclass it like torch.nn.Module: call super().__init__() first, then
    assign children (`self.fc = Gnn.Parameter...`, `self.block = Block()`).
    Implement `forward(self, *args, **kwargs)`, taking and returning
    anything as torch's (it becomes the general forward vfunc, so C
    containers and hooks reach it), or `do_forward(self, x)`, the
    one-tensor vfunc; optionally `extra_repr(self)` (or `do_extra_repr`)."""

    __module__ = OVERRIDE_MODULE

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        ns = cls.__dict__
        forward = ns.get('forward', _inherited_python_forward(cls))
        if forward is not None and 'do_forward_args' not in ns:
            cls.do_forward_args = general_forward(forward)
        if 'extra_repr' in ns and 'do_extra_repr' not in ns:
            cls.do_extra_repr = ns['extra_repr']
        if 'do_forward' in ns and not getattr(ns['do_forward'], '_gnn_guarded', False):
            cls.do_forward = _wrap_forward(ns['do_forward'])

    # -- attributes -----------------------------------------------------------

    def __setattr__(self, name, value):
        if isinstance(value, (Gnn.Parameter, _CModule)):
            if not gobject_created(self):
                raise AttributeError('cannot assign %s before Module.__init__() call'
                                     % ('parameters' if isinstance(value, Gnn.Parameter)
                                        else 'module'))
            _checked_name('module' if isinstance(value, _CModule) else 'parameter', name)
            if name in self.__dict__:
                super().__delattr__(name)
            _registry_call(_CModule.set_child, self, name, value)
            return
        if not gobject_created(self):
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
            _registry_call(_CModule.set_child, self, _checked_name('attribute', name), value)
            return
        # Not a GObject: let the library word the error for a stand-in
        # object, then name the real type.
        try:
            _CModule.set_child(self, name, _GObject.Object())
        except _GLib.Error as e:
            raise _torch_kind(_gnn_error(e.code, e.message.replace(
                "'GObject'", "'%s'" % _type_name(value)))) from None
        raise AssertionError('set_child accepted a plain GObject')   # pragma: no cover

    def __getattr__(self, name):
        # Only called when normal lookup fails.
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError("'%s' object has no attribute '%s'"
                                 % (type(self).__name__, name))
        if '\x00' in name or not gobject_created(self):   # no name with a NUL is held
            raise AttributeError("'%s' object has no attribute '%s'"
                                 % (type(self).__name__, name))
        try:
            return _get_child(self, name)
        except _GLib.Error as e:
            error = e
        pspec = _find_pspec(self, name)
        if pspec is not None and not _is_slot_pspec(pspec):
            return self.get_property(pspec.name)
        raise AttributeError(error.message)

    def __delattr__(self, name):
        if gobject_created(self) and is_c_key(name) and _CModule.has_child(self, name):
            _CModule.delete_child(self, name)
        else:
            super().__delattr__(name)

    def __dir__(self):
        names = set(super().__dir__())
        if gobject_created(self):
            for kind in ('parameters', 'buffers', 'modules'):
                names.update(self._names(kind))
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
            raise _torch_kind(_gnn_error(Gnn.Error.TYPE,
                                         "cannot assign '%s' object to parameter '%s' "
                                         "(GnnParameter or NULL required)"
                                         % (_type_name(param), name)))
        _check_attribute_free(self, name, name in self._names('parameters'))
        _registry_call(_CModule.register_parameter, self, _checked_name('parameter', name),
                       param)

    def register_buffer(self, name, tensor, persistent=True):
        """Registers `tensor` (a Gnn.Tensor or None) as a buffer; a
        non-persistent buffer is not part of state_dict()."""
        if not isinstance(name, str):
            raise TypeError('buffer name should be a string. Got %s' % type(name).__name__)
        if tensor is not None and not isinstance(tensor, Gnn.Tensor):
            raise _torch_kind(_gnn_error(Gnn.Error.TYPE,
                                         "cannot assign '%s' object to buffer '%s' "
                                         "(GnnTensor or NULL required)"
                                         % (_type_name(tensor), name)))
        _check_attribute_free(self, name, name in self._names('buffers'))
        _registry_call(_CModule.register_buffer, self, _checked_name('buffer', name), tensor,
                       persistent)

    def register_module(self, name, module):
        """Registers `module` (a Gnn.Module or None) as a child (add_module)."""
        if module is not None and not isinstance(module, _CModule):
            raise _torch_kind(_gnn_error(Gnn.Error.TYPE, '%s is not a Module subclass'
                                         % _type_name(module)))
        if not isinstance(name, str):
            raise TypeError('module name should be a string. Got %s' % type(name).__name__)
        _check_attribute_free(self, name, name in self._names('modules'))
        _registry_call(_CModule.register_module, self, _checked_name('module', name), module)

    add_module = register_module

    def _names(self, kind):
        """The names registered in one map, empty slots included."""
        if kind == 'modules':
            return list(_CModule.named_children(self)[1])
        if kind == 'parameters':
            return list(_CModule.named_parameters(self, '', False)[1])
        return list(_CModule.named_buffers(self, '', False)[1])

    # -- traversal ------------------------------------------------------------

    # torch's traversals are generators (next(model.parameters()) works);
    # each walks the registry when first advanced.

    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        """(name, parameter) pairs in torch's order; shared parameters once."""
        if not remove_duplicate:
            raise ValueError('named_parameters(remove_duplicate=False) is not supported by Gnn')
        values, names = _CModule.named_parameters(self, prefix, recurse)
        yield from zip(names, values)

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        """(name, buffer) pairs, non-persistent buffers included."""
        if not remove_duplicate:
            raise ValueError('named_buffers(remove_duplicate=False) is not supported by Gnn')
        values, names = _CModule.named_buffers(self, prefix, recurse)
        yield from zip(names, values)

    def named_children(self):
        """(name, module) pairs of the direct children."""
        values, names = _CModule.named_children(self)
        yield from zip(names, values)

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        """(name, module) pairs, self first with `prefix`, pre-order; a
        module reachable twice is listed once (unless remove_duplicate=False;
        a module registered twice under the same parent is still listed
        once there, as the C API lists a parent's children deduplicated)."""
        if memo is None and remove_duplicate:
            values, names = _CModule.named_modules(self, prefix)
            yield from zip(names, values)
            return
        if memo is None:
            memo = set()

        def visit(module, pfx):
            if remove_duplicate:
                if module in memo:
                    return
                memo.add(module)
            yield pfx, module
            for name, child in Module.named_children(module):
                yield from visit(child, pfx + ('.' if pfx else '') + name)
        yield from visit(self, prefix)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def children(self):
        for _, m in self.named_children():
            yield m

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def get_submodule(self, target):
        """The module at the dotted path `target` ('' is self)."""
        module = self
        for item in target.split('.') if target else ():
            if not isinstance(module, _CModule) or item not in module._names('modules'):
                raise AttributeError('%s has no attribute `%s`' % (type(module).__name__, item))
            module = getattr(module, item)
        return module

    def get_parameter(self, target):
        """The parameter at the dotted path `target`."""
        path, _, name = target.rpartition('.')
        module = self.get_submodule(path)
        if name not in module._names('parameters'):
            raise AttributeError('%s has no parameter `%s`' % (type(module).__name__, name))
        return getattr(module, name)

    def apply(self, fn):
        """Calls fn(module) on every module, children first; returns self.
        An exception fn raises (any, KeyboardInterrupt too) stops the walk
        and is raised here, as torch's."""
        raised = []

        def visit(module, user_data):
            if raised:
                return
            try:
                fn(module)
            except BaseException as exc:   # not across the C frames below
                raised.append(exc)
        _CModule.apply(self, visit, None)
        if raised:
            raise raised[0].with_traceback(raised[0].__traceback__)
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

    def __call__(self, *args, **kwargs):
        """model(*args, **kwargs), torch's call: global and module pre-hooks
        (each sees the args tuple and may replace it), forward, global and
        module forward hooks (each may replace the output), all in C for
        every shape of arguments. An exception raised by Python code inside
        (forward, hooks) is re-raised as itself, SystemExit and
        KeyboardInterrupt included; the call's type errors (wrong
        arguments) are TypeError."""
        return call_module(self, args, kwargs)

    def forward(self, *args, **kwargs):
        """Runs the forward of the module's C class without hooks; from a
        Python subclass, super().forward(...) reaches the built-in layer's."""
        return forward_as_c(self, args, kwargs)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) runs before forward, whatever the call's
        arguments: `args` is torch's tuple ((x,) for model(x)). It returns
        None, or replacement arguments: a tuple, or a single value that
        becomes a 1-tuple (torch 1.13). With with_kwargs (torch 2) it is
        hook(module, args, kwargs) returning None or (args, kwargs).
        Returns a handle with remove()."""
        closure = pre_hook_closure(_hook_reference(hook), with_kwargs)
        return _CModule.register_forward_pre_hook_args(self, closure, None,
                                                       hook_flags(prepend, False, with_kwargs))

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """hook(module, args, output) runs after forward (`args` torch's
        tuple; with with_kwargs hook(module, args, kwargs, output)); it
        returns None or a replacement output. With always_call it also
        runs when the call fails (output None). Returns a handle with
        remove()."""
        closure = hook_closure(_hook_reference(hook), with_kwargs)
        return _CModule.register_forward_hook_args(self, closure, None,
                                                   hook_flags(prepend, always_call))

    # -- state ----------------------------------------------------------------

    def state_dict(self, destination=None, prefix='', keep_vars=False):
        """The module's state as a Gnn.StateDict (an ordered mapping):
        parameters, then persistent buffers, then children with dotted
        prefixes. The tensors share the module's memory; as in torch they
        are detached (no grad, so in-place updates such as an EMA's
        `sd[k].mul_(d)` work) unless keep_vars=True, which gives the
        parameters themselves."""
        state = _CModule.state_dict(self)
        if not keep_vars:
            detached = StateDict()
            for key in state.get_keys():
                detached.insert(key, state.lookup(key).detach())
            for key in state.get_metadata_keys() or []:
                detached.set_metadata(key, state.get_metadata(key))
            state = detached
        if destination is None and not prefix:
            return state
        if destination is None:
            destination = StateDict()
        for key in state.get_keys():
            destination.insert(prefix + key, state.lookup(key))
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies `state_dict` (a Gnn.StateDict or a mapping of name to
        Gnn.Tensor) into the module. Returns (missing_keys, unexpected_keys);
        raises GLib.Error with torch's message on failure, after copying
        nothing. With assign=True (torch 2.x) the state dict's tensors become
        the module's storage instead (zero copy; the parameter objects and
        their requires_grad stay), the way to fill a module built on the
        'meta' device."""
        state_dict = as_state_dict(state_dict)
        flags = Gnn.LoadStateFlags.STRICT if strict else Gnn.LoadStateFlags.NONE
        if assign:
            flags |= Gnn.LoadStateFlags.ASSIGN
        _, missing, unexpected = _CModule.load_state_dict_with_flags(self, state_dict, flags)
        return _IncompatibleKeys(list(missing or []), list(unexpected or []))

    def save(self, path, metadata=None):
        """Saves state_dict() as a safetensors file."""
        from ._checkpoint import user_metadata
        return _CModule.save(self, _os.fspath(path), user_metadata(metadata) or None)

    def load(self, path, assign=False):
        """Loads a safetensors file into the module (strict, atomic). With
        assign=True the module's tensors become the memory-mapped file's
        (zero copy)."""
        flags = Gnn.LoadFlags.ASSIGN if assign else Gnn.LoadFlags.NONE
        return _CModule.load_with_flags(self, _os.fspath(path), flags)

    def to_empty(self, *, device='cpu', recurse=True):
        """torch's to_empty(device='cpu'): meta parameters and buffers get
        uninitialized memory (the parameter objects stay). Returns self."""
        _dtype.check_device(device)
        if not recurse:
            raise ValueError('to_empty(recurse=False) is not supported by Gnn')
        _CModule.to_empty(self)
        return self

    # -- dtype and device -----------------------------------------------------

    def to(self, *args, **kwargs):
        """Like torch.nn.Module.to(dtype | device): converts every floating
        parameter and buffer in place (the same objects, gradients too); a
        device other than 'cpu' raises. Returns self."""
        dtype = parse_to(args, kwargs)
        if dtype is None:
            return self
        if not _dtype.is_floating(dtype):
            raise TypeError('nn.Module.to only accepts floating point or complex dtypes, but '
                            'got desired dtype=%r' % _dtype.of(dtype))
        # in place, as torch's _apply: optimizers and tied weights keep
        # seeing the same parameter objects (and their gradients convert too)
        _CModule.to_dtype(self, dtype)
        return self

    def double(self):
        return self.to(_dtype.float64)

    def float(self):
        return self.to(_dtype.float32)

    def half(self):
        return self.to(_dtype.float16)

    def bfloat16(self):
        return self.to(_dtype.bfloat16)

    def cpu(self):
        return self

    def cuda(self, device=None):
        """As a CPU build of torch: AssertionError."""
        _dtype.check_device('cuda' if device is None else
                            device if not isinstance(device, int) else 'cuda:%d' % device)
        return self

    # -- printing -------------------------------------------------------------

    def __repr__(self):
        if not gobject_created(self):
            return '<%s (not initialized)>' % type(self).__name__
        return self.to_string()

    __str__ = __repr__


Module = override(Module)


@export
def register_module_forward_pre_hook(hook):
    """torch.nn.modules.module.register_module_forward_pre_hook: hook(module,
    args) before every module's forward, before the module's own pre-hooks.
    Returns a handle with remove()."""
    return Gnn.Module.register_global_forward_pre_hook_args(
        pre_hook_closure(_hook_reference(hook), False), None, hook_flags())


@export
def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """torch.nn.modules.module.register_module_forward_hook: hook(module,
    args, output) after every module's forward, before the module's own
    hooks. Returns a handle with remove()."""
    return Gnn.Module.register_global_forward_hook_args(
        hook_closure(_hook_reference(hook), with_kwargs), None,
        hook_flags(False, always_call))
