# _public.py: the public package `gnn`, torch's module tree over the
# override's objects.
#
# `import gnn as torch`, `import gnn.nn as nn`, `from gnn.utils.data import
# DataLoader` give the very objects `from gi.repository import Gnn` gives:
# one implementation, two faces. The private modules (_nn.py, _optim.py,
# ...) register what they define as they have always done — classes and
# functions through _gi.export (Gnn.<name>), and torch's sub-namespaces as
# attributes of namespace objects (EXPORTS['nn'].functional.relu, ...). The
# public modules (gnn/nn/__init__.py, gnn/nn/functional.py, ...) are thin:
# each calls mirror() with where its names come from,
#
#   namespace   a dotted path into EXPORTS ('nn.functional'): every public
#               attribute of that namespace object;
#   derived     names of Gnn base classes ('Module'): every class of the
#               typelib (its override when there is one) deriving from one
#               of them, so a layer added in C is gnn.nn.<Name> at once;
#   names       names taken from the override module (Gnn.<name>);
#
# and answers later additions too (a module __getattr__ looks in the same
# places). New names therefore need no change here: register them in the
# namespace the private module already fills (setattr(EXPORTS['nn'], ...),
# or Gnn.<name> for classes of a derived rule).
#
# The override module (gi/overrides/Gnn.py) calls publish() once all private
# modules are imported: it imports the public modules (each mirrors its
# namespace), then makes the public modules the namespaces of the gi face
# too (Gnn.nn is gnn.nn), and fills the package's own globals (gnn.tensor,
# gnn.Tensor, gnn.float32, ...).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import importlib
import inspect
import sys

from ._gi import EXPORTS, Gnn

# The public modules, parents before children; publish() imports them in
# this order. Each file names its sources (see mirror()).
PUBLIC = (
    'gnn.nn', 'gnn.nn.functional', 'gnn.nn.init', 'gnn.nn.utils', 'gnn.nn.utils.rnn',
    'gnn.nn.parallel', 'gnn.nn.modules', 'gnn.nn.modules.module',
    'gnn.optim', 'gnn.optim.lr_scheduler',
    'gnn.utils', 'gnn.utils.data', 'gnn.utils.data.distributed',
    'gnn.autograd', 'gnn.distributed', 'gnn.multiprocessing',
    'gnn.backends', 'gnn.backends.cudnn', 'gnn.cuda',
    'gnn.vision', 'gnn.vision.datasets', 'gnn.vision.transforms',
    'gnn.vision.transforms.functional', 'gnn.vision.utils', 'gnn.vision.models',
)

# namespace path -> the private namespace object, taken before publish()
# makes the public modules the namespaces (so mirror reads the originals).
_sources = {}


def _override_module():
    """Gnn as `from gi.repository import Gnn` gives it: the override's names
    over the typelib's (a bare proxy of the typelib while loading)."""
    return importlib.import_module('gi.repository.Gnn')


def _namespace(path):
    """The private namespace object at `path` ('nn.functional'), or None."""
    if path in _sources:
        return _sources[path]
    head, *rest = path.split('.')
    obj = EXPORTS.get(head)
    for part in rest:
        obj = getattr(obj, part, None) if obj is not None else None
    return obj


def _public_names(obj):
    names = getattr(obj, '__all__', None)
    if names is None:
        names = [n for n in (vars(obj) if hasattr(obj, '__dict__') else dir(obj))
                 if not n.startswith('_')]
    return names


def _typelib_names():
    from gi.module import get_introspection_module
    return [n for n in dir(get_introspection_module('Gnn')) if n[:1].isupper()]


def _derived(bases):
    """{name: class} of the classes (override or introspected, and those
    exported by name) deriving from one of the Gnn classes `bases`."""
    if not bases:
        return {}
    module = _override_module()
    base_types = tuple(getattr(Gnn, b) for b in bases)
    found = {}
    for name in sorted(set(_typelib_names()) | set(EXPORTS)):
        if name.endswith('Class') or name.startswith('_'):
            continue
        obj = EXPORTS.get(name) or getattr(module, name, None)
        if inspect.isclass(obj) and issubclass(obj, base_types):
            found[name] = obj
    return found


class _Source(object):
    """Where one public module's names come from."""

    def __init__(self, namespace=None, derived=(), names=(), classes_only=False):
        self.namespace = namespace
        self.derived = tuple(derived)
        self.names = tuple(names)
        self.classes_only = classes_only

    def contents(self):
        result = dict(_derived(self.derived))
        if self.names:
            module = _override_module()
            for name in self.names:
                obj = EXPORTS.get(name, getattr(module, name, None))
                if obj is not None:
                    result[name] = obj
        space = _namespace(self.namespace) if self.namespace else None
        if space is not None:
            for name in _public_names(space):
                result[name] = getattr(space, name)
        if self.classes_only:
            result = {k: v for k, v in result.items() if inspect.isclass(v)}
        return result

    def lookup(self, name):
        space = _namespace(self.namespace) if self.namespace else None
        if space is not None and hasattr(space, name):
            return getattr(space, name)
        if name in self.names or self.derived:
            value = self.contents().get(name)
            if value is not None:
                return value
        raise AttributeError(name)


def mirror(module_name, namespace=None, derived=(), names=(), classes_only=False):
    """Fills the public module `module_name` (call it with __name__) with
    the names of its sources (see the module comment), and answers names
    added to them later through the module's __getattr__."""
    module = sys.modules[module_name]
    source = _Source(namespace, derived, names, classes_only)
    for name, value in source.contents().items():
        # a sub-namespace that has a public module of its own is that module
        if inspect.ismodule(value) or not hasattr(module, name):
            setattr(module, name, value)

    def __getattr__(name):
        if not name.startswith('__'):
            try:
                return source.lookup(name)
            except AttributeError:
                pass
        raise AttributeError("module '%s' has no attribute '%s'" % (module_name, name))

    def __dir__():
        return sorted(set(vars(module)) | set(source.contents()))
    module.__getattr__ = __getattr__
    module.__dir__ = __dir__
    module._gnn_source = source
    return module


def _fill_top_level():
    """gnn.<name>: the override's exports, and every other name of the
    typelib through the override module (gnn.Generator, gnn.DType, ...)."""
    package = sys.modules['gnn']
    for name, value in EXPORTS.items():
        setattr(package, name, value)
    # torch.__version__: the version of the library in use (a str, as torch's)
    gnn = _override_module()
    package.__version__ = '%d.%d.%d' % (gnn.get_major_version(), gnn.get_minor_version(),
                                        gnn.get_micro_version())

    def __getattr__(name):
        if not name.startswith('_'):
            try:
                return getattr(_override_module(), name)
            except AttributeError:
                pass
        raise AttributeError("module 'gnn' has no attribute '%s'" % name)

    def __dir__():
        return sorted(set(vars(package)) | set(EXPORTS) | set(_typelib_names()))
    package.__getattr__ = __getattr__
    package.__dir__ = __dir__


_published = False


def publish():
    """Called by the override once its private modules are imported."""
    global _published
    if _published:
        return
    _published = True
    for path in ('nn', 'nn.functional', 'nn.init', 'nn.utils', 'nn.utils.rnn',
                 'nn.parallel', 'optim', 'optim.lr_scheduler', 'utils', 'utils.data',
                 'autograd', 'distributed', 'backends', 'backends.cudnn', 'cuda', 'vision',
                 'vision.datasets', 'vision.transforms', 'vision.transforms.functional',
                 'vision.utils', 'vision.models'):
        space = _namespace(path)
        if space is not None:
            _sources[path] = space
    for name in PUBLIC:
        importlib.import_module(name)
    # the gi face's namespaces are the public modules (Gnn.nn is gnn.nn)
    for name in PUBLIC:
        if name.count('.') == 1:
            EXPORTS[name.split('.')[1]] = sys.modules[name]
    EXPORTS['functional'] = sys.modules['gnn.nn.functional']
    _fill_top_level()
