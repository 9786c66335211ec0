# Data pipeline through the typelib: Python datasets and collations driven by
# C worker threads, samplers, and the IDX dataset.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

FASHION = '/usr/share/datasets/fashion-mnist'


class Squares(Gnn.Dataset):
    """item i = (i * i as float32, worker id or -1 as int64)"""

    def do_get_length(self):
        return 10

    def do_get_item(self, index):
        info = Gnn.get_worker_info()
        return [Gnn.Tensor.new_scalar(index * index, Gnn.DType.F32),
                Gnn.Tensor.new_scalar(info.get_id() if info else -1, Gnn.DType.I64)]


class Refuses(Gnn.Dataset):
    def do_get_length(self):
        return 8

    def do_get_item(self, index):
        if index == 5:
            raise ValueError('boom at five')
        return [Gnn.Tensor.new_scalar(index, Gnn.DType.F32)]


class Reverse(Gnn.Sampler):
    def do_get_length(self):
        return 10

    def do_sample(self):
        return list(range(9, -1, -1))


class CountIter(Gnn.ItemIterator):
    def __init__(self, start, stop, step):
        super().__init__()
        self.values = iter(range(start, stop, step))

    def do_next(self):
        v = next(self.values, None)
        return None if v is None else [Gnn.Tensor.new_scalar(v, Gnn.DType.I64)]


class Stream(Gnn.IterableDataset):
    """0..n-1, sharded across loader workers by worker info"""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def do_create_iterator(self):
        info = Gnn.get_worker_info()
        if info is None:
            return CountIter(0, self.n, 1)
        return CountIter(info.get_id(), self.n, info.get_num_workers())


class CountCollate(Gnn.Collate):
    def do_collate(self, items, n_fields):
        return [Gnn.Tensor.new_scalar(len(items) * 100 + n_fields, Gnn.DType.F64)]


def batches(loader):
    it = loader.iter()
    while True:
        ok, batch = it.next()
        if not ok:
            return
        yield batch


class DatasetTests(unittest.TestCase):
    def test_python_dataset_vfuncs(self):
        ds = Squares()
        self.assertEqual(ds.get_length(), 10)
        item = ds.get_item(3)
        self.assertEqual([t.item() for t in item], [9.0, -1.0])

    def test_protocol_from_a_mixin(self):
        # __len__ / __getitem__ of a plain Python base reach C as well (the
        # loader saw length 0 and a critical)
        class Base(object):
            def __len__(self):
                return 6

            def __getitem__(self, i):
                return (Gnn.tensor([float(i)]),)

        class FromMixin(Base, Gnn.Dataset):
            pass

        class Derived(FromMixin):
            def __getitem__(self, i):
                return (Gnn.tensor([10.0 * i]),)

        ds = FromMixin()
        self.assertEqual(ds.get_length(), 6)
        self.assertEqual(ds.get_item(4)[0].item(), 4.0)
        self.assertEqual([b[0].to_doubles() for b in Gnn.DataLoader(ds, batch_size=4)],
                         [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0]])
        self.assertEqual(Derived().get_length(), 6)
        self.assertEqual(Derived().get_item(2)[0].item(), 20.0)

    def test_index_out_of_range_raises(self):
        with self.assertRaises(GLib.Error) as cm:
            Squares().get_item(10)
        self.assertIn('index 10 is out of range', cm.exception.message)

    def test_tensor_dataset_items(self):
        x = Gnn.Tensor.arange(0, 6, 1, Gnn.DType.F32).reshape([3, 2])
        ds = Gnn.TensorDataset.new([x])
        for _ in range(3):   # items own their tensors across calls
            self.assertEqual(ds.get_item(1)[0].to_doubles(), [2.0, 3.0])

    def test_concat_of_python_datasets(self):
        ds = Squares()
        cat = Gnn.ConcatDataset.new([ds, ds])
        self.assertEqual(cat.get_length(), 20)
        self.assertEqual(cat.get_item(13)[0].item(), 9.0)

    def test_random_split(self):
        parts = Gnn.random_split(Squares(), [4, 6], Gnn.Generator.new(0))
        self.assertEqual([p.get_length() for p in parts], [4, 6])
        seen = sorted(i for p in parts for i in p.get_indices())
        self.assertEqual(seen, list(range(10)))


class SamplerTests(unittest.TestCase):
    def test_random_sampler_permutation(self):
        s = Gnn.RandomSampler.new(Squares(), False, -1, Gnn.Generator.new(0))
        self.assertEqual(sorted(s.sample()), list(range(10)))

    def test_batch_sampler_flat(self):
        s = Gnn.SequentialSampler.new(Squares())
        indices, n_batches = Gnn.BatchSampler.new(s, 3, True).sample()
        self.assertEqual(list(indices), list(range(9)))
        self.assertEqual(n_batches, 3)

    def test_python_sampler_drives_loader(self):
        s = Reverse()
        self.assertEqual(list(s.sample()), list(range(9, -1, -1)))
        loader = Gnn.DataLoader(dataset=Squares(), sampler=s, batch_size=4, num_workers=2)
        got = [v for b in batches(loader) for v in b[0].to_doubles()]
        self.assertEqual(got, [i * i for i in range(9, -1, -1)])

    def test_distributed_bad_rank(self):
        with self.assertRaises(GLib.Error) as cm:
            Gnn.DistributedSampler.new(Squares(), 2, 2, True, 0, False)
        self.assertEqual(cm.exception.message, 'Invalid rank 2, rank should be in the interval [0, 1]')


class LoaderTests(unittest.TestCase):
    def test_threads_call_python_dataset(self):
        for workers in (0, 2):
            loader = Gnn.DataLoader(dataset=Squares(), batch_size=4, num_workers=workers)
            self.assertEqual(loader.get_length(), 3)
            got = [b[0].to_doubles() for b in batches(loader)]
            self.assertEqual(got, [[0, 1, 4, 9], [16, 25, 36, 49], [64, 81]])

    def test_worker_ids_round_robin(self):
        loader = Gnn.DataLoader(dataset=Squares(), batch_size=2, num_workers=2)
        ids = [b[1].to_doubles()[0] for b in batches(loader)]
        self.assertEqual(ids, [0, 1, 0, 1, 0])

    def test_same_seed_same_order(self):
        orders = []
        for workers in (0, 3):
            loader = Gnn.DataLoader(dataset=Squares(), batch_size=3, shuffle=True,
                                    num_workers=workers, seed=7)
            orders.append([v for b in batches(loader) for v in b[0].to_doubles()])
        self.assertEqual(orders[0], orders[1])
        self.assertEqual(sorted(orders[0]), [i * i for i in range(10)])

    def test_worker_init_signal(self):
        loader = Gnn.DataLoader(dataset=Squares(), batch_size=2, num_workers=3)
        ids = []
        loader.connect('worker-init', lambda _loader, info: ids.append(info.get_id()))
        self.assertEqual(len(list(batches(loader))), 5)
        self.assertEqual(sorted(ids), [0, 1, 2])

    def test_persistent_workers(self):
        loader = Gnn.DataLoader(dataset=Squares(), batch_size=3, shuffle=True, num_workers=2,
                                persistent_workers=True, seed=3)
        inits = []
        loader.connect('worker-init', lambda _loader, info: inits.append(info.get_id()))
        for _ in range(3):
            got = sorted(v for b in batches(loader) for v in b[0].to_doubles())
            self.assertEqual(got, [i * i for i in range(10)])
        self.assertEqual(sorted(inits), [0, 1])
        del loader   # joins the pool

    def test_python_iterable_dataset(self):
        for workers in (0, 2):
            loader = Gnn.DataLoader(dataset=Stream(9), batch_size=2, num_workers=workers)
            got = sorted(v for b in batches(loader) for v in b[0].to_doubles())
            self.assertEqual(got, list(range(9)))

    def test_python_collate(self):
        loader = Gnn.DataLoader(dataset=Squares(), batch_size=4, collate=CountCollate(),
                                num_workers=2)
        self.assertEqual([b[0].item() for b in batches(loader)], [802.0, 802.0, 402.0])

    def test_error_in_worker(self):
        loader = Gnn.DataLoader(dataset=Refuses(), batch_size=2, num_workers=2)
        with self.assertRaises(GLib.Error) as cm:
            list(batches(loader))
        self.assertIn('DataLoader worker 0', cm.exception.message)
        self.assertIn('sample index 5', cm.exception.message)

    def test_argument_message(self):
        # torch's ValueError, when the loader is built
        with self.assertRaises(ValueError) as cm:
            Gnn.DataLoader(dataset=Squares(), num_workers=-1)
        self.assertEqual(str(cm.exception), 'num_workers option should be non-negative; '
                         'use num_workers=0 to disable multiprocessing.')

    @unittest.skipUnless(os.path.exists(FASHION + '/t10k-images-idx3-ubyte.gz'),
                         'dataset-fashion-mnist is not installed')
    def test_fashion_mnist_batches(self):
        ds = Gnn.IdxDataset.new(FASHION + '/t10k-images-idx3-ubyte.gz',
                                FASHION + '/t10k-labels-idx1-ubyte.gz')
        loader = Gnn.DataLoader(dataset=ds, batch_size=256, shuffle=True, num_workers=2, seed=1)
        self.assertEqual(loader.get_length(), 40)
        n = 0
        for images, labels in batches(loader):
            self.assertEqual(images.get_shape()[0], labels.get_shape()[0])
            n += labels.get_shape()[0]
        self.assertEqual(n, 10000)


    def test_idx_dataset_from_decoded_tensors(self):
        # the construct properties a spawned worker is rebuilt from
        images = Gnn.arange(24.0).reshape([4, 2, 3])
        labels = Gnn.arange(4)
        ds = Gnn.IdxDataset(images=images, labels=labels)
        self.assertEqual(len(ds), 4)
        self.assertFalse(ds.props.shared_memory)
        got = [int(v) for _, y in batches(Gnn.DataLoader(dataset=ds, batch_size=3)) for v in y.tolist()]
        self.assertEqual(got, [0, 1, 2, 3])
        with self.assertRaisesRegex(GLib.Error, 'images and labels must be set together'):
            Gnn.IdxDataset(images=images)
        with self.assertRaisesRegex(GLib.Error, 'labels int64 \\[N\\], got float32'):
            Gnn.IdxDataset(images=images, labels=Gnn.arange(4.0))


if __name__ == '__main__':
    unittest.main()
