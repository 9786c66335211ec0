# Python datasets in worker processes (worker_mode='processes', forked with
# os.fork()) and threads, and the Python data protocol of the override:
# len/[] on datasets, numbers and numpy arrays as fields, exceptions with
# their traceback, Gnn.DataLoader(ds, ...), len(loader), for-loops.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import signal
import threading
import time
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

from data_streams import Stream  # noqa: E402

import numpy as np  # noqa: E402

MODES = ('threads', 'processes')
_init_marker = 0   # set by worker-init handlers in the worker's process


class Probe(Gnn.Dataset):
    """item i = (i, worker id or -1, pid, init marker, i / 2 as a float,
    a numpy row)"""

    def __init__(self, n, fail_at=-1, kill_at=-1):
        super().__init__()
        self.n = n
        self.fail_at = fail_at
        self.kill_at = kill_at

    def do_get_length(self):
        return self.n

    def do_get_item(self, index):
        if index == self.fail_at:
            raise ValueError('boom at %d' % index)
        if index == self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        info = Gnn.get_worker_info()
        return (index, info.get_id() if info else -1, os.getpid(), _init_marker,
                index / 2, np.full(3, index, dtype=np.float32))


class SumCollate(Gnn.Collate):
    def do_collate(self, items, n_fields):
        return [sum(items[i].item() for i in range(0, len(items), n_fields))]


def indices(loader):
    return [int(v) for batch in loader for v in batch[0].tolist()]


class ProtocolTests(unittest.TestCase):
    def test_len_and_getitem(self):
        ds = Probe(5)
        self.assertEqual(len(ds), 5)
        item = ds[-1]
        self.assertIsInstance(item, tuple)
        self.assertEqual(item[0].item(), 4)
        with self.assertRaises(IndexError):
            ds[5]
        with self.assertRaises(IndexError):
            ds[-6]
        with self.assertRaises(TypeError):
            ds['a']

    def test_numbers_and_arrays_become_tensors(self):
        item = Probe(5)[3]
        self.assertEqual(item[0].get_dtype(), Gnn.DType.I64)    # int -> int64
        self.assertEqual(item[4].get_dtype(), Gnn.DType.F64)    # float -> float64
        self.assertEqual(item[4].item(), 1.5)
        self.assertEqual(item[5].get_dtype(), Gnn.DType.F32)    # numpy keeps its dtype
        self.assertEqual(item[5].tolist(), [3.0, 3.0, 3.0])

    def test_loader_keywords_len_and_for_loop(self):
        loader = Gnn.DataLoader(Probe(10), batch_size=4, shuffle=False)
        self.assertEqual(len(loader), 3)
        it = iter(loader)
        self.assertEqual(len(it), 3)
        sizes = [images.shape for _i, _w, _p, _m, _h, images in it]
        self.assertEqual(sizes, [(4, 3), (4, 3), (2, 3)])

    def test_len_raises_argument_error(self):
        with self.assertRaises(ValueError) as cm:     # at construction, as torch
            len(Gnn.DataLoader(Probe(3), num_workers=-1))
        self.assertIn('num_workers option should be non-negative', str(cm.exception))

    def test_bad_worker_mode(self):
        with self.assertRaises(ValueError):
            Gnn.DataLoader(Probe(3), worker_mode='fibers')


class WorkerTests(unittest.TestCase):
    def test_each_index_once_and_same_order(self):
        reference = indices(Gnn.DataLoader(Probe(50), batch_size=3, shuffle=True, seed=5))
        self.assertEqual(sorted(reference), list(range(50)))
        for mode in MODES:
            for workers in (1, 2, 4):
                loader = Gnn.DataLoader(Probe(50), batch_size=3, shuffle=True, seed=5,
                                        num_workers=workers, worker_mode=mode)
                self.assertEqual(indices(loader), reference, (mode, workers))

    def test_drop_last(self):
        for mode in MODES:
            loader = Gnn.DataLoader(Probe(10), batch_size=4, drop_last=True, num_workers=2,
                                    worker_mode=mode)
            self.assertEqual(len(loader), 2)
            self.assertEqual(indices(loader), list(range(8)))

    def test_workers_are_processes(self):
        loader = Gnn.DataLoader(Probe(8), batch_size=2, num_workers=2, worker_mode='processes')
        seen = {}
        for batch in loader:
            worker, pid = int(batch[1].tolist()[0]), int(batch[2].tolist()[0])
            self.assertNotEqual(pid, os.getpid())
            self.assertEqual(seen.setdefault(worker, pid), pid)
        self.assertEqual(sorted(seen), [0, 1])
        self.assertNotEqual(seen[0], seen[1])

    def test_worker_init_runs_in_the_worker(self):
        def init(_loader, info):
            global _init_marker
            _init_marker = 100 + info.get_id()
        loader = Gnn.DataLoader(Probe(8), batch_size=2, num_workers=2, worker_mode='processes')
        loader.connect('worker-init', init)
        markers = [int(b[3].tolist()[0]) for b in loader]
        self.assertEqual(markers, [100, 101, 100, 101])
        self.assertEqual(_init_marker, 0)

    def test_one_compute_thread_per_worker(self):
        # like torch's worker loop: set_num_threads(1) before worker-init,
        # which may raise it; the parent keeps its own count
        class Threads(Gnn.Dataset):
            def do_get_length(self):
                return 4

            def do_get_item(self, index):
                return (Gnn.get_num_threads(),)

        old = Gnn.get_num_threads()
        try:
            Gnn.set_num_threads(2)
            loader = Gnn.DataLoader(Threads(), batch_size=2, num_workers=2, worker_mode='processes')
            self.assertEqual([b[0].tolist() for b in loader], [[1, 1], [1, 1]])
            loader.connect('worker-init', lambda _loader, info: Gnn.set_num_threads(3))
            self.assertEqual([b[0].tolist() for b in loader], [[3, 3], [3, 3]])
            self.assertEqual(Gnn.get_num_threads(), 2)
        finally:
            Gnn.set_num_threads(old)

    def test_with_other_python_threads_alive(self):
        threads_before = len(os.listdir('/proc/self/task'))
        stop = threading.Event()
        spinners = [threading.Thread(target=lambda: [time.sleep(0.001) for _ in iter(stop.is_set, True)])
                    for _ in range(3)]
        for t in spinners:
            t.start()
        try:
            for _ in range(3):
                loader = Gnn.DataLoader(Probe(40), batch_size=4, shuffle=True, seed=2,
                                        num_workers=2, worker_mode='processes')
                self.assertEqual(sorted(indices(loader)), list(range(40)))
        finally:
            stop.set()
            for t in spinners:
                t.join()
            # join() returns before the OS thread is gone; until it is, a
            # PROCESSES loader would (rightly) not fork this process
            deadline = time.monotonic() + 5
            while len(os.listdir('/proc/self/task')) > threads_before and time.monotonic() < deadline:
                time.sleep(0.001)

    def test_persistent_workers(self):
        loader = Gnn.DataLoader(Probe(12), batch_size=3, shuffle=True, num_workers=2,
                                persistent_workers=True, worker_mode='processes', seed=4)
        pids = set()
        for _ in range(3):
            got = []
            for batch in loader:
                got += batch[0].tolist()
                pids.add(int(batch[2].tolist()[0]))
            self.assertEqual(sorted(got), list(range(12)))
        self.assertEqual(len(pids), 2)

    def test_python_collate(self):
        for mode in MODES:
            loader = Gnn.DataLoader(Probe(10), batch_size=4, collate=SumCollate(), num_workers=2,
                                    worker_mode=mode)
            self.assertEqual([b[0].item() for b in loader], [6.0, 22.0, 17.0])

    def test_python_iterable_dataset(self):
        for mode in MODES:
            loader = Gnn.DataLoader(Stream(11), batch_size=2, num_workers=3, worker_mode=mode)
            self.assertEqual(sorted(indices(loader)), list(range(11)))

    def test_exception_names_worker_index_and_traceback(self):
        for mode in MODES:
            loader = Gnn.DataLoader(Probe(8, fail_at=5), batch_size=2, num_workers=2,
                                    worker_mode=mode)
            # torch's re-raise: the worker's exception type, its traceback
            with self.assertRaises(ValueError) as cm:
                list(loader)
            message = str(cm.exception)
            kind = 'thread' if mode == 'threads' else 'process'
            self.assertTrue(message.startswith('Caught ValueError in DataLoader worker %s 0 '
                                               '(sample index 5).\nOriginal Traceback '
                                               '(most recent call last)' % kind), message)
            self.assertIn('in do_get_item', message)
            self.assertTrue(message.endswith('\nValueError: boom at 5'), message)

    def test_exception_without_workers(self):
        # ds[i] is the dataset's own call: its exception, of its type (torch)
        with self.assertRaises(ValueError) as cm:
            Probe(8, fail_at=2)[2]
        self.assertEqual(str(cm.exception), 'boom at 2')

    def test_killed_worker(self):
        loader = Gnn.DataLoader(Probe(20, kill_at=7), batch_size=2, num_workers=2,
                                worker_mode='processes')
        start = time.monotonic()
        with self.assertRaises(GLib.Error) as cm:
            list(loader)
        self.assertLess(time.monotonic() - start, 1.0)
        self.assertRegex(cm.exception.message,
                         r'^DataLoader worker \(pid \d+\) is killed by signal: Killed\.')
        del loader
        with self.assertRaises(ChildProcessError):
            os.waitpid(-1, os.WNOHANG)   # no zombie left


if __name__ == '__main__':
    unittest.main()
