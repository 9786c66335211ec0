#!/usr/bin/python3
# test_module_threads.py: changing a Sequential's children (append, del,
# setattr / item assignment) and a layer's weight in some threads while
# others run its forward, named_parameters and state_dict (issue 31 item
# 15: it segfaulted in gnn_module_walk_enter ~7 runs of 8). Every reader
# sees a consistent tree; nothing crashes; what the changes took out is
# freed once the readers are done.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gc
import threading
import unittest
import weakref

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

N_MUTATIONS = 400
N_READERS = 3


class MutateWhileReading(unittest.TestCase):
    def test_sequential(self):
        seq = Gnn.nn.Sequential(*[Gnn.nn.Linear(4, 4) for _ in range(4)])
        done = threading.Event()
        failures = []
        reads = [0]

        def mutate_children():
            for i in range(N_MUTATIONS):
                if i % 3 == 0:
                    seq.append(Gnn.nn.Linear(4, 4))
                elif i % 3 == 1:
                    del seq[len(seq) - 1]
                else:
                    setattr(seq, '2', Gnn.nn.Linear(4, 4))

        def mutate_weights():
            for _ in range(N_MUTATIONS):
                seq[0].weight = Gnn.nn.Parameter(Gnn.ones(4, 4))

        def read(kind):
            x = Gnn.ones(1, 4)
            while not done.is_set():
                try:
                    if kind == 0:
                        if seq(x).shape != (1, 4):
                            failures.append('forward shape')
                    elif kind == 1:
                        names = [n for n, _ in seq.named_parameters()]
                        if len(names) % 2 or not all(
                                n.endswith('.weight' if i % 2 == 0 else '.bias')
                                for i, n in enumerate(names)):
                            failures.append('named_parameters: %s' % names)
                    else:
                        keys = list(seq.state_dict())
                        if len(keys) % 2:
                            failures.append('state_dict: %s' % keys)
                    reads[0] += 1
                except Exception as e:      # noqa: BLE001 - any is a failure
                    failures.append(repr(e))

        readers = [threading.Thread(target=read, args=(k % 3,)) for k in range(N_READERS)]
        mutators = [threading.Thread(target=mutate_children), threading.Thread(target=mutate_weights)]
        for t in readers + mutators:
            t.start()
        for t in mutators:
            t.join()
        done.set()
        for t in readers:
            t.join()
        self.assertEqual(failures, [])
        self.assertGreater(reads[0], 0)
        self.assertEqual(seq(Gnn.ones(1, 4)).shape, (1, 4))

    def test_removed_child_is_freed(self):
        seq = Gnn.nn.Sequential(Gnn.nn.Linear(4, 4), Gnn.nn.Linear(4, 4))
        gone = weakref.ref(seq[1])
        del seq[1]
        gc.collect()
        self.assertIsNone(gone())


if __name__ == '__main__':
    unittest.main(verbosity=2)
