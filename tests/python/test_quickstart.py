#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""PyTorch's Quickstart tutorial, run verbatim on torch and on Gnn.

The tutorial's code (FashionMNIST, a NeuralNetwork of Flatten +
Sequential(Linear/ReLU/Linear/ReLU/Linear), CrossEntropyLoss, SGD at lr 1e-3,
the train/test loops, saving and loading the state dict) is the tutorial part
of examples/quickstart.py. Only two things differ between the two runs:
the import lines (rewritten to gnn) and the dataset constructors. The test runs one
epoch on each, starting both from the same weights (copied from torch's
model by the harness, outside the tutorial code), and checks the accuracies
agree within 5 points and that the saved and reloaded state dicts are equal.
The timings are printed.
"""

import os
import sys
import tempfile
import time
import unittest

import numpy as np

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

FASHION = '/usr/share/datasets/fashion-mnist'

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'examples',
                       'quickstart.py')

# The lines that differ between the two runs (the example holds Gnn's).
GNN_DATASETS = """training_data = datasets.FashionMNIST(train=True)
test_data = datasets.FashionMNIST(train=False)"""
GNN_DEVICE = 'device = "cuda" if torch.cuda.is_available() else "cpu"'


def tutorial():
    """The tutorial part of examples/quickstart.py, with the harness calls
    (outside the tutorial's own lines) inserted."""
    with open(EXAMPLE) as f:
        text = f.read()
    body = text[text.index('# --- tutorial start'):text.index('# --- tutorial end')]
    for anchor, call in (('model = NeuralNetwork().to(device)\nprint(model)\n',
                          'harness_init(model)\n'),
                         ('print("Done!")\n', 'harness_trained(model, accuracy)\n')):
        assert body.count(anchor) == 1, anchor
        body = body.replace(anchor, anchor + call)
    assert body.count(GNN_DATASETS) == 1 and body.count(GNN_DEVICE) == 1
    return body + 'harness_loaded(model)\n'


TORCH = dict(
    imports='''import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets
from torchvision.transforms import ToTensor''',
    datasets='''training_data = FashionMNISTIdx(train=True)
test_data = FashionMNISTIdx(train=False)''',
    device='''device = "cuda" if torch.cuda.is_available() else "cpu"''')

GNN = dict(
    imports='''import gnn as torch
from gnn import nn
from gnn.utils.data import DataLoader
from gnn.vision import datasets''',
    datasets=GNN_DATASETS,
    device=GNN_DEVICE)


def read_idx(path):
    import gzip
    with gzip.open(path, 'rb') as f:
        data = f.read()
    ndim = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], 'big') for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


class FashionMNISTIdx(object):
    """torchvision.datasets.FashionMNIST(transform=ToTensor()) over Debian's
    files (torchvision is not installed): the same items."""

    def __init__(self, train):
        import torch
        prefix = 'train' if train else 't10k'
        images = read_idx('%s/%s-images-idx3-ubyte.gz' % (FASHION, prefix))
        labels = read_idx('%s/%s-labels-idx1-ubyte.gz' % (FASHION, prefix))
        self.images = torch.from_numpy(images.astype(np.float32) / 255.0).unsqueeze(1)
        self.labels = torch.from_numpy(labels.astype(np.int64))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


def run(lines, on_init):
    """Runs the tutorial; returns (accuracy, model, reloaded, seconds).
    on_init(model) runs right after the model is built."""
    out = {}
    # torchvision is not installed: FashionMNISTIdx gives the same items
    source = lines['imports'].replace('from torchvision import datasets\n', '').replace(
        'from torchvision.transforms import ToTensor', '') + '\n' + tutorial().replace(
        GNN_DATASETS, lines['datasets']).replace(GNN_DEVICE, lines['device'])
    namespace = dict(
        harness_init=lambda model: (out.__setitem__('model', model), on_init(model)),
        harness_trained=lambda model, accuracy: out.update(trained=model, accuracy=accuracy),
        harness_loaded=lambda model: out.__setitem__('reloaded', model),
        FashionMNISTIdx=FashionMNISTIdx, os=os, tempfile=tempfile, __name__='quickstart')
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            start = time.perf_counter()
            exec(compile(source, 'quickstart', 'exec'), namespace)
            seconds = time.perf_counter() - start
        finally:
            os.chdir(cwd)
    return out['accuracy'], out['trained'], out['reloaded'], seconds


@unittest.skipUnless(os.path.exists(FASHION + '/train-images-idx3-ubyte.gz'),
                     'dataset-fashion-mnist is not installed')
class Quickstart(unittest.TestCase):
    def test_quickstart_verbatim(self):
        import torch
        torch.manual_seed(0)
        torch_init = {}

        def capture(model):
            torch_init.update({k: v.clone() for k, v in model.state_dict().items()})
        def same_start(model):
            model.load_state_dict({k: Gnn.tensor(v.numpy()) for k, v in torch_init.items()})
        t_acc, t_model, t_reloaded, t_sec = run(TORCH, capture)
        g_acc, g_model, g_reloaded, g_sec = run(GNN, same_start)
        sys.stderr.write('quickstart (FashionMNIST, 1 epoch): torch %.2f s accuracy %.1f%%, '
                         'Gnn %.2f s accuracy %.1f%%\n'
                         % (t_sec, 100 * t_acc, g_sec, 100 * g_acc))
        self.assertGreater(g_acc, 0.3)
        self.assertLess(abs(g_acc - t_acc), 0.05)
        # the save/load round trip gives the trained weights back
        saved, loaded = g_model.state_dict(), g_reloaded.state_dict()
        self.assertEqual(list(saved.keys()), list(loaded.keys()))
        for key in saved.keys():
            np.testing.assert_array_equal(saved[key].numpy(), loaded[key].numpy())
        for key, value in t_model.state_dict().items():
            np.testing.assert_array_equal(value.numpy(), t_reloaded.state_dict()[key].numpy())


if __name__ == '__main__':
    unittest.main()
