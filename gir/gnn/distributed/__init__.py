"""gnn.distributed: torch.distributed over Open MPI (init_process_group,
all_reduce, ...)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='distributed')
