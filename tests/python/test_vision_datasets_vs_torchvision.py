#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gnn.vision's datasets side by side with torchvision 0.14: the same roots,
the same lengths, items, classes and targets; MNIST's download without
network (Debian's dataset-fashion-mnist); ImageFolder decoding in loader
workers; bad input (missing roots, corrupt images named with their path
from the worker, loaders still droppable)."""

import os
import shutil
import tempfile
import unittest

import numpy as np

import gnn
from gnn.utils.data import DataLoader
from gnn.vision import datasets as GD
from gnn.vision import transforms as GT

import torch
import torchvision.datasets as TD
import torchvision.transforms as TT
from PIL import Image as PILImage
from gi.repository import GLib

FASHION = '/usr/share/datasets/fashion-mnist'


def make_folder(root, corrupt=False):
    """An ImageFolder tree: 3 classes, PNG and JPEG files (some grey, one
    RGBA, names in mixed case, a nested folder), a text file to skip."""
    rng = np.random.default_rng(3)
    layout = {'cat': ['b.jpg', 'a.PNG', 'sub/c.jpeg'], 'dog': ['z.png', 'y.jpg'],
              'emu': ['q.bmp', 'notes.txt']}
    for cls, names in layout.items():
        for name in names:
            path = os.path.join(root, cls, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if name.endswith('.txt'):
                with open(path, 'w') as f:
                    f.write('not an image')
                continue
            h, w = rng.integers(20, 40, size=2)
            mode = ('L', 'RGB', 'RGBA')[int(rng.integers(0, 3))] if name != 'q.bmp' else 'RGB'
            channels = {'L': 1, 'RGB': 3, 'RGBA': 4}[mode]
            arr = rng.integers(0, 255, size=(h, w, channels), dtype=np.uint8)
            img = PILImage.fromarray(arr[:, :, 0] if mode == 'L' else arr, mode)
            if name.lower().endswith(('.jpg', '.jpeg')) and mode == 'RGBA':
                img = img.convert('RGB')
            img.save(path)
    if corrupt:
        with open(os.path.join(root, 'dog', 'broken.png'), 'wb') as f:
            f.write(b'\x89PNG\r\n\x1a\n' + b'\0' * 40)


class Folder(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        make_folder(self.root)

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_same_samples_classes_and_images(self):
        ours, theirs = GD.ImageFolder(self.root), TD.ImageFolder(self.root)
        self.assertEqual(ours.classes, theirs.classes)
        self.assertEqual(ours.class_to_idx, theirs.class_to_idx)
        self.assertEqual(ours.samples, theirs.samples)
        self.assertEqual(ours.imgs, theirs.imgs)
        self.assertEqual(ours.targets, theirs.targets)
        self.assertEqual(len(ours), len(theirs))
        for i in range(len(theirs)):
            (a, la), (b, lb) = ours[i], theirs[i]
            self.assertEqual(la, lb)
            self.assertIsInstance(la, int)
            self.assertEqual(a.mode, b.mode)
            self.assertTrue(np.array_equal(np.asarray(a), np.asarray(b)), theirs.samples[i])

    def test_transforms_in_every_worker_mode(self):
        t = [TT.Resize((12, 12)), TT.ToTensor(), TT.Normalize((0.5,) * 3, (0.5,) * 3)]
        g = [GT.Resize((12, 12)), GT.ToTensor(), GT.Normalize((0.5,) * 3, (0.5,) * 3)]
        theirs = TD.ImageFolder(self.root, TT.Compose(t), target_transform=lambda y: y * 10)
        ours = GD.ImageFolder(self.root, GT.Compose(g), target_transform=lambda y: y * 10)
        expected = [theirs[i] for i in range(len(theirs))]
        for workers, context in ((0, None), (2, None), (2, 'fork')):
            loader = DataLoader(ours, batch_size=2, num_workers=workers,
                                multiprocessing_context=context)
            got = [(x, y) for xs, ys in loader for x, y in zip(xs, ys)]
            self.assertEqual(len(got), len(expected))
            for (x, y), (ex, ey) in zip(got, expected):
                self.assertEqual(int(y), ey)
                self.assertTrue(np.array_equal(x.numpy(), ex.numpy()))

    def test_dataset_folder_with_a_python_loader(self):
        def loader(path):
            return PILImage.open(path).convert('L')

        ours = GD.DatasetFolder(self.root, loader, extensions=('.png', '.bmp'))
        theirs = TD.DatasetFolder(self.root, loader, extensions=('.png', '.bmp'))
        self.assertEqual(ours.samples, theirs.samples)
        self.assertTrue(np.array_equal(np.asarray(ours[0][0]), np.asarray(theirs[0][0])))
        def valid(p):
            return p.endswith(('.jpg', '.bmp'))

        self.assertEqual(GD.ImageFolder(self.root, is_valid_file=valid).samples,
                         TD.ImageFolder(self.root, is_valid_file=valid).samples)
        with self.assertRaisesRegex(GLib.Error, r'for the classes emu\.  \('):
            GD.ImageFolder(self.root, is_valid_file=lambda p: p.endswith('.jpg'))

    def test_errors(self):
        with self.assertRaisesRegex(GLib.Error, r"\[Errno 2\] No such file or directory"):
            GD.ImageFolder(os.path.join(self.root, 'missing'))
        empty = tempfile.mkdtemp()
        try:
            with self.assertRaisesRegex(GLib.Error, "Couldn't find any class folder"):
                GD.ImageFolder(empty)
            os.makedirs(os.path.join(empty, 'only'))
            with self.assertRaisesRegex(GLib.Error, 'Found no valid file for the classes only'):
                GD.ImageFolder(empty)
        finally:
            shutil.rmtree(empty)
        with self.assertRaisesRegex(ValueError, 'Both extensions and is_valid_file'):
            GD.DatasetFolder(self.root, lambda p: p, extensions=('.x',), is_valid_file=bool)

    def test_corrupt_image_is_named_from_the_worker(self):
        make_folder(self.root, corrupt=True)
        ours = GD.ImageFolder(self.root, GT.ToTensor())
        bad = [i for i, (p, _) in enumerate(ours.samples) if p.endswith('broken.png')][0]
        with self.assertRaisesRegex(GLib.Error, 'broken.png'):
            ours[bad]
        for context in (None, 'fork'):
            loader = DataLoader(ours, batch_size=1, num_workers=2,
                                multiprocessing_context=context)
            it = iter(loader)
            with self.assertRaisesRegex(Exception, r'worker.*broken\.png|broken\.png'):
                for _ in range(len(ours)):
                    next(it)
            del it, loader       # droppable after the error


@unittest.skipUnless(os.path.exists(FASHION), "Debian's dataset-fashion-mnist is not installed")
class MNISTFamily(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_download_copies_debians_files_and_torchvision_reads_them(self):
        with self.assertRaisesRegex(GLib.Error, 'Dataset not found'):
            GD.FashionMNIST(self.root, train=False)
        ours = GD.FashionMNIST(self.root, train=False, download=True)
        theirs = TD.FashionMNIST(self.root, train=False)
        self.assertEqual(len(ours), len(theirs))
        self.assertEqual(ours.classes, theirs.classes)
        self.assertEqual(ours.class_to_idx, theirs.class_to_idx)
        self.assertTrue(np.array_equal(ours.data.numpy(), theirs.data.numpy()))
        self.assertTrue(np.array_equal(ours.targets.numpy(), theirs.targets.numpy()))
        for i in (0, 1, 9999):
            (a, la), (b, lb) = ours[i], theirs[i]
            self.assertEqual((la, a.mode, a.size), (lb, b.mode, b.size))
            self.assertTrue(np.array_equal(np.asarray(a), np.asarray(b)))
        t = GT.Compose([GT.ToTensor(), GT.Normalize((0.1307,), (0.3081,))])
        ours = GD.FashionMNIST(self.root, train=True, download=True, transform=t)
        theirs = TD.FashionMNIST(self.root, train=True, transform=TT.Compose(
            [TT.ToTensor(), TT.Normalize((0.1307,), (0.3081,))]))
        self.assertEqual(len(ours), 60000)
        self.assertTrue(np.array_equal(ours[123][0].numpy(), theirs[123][0].numpy()))
        batch = next(iter(DataLoader(ours, batch_size=8, num_workers=2)))
        self.assertEqual(tuple(batch[0].shape), (8, 1, 28, 28))
        self.assertEqual(batch[1].dtype, gnn.int64)

    def test_no_network_is_a_clear_error(self):
        for cls in (GD.MNIST, GD.KMNIST):
            with self.assertRaisesRegex(GLib.Error, 'downloads nothing'):
                cls(self.root, download=True)
        os.makedirs(os.path.join(self.root, 'KMNIST', 'raw'))
        for name in os.listdir(FASHION):
            shutil.copy(os.path.join(FASHION, name), os.path.join(self.root, 'KMNIST', 'raw'))
        k = GD.KMNIST(self.root, train=False)
        self.assertEqual(k.classes[:2], TD.KMNIST.classes[:2])
        self.assertEqual(len(k), 10000)


class Fake(unittest.TestCase):
    def test_fake_data(self):
        ours = GD.FakeData(size=6, image_size=(3, 10, 12), num_classes=4)
        theirs = TD.FakeData(size=6, image_size=(3, 10, 12), num_classes=4)
        self.assertEqual(len(ours), len(theirs))
        img, label = ours[2]
        self.assertEqual((img.size, img.mode), theirs[2][0].size and ((12, 10), 'RGB'))
        self.assertTrue(0 <= label < 4)
        again = ours[2]
        self.assertTrue(np.array_equal(np.asarray(img), np.asarray(again[0])))
        self.assertEqual(label, again[1])
        t = GD.FakeData(size=4, image_size=(1, 8, 8), transform=GT.ToTensor())
        self.assertEqual(tuple(t[0][0].shape), (1, 8, 8))
        with self.assertRaises(GLib.Error):
            GD.FakeData(image_size=(7, 8, 8))


if __name__ == '__main__':
    unittest.main(verbosity=2)
