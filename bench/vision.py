#!/usr/bin/env python3
# An ImageFolder epoch: 2,000 generated 256x256 JPEGs (10 classes) through
# RandomResizedCrop(224) + RandomHorizontalFlip + ToTensor + Normalize,
# batches of 64 from a shuffling DataLoader with 2 workers — torch 1.13 +
# torchvision 0.14 (PIL decoding and transforms in forked worker processes)
# against gnn.vision (GdkPixbuf decoding and the C transforms in worker
# threads), the same program with its import lines rewritten. Best of
# --repeat epochs each, images/s and the ratio; the load average is printed
# in the header (numbers are only meaningful on a quiet machine: run it
# under cpulock). See bench/README.md.
#
#   /usr/bin/python3 bench/vision.py [--images 2000] [--repeat 3] [--workers 2]
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import shutil
import sys
import tempfile
import time

import numpy as np

PROGRAM = '''
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def make_loader(root, workers):
    transform = transforms.Compose([
        transforms.RandomResizedCrop(224),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
    ])
    dataset = datasets.ImageFolder(root, transform)
    return DataLoader(dataset, batch_size=64, shuffle=True, num_workers=workers)


def epoch(loader):
    n = 0
    for images, labels in loader:
        assert tuple(images.shape[1:]) == (3, 224, 224)
        n += len(labels)
    return n
'''


def make_images(root, count, seed=0):
    """`count` 256x256 RGB JPEGs (quality 90) in 10 class folders: smooth
    gradients with noise, so they compress as photos do."""
    from PIL import Image
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:256, 0:256].astype(np.float32)
    for i in range(count):
        cls = os.path.join(root, 'class%02d' % (i % 10))
        os.makedirs(cls, exist_ok=True)
        a, b, c = rng.uniform(0.2, 1.0, 3)
        img = np.stack([x * a, y * b, (x + y) * c / 2], -1) + rng.normal(0, 12, (256, 256, 3))
        Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(
            os.path.join(cls, 'img%05d.jpg' % i), quality=90)


def rewrite(source):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests',
                                    'python'))
    from test_programs import rewrite_imports
    return rewrite_imports(source)


def run(source, root, workers, repeat):
    namespace = {'__name__': 'bench_vision'}
    exec(compile(source, '<bench>', 'exec'), namespace)
    loader = namespace['make_loader'](root, workers)
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        n = namespace['epoch'](loader)
        rates.append(n / (time.perf_counter() - start))
    return max(rates), n


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--images', type=int, default=2000)
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--workers', type=int, default=2)
    ap.add_argument('--dir', default=None, help='an existing image folder to read instead')
    args = ap.parse_args()

    work = None
    root = args.dir
    if root is None:
        work = tempfile.mkdtemp(prefix='gnn-bench-vision-')
        root = os.path.join(work, 'images')
        make_images(root, args.images)
    try:
        import torch
        torch.set_num_threads(1)
        import gnn
        gnn.set_num_threads(1)
        with open('/proc/loadavg') as f:
            load = f.read().split()[:3]
        print('# ImageFolder epoch, %d JPEGs 256x256 -> RandomResizedCrop(224) + flip + ToTensor '
              '+ Normalize, batch 64, %d workers; load average %s' % (
                  args.images, args.workers, ' '.join(load)))
        torch_rate, n = run(PROGRAM, root, args.workers, args.repeat)
        gnn_rate, m = run(rewrite(PROGRAM), root, args.workers, args.repeat)
        assert n == m, (n, m)
        print('| library | images/s |')
        print('| --- | ---: |')
        print('| torch 1.13 + torchvision 0.14 | %.0f |' % torch_rate)
        print('| gnn.vision | %.0f |' % gnn_rate)
        print('ratio gnn / torch: %.2fx' % (gnn_rate / torch_rate))
    finally:
        if work is not None:
            shutil.rmtree(work)


if __name__ == '__main__':
    main()
