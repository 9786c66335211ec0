#!/usr/bin/env python3
# from-pytorch.py: "From PyTorch to a C program" (docs/from-pytorch.md) as a
# test. A C program that contains no description of the architecture
# (examples/run-model.c) runs
#
#  (a) a model trained in Python with Gnn and saved with Gnn.save(model, f):
#      its predictions are Python's;
#  (b) a state dict saved by PyTorch itself (torch.save(model.state_dict()))
#      of the same architecture, with (a)'s model file giving the
#      architecture: its predictions are PyTorch's.
#
#   from-pytorch.py path/to/gnn-run-model [--keep DIR]
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys
import tempfile

import numpy as np

import gnn
import gnn.nn as nn

DATA = '/usr/share/datasets/fashion-mnist'
COUNT = 200


def cnn(module):
    """The same architecture in gnn or torch."""
    return module.Sequential(module.Conv2d(1, 8, 3, padding=1), module.ReLU(),
                             module.MaxPool2d(2), module.Conv2d(8, 16, 3, padding=1),
                             module.ReLU(), module.MaxPool2d(2), module.Flatten(),
                             module.Linear(16 * 7 * 7, 10))


def fashion_mnist():
    from gi.repository import Gnn
    train = Gnn.IdxDataset.new(os.path.join(DATA, 'train-images-idx3-ubyte.gz'),
                               os.path.join(DATA, 'train-labels-idx1-ubyte.gz'))
    test = Gnn.IdxDataset.new(os.path.join(DATA, 't10k-images-idx3-ubyte.gz'),
                              os.path.join(DATA, 't10k-labels-idx1-ubyte.gz'))
    return (train.get_images().numpy()[:2000, None], train.get_labels().numpy()[:2000],
            test.get_images().numpy()[:COUNT, None], test.get_labels().numpy()[:COUNT])


def train(lib, model, x, y, tensor):
    opt = lib.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = lib.nn.CrossEntropyLoss()
    for start in range(0, len(x), 50):
        opt.zero_grad()
        loss = loss_fn(model(tensor(x[start:start + 50])), tensor(y[start:start + 50]))
        loss.backward()
        opt.step()
    return model.eval()


def run_c(program, *args):
    r = subprocess.run([program, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('%s failed:\n%s' % (program, r.stderr))
    print(r.stdout)
    lines = dict(line.split(':', 1) for line in r.stdout.splitlines() if ':' in line and
                 line.split(':', 1)[0] in ('predictions', 'accuracy'))
    return [int(p) for p in lines['predictions'].split()], lines.get('accuracy')


def main():
    program = sys.argv[1]
    if not os.path.exists(os.path.join(DATA, 't10k-images-idx3-ubyte.gz')):
        print('dataset-fashion-mnist is not installed')
        return 77   # meson's "skipped"
    import torch
    x, y, tx, ty = fashion_mnist()
    with tempfile.TemporaryDirectory(prefix='gnn-from-pytorch-') as folder:
        # (a) trained in Python with Gnn, saved whole
        gnn.manual_seed(0)
        model = train(gnn, cnn(nn), x, y, lambda a: gnn.from_numpy(np.ascontiguousarray(a)))
        model_file = os.path.join(folder, 'cnn.safetensors')
        gnn.save(model, model_file)
        expected = model(gnn.from_numpy(np.ascontiguousarray(tx))).numpy().argmax(1)
        predictions, accuracy = run_c(program, model_file, '--count', str(COUNT))
        assert predictions == list(expected[:20]), (predictions, expected[:20])
        assert abs(float(accuracy.split()[0]) - (expected == ty).mean()) < 1e-9, accuracy
        print('(a) the C program gives Gnn-in-Python\'s predictions; accuracy', accuracy.strip())

        # (b) trained by PyTorch, its own state dict file, (a)'s architecture
        torch.manual_seed(0)
        tmodel = train(torch, cnn(torch.nn), x, y, torch.from_numpy)
        weights = os.path.join(folder, 'cnn.pth')
        torch.save(tmodel.state_dict(), weights)
        with torch.no_grad():
            texpected = tmodel(torch.from_numpy(tx)).numpy().argmax(1)
        predictions, accuracy = run_c(program, model_file, '--weights', weights, '--count',
                                      str(COUNT))
        assert predictions == list(texpected[:20]), (predictions, texpected[:20])
        assert abs(float(accuracy.split()[0]) - (texpected == ty).mean()) <= 1 / COUNT, accuracy
        print('(b) the C program gives PyTorch\'s predictions; accuracy', accuracy.strip())
    return 0


if __name__ == '__main__':
    sys.exit(main())
