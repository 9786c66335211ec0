# _spawn.py: Python datasets in spawned workers (Gnn.WorkerMode.SPAWN,
# torch's multiprocessing_context='spawn' / 'forkserver').
#
# The C library re-executes a C program and rebuilds its dataset from the
# GType name and properties; neither works for a script (see
# lib/data/gnn-worker-spawn-host.c). This module is the Python spawn host:
#
# * parent, at loader start (do_save): ONE pickle of the dataset's changed
#   class attributes, the dataset, the collation and worker_init_fn, so that
#   objects shared between them stay shared; a failure is the loader's start
#   error, naming the type and the attribute that does not pickle. The host's
#   argv becomes sys.executable running worker_main() with multiprocessing's
#   preparation data (sys.path, sys.argv, the main script);
# * worker (worker_main): multiprocessing.spawn.prepare() runs the parent's
#   main script as __mp_main__ aliased to __main__ (scripts guard their entry
#   point with `if __name__ == '__main__'`, as with torch), then the C worker
#   loop; do_rebuild unpickles, do_worker_init runs worker_init_fn once
#   get_worker_info() is valid.
#
# Beyond torch: a class attribute of the dataset's own classes (data, not
# methods or descriptors) whose value changed since the class statement ran
# (seed 000: `args = {}` updated through `self.args.update(...)`) travels
# with the instance and is set on the freshly imported class before the
# instance is rebuilt, so workers see the parent's values, where torch's
# spawn workers see the import-time default. "Changed" is judged against a
# pickle of each attribute taken when the class was created.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import io
import json
import os
import pickle
import sys
import traceback
import weakref

from gi.repository import GLib, GObject

from ._gi import Gnn, gnn_error, park

# Modules whose classes are the library's, not the user's.
_LIBRARY_MODULES = ('gi', 'gnn', 'builtins', 'abc', 'typing')

# class -> {attribute: pickle of its value at class creation, or None}
_snapshots = weakref.WeakKeyDictionary()

# Set while a spawned worker runs the parent's main script: a loader that
# spawns workers then is an unguarded entry point.
_bootstrapping = False

# What the worker rebuilt (kept alive for the worker's lifetime).
_worker = {}


# --- pickling GObjects ---------------------------------------------------------

def _rebuild_python_object(cls, props, state):
    """A Python-defined GObject without running its __init__ (as pickle
    rebuilds plain objects): the GObject from its properties, then its
    state through __setstate__ if the class has one, else its __dict__."""
    obj = cls.__new__(cls)
    GObject.Object.__init__(obj, **props)
    setstate = getattr(obj, '__setstate__', None)
    if setstate is not None:
        setstate(state)
    else:
        obj.__dict__.update(state)
    return obj


def _instance_state(obj):
    """pickle's state of a Python object: what its class's __getstate__
    returns (torch's idiom of dropping an open file), else its __dict__."""
    getstate = getattr(type(obj), '__getstate__', None)
    if getstate is None or getstate in (getattr(object, '__getstate__', None),
                                        getattr(GObject.Object, '__getstate__', None)):
        return dict(obj.__dict__)
    return obj.__getstate__()


def _rebuild_c_object(type_name, props):
    from ._signature import initable_init
    gtype = GObject.type_from_name(type_name)
    obj = GObject.new(gtype, **props)
    initable_init(obj)
    return obj


def _rebuild_tensor(dtype, shape, data, requires_grad):
    t = Gnn.Tensor.new_from_bytes(GLib.Bytes.new(data), Gnn.DType(dtype), list(shape))
    if requires_grad:
        t.set_requires_grad(True)
    return t


def _rebuild_tensor_dataset(tensors):
    return Gnn.TensorDataset.new(list(tensors))


def _rebuild_subset(dataset, indices):
    return Gnn.Subset.new(dataset, list(indices))


def _rebuild_concat_dataset(datasets):
    return Gnn.ConcatDataset.new(list(datasets))


def _rebuild_list_store(type_name, items):
    from gi.repository import Gio
    store = Gio.ListStore.new(GObject.type_from_name(type_name))
    for item in items:
        store.append(item)
    return store


def _is_python_class(cls):
    module = getattr(cls, '__module__', '') or ''
    return not module.startswith('gi.')


def _properties(obj):
    """{keyword: value} of the readable and writable properties."""
    props = {}
    flags = GObject.ParamFlags.READABLE | GObject.ParamFlags.WRITABLE
    for pspec in obj.list_properties():
        if pspec.flags & flags == flags and not pspec.flags & GObject.ParamFlags.DEPRECATED:
            props[pspec.name.replace('-', '_')] = obj.get_property(pspec.name)
    return props


def reduce_gobject(obj):
    """The pickle reduction of a GObject: Python-defined classes by class,
    properties and __dict__; library objects by GType name and properties
    (a TensorDataset by its tensors, a Subset by its dataset and indices, a
    ConcatDataset by its datasets, a tensor by its bytes)."""
    if isinstance(obj, Gnn.Tensor):
        c = obj.contiguous()
        return (_rebuild_tensor, (int(obj.get_dtype()), list(obj.get_shape()),
                                  c.get_bytes().get_data() or b'', bool(obj.get_requires_grad())))
    cls = type(obj)
    from gi.repository import Gio
    if isinstance(obj, Gio.ListStore):   # a list property (Compose's transforms)
        items = [obj.get_item(i) for i in range(obj.get_n_items())]
        return (_rebuild_list_store, (obj.get_item_type().name, items))
    if _is_python_class(cls):
        return (_rebuild_python_object, (cls, _properties(obj), _instance_state(obj)))
    # the library's datasets whose contents are not properties
    if isinstance(obj, Gnn.TensorDataset):
        return (_rebuild_tensor_dataset, (list(obj.get_tensors()),))
    if isinstance(obj, Gnn.Subset):
        return (_rebuild_subset, (obj.get_dataset(), [int(i) for i in obj.get_indices()]))
    if isinstance(obj, Gnn.ConcatDataset):
        return (_rebuild_concat_dataset, (list(obj.get_datasets()),))
    return (_rebuild_c_object, (obj.__gtype__.name, _properties(obj)))


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj):
        if isinstance(obj, GObject.Object):
            return reduce_gobject(obj)
        return NotImplemented


def dumps(obj):
    buf = io.BytesIO()
    _Pickler(buf, pickle.HIGHEST_PROTOCOL).dump(obj)
    return buf.getvalue()


# --- class attributes ----------------------------------------------------------

def _user_classes(cls):
    return [c for c in cls.__mro__
            if (getattr(c, '__module__', '') or '').split('.')[0] not in _LIBRARY_MODULES]


def _class_data(cls):
    """The class's own data attributes: not dunder, not callable, not a
    descriptor (methods, properties, GObject properties)."""
    for name, value in list(vars(cls).items()):
        if name.startswith('__') and name.endswith('__') or name.startswith('_gnn_'):
            continue
        if callable(value) or hasattr(type(value), '__get__'):
            continue
        yield name, value


def _pickle_or_none(value):
    try:
        return dumps(value)
    except Exception:
        return None


def snapshot_classes(cls):
    """Remembers the class attributes of `cls`'s user classes as the class
    statement left them (called when a dataset class is created)."""
    for c in _user_classes(cls):
        if c not in _snapshots:
            _snapshots[c] = {name: _pickle_or_none(value) for name, value in _class_data(c)}


def _changed_class_attributes(classes):
    """[(class, name, value)] for the class attributes whose value differs
    from the snapshot; an attribute that pickled then and does not now is an
    error naming it."""
    changed = []
    for c in classes:
        snap = _snapshots.get(c, {})
        for name, value in _class_data(c):
            before = snap.get(name)
            try:
                now = dumps(value)
            except Exception as exc:
                if before is None:      # never picklable: the worker's import has it
                    continue
                raise _PickleFailure('class attribute %s.%s' % (c.__qualname__, name), exc)
            if name not in snap or now != before:
                changed.append((c, name, value))
    return changed


def _set_class_attributes(changed):
    for cls, name, value in changed:
        setattr(cls, name, value)
    return None


class _ClassAttributes(object):
    """Unpickles to nothing after setting the attributes on their classes:
    placed before the dataset in the pickle, so they are set before any of
    the instance's state is rebuilt."""

    def __init__(self, changed):
        self.changed = changed

    def __reduce__(self):
        return (_set_class_attributes, (self.changed,))


# --- the host --------------------------------------------------------------------

class _PickleFailure(Exception):
    def __init__(self, what, exc):
        super().__init__(what)
        self.what, self.exc = what, exc


def _describe_class(obj):
    cls = type(obj)
    return '%s.%s' % (cls.__module__, cls.__qualname__)


def _find_culprit(dataset, collate, init_fn):
    """Which part does not pickle: an attribute of the dataset (or of a
    Python collation), collate_fn, worker_init_fn."""
    parts = []
    if hasattr(dataset, '__dict__'):
        parts += [("attribute '%s'" % k, v) for k, v in vars(dataset).items()]
    func = getattr(collate, 'func', None)
    if func is not None:
        parts.append(('collate_fn %r' % (func,), func))
    elif _is_python_class(type(collate)):
        parts += [("collate attribute '%s'" % k, v) for k, v in vars(collate).items()]
    if init_fn is not None:
        parts.append(('worker_init_fn %r' % (init_fn,), init_fn))
    for what, value in parts:
        try:
            dumps(value)
        except Exception as exc:
            return what, exc
    return None, None


def _start_error(dataset, message):
    return gnn_error(Gnn.Error.NOT_SUPPORTED, 'cannot rebuild %s (%s) in a spawned worker: %s'
                     % (_describe_class(dataset), dataset.__gtype__.name, message))


def _preparation_data():
    """What multiprocessing's spawn sends a child (see its
    get_preparation_data): the import path, argv, directory and main module."""
    import multiprocessing.process as mp_process
    data = {'sys_path': list(sys.path), 'sys_argv': list(sys.argv), 'dir': os.getcwd()}
    if mp_process.ORIGINAL_DIR is not None:
        data['orig_dir'] = mp_process.ORIGINAL_DIR
    main = sys.modules.get('__main__')
    name = getattr(getattr(main, '__spec__', None), 'name', None)
    if name is not None:
        data['init_main_from_name'] = name
    elif getattr(main, '__file__', None) is not None:
        path = main.__file__
        if not os.path.isabs(path) and mp_process.ORIGINAL_DIR is not None:
            path = os.path.join(mp_process.ORIGINAL_DIR, path)
        data['init_main_from_path'] = os.path.normpath(path)
    return data


# The parent's sys.path first, so that gnn (and gi) are found however the
# parent found them.
_BOOT = ('import json, sys; sys.path[:0] = json.loads(sys.argv[1])["sys_path"]; '
         'from gnn._spawn import worker_main; worker_main()')


def _worker_argv():
    return [sys.executable, '-c', _BOOT, json.dumps(_preparation_data())]


class SpawnHost(Gnn.WorkerSpawnHost):
    __gtype_name__ = 'GnnPySpawnHost'

    def do_save(self, loader, dataset, collate):
        if _bootstrapping:
            raise gnn_error(Gnn.Error.NOT_SUPPORTED,
                            'a spawned DataLoader worker started spawned workers itself while '
                            'importing the main script: guard the entry point of the program '
                            "with `if __name__ == '__main__':`")
        # first: a save that fails (or a Ctrl-C before the try) must not
        # leave the default argv, which would re-run this script as a worker
        self.set_argv(_worker_argv())
        init_fn = getattr(loader, '_gnn_worker_init_fn', None)
        try:
            classes = _user_classes(type(dataset))
            if _is_python_class(type(collate)):
                classes += [c for c in _user_classes(type(collate)) if c not in classes]
            changed = _changed_class_attributes(classes)
            payload = dumps((_ClassAttributes(changed), dataset, collate, init_fn))
        except _PickleFailure as failure:
            raise _start_error(dataset, '%s does not pickle (%s: %s)' % (
                failure.what, type(failure.exc).__name__, failure.exc)) from None
        except Exception as exc:
            what, culprit = _find_culprit(dataset, collate, init_fn)
            if what is not None:
                exc = culprit
            raise _start_error(dataset, '%s does not pickle (%s: %s)' % (
                what or 'the dataset', type(exc).__name__, exc)) from None
        except BaseException as exc:
            # Ctrl-C, SystemExit: the loader's start fails in C with no
            # worker started, and iter() raises the exception itself
            raise park(exc, 'pickling the dataset for spawned workers') from None
        return GLib.Bytes.new(payload)

    def do_rebuild(self, payload):
        failed = _worker.pop('bootstrap_error', None)
        if failed is not None:
            raise gnn_error(Gnn.Error.NOT_SUPPORTED, 'cannot import the main script %r in a '
                            'spawned worker: %s' % (_worker.get('main'), _traceback_text(failed)))
        try:
            _attrs, dataset, collate, init_fn = pickle.loads(payload.get_data())
        except BaseException as exc:
            raise gnn_error(Gnn.Error.NOT_SUPPORTED, 'cannot rebuild the dataset in a spawned '
                            'worker: %s' % _traceback_text(exc)) from None
        _worker.update(dataset=dataset, collate=collate, init_fn=init_fn)
        return dataset, collate

    def do_worker_init(self, info):
        init_fn = _worker.get('init_fn')
        try:
            if init_fn is not None:
                init_fn(info.get_id())
        except BaseException as exc:
            raise gnn_error(Gnn.Error.INVALID_ARGUMENT, 'worker_init_fn failed: %s'
                            % _traceback_text(exc)) from None
        finally:
            _flush()
        return True


def _traceback_text(exc):
    text = ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip()
    return '%s: %s\nOriginal %s' % (type(exc).__name__, exc, text)


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def worker_main():
    """A spawned worker's entry point (the host's argv): prepares the
    interpreter as multiprocessing's spawn does, then serves."""
    global _bootstrapping
    import multiprocessing.spawn
    data = json.loads(sys.argv[1])
    for stream in (sys.stdout, sys.stderr):
        try:
            # the worker ends with _exit(): flush each line, in one write
            # (PYTHONUNBUFFERED would split a print() into several)
            stream.reconfigure(line_buffering=True, write_through=False)
        except Exception:
            pass
    _worker['main'] = data.get('init_main_from_path', data.get('init_main_from_name'))
    _bootstrapping = True
    try:
        multiprocessing.spawn.prepare(data)
    except BaseException as exc:
        # reported as this worker's setup error (do_rebuild), with the id and
        # pid, rather than as an exit code
        _worker['bootstrap_error'] = exc
    finally:
        _bootstrapping = False
    from gi.repository import Gnn as GnnOverride   # the host is set on import
    GnnOverride.worker_main_if_worker()
    sys.exit('gnn: this is the entry point of spawned DataLoader workers')


_host = SpawnHost()
# never the default argv (this program again, which for Python re-runs the
# main script): a save() interrupted before it sets its own still has this
_host.set_argv(_worker_argv())
Gnn.set_worker_spawn_host(_host)
