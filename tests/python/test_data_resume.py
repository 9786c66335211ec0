# DataLoader.state_dict() / load_state_dict() (torchdata StatefulDataLoader's
# names): a pass resumed in another worker mode yields exactly the rest.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

from data_streams import Stream  # noqa: E402


class Range(Gnn.Dataset):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def do_get_length(self):
        return self.n

    def do_get_item(self, index):
        return [Gnn.Tensor.new_scalar(index, Gnn.DType.I64)]


def indices(batches):
    return [[int(v) for v in b[0].tolist()] for b in batches]


class Resume(unittest.TestCase):
    def loader(self, **kw):
        return Gnn.DataLoader(Range(19), batch_size=3, shuffle=True, seed=5, **kw)

    def test_resume_mid_epoch_in_another_mode(self):
        want = indices(list(self.loader()) + list(self.loader_after(1)))
        for k in (0, 2, 5):
            first = self.loader(num_workers=2, worker_mode='processes')
            it = iter(first)
            got = [next(it) for _ in range(k)]
            state = first.state_dict()
            text = state.print_(True)
            del it, first
            second = self.loader(num_workers=1)
            second.load_state_dict(text)
            got += list(second) + list(second)
            self.assertEqual(indices(got), want, k)

    def loader_after(self, passes):
        loader = self.loader()
        for _ in range(passes):
            list(loader)
        return loader

    def test_resume_iterable_dataset(self):
        # torchdata's StatefulDataLoader resumes iterable datasets too: each
        # worker's stream skips what it delivered (here by seeking)
        for workers in (0, 2):
            want = indices(Gnn.DataLoader(Stream(23), batch_size=4, num_workers=workers))
            for k in (1, 3):
                first = Gnn.DataLoader(Stream(23), batch_size=4, num_workers=workers)
                it = iter(first)
                got = [next(it) for _ in range(k)]
                text = first.state_dict().print_(True)
                del it
                ds = Stream(23)
                second = Gnn.DataLoader(ds, batch_size=4, num_workers=workers)
                second.load_state_dict(text)
                got += list(second)
                self.assertEqual(indices(got), want, (workers, k))
                self.assertTrue(ds.seeks and all(n > 0 for n in ds.seeks), ds.seeks)

    def test_item_iterator_skip(self):
        it = Stream(10).do_create_iterator()     # seeks (do_skip)
        self.assertEqual(tuple(it.skip(3)), (True, 3))
        self.assertEqual(tuple(it.skip(100)), (True, 7))   # the stream ended first
        with self.assertRaisesRegex(GLib.Error, 'cannot skip a negative number of items'):
            it.skip(-1)

    def test_bad_state(self):
        with self.assertRaises(GLib.Error):
            self.loader().load_state_dict(GLib.Variant('i', 3))

    def test_multiprocessing_context_names(self):
        self.assertEqual(Gnn.DataLoader(Range(2), multiprocessing_context='fork').props.worker_mode,
                         Gnn.WorkerMode.PROCESSES)
        self.assertEqual(Gnn.DataLoader(Range(2), multiprocessing_context='forkserver')
                         .props.worker_mode, Gnn.WorkerMode.SPAWN)
        with self.assertRaises(ValueError):
            Gnn.DataLoader(Range(2), multiprocessing_context='thread')


if __name__ == '__main__':
    unittest.main()
