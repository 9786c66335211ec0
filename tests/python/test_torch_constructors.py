#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Torch-shaped constructors (issue 10.2) and the dataset protocol (10.4):
every table entry built the torch way gives the properties torch's
arguments mean; GObject keyword construction keeps working; Python datasets
written torch's way reach the C loader; FashionMNIST items are ToTensor()'s.
"""

import os
import tempfile
import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GObject, Gnn  # noqa: E402

FASHION = '/usr/share/datasets/fashion-mnist'


def writable(type_name, prop):
    pspec = getattr(Gnn, type_name).find_property(prop)
    return bool(pspec.flags & GObject.ParamFlags.WRITABLE)


def samplers_constructible(*names):
    """The samplers' properties become construct properties with the data
    helper's branch; until then these tests are skipped."""
    return unittest.skipUnless(all(writable(t, p) for t, p in names),
                               'sampler properties are read-only in this branch')


def props(obj, *names):
    return [obj.get_property(n) for n in names]


class Layers(unittest.TestCase):
    def test_refused_construction_raises(self):
        # GInitable construction errors reach Python, torch-style or GObject-style.
        from gi.repository import GLib
        for build in (lambda: Gnn.Linear(2**40, 2**40),
                      lambda: Gnn.Linear(in_features=2**40, out_features=2**40),
                      lambda: Gnn.Conv2d(3, 4, 3, groups=2),
                      lambda: Gnn.IdxDataset(images_path='/nonexistent', labels_path='/x')):
            with self.assertRaises(GLib.Error):
                build()

    def test_every_initable_class_runs_init(self):
        # PyGObject's constructor never calls GInitable.init: every concrete
        # Initable class of the typelib needs an __init__ of the override that
        # does, or a refused construction would give a half-built object.
        from gi.repository import Gio
        repo = gi.Repository.get_default()
        missing = []
        for info in repo.get_infos('Gnn'):
            if not isinstance(info, gi._gi.ObjectInfo) or info.get_abstract():
                continue
            cls = getattr(Gnn, info.get_name(), None)
            if isinstance(cls, type) and issubclass(cls, Gio.Initable) and \
                    cls.__init__ is GObject.Object.__init__:
                missing.append(info.get_name())
        self.assertEqual(missing, [])

    def test_linear(self):
        self.assertEqual(props(Gnn.Linear(784, 512), 'in-features', 'out-features', 'has-bias'),
                         [784, 512, True])
        self.assertFalse(Gnn.Linear(3, 2, bias=False).get_property('has-bias'))
        self.assertFalse(Gnn.Linear(3, 2, False).get_property('has-bias'))
        # GObject keywords keep working
        m = Gnn.Linear(in_features=3, out_features=2, has_bias=False)
        self.assertEqual(props(m, 'in-features', 'out-features', 'has-bias'), [3, 2, False])
        with self.assertRaises(TypeError):
            Gnn.Linear(3)       # torch: missing out_features
        with self.assertRaises(AssertionError) as cm:     # as a CPU build of torch
            Gnn.Linear(3, 2, device='cuda')
        self.assertEqual(str(cm.exception), 'Torch not compiled with CUDA enabled')
        self.assertEqual(Gnn.Linear(3, 2, dtype=Gnn.float64).weight.dtype, Gnn.float64)

    def test_conv_and_pools(self):
        c = Gnn.Conv2d(3, 8, (3, 5), stride=2, padding=(1, 2), dilation=1, groups=1, bias=False)
        self.assertEqual(props(c, 'in-channels', 'out-channels', 'kernel-h', 'kernel-w',
                               'stride-h', 'stride-w', 'padding-h', 'padding-w', 'has-bias'),
                         [3, 8, 3, 5, 2, 2, 1, 2, False])
        t = torch.nn.Conv2d(3, 8, (3, 5), stride=2, padding=(1, 2), bias=False)
        self.assertEqual(tuple(c.weight.shape), tuple(t.weight.shape))
        with self.assertRaises(ValueError):     # torch's padding modes only
            Gnn.Conv2d(1, 1, 3, padding_mode='mirror')
        self.assertEqual(Gnn.Conv2d(1, 1, 3, padding_mode='reflect').padding_mode, Gnn.PaddingMode.REFLECT)
        p = Gnn.MaxPool2d(3)
        self.assertEqual(props(p, 'kernel-h', 'stride-h'), [3, 3])   # stride=None: kernel
        p = Gnn.MaxPool2d(2, stride=1, padding=1, ceil_mode=True)
        self.assertEqual(props(p, 'kernel-w', 'stride-w', 'padding-w', 'ceil-mode'),
                         [2, 1, 1, True])
        a = Gnn.AvgPool2d((2, 3), count_include_pad=False)
        self.assertEqual(props(a, 'kernel-h', 'kernel-w', 'count-include-pad'), [2, 3, False])

    def test_norms_dropout_embedding(self):
        b = Gnn.BatchNorm1d(16, 1e-3, 0.2, False, False)
        self.assertEqual(props(b, 'num-features', 'eps', 'momentum', 'affine',
                               'track-running-stats'), [16, 1e-3, 0.2, False, False])
        self.assertEqual(Gnn.BatchNorm2d(4, momentum=0.3).get_property('momentum'), 0.3)
        self.assertEqual(Gnn.Dropout(0.25).get_property('p'), 0.25)
        self.assertEqual(Gnn.Dropout().get_property('p'), 0.5)
        e = Gnn.Embedding(10, 4)
        self.assertEqual(props(e, 'num-embeddings', 'embedding-dim'), [10, 4])
        ln = Gnn.LayerNorm([2, 3], eps=1e-6)
        self.assertEqual(ln.get_property('normalized-shape').unpack(), [2, 3])
        self.assertEqual(Gnn.LayerNorm(5).get_property('normalized-shape').unpack(), [5])

    def test_sequential_parameter(self):
        s = Gnn.Sequential(Gnn.Linear(2, 3), Gnn.ReLU(), Gnn.Linear(3, 1))
        self.assertEqual(len(s), 3)
        p = Gnn.Parameter(Gnn.ones(2))
        self.assertTrue(p.requires_grad)
        self.assertIsInstance(p, Gnn.Parameter)
        self.assertFalse(Gnn.Parameter(Gnn.ones(2), requires_grad=False).requires_grad)

    def test_losses(self):
        loss = Gnn.CrossEntropyLoss(ignore_index=1, label_smoothing=0.1, reduction='sum')
        self.assertEqual(props(loss, 'ignore-index', 'label-smoothing', 'reduction'),
                         [1, 0.1, 'sum'])
        self.assertEqual(Gnn.MSELoss(reduction='none').get_property('reduction'), 'none')


class Optim(unittest.TestCase):
    def test_optimizers_and_param_groups(self):
        m = Gnn.Linear(3, 2)
        opt = Gnn.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4,
                            nesterov=True)
        group = opt.param_groups[0]
        self.assertEqual((group['lr'], group['momentum'], group['nesterov']), (0.1, 0.9, True))
        self.assertEqual(len(group['params']), 2)
        group['lr'] = 0.05
        self.assertEqual(opt.get_group_lr(0), 0.05)
        self.assertEqual(opt.get_lr(), 0.1)     # the default, as torch's defaults['lr']
        adam = Gnn.optim.Adam(m.parameters(), lr=1e-3, betas=(0.8, 0.99), eps=1e-6)
        self.assertEqual(adam.param_groups[0]['betas'], (0.8, 0.99))
        self.assertEqual(Gnn.optim.AdamW(m.parameters()).get_property('weight-decay'), 0.01)
        # param group dicts
        opt = Gnn.optim.SGD([{'params': m.parameters(), 'momentum': 0.5}], lr=0.2)
        self.assertEqual(opt.param_groups[0]['momentum'], 0.5)
        # zero_grad(set_to_none=False) by default, as torch 1.13
        m(Gnn.ones(1, 3)).sum().backward()
        opt.zero_grad()
        self.assertEqual(m.weight.grad.numpy().tolist(), [[0.0, 0.0, 0.0]] * 2)
        opt.zero_grad(set_to_none=True)
        self.assertIsNone(m.weight.grad)
        # GObject keywords keep working
        self.assertEqual(Gnn.SGD(lr=0.3).get_lr(), 0.3)

    def test_schedulers(self):
        opt = Gnn.optim.SGD(Gnn.Linear(2, 2).parameters(), lr=1.0)
        s = Gnn.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)
        self.assertEqual(props(s, 'step-size', 'gamma'), [2, 0.5])
        c = Gnn.optim.lr_scheduler.CosineAnnealingLR(
            Gnn.optim.SGD(Gnn.Linear(2, 2).parameters(), lr=1.0), T_max=10, eta_min=0.1)
        self.assertEqual(props(c, 't-max', 'eta-min'), [10, 0.1])


class Squares(Gnn.Dataset):
    """torch style: __len__ / __getitem__ only."""

    def __init__(self, n=6):
        super().__init__()
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return np.full(2, i, dtype=np.float32), i * i, float(i) / 2


class Dicts(Gnn.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {'x': Gnn.tensor([float(i)]), 'y': i}


class Data(unittest.TestCase):
    def test_torch_style_dataset(self):
        ds = Squares()
        self.assertEqual(len(ds), 6)
        loader = Gnn.DataLoader(ds, batch_size=4)
        self.assertEqual(len(loader), 2)
        x, y, z = next(iter(loader))
        tx, ty, tz = next(iter(torch.utils.data.DataLoader(TorchSquares(), batch_size=4)))
        np.testing.assert_array_equal(x.numpy(), tx.numpy())
        np.testing.assert_array_equal(y.numpy(), ty.numpy())
        self.assertEqual(y.dtype, Gnn.int64)
        self.assertEqual(z.dtype, Gnn.float64)
        np.testing.assert_array_equal(z.numpy(), tz.numpy())
        for workers, mode in ((2, 'threads'), (2, 'processes')):
            got = [b[1].tolist() for b in Gnn.DataLoader(ds, batch_size=4, num_workers=workers,
                                                         worker_mode=mode)]
            self.assertEqual(got, [[0, 1, 4, 9], [16, 25]])

    def test_dict_items(self):
        batch = next(iter(Gnn.DataLoader(Dicts(), batch_size=2)))
        tbatch = next(iter(torch.utils.data.DataLoader(TorchDicts(), batch_size=2)))
        self.assertEqual(sorted(batch), sorted(tbatch))
        np.testing.assert_array_equal(batch['x'].numpy(), tbatch['x'].numpy())
        np.testing.assert_array_equal(batch['y'].numpy(), tbatch['y'].numpy())

    def test_raising_len_raises(self):
        class Bad(Gnn.Dataset):
            def __len__(self):
                raise ValueError('no length')

            def __getitem__(self, i):
                return i
        with self.assertRaises(ValueError):
            len(Gnn.DataLoader(Bad(), batch_size=2))
        with self.assertRaises(ValueError):
            list(Gnn.DataLoader(Bad(), batch_size=2))

    def test_len_exception_passes_through_samplers(self):
        # the dataset's own exception (KeyboardInterrupt unchanged), not a
        # sampler built with num_samples=0 or the C error it caused
        for exc in (ValueError('no length'), KeyboardInterrupt()):
            class Bad(Gnn.Dataset):
                def __len__(self, exc=exc):
                    raise exc

                def __getitem__(self, i):
                    return i
            with self.assertRaises(type(exc)):
                Gnn.RandomSampler(Bad())
            with self.assertRaises(type(exc)):
                len(Gnn.SequentialSampler(Bad()))

    def test_loader_signature_and_attributes(self):
        ds = Gnn.TensorDataset(Gnn.arange(10), Gnn.arange(10) * 2)
        calls = []

        class Recorder(object):
            def collate(self, items):
                calls.append(len(items))
                return Gnn.stack([i[1] for i in items])

            def init(self, worker_id):
                calls.append(('init', worker_id))
        rec = Recorder()
        loader = Gnn.DataLoader(ds, 3, False, None, None, 2, rec.collate, True, True,
                                worker_init_fn=rec.init)
        self.assertIs(loader.dataset, ds)
        self.assertEqual((loader.batch_size, loader.num_workers, loader.drop_last), (3, 2, True))
        batches = list(loader)
        self.assertEqual([b.tolist() for b in batches], [[0, 2, 4], [6, 8, 10], [12, 14, 16]])
        self.assertEqual(sorted(c for c in calls if isinstance(c, tuple)),
                         [('init', 0), ('init', 1)])
        # bound methods in process workers too (calls happen in the children)
        loader = Gnn.DataLoader(ds, batch_size=3, num_workers=2, collate_fn=rec.collate,
                                worker_init_fn=rec.init, multiprocessing_context='fork')
        self.assertEqual(loader.get_property('worker-mode'), Gnn.WorkerMode.PROCESSES)
        self.assertEqual([b.tolist() for b in loader], [[0, 2, 4], [6, 8, 10], [12, 14, 16],
                                                        [18]])
        self.assertEqual(Gnn.DataLoader(ds, num_workers=1, multiprocessing_context='spawn')
                         .get_property('worker-mode'), Gnn.WorkerMode.SPAWN)
        with self.assertRaises(ValueError):
            Gnn.DataLoader(ds, multiprocessing_context='bogus')
        self.assertEqual(len(Gnn.Subset(ds, [1, 3])), 2)
        self.assertEqual(len(Gnn.ConcatDataset([ds, ds])), 20)

    @samplers_constructible(('SequentialSampler', 'data-source'),
                            ('BatchSampler', 'batch-size'))
    def test_samplers_iterable(self):
        ds = Gnn.TensorDataset(Gnn.arange(5))
        self.assertEqual(list(Gnn.SequentialSampler(ds)), [0, 1, 2, 3, 4])
        bs = Gnn.BatchSampler(Gnn.SequentialSampler(ds), batch_size=2, drop_last=False)
        self.assertEqual(list(bs), [[0, 1], [2, 3], [4]])
        self.assertEqual(len(bs), 3)

    @samplers_constructible(('RandomSampler', 'data-source'),
                            ('DistributedSampler', 'num-replicas'))
    def test_random_and_distributed(self):
        ds = Gnn.TensorDataset(Gnn.arange(10))
        r = Gnn.RandomSampler(ds, replacement=True, num_samples=4)
        self.assertEqual(len(list(r)), 4)
        d = Gnn.DistributedSampler(ds, num_replicas=2, rank=1, shuffle=False)
        self.assertEqual(list(d), [1, 3, 5, 7, 9])

    def test_factory_samplers(self):
        s = Gnn.SubsetRandomSampler([4, 2, 7])
        self.assertEqual(sorted(s), [2, 4, 7])
        w = Gnn.WeightedRandomSampler([0.0, 1.0, 0.0], 5)
        self.assertEqual(list(w), [1] * 5)

    @unittest.skipUnless(os.path.exists(FASHION + '/t10k-images-idx3-ubyte.gz'),
                         'dataset-fashion-mnist is not installed')
    def test_fashion_mnist(self):
        # torchvision's layout (root/FashionMNIST/raw), which download=True
        # fills from Debian's package
        import gnn.vision.transforms as T
        with tempfile.TemporaryDirectory() as root:
            ds = Gnn.FashionMNIST(root=root, train=False, download=True,
                                  transform=T.ToTensor())
            self.assertEqual(len(ds), 10000)
            image, label = ds[0]
            self.assertEqual((tuple(image.shape), image.dtype, type(label)),
                             ((1, 28, 28), Gnn.float32, int))
            array = image.numpy()
            self.assertTrue(0.0 <= array.min() and array.max() <= 1.0)
            self.assertEqual(label, 9)      # the first test item is an ankle boot
            doubled = Gnn.FashionMNIST(root=root, train=False,
                                       transform=lambda img: T.ToTensor()(img) * 2)
            np.testing.assert_allclose(doubled[0][0].numpy(), array * 2)
        with self.assertRaisesRegex(RuntimeError, 'Dataset not found'):
            Gnn.FashionMNIST(root='/nonexistent', train=True)


class TorchSquares(torch.utils.data.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return np.full(2, i, dtype=np.float32), i * i, float(i) / 2


class TorchDicts(torch.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {'x': torch.tensor([float(i)]), 'y': i}


if __name__ == '__main__':
    unittest.main()
