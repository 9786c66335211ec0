#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""PyTorch's Quickstart tutorial, run verbatim on torch and on Gnn.

QUICKSTART below is the tutorial's code (FashionMNIST, a NeuralNetwork of
Flatten + Sequential(Linear/ReLU/Linear/ReLU/Linear), CrossEntropyLoss, SGD
at lr 1e-3, the train/test loops, saving and loading the state dict). Only
the lines in the three {placeholders} differ between the two runs: the
imports, the dataset constructors and the device line. The test runs one
epoch on each (on a subset of the data so CI stays quick), starting both
from the same weights (copied from torch's model by the harness, outside the
tutorial code), and checks the accuracies agree within 5 points and that
the saved and reloaded state dicts are equal. The timings are printed.
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
N_TRAIN, N_TEST = 60000, 10000      # the full dataset: one epoch takes seconds

QUICKSTART = '''
{imports}

{datasets}

batch_size = 64

# Create data loaders.
train_dataloader = DataLoader(training_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)

for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {{X.shape}}")
    print(f"Shape of y: {{y.shape}} {{y.dtype}}")
    break

{device}
print(f"Using {{device}} device")

# Define model
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10)
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork().to(device)
print(model)
harness_init(model)

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)

        # Compute prediction error
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 100 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {{loss:>7f}}  [{{current:>5d}}/{{size:>5d}}]")

def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \\n Accuracy: {{(100*correct):>0.1f}}%, Avg loss: {{test_loss:>8f}} \\n")
    harness_result(correct)

epochs = 1
for t in range(epochs):
    print(f"Epoch {{t+1}}\\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
print("Done!")

torch.save(model.state_dict(), "model.pth")
print("Saved PyTorch Model State to model.pth")

model = NeuralNetwork().to(device)
model.load_state_dict(torch.load("model.pth"))
harness_loaded(model)
'''

TORCH = dict(
    imports='''import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets
from torchvision.transforms import ToTensor''',
    datasets='''training_data = Subset(FashionMNISTIdx(train=True), range(N_TRAIN))
test_data = Subset(FashionMNISTIdx(train=False), range(N_TEST))''',
    device='''device = "cuda" if torch.cuda.is_available() else "cpu"''')

GNN = dict(
    imports='''import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn as torch
from gi.repository import Gnn as datasets
nn = torch.nn
DataLoader = torch.DataLoader''',
    datasets='''training_data = torch.Subset(datasets.FashionMNIST(train=True), range(N_TRAIN))
test_data = torch.Subset(datasets.FashionMNIST(train=False), range(N_TEST))''',
    device='''device = "cpu"''')


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
    import torch.utils.data
    out = {}
    # torchvision is not installed: FashionMNISTIdx gives the same items
    source = QUICKSTART.format(**lines).replace(
        'from torchvision import datasets\n', '').replace(
        'from torchvision.transforms import ToTensor\n', '')
    namespace = dict(
        harness_init=lambda model: (out.__setitem__('model', model), on_init(model)),
        harness_result=lambda correct: out.__setitem__('accuracy', correct),
        harness_loaded=lambda model: out.__setitem__('reloaded', model),
        FashionMNISTIdx=FashionMNISTIdx, Subset=torch.utils.data.Subset,
        N_TRAIN=N_TRAIN, N_TEST=N_TEST, __name__='quickstart')
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            start = time.perf_counter()
            exec(compile(source, 'quickstart', 'exec'), namespace)
            seconds = time.perf_counter() - start
        finally:
            os.chdir(cwd)
    return out['accuracy'], out['model'], out['reloaded'], seconds


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
        sys.stderr.write('quickstart (%d train / %d test items, 1 epoch): torch %.2f s '
                         'accuracy %.1f%%, Gnn %.2f s accuracy %.1f%%\n'
                         % (N_TRAIN, N_TEST, t_sec, 100 * t_acc, g_sec, 100 * g_acc))
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
