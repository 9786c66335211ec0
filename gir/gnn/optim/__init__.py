"""gnn.optim: torch.optim (SGD, Adam, ... and every Gnn.Optimizer class;
schedulers in gnn.optim.lr_scheduler)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='optim', derived=('Optimizer',))

from . import lr_scheduler  # noqa: E402,F401
