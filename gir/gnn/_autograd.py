# _autograd.py: torch's grad-mode switches (Gnn.no_grad(), enable_grad,
# set_grad_enabled, inference_mode), as context managers and decorators.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import functools

from ._gi import Gnn, export


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

    def __call__(self, func):
        mode = self._enabled

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return func(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    """`with Gnn.no_grad():` turns autograd recording off in the block."""


class inference_mode(no_grad):
    def __init__(self, mode=True):
        self._enabled = not mode


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
