# _signature.py: torch's constructor signatures, declared next to each class
# they belong to, mapped onto Gnn's construct properties.
#
# A class whose torch constructor differs from GObject's keyword
# construction declares it where the class is overridden, in the domain
# module (_nn.py, _data.py, _optim.py, ...):
#
#     # a class with no Python body of its own
#     torch_class('Linear', 'in_features, out_features, bias=True, device=None, dtype=None',
#                 {'bias': 'has_bias', 'device': DEVICE, 'dtype': DTYPE})
#
#     # a class with a body: the decorator, under PyGObject's override()
#     @override
#     @torch_signature('p=0.5, inplace=False')
#     class Dropout(Gnn.Dropout):
#         ...
#
#     # a class built by a C constructor function rather than properties
#     torch_factory('TensorDataset', _tensor_dataset, '*tensors')
#
# The signature is torch's parameter list, literally (positional order,
# keywords, defaults). The mapping says what each torch argument becomes;
# an argument it does not list is the property of the same name:
#
#   'has_bias'         the property of that name;
#   a converter        value -> {property: value} (pair('kernel') gives
#                      kernel_h / kernel_w; only(None, 'reduce') refuses
#                      anything but torch's default; ignore drops it); a
#                      converter with `on_default = True` also runs when
#                      the argument is left out;
#   Post(func)         func(obj, value) after construction (optimizer
#                      params, DataLoader's collate_fn).
#
# The generated __init__ binds the call to the signature and constructs the
# object from the properties of the arguments the caller gave (the
# properties' defaults are torch's). Keywords that are not torch's pass
# through as properties (converted when the mapping names them), so
# GObject-style construction keeps working (Gnn.Linear(in_features=3,
# out_features=2, has_bias=False)); a call that leaves out a required torch
# argument with no positional argument is GObject construction (Gnn.SGD(lr=0.1),
# bare types).
#
# Rows of the former central table (_compat_torch_signatures.TABLE, kept
# for branches that still add to it) move here mechanically: the row
# `'X': ('signature', {mapping})` becomes `torch_class('X', 'signature',
# {mapping})` in the module that overrides X (see docs/python.md).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import inspect
import numbers

from gi.repository import GLib

from . import _dtype
from ._gi import OVERRIDE_MODULE, Gnn, call_c, override

_REQUIRED = inspect.Parameter.empty


# --- converters: value -> {property: value} -----------------------------------

def pair(prefix):
    """An int-or-tuple size as <prefix>_h / <prefix>_w."""
    def convert(value):
        if isinstance(value, numbers.Integral):
            h = w = int(value)
        else:
            h, w = (int(v) for v in value)
        return {prefix + '_h': h, prefix + '_w': w}
    return convert


def pool_stride(value):
    """A pooling stride: None is the kernel size (the property's default)."""
    return {} if value is None else pair('stride')(value)


def shape_variant(value):
    """LayerNorm's normalized_shape (an int or a sequence) as a GVariant."""
    shape = [int(value)] if isinstance(value, numbers.Integral) else [int(v) for v in value]
    return {'normalized_shape': GLib.Variant('ax', shape)}


def betas(value):
    beta1, beta2 = value
    return {'beta1': float(beta1), 'beta2': float(beta2)}


def none_or(name):
    """None: the property's default; otherwise the property `name`."""
    def convert(value):
        return {} if value is None else {name: value}
    return convert


def only(expected, what):
    """An argument Gnn takes only at torch's default value."""
    def convert(value):
        if value != expected:
            raise ValueError('%s=%r is not supported by Gnn (only %r)' % (what, value, expected))
        return {}
    return convert


def ignore(value):
    """An argument without effect in Gnn (pin_memory, foreach, ...)."""
    return {}


# device='meta' is no property: construction runs under the meta default
# device instead (see TorchSignature.init).
META = object()


def device(value):
    """torch's device=: the CPU, or 'meta' (no memory); others raise as a
    CPU build of torch does."""
    if value is not None and str(value) == 'meta':
        return {META: True}
    _dtype.check_device(value)
    return {}


DEVICE = device


class Post(object):
    """A step run after construction: func(obj, value)."""

    def __init__(self, func):
        self.func = func


def _to_dtype(module, value):
    if value is not None:
        module.to(value)


DTYPE = Post(_to_dtype)
# the factory keywords of torch's layers
DEVICE_DTYPE = {'device': DEVICE, 'dtype': DTYPE}


# --- the declaration ------------------------------------------------------------

def _parse(text):
    """A signature string as an inspect.Signature."""
    namespace = {}
    exec('def f(%s): pass' % text, {}, namespace)   # the declarations' own literals only
    return inspect.signature(namespace['f'])


class TorchSignature(object):
    """torch's signature of one class and how its arguments become
    properties (see the module comment)."""

    def __init__(self, name, text, mapping=None):
        self.name = name
        self.text = text
        self.signature = _parse(text)
        self.mapping = dict(mapping or {})

    def properties(self, args, kwargs):
        """(properties, post steps) for a torch-style call, or None when
        the call is GObject construction (a required torch argument left
        out and no positional argument)."""
        signature, mapping = self.signature, self.mapping
        extra = {k: kwargs.pop(k) for k in list(kwargs) if k not in signature.parameters}
        bound = signature.bind_partial(*args, **kwargs)
        missing = [p.name for p in signature.parameters.values()
                   if p.default is _REQUIRED and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                   and p.name not in bound.arguments]
        if missing and not args:
            return None
        if missing:
            signature.bind(*args, **kwargs)      # raises torch's TypeError
        props, posts = {}, []
        for arg, value in list(bound.arguments.items()) + list(extra.items()):
            how = mapping.get(arg, arg)
            if isinstance(how, str):
                props[how] = value
            elif isinstance(how, Post):
                posts.append((how.func, value))
            else:
                props.update(how(value))
        for arg, how in mapping.items():
            if getattr(how, 'on_default', False) and arg not in bound.arguments:
                for key, value in how(None).items():
                    props.setdefault(key, value)       # an explicit property wins
        return props, posts

    def init(self, base):
        """The __init__ of a class whose C type is `base`."""
        declaration = self

        def __init__(self, *args, **kwargs):
            parsed = declaration.properties(args, dict(kwargs))
            if parsed is None:
                base.__init__(self, **kwargs)
                initable_init(self)
                return
            props, posts = parsed
            meta = props.pop(META, False)
            _check_writable(base, props)
            previous = Gnn.set_default_device(Gnn.Device.META) if meta else None
            try:
                base.__init__(self, **props)
            finally:
                if meta:
                    Gnn.set_default_device(previous)
            initable_init(self)
            for func, value in posts:
                func(self, value)
        __init__.__signature__ = self.signature
        __init__.__doc__ = 'torch: %s(%s)' % (self.name, self.text)
        return __init__


def initable_init(obj):
    """PyGObject's constructor never calls GInitable.init: without this a
    construction the library refuses (Linear(2**40, 2**40)) would give an
    object with empty slots instead of raising the construction's error."""
    from gi.repository import Gio
    if isinstance(obj, Gio.Initable):
        # a Python callback (a dataset's __len__) may raise meanwhile: that
        # exception, not the C error it caused, is raised
        call_c(obj.init, None)


def _check_writable(base, props):
    """A property that cannot be set at construction is a TypeError naming
    it, not a GLib warning and an object left at its defaults."""
    from gi.repository import GObject
    for name in props:
        pspec = base.find_property(name.replace('_', '-'))
        if pspec is not None and not pspec.flags & GObject.ParamFlags.WRITABLE:
            raise TypeError("%s: property '%s' cannot be set at construction"
                            % (base.__gtype__.name, pspec.name))


def _c_base(cls):
    """The introspected class an override class derives from."""
    return next(k for k in cls.__mro__[1:] if k.__module__ == 'gi.repository.Gnn')


def torch_signature(signature, mapping=None):
    """Class decorator: `cls` is constructed with torch's `signature`
    (see the module comment). The generated initializer is cls._torch_init;
    it is also cls.__init__ unless the class defines its own (which then
    calls self._torch_init(*args, **kwargs))."""
    def decorate(cls):
        declaration = TorchSignature(cls.__name__, signature, mapping)
        init = declaration.init(_c_base(cls))
        cls._torch_init = init
        cls.__torch_signature__ = declaration
        own = cls.__dict__.get('__init__')
        if own is None:
            cls.__init__ = init
        else:
            own.__signature__ = init.__signature__
            own.__doc__ = own.__doc__ or init.__doc__
        return cls
    return decorate


def _factory_new(factory, signature):
    """The __new__ of a class built by a C constructor function (no
    properties yet): Gnn.TensorDataset(*tensors) etc."""
    sig = _parse(signature)

    def __new__(cls, *args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        return factory(**bound.arguments)
    __new__.__doc__ = 'torch: (%s)' % signature
    return staticmethod(__new__)


def _skip_init(self, *args, **kwargs):
    """The object was built by __new__."""


def _override_class(name, namespace, extra):
    base = getattr(Gnn, name)
    namespace.update(extra or {})
    namespace['__module__'] = OVERRIDE_MODULE
    namespace.setdefault('__doc__', base.__doc__)
    return override(type(name, (base,), namespace))


def torch_factory(name, factory, signature, extra=None):
    """Overrides Gnn.<name> with a constructor that calls `factory` (a C
    constructor function) with the arguments of torch's `signature`;
    `extra`: more attributes of the class."""
    return _override_class(name, {'__new__': _factory_new(factory, signature),
                                  '__init__': _skip_init}, extra)


def torch_class(name, signature=None, mapping=None, extra=None):
    """Overrides Gnn.<name>, a class without a Python body, with torch's
    constructor `signature` and argument `mapping` (see the module
    comment); `extra`: more attributes of the class.

    The older spellings still work: torch_class(name) takes the row of the
    compatibility table (_compat_torch_signatures.TABLE), and
    torch_class(name, factory, signature) is torch_factory."""
    if callable(signature):
        return torch_factory(name, signature, mapping, extra)
    if signature is None:
        from ._compat_torch_signatures import TABLE
        signature, mapping = TABLE[name]
    namespace = dict(extra or {})
    namespace.setdefault('__doc__', getattr(Gnn, name).__doc__)
    cls = type(name, (getattr(Gnn, name),), dict(namespace, __module__=OVERRIDE_MODULE))
    return override(torch_signature(signature, mapping)(cls))
