# _containers.py: torch.nn's container protocol
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc as _abc
import numbers

from gi.repository import GLib as _GLib

from ._gi import OVERRIDE_MODULE, Gnn, np as _np, override
from ._dtype import tensor_from_numpy

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
        return tensor_from_numpy(value)
    if not isinstance(value, Gnn.Tensor):
        raise TypeError('cannot assign %s as a parameter (Gnn.Tensor or numpy array required)'
                        % type(value).__name__)
    return value


class _ModuleListProtocol(object):
    """The list protocol of torch's Sequential / ModuleList over the C
    methods of the class's `_c` (the introspected class)."""

    _insert_returns_self = True

    def _init_pairs(self, *args, **kwargs):
        self._c.__init__(self, **kwargs)
        for name, module in args:
            self._c.register_module(self, name, module)

    def __len__(self):
        return self._c.get_length(self)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return _container_call(self._c.slice, self, *_slice_args(len(self), index))
        return _container_call(self._c.get, self, _container_index(index))

    def __setitem__(self, index, module):
        _container_call(self._c.set, self, _container_index(index), module)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for i in sorted(range(*index.indices(len(self))), reverse=True):
                self._c.pop(self, i)
        else:
            _container_call(self._c.pop, self, _container_index(index))

    def __iter__(self):
        # By position: a module added twice is yielded twice, as in torch.
        return iter([self._c.get(self, i) for i in range(len(self))])

    def append(self, module):
        """Adds `module` at the end; returns self."""
        self._c.append(self, module)
        return self

    def extend(self, modules):
        """Appends each module of an iterable; returns self."""
        for module in modules:
            self._c.append(self, module)
        return self

    def insert(self, index, module):
        """Inserts `module` before `index` (renumbering the rest); returns
        self for a Sequential, None for a ModuleList (as torch does)."""
        _container_call(self._c.insert, self, _container_index(index), module)
        return self if self._insert_returns_self else None

    def pop(self, index=-1):
        """Removes and returns the module at `index` (renumbering the rest)."""
        return _container_call(self._c.pop, self, _container_index(index))

    def __iadd__(self, modules):
        return self.extend(modules)


class Sequential(_ModuleListProtocol, Gnn.Sequential):
    """torch.nn.Sequential: Gnn.Sequential(a, b, c) or
    Gnn.Sequential(OrderedDict([('name', module), ...]))."""

    __module__ = OVERRIDE_MODULE
    _c = Gnn.Sequential

    def __init__(self, *modules, **kwargs):
        if len(modules) == 1 and isinstance(modules[0], _abc.Mapping):
            pairs = list(modules[0].items())
        else:
            pairs = [(str(i), m) for i, m in enumerate(modules)]
        self._init_pairs(*pairs, **kwargs)


Sequential = override(Sequential)


class ModuleList(_ModuleListProtocol, Gnn.ModuleList):
    """torch.nn.ModuleList: Gnn.ModuleList([a, b]); slicing returns a
    ModuleList."""

    __module__ = OVERRIDE_MODULE
    _c = Gnn.ModuleList
    _insert_returns_self = False

    def __init__(self, modules=None, **kwargs):
        self._init_pairs(*[(str(i), m) for i, m in enumerate(modules or ())], **kwargs)


ModuleList = override(ModuleList)


class _DictProtocol(object):
    """The mapping protocol of torch's ModuleDict / ParameterDict over the C
    methods of the class's `_c`."""

    @staticmethod
    def _convert(value):
        return value

    def __init__(self, values=None, **kwargs):
        self._c.__init__(self, **kwargs)
        if values is not None:
            self.update(values)

    def __len__(self):
        return self._c.get_length(self)

    def __iter__(self):
        return iter(self._c.get_keys(self))

    def __contains__(self, key):
        return isinstance(key, str) and self._c.contains(self, key)

    def __getitem__(self, key):
        if not isinstance(key, str) or not self._c.contains(self, key):
            raise KeyError(key)
        return self._c.get(self, key)

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise TypeError('%s keys must be str, not %s'
                            % (type(self).__name__, type(key).__name__))
        self._c.set(self, key, self._convert(value))

    def __delitem__(self, key):
        if key not in self:
            raise KeyError(key)
        self._c.pop(self, key)

    def keys(self):
        return list(self._c.get_keys(self))

    def values(self):
        return [self._c.get(self, k) for k in self._c.get_keys(self)]

    def items(self):
        return [(k, self._c.get(self, k)) for k in self._c.get_keys(self)]

    def pop(self, key):
        """Removes and returns the value under `key`."""
        if key not in self:
            raise KeyError(key)
        return self._c.pop(self, key)

    def update(self, values):
        """Adds the pairs of a mapping or an iterable of (key, value)."""
        pairs = values.items() if isinstance(values, _abc.Mapping) else values
        for key, value in pairs:
            self[key] = value

    def clear(self):
        self._c.clear(self)


class ModuleDict(_DictProtocol, Gnn.ModuleDict):
    """torch.nn.ModuleDict: Gnn.ModuleDict({'name': module}), an ordered
    mapping of str to module."""

    __module__ = OVERRIDE_MODULE
    _c = Gnn.ModuleDict


ModuleDict = override(ModuleDict)


class ParameterDict(_DictProtocol, Gnn.ParameterDict):
    """torch.nn.ParameterDict: an ordered mapping of str to parameter;
    tensors and numpy arrays are wrapped into parameters."""

    __module__ = OVERRIDE_MODULE
    _c = Gnn.ParameterDict
    _convert = staticmethod(lambda value: _as_parameter_value(value))


ParameterDict = override(ParameterDict)


class ParameterList(Gnn.ParameterList):
    """torch.nn.ParameterList: Gnn.ParameterList([t1, t2]); tensors and
    numpy arrays are wrapped into parameters."""

    __module__ = OVERRIDE_MODULE

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

