# _gi.py: what every module of the private package shares: the raw
# introspection module, override(), numpy (optional), the GNN_ERROR helpers
# and the hand-over of Python exceptions across C calls.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import itertools
import os
import re
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


def require_numpy():
    if np is None:
        raise ImportError('numpy is required for Gnn.Tensor <-> numpy conversion')
    return np


GNN_ERROR_DOMAIN = 'gnn-error-quark'


def gnn_error(code, message):
    """A GLib.Error in the GNN_ERROR domain (code: a Gnn.Error value)."""
    return GLib.Error(message, GNN_ERROR_DOMAIN, int(code))


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


def park(exc, where, control_flow_only=False):
    """The GLib.Error that crosses the C call for `exc`; unless it is an
    ordinary exception and control_flow_only (the data loader reports
    those as GLib.Error), `exc` is parked for call_c to re-raise."""
    message = _describe(exc, where)
    if control_flow_only and isinstance(exc, Exception):
        return gnn_error(Gnn.Error.INVALID_ARGUMENT, message)
    n = next(_counter)
    with _parked_lock:
        _parked[(os.getpid(), n)] = exc
        while len(_parked) > _MAX_PARKED:   # errors a raw C call never collected
            del _parked[next(iter(_parked))]
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
    pending, _pending.exc = _pending.exc, previous
    if pending is not None:
        raise pending
    return result


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
