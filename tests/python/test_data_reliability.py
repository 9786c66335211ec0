# DataLoader reliability (issue 31 items 6, 7, 8, 12, 14, 16, 17), side by
# side with torch 1.13 where torch defines the behaviour: a collate_fn's dict
# keeps its keys whatever they are, a dataset or sampler length that is
# wrong raises torch's exception, spawned workers honour
# __getstate__/__setstate__, a loader refuses another loader's state, an
# exception while the dataset is pickled for spawned workers propagates from
# iter() with no worker left, and one pass may be shared by threads.
# Spawned workers re-import this file (hence the __main__ guard).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import signal
import tempfile
import threading
import time
import unittest

import numpy as np

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

import torch  # noqa: E402
import torch.utils.data as tud  # noqa: E402

from data_streams import children  # noqa: E402

MODES = ('threads', 'processes', 'spawn')


# --- item 6: a collate_fn's dict with keys that are not strings --------------------

def int_keyed(items):
    values = [int(v) for v in items]
    return {1: np.array(values), 2: np.array(values) * 2, (3, 'x'): np.array([7])}


class Keyed(object):
    """Items with int keys, not in sorted order."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {2: np.float32(i), 1: i * 10}


class TorchKeyed(Keyed, tud.Dataset):
    pass


class GnnKeyed(Keyed, Gnn.Dataset):
    pass


def as_plain(batch):
    return {k: (v.tolist() if hasattr(v, 'tolist') else v) for k, v in batch.items()}


class DictKeys(unittest.TestCase):
    def test_collate_fn_dict_with_int_keys(self):
        want = [as_plain(b) for b in tud.DataLoader(list(range(5)), batch_size=2,
                                                    collate_fn=int_keyed)]
        self.assertEqual(list(want[0]), [1, 2, (3, 'x')])
        for mode in MODES:
            for workers in (0, 2):
                with self.subTest(mode=mode, workers=workers):
                    got = [as_plain(b) for b in Gnn.DataLoader(
                        list(range(5)), batch_size=2, collate_fn=int_keyed,
                        num_workers=workers, worker_mode=mode)]
                    self.assertEqual(got, want)
                    self.assertEqual([list(b) for b in got], [list(b) for b in want])

    def test_dataset_items_with_int_keys_keep_their_order(self):
        want = [as_plain(b) for b in tud.DataLoader(TorchKeyed(), batch_size=3)]
        for mode in MODES:
            with self.subTest(mode=mode):
                got = [as_plain(b) for b in Gnn.DataLoader(GnnKeyed(), batch_size=3,
                                                           num_workers=2, worker_mode=mode)]
                self.assertEqual(got, want)
                self.assertEqual([list(b) for b in got], [[2, 1], [2, 1]])
        self.assertEqual(list(GnnKeyed()[1]), [2, 1])


# --- item 7: lengths ---------------------------------------------------------------

class NegativeLength(object):
    def __len__(self):
        return -1

    def __getitem__(self, i):
        return i


class TorchNegative(NegativeLength, tud.Dataset):
    pass


class GnnNegative(NegativeLength, Gnn.Dataset):
    pass


class BadLengthSampler(object):
    def __init__(self):
        pass

    def __iter__(self):
        return iter(range(4))

    def __len__(self):
        raise TypeError('no length here')


class TorchBadLengthSampler(BadLengthSampler, tud.Sampler):
    pass


class GnnBadLengthSampler(BadLengthSampler, Gnn.Sampler):
    pass


def outcome(fn):
    try:
        return 'ok', fn()
    except Exception as e:
        return type(e).__name__, str(e)


class Lengths(unittest.TestCase):
    def test_negative_dataset_length_is_torchs_value_error(self):
        cases = [lambda ds, L: len(ds), lambda ds, L: len(L(ds)), lambda ds, L: list(L(ds)),
                 lambda ds, L: list(L(ds, shuffle=True)),
                 lambda ds, L: list(L(ds, batch_size=2, num_workers=2))]
        for i, case in enumerate(cases):
            with self.subTest(case=i):
                want = outcome(lambda: case(TorchNegative(), tud.DataLoader))
                self.assertEqual(want, ('ValueError', '__len__() should return >= 0'))
                self.assertEqual(outcome(lambda: case(GnnNegative(), Gnn.DataLoader)), want)

    def test_sampler_length_error_reaches_len_of_loader(self):
        want = outcome(lambda: len(tud.DataLoader(list(range(4)),
                                                  sampler=TorchBadLengthSampler())))
        self.assertEqual(want, ('TypeError', 'no length here'))
        got = outcome(lambda: len(Gnn.DataLoader(list(range(4)),
                                                 sampler=GnnBadLengthSampler())))
        self.assertEqual(got, want)
        self.assertEqual(outcome(lambda: len(GnnBadLengthSampler())), want)
        # iterating needs no length, in torch as here
        got = [int(b) for b in Gnn.DataLoader(list(range(4)), sampler=GnnBadLengthSampler())]
        self.assertEqual(got, [0, 1, 2, 3])


# --- item 8: __getstate__ / __setstate__ in spawned workers -------------------------

class WithHandle(Gnn.Dataset):
    """torch's idiom: an open file is dropped by __getstate__ and reopened
    by __setstate__; a table built in __setstate__."""

    def __init__(self, path):
        super().__init__()
        self.path = path
        self.handle = open(path)
        self.table = None

    def __getstate__(self):
        state = dict(self.__dict__)
        del state['handle']
        state['table'] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.handle = open(self.path)
        self.table = {i: 100 + i for i in range(8)}

    def __len__(self):
        return 6

    def __getitem__(self, i):
        self.handle.seek(0)
        first = int(self.handle.read().split()[0])
        table = self.table if self.table is not None else {}
        return (i, first, table.get(i, -1))


class GetState(unittest.TestCase):
    def test_spawned_workers_use_getstate_and_setstate(self):
        with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
            f.write('42\n')
        try:
            ds = WithHandle(f.name)
            loader = Gnn.DataLoader(ds, batch_size=3, num_workers=2, worker_mode='spawn')
            got = [[t.tolist() for t in batch] for batch in loader]
            self.assertEqual(got, [[[0, 1, 2], [42, 42, 42], [100, 101, 102]],
                                   [[3, 4, 5], [42, 42, 42], [103, 104, 105]]])
            self.assertIsNone(ds.table)      # the parent's instance is untouched
            self.assertFalse(ds.handle.closed)
            ds.handle.close()
        finally:
            os.unlink(f.name)


# --- item 12: a state from another loader ---------------------------------------------

class Range(Gnn.Dataset):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


class OtherLoadersState(unittest.TestCase):
    def test_refused_naming_the_field(self):
        a = Gnn.DataLoader(Range(10), batch_size=2, shuffle=True)
        it = iter(a)
        next(it)
        state = a.state_dict()
        for loader, field in ((Gnn.DataLoader(Range(10), batch_size=2), 'sampler'),
                              (Gnn.DataLoader(Range(10), batch_size=3, shuffle=True), 'batch-size'),
                              (Gnn.DataLoader(Range(11), batch_size=2, shuffle=True),
                               'dataset-length'),
                              (Gnn.DataLoader(Range(10), batch_size=2, shuffle=True,
                                              drop_last=True), 'drop-last')):
            with self.subTest(field=field):
                with self.assertRaises(GLib.Error) as cm:
                    loader.load_state_dict(state)
                self.assertIn('"%s"' % field, cm.exception.message)
        last = GLib.VariantDict.new(state)
        last.insert_value('pass', GLib.Variant('x', 2 ** 63 - 1))   # INT64_MAX
        text = last.end().print_(False)     # as a checkpoint's metadata keeps it
        self.assertIn('9223372036854775807', text)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.DataLoader(Range(10), batch_size=2, shuffle=True).load_state_dict(text)
        self.assertIn('"pass"', cm.exception.message)
        b = Gnn.DataLoader(Range(10), batch_size=2, shuffle=True)
        b.load_state_dict(state)
        self.assertEqual(len(list(b)), 4)


# --- item 14: an exception while the dataset is pickled for spawned workers -----------

class Interrupting(object):
    """An attribute whose pickling raises `kind` (or sends SIGINT: a real Ctrl-C)."""

    def __init__(self, kind):
        self.kind = kind

    def __reduce__(self):
        if self.kind == 'sigint':
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)      # the handler raises KeyboardInterrupt in here
            raise AssertionError('SIGINT was not delivered')
        raise self.kind('while pickling')


class PicklingInterrupted(unittest.TestCase):
    def test_base_exceptions_propagate_from_iter(self):
        for kind, expected in ((KeyboardInterrupt, KeyboardInterrupt), (SystemExit, SystemExit),
                               ('sigint', KeyboardInterrupt)):
            with self.subTest(kind=kind):
                before = children()
                ds = Range(8)
                ds.attribute = Interrupting(kind)
                loader = Gnn.DataLoader(ds, batch_size=2, num_workers=2, worker_mode='spawn')
                with self.assertRaises(expected):
                    iter(loader)
                self.assertEqual(children(), before)
                # the loader works once the attribute pickles
                ds.attribute = None
                self.assertEqual(len(list(loader)), 4)
                del loader
                self.assertEqual(children(), before)


# --- items 16 and 17: one pass shared by threads ------------------------------------------

class Slow(Gnn.Dataset):
    def __init__(self, n, fail_at=-1, delay=0.0):
        super().__init__()
        self.n, self.fail_at, self.delay = n, fail_at, delay

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.delay:
            time.sleep(self.delay)
        if i == self.fail_at:
            raise ValueError('boom at %d' % i)
        return i


def drain_in_threads(it, n_threads=2):
    got, errors, lock = [], [], threading.Lock()

    def run():
        try:
            for batch in it:
                with lock:
                    got.extend(int(v) for v in batch.tolist())
        except Exception as exc:
            with lock:
                errors.append(exc)
    threads = [threading.Thread(target=run) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
        assert not t.is_alive(), 'a thread sharing the iterator hangs'
    return got, errors


class Reentering(Gnn.Dataset):
    """Calls next() on the pass that is loading it."""

    def __init__(self):
        super().__init__()
        self.it = None

    def __len__(self):
        return 4

    def __getitem__(self, i):
        if self.it is not None:
            next(self.it)
        return i


class SharedIterator(unittest.TestCase):
    def test_next_from_inside_its_own_next_is_refused(self):
        ds = Reentering()
        it = iter(Gnn.DataLoader(ds, batch_size=2))
        ds.it = it
        with self.assertRaises(GLib.Error) as cm:
            next(it)
        self.assertIn('called on a pass from inside its own next()', str(cm.exception))
        ds.it = None


    def test_every_item_once(self):
        for mode in MODES:
            for workers in (0, 2):
                with self.subTest(mode=mode, workers=workers):
                    it = iter(Gnn.DataLoader(Slow(40), batch_size=1, num_workers=workers,
                                             worker_mode=mode))
                    got, errors = drain_in_threads(it)
                    self.assertEqual(errors, [])
                    self.assertEqual(sorted(got), list(range(40)))

    def test_error_reaches_one_thread(self):
        for mode in MODES:
            with self.subTest(mode=mode):
                it = iter(Gnn.DataLoader(Slow(40, fail_at=17), batch_size=1, num_workers=2,
                                         worker_mode=mode))
                got, errors = drain_in_threads(it)
                self.assertEqual(len(errors), 1)
                self.assertIsInstance(errors[0], ValueError)
                self.assertIn('boom at 17', str(errors[0]))
                self.assertRegex(str(errors[0]), r'^Caught ValueError in DataLoader worker '
                                                 r'(process|thread) 1 \(sample index 17\)')
                self.assertTrue(all(v < 17 for v in got))

    def test_dispose_while_next_waits(self):
        for mode in MODES:
            with self.subTest(mode=mode):
                before = children()
                it = iter(Gnn.DataLoader(Slow(6, delay=0.3), batch_size=1, num_workers=2,
                                         worker_mode=mode))
                outcome_box = []

                def wait():
                    try:
                        outcome_box.append(next(it))
                    except BaseException as exc:
                        outcome_box.append(exc)
                t = threading.Thread(target=wait)
                t.start()
                time.sleep(0.05)
                it.run_dispose()      # from this thread, while next() waits
                t.join(60)
                self.assertFalse(t.is_alive())
                self.assertEqual(len(outcome_box), 1)
                self.assertEqual(list(it), [])     # the pass is over
                del it
                self.assertEqual(children(), before)


if __name__ == '__main__':
    unittest.main()
