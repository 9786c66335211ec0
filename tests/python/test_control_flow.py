#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Python control flow through C (issue 14.5): SystemExit and
KeyboardInterrupt raised by Python code that the C library calls (forward,
hooks, get_item, __len__, collate, worker_init) reach the caller of
model(x) / next(it) / len() unchanged; ordinary exceptions keep their
contracts (forward: the exception itself; data: torch's re-raise, naming
the worker and sample)."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402



def raiser(kind):
    def go(*_args):
        if kind == 'exit':
            sys.exit(3)
        raise KeyboardInterrupt('stop')
    return go


KINDS = (('exit', SystemExit), ('interrupt', KeyboardInterrupt))


class Ds(Gnn.Dataset):
    def __init__(self, n=8, fail=None, fail_len=None):
        super().__init__()
        self.n, self.fail, self.fail_len = n, fail, fail_len

    def __len__(self):
        if self.fail_len:
            raiser(self.fail_len)()
        return self.n

    def __getitem__(self, i):
        if self.fail and i == 5:
            raiser(self.fail)()
        return Gnn.tensor([float(i)]), i


class ModuleFlow(unittest.TestCase):
    def check(self, expected, call):
        with self.assertRaises(expected) as cm:
            call()
        if expected is SystemExit:
            self.assertEqual(cm.exception.code, 3)
        return cm.exception

    def test_forward(self):
        for kind, expected in KINDS:
            class Net(Gnn.Module):
                def forward(self, x):
                    raiser(kind)()
            self.check(expected, lambda: Net()(Gnn.ones(2)))
            self.check(expected, lambda: Gnn.Sequential(Net())(Gnn.ones(2)))

    def test_hooks(self):
        for kind, expected in KINDS:
            m = Gnn.nn.ReLU()
            h = m.register_forward_pre_hook(raiser(kind))
            self.check(expected, lambda: m(Gnn.ones(2)))
            h.remove()
            m.register_forward_hook(raiser(kind))
            self.check(expected, lambda: m(Gnn.ones(2)))

    def test_ordinary_exception_is_itself(self):
        class Net(Gnn.Module):
            def forward(self, x):
                raise ValueError('bad')
        with self.assertRaises(ValueError):
            Net()(Gnn.ones(2))


class DataFlow(unittest.TestCase):
    def test_get_item(self):
        for kind, expected in KINDS:
            with self.assertRaises(expected):
                Ds(fail=kind)[5]
            for workers, mode in ((0, 'threads'), (2, 'threads'), (2, 'processes')):
                loader = Gnn.DataLoader(Ds(fail=kind), batch_size=2, num_workers=workers,
                                        worker_mode=mode)
                with self.assertRaises(expected, msg='%s %d %s' % (kind, workers, mode)):
                    list(loader)

    def test_len(self):
        for kind, expected in KINDS:
            with self.assertRaises(expected):
                len(Ds(fail_len=kind))
            with self.assertRaises(expected):
                len(Gnn.DataLoader(Ds(fail_len=kind), batch_size=2))
        with self.assertRaises(ZeroDivisionError):
            class Bad(Gnn.Dataset):
                def __len__(self):
                    return 1 // 0

                def __getitem__(self, i):
                    return i
            len(Gnn.DataLoader(Bad()))

    def test_collate(self):
        for kind, expected in KINDS:
            for workers in (0, 2):
                loader = Gnn.DataLoader(Ds(), batch_size=2, num_workers=workers,
                                        collate_fn=raiser(kind))
                with self.assertRaises(expected):
                    list(loader)

    def test_worker_init(self):
        for kind, expected in KINDS:
            loader = Gnn.DataLoader(Ds(), batch_size=2, num_workers=2,
                                    worker_init_fn=raiser(kind))
            with self.assertRaises(expected):
                list(loader)

    def test_ordinary_data_exception_names_the_sample(self):
        class Bad(Ds):
            def __getitem__(self, i):
                raise ValueError('boom at %d' % i)
        with self.assertRaises(ValueError) as cm:
            list(Gnn.DataLoader(Bad(), batch_size=2, num_workers=1))
        self.assertIn('(sample index 0)', str(cm.exception))
        self.assertIn('ValueError: boom at', str(cm.exception))
        # without workers: the exception itself, a note naming the sample
        with self.assertRaises(ValueError) as cm:
            list(Gnn.DataLoader(Bad(), batch_size=2))
        self.assertEqual(str(cm.exception), 'boom at 0')
        self.assertEqual(cm.exception.__notes__, ['DataLoader: sample index 0'])


# Ctrl-C from a terminal: SIGINT to the whole process group (the workers
# too) while next() waits for a batch that takes 2 s.
CTRL_C_SCRIPT = textwrap.dedent('''
    import os, signal, sys, threading, time
    import gi
    gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn

    class Slow(Gnn.Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, i):
            if i == 2:
                time.sleep(2.0)
            return (Gnn.tensor([float(i)]),)

    if __name__ == '__main__':
        os.setpgid(0, 0)
        mode = sys.argv[1]
        loader = Gnn.DataLoader(Slow(), batch_size=1, num_workers=2,
                                **({'worker_mode': 'threads'} if mode == 'threads'
                                   else {'multiprocessing_context': mode}))
        it = iter(loader)
        got = [float(next(it)[0][0]), float(next(it)[0][0])]
        threading.Timer(0.3, os.killpg, (0, signal.SIGINT)).start()
        try:
            next(it)
            print('no KeyboardInterrupt')
        except KeyboardInterrupt:
            print('KeyboardInterrupt')
        got += [float(b[0][0]) for b in it]
        print(got)
''')


# Ctrl-C while C computes, just before it calls a Python forward: the
# KeyboardInterrupt is raised at the callback's first instruction, outside
# its trampoline; PyGObject printed it and C reported "forward of Py
# returned no output" instead.
ENTRY_SCRIPT = textwrap.dedent('''
    import os, signal, threading, time
    import gi
    gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn

    class Py(Gnn.Module):
        def forward(self, x):
            return x

    big = Gnn.Linear(600, 600)
    model = Gnn.Sequential(big, big, big, Py())
    x = Gnn.randn(600, 600)
    start = time.monotonic()
    model(x)
    took = time.monotonic() - start
    for _ in range(3):
        threading.Timer(took / 4, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            model(x)
            time.sleep(took)   # the signal came late: raised here
            print('no KeyboardInterrupt')
        except KeyboardInterrupt:
            print('KeyboardInterrupt')
''')


class CallbackEntryInterrupt(unittest.TestCase):
    def test_ctrl_c_before_a_python_forward(self):
        run = subprocess.run([sys.executable, '-c', ENTRY_SCRIPT], capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.split(), ['KeyboardInterrupt'] * 3, run.stderr)
        self.assertEqual(run.stderr, '')


class WaitInterrupt(unittest.TestCase):
    """Ctrl-C while next() waits for the workers raises KeyboardInterrupt
    (it used to wait on: C retried the interrupted wait), the workers
    ignore it, and the pass goes on: the next call gets the batch awaited."""

    def test_ctrl_c_while_waiting(self):
        with tempfile.TemporaryDirectory() as tmp:
            # a file: spawned workers import the dataset class from __main__
            script = os.path.join(tmp, 'ctrl_c.py')
            with open(script, 'w') as f:
                f.write(CTRL_C_SCRIPT)
            for mode in ('threads', 'fork', 'spawn'):
                self.check_ctrl_c(script, mode)

    def check_ctrl_c(self, script, mode):
        with self.subTest(mode=mode):
            run = subprocess.run([sys.executable, script, mode],
                                 capture_output=True, text=True, timeout=120)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(run.stdout.split('\n')[:2],
                             ['KeyboardInterrupt', str([float(i) for i in range(8)])],
                             run.stderr)


if __name__ == '__main__':
    unittest.main()
