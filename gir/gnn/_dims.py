# _dims.py: torch's IndexError for a dimension out of range.
#
# Torch raises IndexError("Dimension out of range (expected to be in range
# of [-2, 1], but got 2)") wherever a dim is taken; the C library reports it
# as a GLib.Error (Gnn.Error.INDEX, the same message, from the check every C
# operation makes: gnn_tensor_wrap_dim). Every introspected function and
# method with a dimension argument is wrapped once, when the override has
# loaded (guard_all()), to raise that error as an exception that is both
# torch's IndexError and the GLib.Error (still a RuntimeError), so `except
# IndexError` as in torch and `except GLib.Error` both catch it. Other
# INDEX errors (an index value out of bounds) stay as they are: torch
# raises RuntimeError for those.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import functools

from gi.repository import GLib

from ._gi import Gnn, as_torch_error, is_dimension_error

_DIM_ARGS = frozenset(('dim', 'dims', 'dim0', 'dim1', 'dim2', 'start_dim', 'end_dim',
                       'source', 'destination'))


def _takes_dim(info):
    return any(arg.get_name() in _DIM_ARGS for arg in info.get_arguments())


def _wrapped(info):
    @functools.wraps(info)
    def call(*args, **kwargs):
        try:
            return info(*args, **kwargs)
        except GLib.Error as error:
            if is_dimension_error(error):
                raise as_torch_error(error, IndexError) from None
            raise
    return call


def _install(owner, attr, info):
    call = _wrapped(info)
    setattr(owner, attr, call if info.is_method() or not isinstance(owner, type)
            else staticmethod(call))


def guard_all():
    """Wraps every introspected function and method with a dimension
    argument (run once, after every override is registered, as
    _names.guard_all)."""
    for name in dir(Gnn):
        obj = getattr(Gnn, name, None)
        if isinstance(obj, type):
            for attr, info in list(vars(obj).items()):
                if type(info).__name__ == 'FunctionInfo' and not info.is_constructor() \
                        and _takes_dim(info):
                    _install(obj, attr, info)
        elif type(obj).__name__ == 'FunctionInfo' and _takes_dim(obj):
            _install(Gnn, name, obj)
