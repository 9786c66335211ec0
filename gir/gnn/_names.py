# _names.py: strings that cannot cross into C whole are refused.
#
# A C string ends at its first NUL, and PyGObject hands a Python str with
# one inside over as it is: 'w\x00x' arrives as 'w', so {'w\x00x': a,
# 'w\x00y': b} saved one tensor 'w', and a strict load_state_dict took
# 'weight\x00junk' for 'weight'. Every introspected function and method of
# the library that takes a string (a name, key, path, prefix, metadata
# entry, backend ...) or a list / hash table of strings is wrapped once,
# when the override has loaded (guard_all()), to refuse such a string —
# and so are the constructors and set_property of classes with string
# properties — with a GLib.Error (Gnn.Error.NAME) naming
# the function, the argument and the string. The wrappers are found from
# the typelib, so a function added to the library later is covered too.
# Mapping protocols answer for such a key as for any absent one (`in` is
# False, [] raises KeyError), which _state.py and _containers.py do before
# calling in.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from gi.repository import GObject

from ._gi import Gnn, gnn_error

_STRING_TAGS = ('utf8', 'filename')
_CONTAINER_TAGS = ('array', 'glist', 'gslist', 'ghash')


def has_nul(value):
    """Whether a str (or the str keys/values/items of a container) holds a
    NUL, which C would cut at."""
    if isinstance(value, str):
        return '\x00' in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(has_nul(v) for v in value)
    return False


def is_c_key(key):
    """Whether `key` is a str C can hold whole (a key with a NUL can never
    be present: lookups answer as for any absent key)."""
    return isinstance(key, str) and '\x00' not in key


def refuse(what, value):
    """The error for a string with a NUL: Gnn.Error.NAME."""
    return gnn_error(Gnn.Error.NAME, "%s can't contain a NUL character (a C string would end "
                                     "there), got: %r" % (what, value))


def _string_args(info):
    """Positions (in the Python call, self included for methods) and names
    of the arguments that take strings."""
    offset = 1 if info.is_method() else 0
    found = []
    position = 0
    for arg in info.get_arguments():
        if arg.get_direction() != 0:       # only what goes in
            continue
        tag = arg.get_type().get_tag_as_string()
        if tag in _STRING_TAGS or (
                tag in _CONTAINER_TAGS and
                arg.get_type().get_param_type(0).get_tag_as_string() in _STRING_TAGS):
            found.append((position + offset, arg.get_name()))
        position += 1
    return found


def _guarded(info, owner):
    """A function checking the string arguments, then calling `info` (a
    constructor takes its class first, as PyGObject's bound ones do)."""
    checked = _string_args(info)
    if not checked:
        return None
    where = '%s.%s' % (owner, info.get_name()) if owner else info.get_name()

    def check(args, kwargs):
        for position, name in checked:
            value = args[position] if position < len(args) else kwargs.get(name)
            if has_nul(value):
                raise refuse('%s: %s' % (where, name), value)

    if info.is_constructor():
        def call(cls, *args, **kwargs):
            check(args, kwargs)
            return info(cls, *args, **kwargs)
    else:
        def call(*args, **kwargs):
            check(args, kwargs)
            return info(*args, **kwargs)
    call.__name__ = call.__qualname__ = info.get_name()
    call.__doc__ = getattr(info, '__doc__', None)
    call.__wrapped__ = info
    return call


def _string_properties(cls):
    try:
        pspecs = GObject.list_properties(cls.__gtype__)
    except (AttributeError, TypeError):
        return set()
    return {p.name for p in pspecs if p.value_type == GObject.TYPE_STRING and
            p.owner_type == cls.__gtype__}


def _guard_properties(cls, names):
    """String properties given at construction or through set_property."""
    init, set_property = cls.__init__, cls.set_property

    def __init__(self, *args, **kwargs):
        for key, value in kwargs.items():
            if key.replace('_', '-') in names and has_nul(value):
                raise refuse('%s: property %s' % (cls.__name__, key), value)
        init(self, *args, **kwargs)

    def checked_set_property(self, name, value):
        if name.replace('_', '-') in names and has_nul(value):
            raise refuse('%s: property %s' % (cls.__name__, name), value)
        set_property(self, name, value)
    cls.__init__ = __init__
    cls.set_property = checked_set_property


def _guard_class(cls):
    names = _string_properties(cls)
    if names:
        _guard_properties(cls, names)
    for attr, info in list(vars(cls).items()):
        if type(info).__name__ != 'FunctionInfo':
            continue
        call = _guarded(info, cls.__name__)
        if call is not None:
            setattr(cls, attr, call if info.is_method() else
                    classmethod(call) if info.is_constructor() else staticmethod(call))


def guard_all():
    """Wraps every introspected function and method that takes strings.
    Run once, after every override is registered: looking a class up here
    creates its Python class, whose base must already be the override."""
    for name in dir(Gnn):
        obj = getattr(Gnn, name, None)
        if isinstance(obj, type):
            _guard_class(obj)      # objects, interfaces, boxed types
        elif type(obj).__name__ == 'FunctionInfo':
            call = _guarded(obj, '')
            if call is not None:
                setattr(Gnn, name, call)
