# _gi.py: what every module of the private package shares: the raw
# introspection module, override(), numpy (optional), the GNN_ERROR helpers
# and the hand-over of Python exceptions across C calls.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import itertools
import os
import re
import sys
import threading
import traceback

from gi.module import get_introspection_module
from gi.overrides import override as _gi_override
from gi.repository import GLib

Gnn = get_introspection_module('Gnn')

# Classes are defined with this __module__ so that PyGObject treats them as
# overrides (no new GType is registered for them).
OVERRIDE_MODULE = 'gi.overrides.Gnn'

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

# Gnn.<name> -> object, filled by the modules as they are imported.
EXPORTS = {}


def override(cls):
    """Registers `cls` as the Python type of its GType and exports it."""
    cls = _gi_override(cls)
    EXPORTS[cls.__name__] = cls
    return cls


def export(obj, name=None):
    """Exports a function or value as Gnn.<name>."""
    EXPORTS[name or obj.__name__] = obj
    return obj


def gobject_created(obj):
    """Whether a PyGObject wrapper has its GObject (__init__ ran)."""
    try:
        obj.__grefcount__
    except TypeError:   # "GObject instance is not yet created"
        return False
    return True


def require_numpy():
    if np is None:
        raise ImportError('numpy is required for Gnn.Tensor <-> numpy conversion')
    return np


GNN_ERROR_DOMAIN = 'gnn-error-quark'


def gnn_error(code, message):
    """A GLib.Error in the GNN_ERROR domain (code: a Gnn.Error value)."""
    return GLib.Error(message, GNN_ERROR_DOMAIN, int(code))


_TORCH_ERROR_CLASSES = {}


def as_torch_error(error, kind):
    """`error` (a GLib.Error) as an exception that is also torch's `kind`
    (TypeError, KeyError, ...): `except TypeError` as in torch and `except
    GLib.Error` both catch it, with the same message, domain and code."""
    cls = _TORCH_ERROR_CLASSES.get(kind)
    if cls is None:
        cls = type('Gnn' + kind.__name__, (GLib.Error, kind),
                   {'__module__': 'gi.repository.Gnn',
                    '__str__': lambda self: self.message})   # printed as torch's
        _TORCH_ERROR_CLASSES[kind] = cls
    return cls(error.message, error.domain, error.code)


def is_dimension_error(error):
    """Whether `error` is the C library's "Dimension out of range (...)"
    (Gnn.Error.INDEX, from the dim check every C operation makes), which
    torch raises as IndexError; other INDEX errors (an index value out of
    bounds) are RuntimeErrors in torch."""
    return error.domain == GNN_ERROR_DOMAIN and error.code == Gnn.Error.INDEX \
        and error.message.startswith('Dimension out of range')


def call_as_torch(kind, func, *args, **kwargs):
    """func(*args, **kwargs), its argument errors (Gnn.Error.INVALID_ARGUMENT)
    raised as torch's `kind` (ValueError, RuntimeError ...) and still
    GLib.Error."""
    try:
        return func(*args, **kwargs)
    except GLib.Error as error:
        if error.domain != 'gnn-error-quark' or error.code != Gnn.Error.INVALID_ARGUMENT:
            raise
        raise as_torch_error(error, kind) from None


def type_name(value):
    """The type name the C library would print for `value` (the GType name
    of a GObject), else the Python type name."""
    from gi.repository import GObject
    if isinstance(value, GObject.Object):
        return value.__gtype__.name
    return type(value).__name__


# --- Python exceptions across C calls -----------------------------------------
#
# A Python callback (forward, hook, get_item, collate, worker_init, ...) that
# raises cannot unwind through the C frames below it. Its trampoline catches
# the exception (BaseException too: SystemExit / KeyboardInterrupt must not
# exit or be printed from inside the C call), parks it under a token, and
# returns a GError whose message carries the token. The Python wrapper that
# called into C (`call_c`) finds the token and re-raises the original.
# Worker threads park into the same table; a process worker's exception
# cannot cross the fork, so control-flow exceptions (not Exception) are
# rebuilt from their type name and message in the parent.

_parked = {}
_parked_lock = threading.Lock()
_counter = itertools.count(1)
_TOKEN = re.compile(r'\[py-exception (\d+):(\d+) (\w+)(?:: ([^\]]*))?\]')
_MAX_PARKED = 64
_pending = threading.local()        # exceptions of callbacks without a GError
_CONTROL_FLOW = {'SystemExit': SystemExit, 'KeyboardInterrupt': KeyboardInterrupt,
                 'GeneratorExit': GeneratorExit}


def _describe(exc, where):
    if not isinstance(exc, Exception):
        return '%s interrupted by %s' % (where or 'callback', type(exc).__name__)
    text = ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip()
    return '%s%s: %s\nOriginal %s' % (where + ' failed: ' if where else '',
                                      type(exc).__name__, exc, text)


def _park_object(exc):
    n = next(_counter)
    with _parked_lock:
        _parked[(os.getpid(), n)] = exc
        while len(_parked) > _MAX_PARKED:   # errors a raw C call never collected
            del _parked[next(iter(_parked))]
    return n


def park(exc, where, control_flow_only=False):
    """The GLib.Error that crosses the C call for `exc`; unless it is an
    ordinary exception and control_flow_only, `exc` is parked for call_c to
    re-raise. The data loader's ordinary exceptions travel as a GLib.Error
    that the C side prefixes with the worker and sample; their type tag
    (and, in this process, the parked object) lets the DataLoader iterator
    raise them as torch does (see take_data_exception)."""
    message = _describe(exc, where)
    if control_flow_only and isinstance(exc, Exception):
        cls = type(exc)
        return gnn_error(Gnn.Error.INVALID_ARGUMENT, '%s [py-type %d:%d %s:%s]'
                         % (message, os.getpid(), _park_object(exc), cls.__module__,
                            cls.__qualname__))
    n = _park_object(exc)
    arg = str(exc).replace(']', ')')
    return gnn_error(Gnn.Error.INVALID_ARGUMENT, '%s [py-exception %d:%d %s%s]'
                     % (message, os.getpid(), n, type(exc).__name__,
                        ': ' + arg if arg else ''))


def park_pending(exc):
    """For callbacks that cannot return a GError (e.g. a dataset length):
    the exception is raised by call_c once the C call returns."""
    if getattr(_pending, 'exc', None) is None:
        _pending.exc = exc


def parked_exception(error):
    """The Python exception a GLib.Error stands for, or None."""
    match = _TOKEN.search(error.message or '')
    if match is None:
        return None
    pid, n, name, arg = int(match.group(1)), int(match.group(2)), match.group(3), match.group(4)
    with _parked_lock:
        exc = _parked.pop((pid, n), None)
    if exc is None and name in _CONTROL_FLOW:
        # from a process worker: rebuild it
        exc = _CONTROL_FLOW[name](*([int(arg)] if arg and arg.lstrip('-').isdigit()
                                    else [arg] if arg else []))
    return exc


def call_c(func, *args):
    """Runs a C entry point that may call back into Python; re-raises the
    exception a callback raised instead of its GLib.Error stand-in."""
    previous = getattr(_pending, 'exc', None)
    _pending.exc = None
    _pending.depth = getattr(_pending, 'depth', 0) + 1
    try:
        result = func(*args)
    except GLib.Error as error:
        # A callback's exception is the cause, whether parked under a token
        # or pending (a callback without a GError, like __len__, whose
        # failure C then reported in its own words).
        pending, _pending.exc = _pending.exc, previous
        exc = parked_exception(error) or pending
        if exc is None:
            raise
        raise exc.with_traceback(exc.__traceback__) from None
    except BaseException:
        _pending.exc = previous
        raise
    finally:
        _pending.depth -= 1
    pending, _pending.exc = _pending.exc, previous
    if pending is not None:
        raise pending
    return result


# A signal handler's exception (Ctrl-C's KeyboardInterrupt) can be raised at
# a Python callback's very first instruction, before its trampoline's try:
# PyGObject then prints it through sys.excepthook and returns a default to
# C — the interrupt was lost and the caller got an unrelated error. While a
# call_c runs on this thread, such an exception is parked instead, for
# call_c to raise. Anything else goes to the hook that was installed.
_previous_excepthook = sys.excepthook


def _callback_excepthook(exc_type, exc, tb):
    if getattr(_pending, 'depth', 0) > 0 and not issubclass(exc_type, Exception):
        park_pending(exc.with_traceback(tb) if exc is not None else exc_type())
        return
    _previous_excepthook(exc_type, exc, tb)


sys.excepthook = _callback_excepthook


_DATA_TAG = re.compile(r' \[py-type (\d+):(\d+) ([\w.]+):([\w.<>]+)\]$')
_WORKER_PREFIX = re.compile(r'DataLoader worker (\d+)( \(pid \d+\))?: ')


class KeyErrorMessage(str):
    """torch's: a KeyError prints the repr of its argument, which would
    show the traceback's newlines as \\n."""

    def __repr__(self):
        return self


def _class_named(module, qualname):
    obj = sys.modules.get(module)
    for part in qualname.split('.'):
        obj = getattr(obj, part, None)
    return obj if isinstance(obj, type) and issubclass(obj, BaseException) else None


def take_data_exception(error):
    """The exception to raise for a GLib.Error that stands for a dataset's
    or collate_fn's ordinary exception, or None. Without workers: the
    exception itself, with a note naming the sample. From a worker: torch's
    re-raise — the same type, "Caught KeyError in DataLoader worker process
    0 (sample index 5).\\nOriginal Traceback …" (RuntimeError if that type
    cannot be built from a message)."""
    message = error.message or ''
    tag = _DATA_TAG.search(message)
    if tag is None:
        return None
    pid, n, module, qualname = int(tag.group(1)), int(tag.group(2)), tag.group(3), tag.group(4)
    with _parked_lock:
        exc = _parked.pop((pid, n), None) if pid == os.getpid() else None
    message = message[:tag.start()]
    worker = _WORKER_PREFIX.match(message)
    cls = type(exc) if exc is not None else _class_named(module, qualname)
    name = qualname.rsplit('.', 1)[-1]
    head, _, original = message.partition('\nOriginal ')
    context = head[worker.end() if worker else 0:]
    cut = context.find(': %s: ' % name)
    context = context[:cut] if cut >= 0 else context
    if worker is None and exc is not None:
        exc.add_note('DataLoader: %s' % context)
        return exc
    kind = 'process' if worker is not None and worker.group(2) else 'thread'
    where = ('in DataLoader worker %s %s' % (kind, worker.group(1))
             if worker else 'in DataLoader')
    text = 'Caught %s %s (%s).\nOriginal %s' % (name, where, context, original)
    if cls is KeyError:
        text = KeyErrorMessage(text)
    try:
        if cls is None:
            raise TypeError
        if getattr(cls, 'message', None):
            return cls(message=text)
        return cls(text)
    except TypeError:
        return RuntimeError(text)


def trampoline(func, where, convert=None, control_flow_only=False):
    """Wraps a Python callback called from C: its exceptions (any
    BaseException) cross the C call as a GLib.Error (see park)."""
    def guarded(*args):
        try:
            result = func(*args)
            return convert(result, *args) if convert is not None else result
        except GLib.Error:
            raise
        except BaseException as exc:
            raise park(exc, where(*args) if callable(where) else where,
                       control_flow_only) from None
    guarded.__name__ = getattr(func, '__name__', 'callback')
    guarded.__doc__ = getattr(func, '__doc__', None)
    guarded.__wrapped__ = func
    guarded._gnn_guarded = True
    return guarded
