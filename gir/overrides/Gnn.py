# Gnn.py: the PyGObject override of the Gnn typelib.
#
# Installed into gi/overrides/ (copied to build/gir/python/gi/overrides/ for
# uninstalled tests); the code lives in the package `gnn` installed beside
# it, whose public modules mirror torch's tree (import gnn as torch). Each
# private module of the package exports names through gnn._gi.EXPORTS (the
# classes it overrides, torch-style functions and namespaces); this module
# re-exports them as Gnn.<name>, after the public modules have become the
# namespaces (Gnn.nn is gnn.nn). Errors raised by the library surface
# unchanged as GLib.Error (domain "gnn-error-quark", code = Gnn.Error value).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import importlib
import pkgutil

import gnn
from gnn import _gi

for _name in gnn.CORE + tuple(sorted(
        m.name for m in pkgutil.iter_modules(gnn.__path__)
        if m.name.startswith('_') and m.name not in gnn.CORE)):
    importlib.import_module('gnn.' + _name)

# Strings with a NUL are refused at the C boundary (gnn/_names.py), once
# every override class is registered.
importlib.import_module('gnn._names').guard_all()
# A dimension out of range is torch's IndexError (gnn/_dims.py).
importlib.import_module('gnn._dims').guard_all()
importlib.import_module('gnn._public').publish()
globals().update(_gi.EXPORTS)
__all__ = list(_gi.EXPORTS)
