#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""PyTorch's Quickstart tutorial, run verbatim on torch and on Gnn.

The tutorial's code (FashionMNIST with download=True and ToTensor, a
NeuralNetwork of Flatten + Sequential(Linear/ReLU/Linear/ReLU/Linear),
CrossEntropyLoss, SGD at lr 1e-3, the train/test loops, saving and loading the
state dict) is the tutorial part of examples/quickstart.py. Only the import
lines differ between the two runs (rewritten to gnn). Both run in one
directory whose data/FashionMNIST/raw Gnn's download=True filled from
Debian's dataset-fashion-mnist (torchvision reads the same files; neither
touches the network). The test runs one epoch on each, starting both from the
same weights (copied from torch's model by the harness, outside the tutorial
code), and checks the accuracies agree within 5 points and that the saved and
reloaded state dicts are equal. The timings are printed.
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
    return body + 'harness_loaded(model)\n'


TORCH_IMPORTS = '''import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets
from torchvision.transforms import ToTensor
'''


def gnn_imports():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from test_programs import rewrite_imports
    return rewrite_imports(TORCH_IMPORTS)


def run(imports, on_init, workdir):
    """Runs the tutorial in workdir; returns (accuracy, model, reloaded,
    seconds). on_init(model) runs right after the model is built."""
    out = {}
    source = imports + '\n' + tutorial()
    namespace = dict(
        harness_init=lambda model: (out.__setitem__('model', model), on_init(model)),
        harness_trained=lambda model, accuracy: out.update(trained=model, accuracy=accuracy),
        harness_loaded=lambda model: out.__setitem__('reloaded', model),
        os=os, tempfile=tempfile, __name__='quickstart')
    cwd = os.getcwd()
    os.chdir(workdir)
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
        with tempfile.TemporaryDirectory() as workdir:
            from gnn.vision import datasets
            for train in (True, False):  # the files torchvision's run reads
                datasets.FashionMNIST(os.path.join(workdir, 'data'), train=train, download=True)
            t_acc, t_model, t_reloaded, t_sec = run(TORCH_IMPORTS, capture, workdir)
            g_acc, g_model, g_reloaded, g_sec = run(gnn_imports(), same_start, workdir)
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
