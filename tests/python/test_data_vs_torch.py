# The data pipeline side by side with torch.utils.data (Debian's torch 1.13):
# sampler layouts, lengths and argument-error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

import torch  # noqa: E402
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler,  # noqa: E402
                              SequentialSampler, TensorDataset, random_split)
from torch.utils.data.distributed import DistributedSampler  # noqa: E402


class Range(Gnn.Dataset):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def do_get_length(self):
        return self.n

    def do_get_item(self, index):
        return [Gnn.Tensor.new_scalar(index, Gnn.DType.I64)]


def gnn_error(fn):
    try:
        fn()
    except GLib.Error as e:
        return e.message
    except ValueError as e:     # the loader's settings, checked at construction as torch
        return str(e)
    return None


def torch_error(fn):
    try:
        fn()
    except (ValueError, TypeError, RuntimeError, AssertionError) as e:
        return str(e)
    return None


class Missing(object):
    """Item 5 raises KeyError, in a torch and in a Gnn dataset alike."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            raise KeyError('no sample 5')
        return i


class TorchMissing(Missing, torch.utils.data.Dataset):
    pass


class GnnMissing(Missing, Gnn.Dataset):   # __len__ from the mixin
    def __getitem__(self, i):
        return (Gnn.tensor([float(Missing.__getitem__(self, i))]),)


class Shards(object):
    """torch's IterableDataset protocol: __iter__ a generator, each worker
    taking every num_workers-th value from its id (get_worker_info)."""

    info = None   # set per side: torch's or Gnn's get_worker_info

    def __iter__(self):
        info = type(self).info()   # torch's attributes on both sides
        start, step = (info.id, info.num_workers) if info is not None else (0, 1)
        for v in range(start, 11, step):
            if v == 99:
                raise ValueError('never')
            yield v * 1.5


class TorchShards(Shards, torch.utils.data.IterableDataset):
    info = staticmethod(torch.utils.data.get_worker_info)


class GnnShards(Shards, Gnn.IterableDataset):   # __iter__ from the mixin
    info = staticmethod(Gnn.get_worker_info)


class Tutorial(object):
    """torch's tutorial dataset: __init__ without super().__init__()."""

    def __init__(self, n):
        self.values = [float(v) for v in range(n)]

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i] * 2.0, i


class TorchTutorial(Tutorial, torch.utils.data.Dataset):
    pass


class GnnTutorial(Tutorial, Gnn.Dataset):
    pass


class EvenFirst(object):
    """A torch-style sampler: __iter__ and __len__, torch 1.13's
    super().__init__(data_source)."""

    def __init__(self, data_source):
        super().__init__(data_source)
        self.n = len(data_source)

    def __iter__(self):
        return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))

    def __len__(self):
        return self.n


class TorchEvenFirst(EvenFirst, torch.utils.data.Sampler):
    pass


class GnnEvenFirst(EvenFirst, Gnn.Sampler):
    pass


def batches_as_lists(loader):
    def plain(b):
        if isinstance(b, (list, tuple)):
            return [plain(v) for v in b]
        return [float(v) for v in np.asarray(b.numpy() if hasattr(b, 'numpy') else b,
                                            dtype=np.float64).reshape(-1)] + [list(b.shape)]
    return [plain(b) for b in loader]


class Records(object):
    """Dict items (string keys, torch's default_collate makes dict batches)."""

    def __len__(self):
        return 7

    def __getitem__(self, index):
        return {'image': np.arange(3, dtype=np.float32) + index, 'label': index,
                'weight': 0.5 * index}


class TorchRecords(Records, torch.utils.data.Dataset):
    pass


class GnnRecords(Records, Gnn.Dataset):
    pass


class NamedBatches(unittest.TestCase):
    def test_dict_batches_match_torch_in_every_mode(self):
        want = list(torch.utils.data.DataLoader(TorchRecords(), batch_size=3))
        for mode, workers in (('threads', 0), ('threads', 2), ('processes', 2)):
            with self.subTest(mode=mode, workers=workers):
                got = list(Gnn.DataLoader(GnnRecords(), batch_size=3, num_workers=workers,
                                          worker_mode=mode))
                self.assertEqual(len(got), len(want))
                for g, w in zip(got, want):
                    self.assertEqual(list(g), list(w))   # keys, in order
                    for key in w:
                        self.assertEqual(str(g[key].dtype).split(".")[-1], str(w[key].dtype).split(".")[-1], key)
                        np.testing.assert_array_equal(g[key].numpy(), w[key].numpy())

    def test_names_travel_in_a_gnn_batch(self):
        # the keys are the batch's names, not an extra field
        item = Gnn.Dataset.get_item_batch(GnnRecords(), 2)
        self.assertEqual(item.get_kind(), Gnn.BatchKind.DICT)
        self.assertEqual(item.dup_names(), ['image', 'label', 'weight'])
        loader = Gnn.DataLoader(GnnRecords(), batch_size=4, num_workers=2,
                                worker_mode='processes')
        it = Gnn.DataLoader.iter(loader)
        ok, batch = Gnn.DataLoaderIter.next_batch(it)
        self.assertTrue(ok)
        self.assertEqual(batch.get_n_fields(), 3)
        self.assertEqual(batch.dup_names(), ['image', 'label', 'weight'])
        self.assertEqual(batch.lookup('label').tolist(), [0, 1, 2, 3])
        ok, rest = Gnn.DataLoaderIter.next(it)
        self.assertEqual(len(rest), 3)   # the GPtrArray entry point: the tensors
        Gnn.DataLoaderIter.next(it)
        del it

    def test_duplicate_names_refused(self):
        t = Gnn.Tensor.new_scalar(1, Gnn.DType.F32)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Batch.new_dict(['a', 'a'], [t, t])
        self.assertIn("duplicate field name 'a'", cm.exception.message)


class VsTorch(unittest.TestCase):
    def test_plain_python_datasets_and_samplers(self):
        # torch takes any sequence (a list of pairs, a numpy array, a list of
        # numbers: bare items batch into one tensor) and any iterable of
        # indices as the sampler
        data = np.arange(12, dtype=np.float32).reshape(6, 2)
        pairs = [(np.float32(i) * 0.5, i) for i in range(5)]
        for dataset, kwargs in ((pairs, {}), (data, {}), ([1.5, 2.5, 3.5], {}),
                                (pairs, {'sampler': [4, 0, 2]}),
                                (data, {'sampler': range(5, -1, -2), 'num_workers': 2})):
            with self.subTest(dataset=type(dataset).__name__, **{k: str(v) for k, v in
                                                                   kwargs.items()}):
                want = batches_as_lists(DataLoader(dataset, batch_size=2, **kwargs))
                got = batches_as_lists(Gnn.DataLoader(dataset, batch_size=2, **kwargs))
                self.assertEqual(got, want)

    def test_tutorial_dataset_and_sampler_protocol(self):
        for workers in (0, 2):
            tds, gds = TorchTutorial(7), GnnTutorial(7)
            want = [[v.tolist() for v in b] for b in
                    DataLoader(tds, batch_size=3, sampler=TorchEvenFirst(tds), num_workers=workers)]
            got = [[v.to_doubles() for v in b] for b in
                   Gnn.DataLoader(gds, batch_size=3, sampler=GnnEvenFirst(gds), num_workers=workers)]
            self.assertEqual(got, want, workers)
        self.assertEqual(list(GnnEvenFirst(GnnTutorial(5))), list(TorchEvenFirst(TorchTutorial(5))))
        self.assertEqual(len(GnnEvenFirst(GnnTutorial(5))), 5)

    def test_iterable_dataset_protocol(self):
        for workers in (0, 2):
            want = [b.tolist() for b in DataLoader(TorchShards(), batch_size=2,
                                                   num_workers=workers)]
            got = [b.to_doubles() for b in Gnn.DataLoader(GnnShards(), batch_size=2,
                                                          num_workers=workers)]
            self.assertEqual(got, want, workers)
        self.assertEqual([float(t.item()) for t in GnnShards()], [v * 1.5 for v in range(11)])

    def test_worker_exception_reraised_with_its_type(self):
        # torch re-raises a worker's exception as its type: "Caught KeyError
        # in DataLoader worker process 0.\nOriginal Traceback ..."; Gnn adds
        # the sample in parentheses
        def run(loader):
            with self.assertRaises(KeyError) as cm:
                list(loader)
            return str(cm.exception)
        want = run(DataLoader(TorchMissing(), batch_size=2, num_workers=1))
        got = run(Gnn.DataLoader(GnnMissing(), batch_size=2, num_workers=1,
                                 multiprocessing_context='fork'))
        self.assertTrue(want.startswith('Caught KeyError in DataLoader worker process 0.\n'
                                        'Original Traceback (most recent call last):'), want)
        self.assertTrue(got.startswith('Caught KeyError in DataLoader worker process 0 '
                                       '(sample index 5).\nOriginal Traceback (most recent '
                                       'call last):'), got)
        self.assertEqual(got.rstrip().split('\n')[-1], want.rstrip().split('\n')[-1])

    def test_distributed_layouts(self):
        for n in range(1, 15):
            for r in range(1, 6):
                for drop_last in (False, True):
                    for rank in range(r):
                        want = list(DistributedSampler(list(range(n)), num_replicas=r, rank=rank,
                                                       shuffle=False, drop_last=drop_last))
                        got = list(Gnn.DistributedSampler.new(Range(n), r, rank, False, 0,
                                                              drop_last).sample())
                        self.assertEqual(got, want, (n, r, rank, drop_last))

    def test_distributed_rank_message(self):
        want = torch_error(lambda: DistributedSampler(list(range(4)), num_replicas=3, rank=3))
        got = gnn_error(lambda: Gnn.DistributedSampler.new(Range(4), 3, 3, True, 0, False))
        self.assertEqual(got, want)

    def test_samplers_from_keyword_properties(self):
        # Configuration is construct-only properties: no constructor needed.
        s = Gnn.DistributedSampler(dataset=Range(10), num_replicas=2, rank=1, shuffle=False)
        want = list(DistributedSampler(list(range(10)), num_replicas=2, rank=1, shuffle=False))
        self.assertEqual(list(s.sample()), want)
        self.assertEqual((s.props.num_replicas, s.props.rank), (2, 1))
        b = Gnn.BatchSampler(sampler=Gnn.SequentialSampler(data_source=Range(5)), batch_size=2)
        self.assertEqual(b.get_length(), len(BatchSampler(SequentialSampler(range(5)), 2, False)))
        w = Gnn.WeightedRandomSampler(weights=GLib.Variant('ad', [0, 1, 0]), num_samples=3)
        self.assertEqual(list(w.sample()), [1, 1, 1])

    def test_bad_properties_raise_torch_messages(self):
        want = torch_error(lambda: DistributedSampler(list(range(4)), num_replicas=2, rank=2))
        # Construction refuses, as torch's constructor does (GInitable).
        self.assertEqual(gnn_error(lambda: Gnn.DistributedSampler(dataset=Range(4),
                                                                  num_replicas=2, rank=2)), want)
        want = torch_error(lambda: BatchSampler(SequentialSampler(range(3)), -1, False))
        self.assertEqual(gnn_error(lambda: Gnn.BatchSampler(
            sampler=Gnn.SequentialSampler(data_source=Range(3)), batch_size=-1)), want)

    def test_huge_dataset_is_an_error(self):
        for shuffle in (False, True):
            loader = Gnn.DataLoader(dataset=Range(2**62), batch_size=4, shuffle=shuffle)
            self.assertIn(str(2**62), gnn_error(loader.iter))

    def test_batch_and_loader_lengths(self):
        for n in range(0, 12):
            for bs in range(1, 5):
                for drop_last in (False, True):
                    want = len(BatchSampler(SequentialSampler(range(n)), bs, drop_last))
                    got = Gnn.BatchSampler.new(Gnn.SequentialSampler.new(Range(n)), bs,
                                               drop_last).get_length()
                    self.assertEqual(got, want)
                    loader = Gnn.DataLoader(dataset=Range(n), batch_size=bs, drop_last=drop_last)
                    self.assertEqual(loader.get_length(), want)

    def test_sampler_messages(self):
        self.assertEqual(
            gnn_error(lambda: Gnn.RandomSampler.new(Range(3), False, 0, None)),
            torch_error(lambda: RandomSampler(range(3), num_samples=0)))
        self.assertEqual(
            gnn_error(lambda: Gnn.BatchSampler.new(Gnn.SequentialSampler.new(Range(3)), 0, False)),
            torch_error(lambda: BatchSampler(SequentialSampler(range(3)), 0, False)))

    def test_random_split_message(self):
        self.assertIn(
            torch_error(lambda: random_split(range(10), [3, 6])),
            gnn_error(lambda: Gnn.random_split(Range(10), [3, 6], None)))

    def test_random_split_fraction_lengths(self):
        for n in (7, 10, 11, 30):
            fr = [0.3, 0.3, 0.4]
            want = [len(p) for p in random_split(range(n), fr)]
            got = [p.get_length() for p in Gnn.random_split_fractions(Range(n), fr, None)]
            self.assertEqual(got, want)

    def test_loader_argument_messages(self):
        ds = TensorDataset(torch.zeros(4))
        cases = [
            (dict(num_workers=-1), dict(num_workers=-1)),
            (dict(timeout=-1), dict(timeout=-1.0)),
            (dict(prefetch_factor=4), dict(prefetch_factor=4)),
            (dict(persistent_workers=True), dict(persistent_workers=True)),
            (dict(sampler=SequentialSampler(ds), shuffle=True),
             dict(sampler=Gnn.SequentialSampler.new(Range(4)), shuffle=True)),
            (dict(batch_sampler=BatchSampler(SequentialSampler(ds), 2, False), drop_last=True),
             dict(batch_sampler=Gnn.BatchSampler.new(Gnn.SequentialSampler.new(Range(4)), 2, False),
                  drop_last=True)),
        ]
        for torch_kw, gnn_kw in cases:
            want = torch_error(lambda: DataLoader(ds, **torch_kw))
            got = gnn_error(lambda: Gnn.DataLoader(dataset=Range(4), **gnn_kw).iter())
            self.assertIsNotNone(want)
            self.assertEqual(got, want, torch_kw)


if __name__ == '__main__':
    unittest.main()
