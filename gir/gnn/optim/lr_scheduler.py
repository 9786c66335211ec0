"""gnn.optim.lr_scheduler: torch.optim.lr_scheduler (every Gnn.LRScheduler
class)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='optim.lr_scheduler', derived=('LRScheduler',))
