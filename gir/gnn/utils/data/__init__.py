"""gnn.utils.data: torch.utils.data — every dataset, sampler and loader
class of Gnn, random_split, default_collate, get_worker_info."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='utils.data',
               derived=('Dataset', 'IterableDataset', 'Sampler', 'BatchSampler', 'DataLoader',
                        'Collate', 'WorkerInfo'))

from . import distributed  # noqa: E402,F401
