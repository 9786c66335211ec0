# mlp_regression.py: a small multilayer perceptron fitted to a noisy
# function, the way PyTorch tutorials write a regression: tensors from
# numpy, a TensorDataset in a shuffling DataLoader, nn.Sequential, MSELoss,
# Adam, a validation pass under no_grad and a saved checkpoint.
#
# runner-args: --epochs 3 --batch-size 16 --samples 96
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import io

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def make_data(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2.0, 2.0, size=(n, 3)).astype(np.float32)
    y = np.sin(x[:, :1]) + 0.5 * x[:, 1:2] ** 2 - x[:, 2:3] + 0.05 * rng.standard_normal((n, 1))
    return torch.from_numpy(x), torch.from_numpy(y.astype(np.float32))


def build_model(hidden):
    return nn.Sequential(
        nn.Linear(3, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden),
        nn.Tanh(),
        nn.Linear(hidden, 1),
    )


def main():
    parser = argparse.ArgumentParser(description='MLP regression')
    parser.add_argument('--epochs', type=int, default=20)
    parser.add_argument('--batch-size', type=int, default=32)
    parser.add_argument('--samples', type=int, default=1000)
    parser.add_argument('--hidden', type=int, default=32)
    parser.add_argument('--lr', type=float, default=1e-2)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    x, y = make_data(args.samples, args.seed)
    dataset = TensorDataset(x, y)
    n_val = len(dataset) // 4
    train_set = TensorDataset(*dataset[n_val:])
    val_set = TensorDataset(*dataset[:n_val])
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=args.batch_size)

    model = build_model(args.hidden)
    print(model)
    print('parameters:', sum(p.numel() for p in model.parameters()))
    loss_fn = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for xb, yb in train_loader:
            pred = model(xb)
            loss = loss_fn(pred, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item() * xb.shape[0]

        model.eval()
        with torch.no_grad():
            val_loss = sum(loss_fn(model(xb), yb).item() * len(xb) for xb, yb in val_loader)
        print(f"epoch {epoch + 1}: train {running / len(train_set):.5f} "
              f"val {val_loss / len(val_set):.5f}")

    checkpoint = io.BytesIO()
    torch.save({'model': model.state_dict(), 'epoch': args.epochs}, checkpoint)
    checkpoint.seek(0)
    restored = build_model(args.hidden)
    restored.load_state_dict(torch.load(checkpoint)['model'])
    with torch.no_grad():
        same = torch.allclose(restored(x[:4]), model(x[:4]))
    print('restored model agrees:', same)


if __name__ == '__main__':
    main()
