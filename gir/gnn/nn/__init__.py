"""gnn.nn: torch.nn over Gnn's modules (import gnn.nn as nn).

Every module class of Gnn (Module, Linear, Conv2d, Sequential, the losses,
...) and the sub-modules functional, init, utils, parallel and modules. The
names are those the override registers (Gnn.nn.<name>) and every class
deriving from Gnn.Module, so a layer added to the library is here at once
(see gnn/_public.py).
"""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='nn', derived=('Module',))

from . import functional, init, modules, parallel, utils  # noqa: E402,F401
