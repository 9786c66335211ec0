# gnn: PyTorch's module tree over Gnn's objects.
#
#     import gnn as torch              # import torch
#     import gnn.nn as nn              # import torch.nn as nn
#     from gnn.utils.data import DataLoader
#
# The objects are the very ones `from gi.repository import Gnn` gives: the
# PyGObject override (gi/overrides/Gnn.py) is this package's private
# modules (_gi.py, _tensor.py, _nn.py, ...), and the public modules (gnn.nn,
# gnn.optim, gnn.utils.data, ...) mirror what those register (see
# _public.py). Importing gnn imports the override; the override imports
# CORE in order (each module registers the classes it overrides as it is
# imported, so later modules subclass the overridden types), then every
# other private module of the package, so an optional module (installed or
# not) needs no change here, and at last fills the public modules.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

CORE = (
    '_gi', '_dtype', '_signature', '_compat_torch_signatures', '_tensor', '_creation', '_autograd',
    '_state', '_module', '_containers', '_data', '_optim', '_optim_state',
    '_lr_scheduler', '_nn',
    '_functional',
)


def _load():
    """Imports the override (which publishes this package's names) unless
    it is the override that is importing this package."""
    import sys
    if 'gi.overrides.Gnn' in sys.modules:
        return
    import gi
    if gi.get_required_version('Gnn') is None:
        gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn  # noqa: F401  (fills this module)


_load()
del _load
