# _backends.py: torch.cuda and torch.backends as a CPU-only build of torch
# answers them, so the usual device selection runs unchanged:
#
#     device = 'cuda' if Gnn.cuda.is_available() else 'cpu'
#     Gnn.backends.cudnn.benchmark = True
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from ._gi import export


def _false():
    return False


def _zero():
    return 0


def _seed(seed):
    """Like torch.cuda.manual_seed: nothing to seed without a GPU."""


cuda = export(types.SimpleNamespace(
    is_available=_false, device_count=_zero, is_initialized=_false,
    manual_seed=_seed, manual_seed_all=_seed, synchronize=lambda device=None: None,
    empty_cache=lambda: None), 'cuda')

backends = export(types.SimpleNamespace(
    cudnn=types.SimpleNamespace(is_available=_false, enabled=True, benchmark=False,
                                deterministic=False),
    mps=types.SimpleNamespace(is_available=_false, is_built=_false),
    cuda=types.SimpleNamespace(is_built=_false)), 'backends')
