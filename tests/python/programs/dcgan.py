# dcgan.py: a deep convolutional GAN on FashionMNIST, written the way
# PyTorch's example programs are written (argparse, a weights_init applied
# with Module.apply, two Adam optimizers, BCELoss on real and fake labels,
# generated images written with torchvision's save_image).
#
# The generator maps noise (nz x 1 x 1) to 1 x 28 x 28 images through
# transposed convolutions (7 -> 14 -> 28); the discriminator mirrors it.
# --samples keeps the first images only, --iters stops after N batches.
#
# runner-args: --batch-size 16 --samples 48 --iters 3 --ngf 8 --ndf 8 --nz 16
# runner-data: FashionMNIST
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import os

import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data
import torchvision.datasets as dset
import torchvision.transforms as transforms
import torchvision.utils as vutils


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self, nz, ngf):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            # nz x 1 x 1 -> (ngf*4) x 7 x 7
            nn.ConvTranspose2d(nz, ngf * 4, 7, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            # -> (ngf*2) x 14 x 14
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            # -> 1 x 28 x 28
            nn.ConvTranspose2d(ngf * 2, 1, 4, 2, 1, bias=False),
            nn.Tanh()
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self, ndf):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            # 1 x 28 x 28 -> ndf x 14 x 14
            nn.Conv2d(1, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            # -> (ndf*2) x 7 x 7
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            # -> 1 x 1 x 1
            nn.Conv2d(ndf * 2, 1, 7, 1, 0, bias=False),
            nn.Sigmoid()
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


def main():
    parser = argparse.ArgumentParser(description='DCGAN FashionMNIST Example')
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--samples', type=int, default=0,
                        help='use only the first N images (0: all)')
    parser.add_argument('--nz', type=int, default=100, help='size of the latent z vector')
    parser.add_argument('--ngf', type=int, default=64)
    parser.add_argument('--ndf', type=int, default=64)
    parser.add_argument('--niter', type=int, default=1, help='number of epochs')
    parser.add_argument('--iters', type=int, default=0, help='stop after N batches (0: all)')
    parser.add_argument('--lr', type=float, default=0.0002)
    parser.add_argument('--beta1', type=float, default=0.5)
    parser.add_argument('--outf', default='out')
    parser.add_argument('--manualSeed', type=int, default=999)
    args = parser.parse_args()
    torch.manual_seed(args.manualSeed)
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    os.makedirs(args.outf, exist_ok=True)

    dataset = dset.FashionMNIST(root='data', download=True,
                                transform=transforms.Compose([
                                    transforms.ToTensor(),
                                    transforms.Normalize((0.5,), (0.5,)),
                                ]))
    if args.samples:
        dataset = torch.utils.data.Subset(dataset, range(args.samples))
    dataloader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size, shuffle=True)

    netG = Generator(args.nz, args.ngf).to(device)
    netG.apply(weights_init)
    netD = Discriminator(args.ndf).to(device)
    netD.apply(weights_init)
    print(netG)
    print(netD)

    criterion = nn.BCELoss()
    fixed_noise = torch.randn(args.batch_size, args.nz, 1, 1, device=device)
    real_label = 1.
    fake_label = 0.
    optimizerD = optim.Adam(netD.parameters(), lr=args.lr, betas=(args.beta1, 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=args.lr, betas=(args.beta1, 0.999))

    done = 0
    for epoch in range(args.niter):
        for i, data in enumerate(dataloader, 0):
            # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
            netD.zero_grad()
            real = data[0].to(device)
            batch_size = real.size(0)
            label = torch.full((batch_size,), real_label, dtype=real.dtype, device=device)
            output = netD(real)
            errD_real = criterion(output, label)
            errD_real.backward()
            D_x = output.mean().item()

            noise = torch.randn(batch_size, args.nz, 1, 1, device=device)
            fake = netG(noise)
            label.fill_(fake_label)
            output = netD(fake.detach())
            errD_fake = criterion(output, label)
            errD_fake.backward()
            D_G_z1 = output.mean().item()
            errD = errD_real + errD_fake
            optimizerD.step()

            # (2) update G: maximize log(D(G(z)))
            netG.zero_grad()
            label.fill_(real_label)
            output = netD(fake)
            errG = criterion(output, label)
            errG.backward()
            D_G_z2 = output.mean().item()
            optimizerG.step()

            print('[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f'
                  % (epoch, args.niter, i, len(dataloader), errD.item(), errG.item(), D_x,
                     D_G_z1, D_G_z2))
            if i == 0:
                vutils.save_image(real, '%s/real_samples.png' % args.outf, normalize=True)
                with torch.no_grad():
                    fake = netG(fixed_noise)
                vutils.save_image(fake.detach(), '%s/fake_samples_epoch_%03d.png'
                                  % (args.outf, epoch), normalize=True)
            done += 1
            if args.iters and done >= args.iters:
                return


if __name__ == '__main__':
    main()
