# vae.py: a variational autoencoder on FashionMNIST, written the way
# PyTorch's example programs are written (argparse, train/test functions,
# the CUDA device idiom, reconstructions and samples written with
# torchvision's save_image).
#
# The data is torchvision's FashionMNIST under ./data (the runner fills it
# from Debian's dataset-fashion-mnist); --samples keeps the first images only.
#
# runner-args: --epochs 2 --batch-size 32 --samples 96 --log-interval 1
# runner-data: FashionMNIST
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import os

import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F
from torchvision import datasets, transforms
from torchvision.utils import save_image


class VAE(nn.Module):
    def __init__(self, hidden=400, latent=20):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(784, hidden)
        self.fc_mu = nn.Linear(hidden, latent)
        self.fc_logvar = nn.Linear(hidden, latent)
        self.fc3 = nn.Linear(latent, hidden)
        self.fc4 = nn.Linear(hidden, 784)

    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.fc_mu(h), self.fc_logvar(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    """Reconstruction (binary cross entropy, summed) + KL divergence."""
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item() / len(data)))
    print('====> Epoch: {} Average loss: {:.4f}'.format(
        epoch, train_loss / len(train_loader.dataset)))


def test(args, model, device, test_loader, epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data, _) in enumerate(test_loader):
            data = data.to(device)
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()
            if i == 0:
                n = min(data.size(0), 8)
                comparison = torch.cat([data[:n],
                                        recon_batch.view(data.size(0), 1, 28, 28)[:n]])
                save_image(comparison.cpu(),
                           os.path.join('results', 'reconstruction_' + str(epoch) + '.png'),
                           nrow=n)
    test_loss /= len(test_loader.dataset)
    print('====> Test set loss: {:.4f}'.format(test_loss))


def main():
    parser = argparse.ArgumentParser(description='VAE FashionMNIST Example')
    parser.add_argument('--batch-size', type=int, default=128, metavar='N')
    parser.add_argument('--epochs', type=int, default=10, metavar='N')
    parser.add_argument('--samples', type=int, default=0, metavar='N',
                        help='use only the first N images of each set (0: all)')
    parser.add_argument('--no-cuda', action='store_true', default=False)
    parser.add_argument('--seed', type=int, default=1, metavar='S')
    parser.add_argument('--log-interval', type=int, default=10, metavar='N')
    args = parser.parse_args()
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if use_cuda else "cpu")

    def subset(dataset):
        if args.samples:
            return torch.utils.data.Subset(dataset, range(args.samples))
        return dataset

    train_set = datasets.FashionMNIST('data', train=True, download=True,
                                      transform=transforms.ToTensor())
    test_set = datasets.FashionMNIST('data', train=False, transform=transforms.ToTensor())
    train_loader = torch.utils.data.DataLoader(subset(train_set), batch_size=args.batch_size,
                                               shuffle=True)
    test_loader = torch.utils.data.DataLoader(subset(test_set), batch_size=args.batch_size,
                                              shuffle=False)

    model = VAE().to(device)
    optimizer = optim.Adam(model.parameters(), lr=1e-3)
    os.makedirs('results', exist_ok=True)
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        test(args, model, device, test_loader, epoch)
        with torch.no_grad():
            sample = torch.randn(64, 20).to(device)
            sample = model.decode(sample).cpu()
            save_image(sample.view(64, 1, 28, 28),
                       os.path.join('results', 'sample_' + str(epoch) + '.png'))


if __name__ == '__main__':
    main()
