#!/usr/bin/python3
# train.py: the MLP training loop of gnn-train, in Python, written the way a
# PyTorch user writes it:
#
#   for images, labels in loader:
#       optimizer.zero_grad()
#       loss = criterion(model(images), labels)
#       loss.backward()
#       optimizer.step()
#
# A 784-256-128-10 MLP on Fashion-MNIST (Debian's dataset-fashion-mnist),
# normalized like torchvision's Normalize((0.2860,), (0.3530,)), batches of
# 64 from a Gnn.DataLoader with 2 worker threads, SGD lr 0.01 momentum 0.9,
# cross-entropy; then the test accuracy under Gnn.no_grad() in eval mode.
# A loss module takes two tensors, so it is called as criterion.compute().
#
#   train.py [--epochs N] [--limit N] [--seed N] [--workers N]
#
# Exits 1 on errors, and (with at least 1000 training samples) if the
# accuracy stays at chance level. Uninstalled:
#   GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib \
#   PYTHONPATH=build/gir/python /usr/bin/python3 examples/train.py --limit 2000
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import sys
import time

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

DATA_DIR = '/usr/share/datasets/fashion-mnist'
MEAN, STD = 0.2860, 0.3530


def load(prefix, limit, data_dir):
    """(images [N, 784] normalized float32, labels [N] int64) of one split."""
    ds = Gnn.IdxDataset.new(os.path.join(data_dir, prefix + '-images-idx3-ubyte.gz'),
                            os.path.join(data_dir, prefix + '-labels-idx1-ubyte.gz'))
    images, labels = ds.get_images(), ds.get_labels()   # [N, 28, 28] in [0, 1], [N]
    n = min(limit, images.size(0)) if limit else images.size(0)
    images = (images.narrow(0, 0, n) - MEAN) / STD
    return images.reshape([n, 28 * 28]), labels.narrow(0, 0, n).contiguous()


def build_model(generator):
    return Gnn.Sequential(Gnn.Linear.new(784, 256, True, generator), Gnn.ReLU.new(False),
                          Gnn.Linear.new(256, 128, True, generator), Gnn.ReLU.new(False),
                          Gnn.Linear.new(128, 10, True, generator))


def accuracy(model, images, labels):
    model.eval()
    correct = 0
    with Gnn.no_grad():
        for start in range(0, images.size(0), 1000):
            n = min(1000, images.size(0) - start)
            predicted = model(images.narrow(0, start, n)).argmax(1, False)
            correct += int(predicted.eq(labels.narrow(0, start, n)).sum(None, False).item())
    model.train(True)
    return 100.0 * correct / images.size(0)


def main():
    parser = argparse.ArgumentParser(description='Train an MLP on Fashion-MNIST with Gnn.')
    parser.add_argument('--epochs', type=int, default=1)
    parser.add_argument('--limit', type=int, default=0, help='use the first N samples of each split')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--workers', type=int, default=2)
    parser.add_argument('--data-dir', default=DATA_DIR)
    args = parser.parse_args()

    if not os.path.exists(os.path.join(args.data_dir, 'train-images-idx3-ubyte.gz')):
        print('train.py: Fashion-MNIST not found in %s (install dataset-fashion-mnist); skipping'
              % args.data_dir)
        return 77   # meson's "skipped"

    train_x, train_y = load('train', args.limit, args.data_dir)
    test_x, test_y = load('t10k', args.limit, args.data_dir)
    model = build_model(Gnn.Generator.new(args.seed))
    criterion = Gnn.CrossEntropyLoss()
    optimizer = Gnn.SGD.new(list(model.parameters()), 0.01, 0.9, 0.0, 0.0, False)
    loader = Gnn.DataLoader(Gnn.TensorDataset.new([train_x, train_y]), batch_size=64,
                            shuffle=True, num_workers=args.workers, seed=args.seed)
    print(model)

    acc = 0.0
    for epoch in range(1, args.epochs + 1):
        start, seen, loss_sum = time.perf_counter(), 0, 0.0
        for images, labels in loader:
            optimizer.zero_grad(True)
            loss = criterion.compute(model(images), labels)
            loss.backward()
            optimizer.step()
            loss_sum += loss.item() * images.size(0)
            seen += images.size(0)
        seconds = time.perf_counter() - start
        acc = accuracy(model, test_x, test_y)
        print('epoch %d: train loss %.4f, %d samples in %.2f s (%.0f samples/s), test accuracy %.2f%%'
              % (epoch, loss_sum / seen, seen, seconds, seen / seconds, acc))
    if train_x.size(0) >= 1000 and acc < 30.0:
        print('train.py: the accuracy stayed near chance (%.2f%%)' % acc, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except GLib.Error as e:
        print('train.py: %s' % e.message, file=sys.stderr)
        sys.exit(1)
