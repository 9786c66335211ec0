#!/usr/bin/python3
# quickstart.py: PyTorch's Quickstart tutorial on Gnn, as written for torch
# except the import lines (rewritten to gnn):
#
#   import gnn as torch                 # instead of `import torch`
#   from gnn.vision import datasets     # instead of `from torchvision import datasets`
#
# download=True takes the files from Debian's dataset-fashion-mnist (Gnn
# downloads nothing) into ./data/FashionMNIST/raw, where torchvision reads
# them too. Gnn.save / Gnn.load write and read safetensors (never pickle).
# Needs dataset-fashion-mnist; runs in a temporary directory. Run with Debian's /usr/bin/python3; uninstalled:
#   GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib \
#   PYTHONPATH=build/gir/python /usr/bin/python3 examples/quickstart.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
import tempfile

import gnn as torch
from gnn import nn
from gnn.utils.data import DataLoader
from gnn.vision import datasets
from gnn.vision.transforms import ToTensor

if not os.path.exists('/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz'):
    print('dataset-fashion-mnist is not installed; skipping')
    sys.exit(77)
workdir = tempfile.TemporaryDirectory()
os.chdir(workdir.name)

# --- tutorial start (tests/python/test_quickstart.py runs this part on torch too)
training_data = datasets.FashionMNIST(
    root="data",
    train=True,
    download=True,
    transform=ToTensor(),
)

test_data = datasets.FashionMNIST(
    root="data",
    train=False,
    download=True,
    transform=ToTensor(),
)

batch_size = 64

train_dataloader = DataLoader(training_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)

for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")


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

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)


def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 100 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


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
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return correct


epochs = 1
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    accuracy = test(test_dataloader, model, loss_fn)
print("Done!")

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "model.pth")
    torch.save(model.state_dict(), path)
    print("Saved PyTorch Model State to model.pth")
    model = NeuralNetwork().to(device)
    model.load_state_dict(torch.load(path))
# --- tutorial end

classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
           "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
model.eval()
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    pred = model(x.unsqueeze(0))
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')

# one epoch at lr 1e-3 reaches about 45% (as with torch); the check only
# guards against a broken pipeline
sys.exit(0 if accuracy > 0.3 else 1)
