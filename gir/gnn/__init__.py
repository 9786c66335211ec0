# gnn: the private modules of Gnn's PyGObject override (gi/overrides/Gnn.py).
#
# Not an API of its own: import Gnn with `from gi.repository import Gnn`.
# The override imports CORE in order (each module registers the classes it
# overrides as it is imported, so later modules subclass the overridden
# types), then every other module of the package, so an optional module
# (installed or not) needs no change here.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

CORE = (
    '_gi', '_dtype', '_compat_torch_signatures', '_tensor', '_creation', '_autograd',
    '_state', '_module', '_containers', '_data', '_datasets', '_optim', '_optim_state',
    '_lr_scheduler', '_nn',
    '_functional',
)
