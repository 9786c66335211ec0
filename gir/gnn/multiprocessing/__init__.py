"""gnn.multiprocessing: torch.multiprocessing — Python's multiprocessing
(Gnn's tensors share memory with workers through the loader's own shared
memory, so there is no sharing strategy to choose)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import multiprocessing as _multiprocessing
from multiprocessing import *  # noqa: F401,F403

__all__ = list(_multiprocessing.__all__) + ['get_sharing_strategy', 'set_sharing_strategy',
                                            'get_all_sharing_strategies']


def get_all_sharing_strategies():
    return {'file_descriptor', 'file_system'}


def get_sharing_strategy():
    return 'file_descriptor'


def set_sharing_strategy(new_strategy):
    if new_strategy not in get_all_sharing_strategies():
        raise ValueError('invalid sharing strategy %r' % (new_strategy,))
