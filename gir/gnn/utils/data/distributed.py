"""gnn.utils.data.distributed: torch.utils.data.distributed."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, names=('DistributedSampler',))
