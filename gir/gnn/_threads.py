# _threads.py: torch.get_num_threads / set_num_threads (Gnn's kernel thread
# pool, see Gnn.set_num_threads) and the inter-op spellings (Gnn has no
# inter-op pool: one thread, as torch reports a CPU build's default).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import Gnn, call_c, export


@export
def set_num_threads(int):
    """torch.set_num_threads(n): n threads for Gnn's parallel kernels."""
    call_c(Gnn.set_num_threads, int)


@export
def get_num_threads():
    return Gnn.get_num_threads()


@export
def get_num_interop_threads():
    return 1


@export
def set_num_interop_threads(int):
    if int < 1:
        raise RuntimeError('Number of inter-op threads must be positive')
