# _autograd.py: torch's grad-mode switches (Gnn.no_grad(), enable_grad,
# set_grad_enabled, inference_mode), as context managers and decorators.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import functools
import threading

from ._gi import Gnn, export

_inference = threading.local()     # .modes: the open inference_mode blocks' modes


class _GradMode(object):
    """Sets grad mode for a `with` block, or for every call of a function
    it decorates, and restores the previous mode after."""

    _enabled = False

    def __enter__(self):
        self._previous = Gnn.is_grad_enabled()
        Gnn.set_grad_enabled(self._enabled)
        return self

    def __exit__(self, *exc):
        Gnn.set_grad_enabled(self._previous)
        return False

    def _context(self):
        """A fresh context manager for one call of a decorated function."""
        return set_grad_enabled(self._enabled)

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self._context():
                return func(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    """`with Gnn.no_grad():` turns autograd recording off in the block; as
    a decorator, @Gnn.no_grad() or (torch 2.x) bare @Gnn.no_grad."""

    def __new__(cls, *args):
        self = super().__new__(cls)
        if len(args) == 1 and callable(args[0]):
            return self.__class__.__call__(self._setup(), args[0])
        return self

    def _setup(self):
        return self

    def __init__(self, *args):
        pass


class inference_mode(no_grad):
    """torch.inference_mode(mode=True): no recording inside (Gnn has no
    separate inference tensors); is_inference_mode_enabled() tells."""

    def __init__(self, mode=True):
        if callable(mode):
            return
        self._enabled = not mode
        self._mode = bool(mode)

    def _setup(self):
        self._enabled, self._mode = False, True
        return self

    def __enter__(self):
        _inference.modes = getattr(_inference, 'modes', []) + [self._mode]
        return super().__enter__()

    def __exit__(self, *exc):
        _inference.modes = _inference.modes[:-1]
        return super().__exit__(*exc)

    def _context(self):
        return inference_mode(self._mode)


@export
def is_inference_mode_enabled():
    modes = getattr(_inference, 'modes', None)
    return bool(modes and modes[-1])


class enable_grad(_GradMode):
    _enabled = True


class set_grad_enabled(_GradMode):
    """Like torch: takes effect when made, so `Gnn.set_grad_enabled(False)`
    as a statement switches recording off; as a context manager or
    decorator it restores the previous mode after."""

    def __init__(self, mode):
        self._enabled = bool(mode)
        self._previous = Gnn.is_grad_enabled()
        Gnn.set_grad_enabled(self._enabled)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        Gnn.set_grad_enabled(self._previous)
        return False


for _cls in (no_grad, inference_mode, enable_grad, set_grad_enabled):
    export(_cls)
