#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gnn.vision.datasets.CIFAR10 / CIFAR100 side by side with torchvision 0.14
over the same small CIFAR-format folders, written here with pickle + numpy
(protocol 2, as the published files, and protocol 4/5): the same length,
data, targets, classes, class_to_idx and items, with transforms; the MD5
check (torchvision's refuses these files, Gnn's too unless
check_integrity=False); download without network; damaged files."""

import os
import pickle
import shutil
import tempfile
import unittest
from unittest import mock

import numpy as np

import gnn
from gnn.vision import datasets as GD
from gnn.vision import transforms as GT

import torchvision.datasets as TD
import torchvision.datasets.cifar as TDC
import torchvision.transforms as TT
from gi.repository import GLib


def _dump(path, obj, protocol):
    with open(path, 'wb') as f:
        pickle.dump(obj, f, protocol=protocol)


def make_cifar10(root, per_batch=(3, 2, 4, 1, 2), test=5, protocol=2, seed=0):
    rng = np.random.default_rng(seed)
    folder = os.path.join(root, 'cifar-10-batches-py')
    os.makedirs(folder, exist_ok=True)
    names = ['train', 'test']
    for i, n in enumerate(list(per_batch) + [test]):
        name = 'data_batch_%d' % (i + 1) if i < len(per_batch) else 'test_batch'
        batch = {'batch_label': 'batch %d' % i,
                 'labels': [int(x) for x in rng.integers(0, 10, size=n)],
                 'data': rng.integers(0, 256, size=(n, 3072), dtype=np.uint8),
                 'filenames': ['%s_%d.png' % (names[i >= len(per_batch)], j) for j in range(n)]}
        _dump(os.path.join(folder, name), batch, protocol)
    _dump(os.path.join(folder, 'batches.meta'),
          {'num_cases_per_batch': 3, 'num_vis': 3072,
           'label_names': ['airplane', 'automobile', 'bird', 'cat', 'deer', 'dog', 'frog',
                           'horse', 'ship', 'truck']}, protocol)


def make_cifar100(root, train=6, test=4, protocol=4, seed=1):
    rng = np.random.default_rng(seed)
    folder = os.path.join(root, 'cifar-100-python')
    os.makedirs(folder, exist_ok=True)
    for name, n in (('train', train), ('test', test)):
        fine = [int(x) for x in rng.integers(0, 100, size=n)]
        _dump(os.path.join(folder, name),
              {'filenames': ['f%d.png' % j for j in range(n)], 'batch_label': name,
               'fine_labels': fine, 'coarse_labels': [x // 5 for x in fine],
               'data': rng.integers(0, 256, size=(n, 3072), dtype=np.uint8)}, protocol)
    _dump(os.path.join(folder, 'meta'),
          {'fine_label_names': ['class%02d' % i for i in range(100)],
           'coarse_label_names': ['super%02d' % i for i in range(20)]}, protocol)


def no_md5():
    """torchvision's integrity check, off (the files are not the published ones)."""
    return mock.patch.object(TDC, 'check_integrity', lambda *args, **kwargs: True)


class Cifar(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.root)

    def compare(self, gcls, tcls, train, **kwargs):
        with no_md5():
            t = tcls(self.root, train=train, **kwargs)
        g = gcls(self.root, train=train, check_integrity=False, **kwargs)
        self.assertEqual(len(g), len(t))
        self.assertEqual(g.classes, t.classes)
        self.assertEqual(g.class_to_idx, t.class_to_idx)
        self.assertEqual(g.targets, t.targets)
        self.assertEqual(tuple(g.data.shape), t.data.shape)
        self.assertEqual(g.data.dtype, gnn.uint8)
        np.testing.assert_array_equal(g.data.numpy(), t.data)
        for i in range(len(t)):
            gi, gl = g[i]
            ti, tl = t[i]
            self.assertEqual(gl, tl)
            self.assertIsInstance(gl, int)
            if kwargs.get('transform') is not None:
                np.testing.assert_allclose(gi.numpy(), ti.numpy(), atol=1e-6)
            else:
                self.assertEqual((gi.size, gi.mode), (ti.size, ti.mode))
                np.testing.assert_array_equal(np.asarray(gi), np.asarray(ti))
        return g, t

    def test_cifar10_train_and_test(self):
        make_cifar10(self.root)
        g, t = self.compare(GD.CIFAR10, TD.CIFAR10, True)
        self.assertEqual(len(g), 12)
        self.compare(GD.CIFAR10, TD.CIFAR10, False)
        self.assertIn('Split: Train', repr(g))

    def test_cifar10_protocols_4_and_5(self):
        for protocol in (4, 5):
            make_cifar10(self.root, protocol=protocol, seed=protocol)
            self.compare(GD.CIFAR10, TD.CIFAR10, True)

    def test_cifar10_transforms(self):
        make_cifar10(self.root)
        norm = ((0.49, 0.48, 0.45), (0.25, 0.24, 0.26))
        self.compare(GD.CIFAR10, TD.CIFAR10, True,
                     transform=None, target_transform=lambda y: y + 1)
        with no_md5():
            t = TD.CIFAR10(self.root, transform=TT.Compose([TT.ToTensor(), TT.Normalize(*norm)]))
        g = GD.CIFAR10(self.root, transform=GT.Compose([GT.ToTensor(), GT.Normalize(*norm)]),
                       check_integrity=False)
        for i in range(len(t)):
            np.testing.assert_allclose(g[i][0].numpy(), t[i][0].numpy(), atol=1e-6)

    def test_cifar100_fine_labels(self):
        make_cifar100(self.root)
        g, t = self.compare(GD.CIFAR100, TD.CIFAR100, True)
        self.assertEqual(len(g.classes), 100)
        self.compare(GD.CIFAR100, TD.CIFAR100, False)

    def test_md5_checked_as_torchvision(self):
        make_cifar10(self.root)
        with self.assertRaisesRegex(RuntimeError, 'Dataset not found or corrupted'):
            TD.CIFAR10(self.root)
        with self.assertRaisesRegex(GLib.Error, 'Dataset not found or corrupted'):
            GD.CIFAR10(self.root)
        with self.assertRaisesRegex(GLib.Error, 'Gnn downloads nothing'):
            GD.CIFAR10(self.root, download=True)

    def test_missing_root(self):
        with self.assertRaisesRegex(GLib.Error, 'Dataset not found'):
            GD.CIFAR100(os.path.join(self.root, 'nowhere'), check_integrity=False)

    def test_damaged_files(self):
        make_cifar10(self.root)
        path = os.path.join(self.root, 'cifar-10-batches-py', 'data_batch_2')
        with open(path, 'rb') as f:
            good = f.read()
        cases = [good[:len(good) // 2], b'not a pickle',
                 pickle.dumps({'data': np.zeros((2, 3072), dtype='>f4'), 'labels': [1, 2]}, 2),
                 pickle.dumps({'data': np.zeros((2, 3072), dtype=np.uint8), 'labels': [1]}, 2),
                 pickle.dumps({'data': np.zeros((1, 3072), dtype=np.uint8), 'labels': [10]}, 2),
                 pickle.dumps({'data': np.zeros((1, 100), dtype=np.uint8), 'labels': [1]}, 2)]
        for data in cases:
            with open(path, 'wb') as f:
                f.write(data)
            with self.assertRaisesRegex(GLib.Error, 'data_batch_2'):
                GD.CIFAR10(self.root, check_integrity=False)


if __name__ == '__main__':
    unittest.main(verbosity=2)
