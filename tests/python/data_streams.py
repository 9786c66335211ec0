# A sharded stream shared by the data tests: 0..n-1, worker w of W yielding
# the values v with v % W == w, one field per item. Module-level, so that
# spawned workers import it by name. Also children(), the processes a test
# may leave behind.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402


class Counter(Gnn.ItemIterator):
    """start, start + step, ... below stop; seeks on skip (do_skip), noting
    each skip in @seeks."""

    def __init__(self, start, stop, step, seeks):
        super().__init__()
        self.value, self.stop, self.step, self.seeks = start, stop, step, seeks

    def do_next(self):
        if self.value >= self.stop:
            return None
        v, self.value = self.value, self.value + self.step
        return (v,)

    def do_skip(self, n):
        self.seeks.append(n)
        done = min(n, max(0, -(-(self.stop - self.value) // self.step)))
        self.value += done * self.step
        return done


class Stream(Gnn.IterableDataset):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.seeks = []   # what its iterators skipped (in this process)

    def do_get_length(self):
        return self.n

    def do_create_iterator(self):
        info = Gnn.get_worker_info()
        start, step = (info.get_id(), info.get_num_workers()) if info else (0, 1)
        return Counter(start, self.n, step, self.seeks)


def children():
    """Process ids whose parent is this process (zombies included)."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open('/proc/%s/stat' % entry) as f:
                    fields = f.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                found.append(int(entry))
    return found
