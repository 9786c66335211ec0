# DataLoader.state_dict() / load_state_dict() (torchdata StatefulDataLoader's
# names): a pass resumed in another worker mode yields exactly the rest.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


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
