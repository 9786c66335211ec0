# Python datasets in spawned workers (worker_mode='spawn', torch's
# multiprocessing_context='spawn'): a fresh sys.executable re-runs this file
# as __mp_main__ (hence the __main__ guard at the bottom), the dataset comes
# back from one pickle with its class attributes, and batches, errors and
# clean-up are those of forked workers. Seed 000's scenario is checked side
# by side with torch 1.13 in subprocesses (spawn re-runs the main script).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gc
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

from data_streams import Stream, children  # noqa: E402

import numpy as np  # noqa: E402

MODES = ('threads', 'processes', 'spawn')


class Squares(Gnn.Dataset):
    """item i = (i, i * scale as a float, a numpy row, marker set by init)"""

    scale = 1.0          # a class attribute the parent changes (see test_class_attributes)
    registry = {}        # mutated through an instance, as in seed 000

    def __init__(self, n, fail_at=-1, kill_at=-1):
        super().__init__()
        self.n = n
        self.fail_at = fail_at
        self.kill_at = kill_at
        self.marker = -1

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        if index == self.fail_at:
            raise ValueError('boom at %d' % index)
        if index == self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return (index, index * self.scale, np.full(3, index, dtype=np.float32),
                self.marker, self.registry.get('seen', 0))

    # bound methods for collate_fn / worker_init_fn
    def init(self, worker_id):
        self.marker = 100 + worker_id + 10 * Gnn.get_worker_info().get_num_workers()

    def collate(self, items):
        return [np.array([int(item[0]) * self.n for item in items]),
                np.array([int(item[3]) for item in items])]


class Generated(Gnn.IterableDataset):
    """torch's IterableDataset protocol: __iter__ is a generator, sharded
    by the worker's info."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def __iter__(self):
        info = Gnn.get_worker_info()
        start, step = (info.get_id(), info.get_num_workers()) if info else (0, 1)
        for v in range(start, self.n, step):
            yield {'x': float(v), 'y': v}


def run_main_script(name, text):
    """Runs `text` as a main script of its own (spawned workers import it)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, name)
        with open(path, 'w') as f:
            f.write(text)
        return subprocess.run([sys.executable, path], capture_output=True, text=True,
                              timeout=120, cwd=folder)


def as_lists(loader):
    return [[t.numpy().tolist() if hasattr(t, 'numpy') else t for t in batch] for batch in loader]


def shm_entries():
    return set(os.listdir('/dev/shm')) if os.path.isdir('/dev/shm') else set()


class Records(Gnn.Dataset):
    """Dict items, as torch datasets often return them."""

    def __len__(self):
        return 6

    def __getitem__(self, index):
        return {'x': np.full(2, index, dtype=np.float32), 'label': index}


def sum_labels(items):
    # torch hands collate_fn the dataset's items: dicts here
    return {'total': sum(int(item['label']) for item in items)}


class SpawnTests(unittest.TestCase):
    def test_dict_items_in_every_mode(self):
        # the keys cross worker processes with the batch (torch gives dicts)
        for mode in MODES:
            with self.subTest(mode=mode):
                batch = next(iter(Gnn.DataLoader(Records(), batch_size=3, num_workers=2,
                                                 worker_mode=mode)))
                self.assertEqual(list(batch), ['x', 'label'])
                self.assertEqual(batch['label'].tolist(), [0, 1, 2])
                self.assertEqual(batch['x'].shape, (3, 2))
                totals = [b['total'] for b in Gnn.DataLoader(
                    Records(), batch_size=3, num_workers=2, worker_mode=mode,
                    collate_fn=sum_labels)]
                self.assertEqual(sorted(int(t) for t in totals), [3, 12])

    def test_map_dataset_same_batches_in_every_mode(self):
        results = {mode: as_lists(Gnn.DataLoader(Squares(9), batch_size=2, num_workers=2,
                                                 worker_mode=mode))
                   for mode in MODES}
        self.assertEqual(results['spawn'], results['threads'])
        self.assertEqual(results['spawn'], results['processes'])
        self.assertEqual([b[0] for b in results['spawn']], [[0, 1], [2, 3], [4, 5], [6, 7], [8]])

    def test_torch_spelling_and_shuffle(self):
        def run(context):
            return as_lists(Gnn.DataLoader(Squares(10), batch_size=3, shuffle=True, num_workers=2,
                                           generator=Gnn.Generator.new(7),
                                           multiprocessing_context=context))
        self.assertEqual(run('spawn'), run('fork'))
        self.assertEqual(run('forkserver'), run('fork'))

    def test_iterable_dataset(self):
        results = {mode: as_lists(Gnn.DataLoader(Stream(11), batch_size=2, num_workers=2,
                                                 worker_mode=mode))
                   for mode in MODES}
        self.assertEqual(results['spawn'], results['processes'])
        self.assertEqual(results['spawn'], results['threads'])
        self.assertEqual(sorted(sum((b[0] for b in results['spawn']), [])), list(range(11)))

    def test_bound_method_collate_and_worker_init(self):
        ds = Squares(6)
        loader = Gnn.DataLoader(ds, batch_size=2, num_workers=2, worker_mode='spawn',
                                collate_fn=ds.collate, worker_init_fn=ds.init)
        batches = [(b[0].numpy().tolist(), b[1].numpy().tolist()) for b in loader]
        self.assertEqual([b[0] for b in batches], [[0, 6], [12, 18], [24, 30]])
        # worker_init_fn ran in each worker, with get_worker_info() valid,
        # before its first item; the parent's instance is untouched
        self.assertEqual([b[1] for b in batches], [[120, 120], [121, 121], [120, 120]])
        self.assertEqual(ds.marker, -1)

    def test_generator_iterable_dataset(self):
        want = [([0.0, 2.0], [0, 2]), ([1.0, 3.0], [1, 3]), ([4.0, 6.0], [4, 6]), ([5.0], [5])]
        for mode in ('threads', 'processes', 'spawn'):
            loader = Gnn.DataLoader(Generated(7), batch_size=2, num_workers=2, worker_mode=mode)
            got = [(b['x'].to_doubles(), [int(v) for v in b['y'].to_doubles()]) for b in loader]
            self.assertEqual(got, want, mode)

    def test_plain_function_collate(self):
        loader = Gnn.DataLoader(Squares(4), batch_size=2, num_workers=2, worker_mode='spawn',
                                collate_fn=first_fields)
        self.assertEqual([b.numpy().tolist() for b in loader], [[0, 1], [2, 3]])

    def test_class_attributes_travel(self):
        saved = dict(Squares.registry), Squares.scale
        try:
            ds = Squares(4)
            ds.registry.update(seen=7)     # the class's dict, through the instance
            Squares.scale = 0.5
            spawn = as_lists(Gnn.DataLoader(ds, batch_size=2, num_workers=2, worker_mode='spawn'))
            threads = as_lists(Gnn.DataLoader(ds, batch_size=2, num_workers=2))
            self.assertEqual(spawn, threads)
            self.assertEqual(spawn[1][1], [1.0, 1.5])
            self.assertEqual(spawn[1][4], [7, 7])
        finally:
            Squares.registry.clear()
            Squares.registry.update(saved[0])
            Squares.scale = saved[1]

    def test_unpicklable_attribute_fails_at_start_naming_it(self):
        ds = Squares(4)
        ds.lock = threading.Lock()
        before = children()
        loader = Gnn.DataLoader(ds, batch_size=2, num_workers=2, worker_mode='spawn')
        with self.assertRaises(GLib.Error) as cm:
            iter(loader)
        message = cm.exception.message
        self.assertIn('cannot rebuild __main__.Squares', message)
        self.assertIn("attribute 'lock' does not pickle", message)
        self.assertEqual(children(), before)     # failed before any process started

    def test_unpicklable_collate_fn_names_it(self):
        loader = Gnn.DataLoader(Squares(4), batch_size=2, num_workers=2, worker_mode='spawn',
                                collate_fn=lambda items: items[0][0])
        with self.assertRaises(GLib.Error) as cm:
            next(iter(loader))
        self.assertIn('collate_fn <function', cm.exception.message)

    def test_worker_init_error_fails_at_start(self):
        loader = Gnn.DataLoader(Squares(4), batch_size=2, num_workers=2, worker_mode='spawn',
                                worker_init_fn=failing_init)
        with self.assertRaises(GLib.Error) as cm:
            next(iter(loader))
        message = cm.exception.message
        self.assertRegex(message, r'DataLoader worker \d \(pid \d+\)')
        self.assertIn('worker_init_fn failed: RuntimeError: no init for worker', message)
        self.assertIn('Traceback (most recent call last)', message)

    def test_exception_names_worker_pid_index_and_traceback(self):
        loader = Gnn.DataLoader(Squares(8, fail_at=5), batch_size=2, num_workers=2,
                                worker_mode='spawn')
        with self.assertRaises(ValueError) as cm:   # torch's re-raise: the type
            list(loader)
        message = str(cm.exception)
        self.assertTrue(message.startswith('Caught ValueError in DataLoader worker process 0 '
                                           '(sample index 5).\nOriginal Traceback '
                                           '(most recent call last)'), message)
        self.assertIn('in __getitem__', message)
        self.assertTrue(message.endswith('\nValueError: boom at 5'), message)

    def test_killed_worker(self):
        loader = Gnn.DataLoader(Squares(20, kill_at=7), batch_size=2, num_workers=2,
                                worker_mode='spawn')
        it = iter(loader)
        start = time.monotonic()
        with self.assertRaises(GLib.Error) as cm:
            list(it)
        self.assertLess(time.monotonic() - start, 1.0)
        self.assertRegex(cm.exception.message,
                         r'^DataLoader worker \(pid \d+\) is killed by signal: Killed\.')
        del it, loader
        gc.collect()
        with self.assertRaises(ChildProcessError):
            os.waitpid(-1, os.WNOHANG)   # no zombie left

    def test_unguarded_main_script_error(self):
        out = run_main_script('unguarded.py', UNGUARDED)
        self.assertNotEqual(out.returncode, 0)
        self.assertRegex(out.stderr, r'DataLoader worker \d \(pid \d+\): cannot import the '
                                     r'main script .*unguarded.py')
        self.assertIn("guard the entry point of the program with `if __name__ == '__main__':`",
                      out.stderr)

    def test_worker_stuck_starting_times_out(self):
        # the worker's import of the main script hangs: the loader's timeout
        # ends the start (it waited forever) and the worker is stopped
        out = run_main_script('stuck.py', STUCK_START)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r'^timeout: DataLoader timed out after 1 seconds: spawned '
                                     r'worker 0 \(pid \d+\) had not finished starting')
        self.assertIn('no worker left', out.stdout)

    def test_dropped_mid_epoch_leaves_nothing(self):
        before_children, before_shm = children(), shm_entries()
        loader = Gnn.DataLoader(Squares(40), batch_size=2, num_workers=2, worker_mode='spawn')
        it = iter(loader)
        next(it)
        self.assertEqual(len(children()), len(before_children) + 2)
        del it, loader
        gc.collect()
        self.assertEqual(children(), before_children)
        self.assertEqual(shm_entries(), before_shm)

    def test_persistent_workers(self):
        loader = Gnn.DataLoader(Squares(6), batch_size=3, num_workers=2, worker_mode='spawn',
                                persistent_workers=True)
        first = as_lists(loader)
        self.assertEqual(as_lists(loader), first)

    def test_c_tensor_dataset(self):
        x = Gnn.Tensor.from_numpy(np.arange(12, dtype=np.float32).reshape(6, 2))
        y = Gnn.Tensor.from_numpy(np.arange(6, dtype=np.int64))
        ds = Gnn.TensorDataset(x, y)
        spawn = as_lists(Gnn.DataLoader(ds, batch_size=4, num_workers=2, worker_mode='spawn'))
        self.assertEqual(spawn, as_lists(Gnn.DataLoader(ds, batch_size=4)))
        self.assertEqual(spawn[1][1], [4, 5])

    def test_subset_and_concat_of_python_datasets(self):
        ds = Squares(10)
        for wrapped in (Gnn.Subset(ds, [1, 3, 5, 7, 9]), Gnn.ConcatDataset([ds, Squares(3)])):
            spawn = as_lists(Gnn.DataLoader(wrapped, batch_size=4, num_workers=2,
                                            worker_mode='spawn'))
            self.assertEqual(spawn, as_lists(Gnn.DataLoader(wrapped, batch_size=4)))


UNGUARDED = '''
import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn


class Numbers(Gnn.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, index):
        return index


print(list(Gnn.DataLoader(Numbers(), batch_size=2, num_workers=1,
                          multiprocessing_context='spawn')))
'''


def first_fields(items):
    return np.array([item[0] for item in items])


def failing_init(worker_id):
    raise RuntimeError('no init for worker %d' % worker_id)


# --- seed 000 side by side with torch ---------------------------------------------

SEED_000 = '''
import os, sys
{imports}

class DatasetBase({base}):
    args = {{}}
    def __init__(self, args):
        {base_init}
        self.args.update(args)

    def __getitem__(self, idx):
        return 0

    def __len__(self):
        return 5


class Dataset(DatasetBase):
    args = {{'important_parameter': 1}}
    def __init__(self, args):
        super(Dataset, self).__init__(args)
        print('__init__', self.args, flush=True)

    def _worker_init_fn(self, *args):
        print('worker init', self.args, flush=True)

    def get_dataloader(self):
        return {loader}(self, batch_size=1, num_workers=2,
                        worker_init_fn=self._worker_init_fn,
                        pin_memory=True, multiprocessing_context='spawn')


class Plain(DatasetBase):
    def _worker_init_fn(self, *args):
        print('plain worker init', self.args, flush=True)

    def get_dataloader(self):
        return {loader}(self, batch_size=1, num_workers=2,
                        worker_init_fn=self._worker_init_fn,
                        multiprocessing_context='spawn')


def main():
    for _ in Dataset({{'important_parameter': 2}}).get_dataloader():
        pass
    for _ in Plain({{'x': 3}}).get_dataloader():
        pass


if __name__ == '__main__':
    main()
'''

STUCK_START = '''
import os
import time
import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn

if __name__ != '__main__':
    time.sleep(300)   # the spawned worker's import of this script hangs


class Numbers(Gnn.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return (Gnn.tensor([float(i)]),)


if __name__ == '__main__':
    loader = Gnn.DataLoader(Numbers(), batch_size=2, num_workers=1,
                            multiprocessing_context='spawn', timeout=1.0)
    try:
        list(loader)
        print('no timeout')
    except GLib.Error as e:
        print('timeout:' if e.code == Gnn.Error.TIMEOUT else 'other:', e.message)
    try:
        os.waitpid(-1, os.WNOHANG)
        print('a worker is left')
    except ChildProcessError:
        print('no worker left')
'''

TORCH = dict(imports='import torch', base='torch.utils.data.Dataset', base_init='pass',
             loader='torch.utils.data.DataLoader')
GNN = dict(imports="import gi\ngi.require_version('Gnn', '1.0')\nfrom gi.repository import Gnn",
           base='Gnn.Dataset', base_init='super().__init__()', loader='Gnn.DataLoader')


def run_script(text):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, 'seed000.py')
        with open(path, 'w') as f:
            f.write(textwrap.dedent(text))
        # buffered output, so that the workers' lines do not interleave
        env = {k: v for k, v in os.environ.items() if k != 'PYTHONUNBUFFERED'}
        out = subprocess.run([sys.executable, path], capture_output=True, text=True,
                             timeout=240, cwd=folder, env=env)
    if out.returncode != 0:
        raise AssertionError('script failed (%d): %s' % (out.returncode, out.stderr))
    return sorted(line for line in out.stdout.splitlines() if 'init' in line)


class Seed000Tests(unittest.TestCase):
    def test_class_dict_updated_through_instance(self):
        try:
            import torch  # noqa: F401
        except ImportError:
            self.skipTest('python3-torch is not installed')
        instance = "{'important_parameter': 2}"
        # torch: the workers re-import the class and see its default
        self.assertEqual(run_script(SEED_000.format(**TORCH)),
                         ['__init__ ' + instance,
                          "plain worker init {}", "plain worker init {}",
                          "worker init {'important_parameter': 1}",
                          "worker init {'important_parameter': 1}"])
        # Gnn: the changed class attributes travel with the instance
        self.assertEqual(run_script(SEED_000.format(**GNN)),
                         ['__init__ ' + instance,
                          "plain worker init {'x': 3}", "plain worker init {'x': 3}",
                          'worker init ' + instance, 'worker init ' + instance])


if __name__ == '__main__':
    unittest.main()
