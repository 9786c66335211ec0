# The models of PyTorch's own examples that use the single-input layers,
# written once as in pytorch/examples and built twice, over `torch` and over
# `gnn` (import gnn as torch): fast-neural-style's TransformerNet
# (ReflectionPad2d, InstanceNorm2d, F.interpolate), DCGAN's generator and
# discriminator (ConvTranspose2d, BatchNorm2d, LeakyReLU, weights_init
# through Module.apply) and the super-resolution net (PixelShuffle). The
# same state dict in both; outputs, the input's and every parameter's
# gradient within 1e-5 relative (1e-4 for the style net, see there), in
# training and eval mode.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import torch

import gnn
from layer_parity import check_forward_backward, check_state_dict_keys, load_torch_into_gnn


def transformer_net(torch):
    """pytorch/examples fast_neural_style/neural_style/transformer_net.py"""
    class TransformerNet(torch.nn.Module):
        def __init__(self):
            super(TransformerNet, self).__init__()
            # Initial convolution layers
            self.conv1 = ConvLayer(3, 32, kernel_size=9, stride=1)
            self.in1 = torch.nn.InstanceNorm2d(32, affine=True)
            self.conv2 = ConvLayer(32, 64, kernel_size=3, stride=2)
            self.in2 = torch.nn.InstanceNorm2d(64, affine=True)
            self.conv3 = ConvLayer(64, 128, kernel_size=3, stride=2)
            self.in3 = torch.nn.InstanceNorm2d(128, affine=True)
            # Residual layers
            self.res1 = ResidualBlock(128)
            self.res2 = ResidualBlock(128)
            # Upsampling Layers
            self.deconv1 = UpsampleConvLayer(128, 64, kernel_size=3, stride=1, upsample=2)
            self.in4 = torch.nn.InstanceNorm2d(64, affine=True)
            self.deconv2 = UpsampleConvLayer(64, 32, kernel_size=3, stride=1, upsample=2)
            self.in5 = torch.nn.InstanceNorm2d(32, affine=True)
            self.deconv3 = ConvLayer(32, 3, kernel_size=9, stride=1)
            # Non-linearities
            self.relu = torch.nn.ReLU()

        def forward(self, X):
            y = self.relu(self.in1(self.conv1(X)))
            y = self.relu(self.in2(self.conv2(y)))
            y = self.relu(self.in3(self.conv3(y)))
            y = self.res1(y)
            y = self.res2(y)
            y = self.relu(self.in4(self.deconv1(y)))
            y = self.relu(self.in5(self.deconv2(y)))
            y = self.deconv3(y)
            return y

    class ConvLayer(torch.nn.Module):
        def __init__(self, in_channels, out_channels, kernel_size, stride):
            super(ConvLayer, self).__init__()
            reflection_padding = kernel_size // 2
            self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
            self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

        def forward(self, x):
            out = self.reflection_pad(x)
            out = self.conv2d(out)
            return out

    class ResidualBlock(torch.nn.Module):
        def __init__(self, channels):
            super(ResidualBlock, self).__init__()
            self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
            self.in1 = torch.nn.InstanceNorm2d(channels, affine=True)
            self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
            self.in2 = torch.nn.InstanceNorm2d(channels, affine=True)
            self.relu = torch.nn.ReLU()

        def forward(self, x):
            residual = x
            out = self.relu(self.in1(self.conv1(x)))
            out = self.in2(self.conv2(out))
            out = out + residual
            return out

    class UpsampleConvLayer(torch.nn.Module):
        def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
            super(UpsampleConvLayer, self).__init__()
            self.upsample = upsample
            reflection_padding = kernel_size // 2
            self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
            self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

        def forward(self, x):
            x_in = x
            if self.upsample:
                x_in = torch.nn.functional.interpolate(x_in, mode='nearest', scale_factor=self.upsample)
            out = self.reflection_pad(x_in)
            out = self.conv2d(out)
            return out

    return TransformerNet()


def dcgan(torch, nz=16, ngf=8, ndf=8, nc=3):
    """pytorch/examples dcgan/main.py (smaller widths)"""
    nn = torch.nn

    def weights_init(m):
        classname = m.__class__.__name__
        if classname.find('Conv') != -1:
            torch.nn.init.normal_(m.weight, 0.0, 0.02)
        elif classname.find('BatchNorm') != -1:
            torch.nn.init.normal_(m.weight, 1.0, 0.02)
            torch.nn.init.zeros_(m.bias)

    class Generator(nn.Module):
        def __init__(self):
            super(Generator, self).__init__()
            self.main = nn.Sequential(
                nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False),
                nn.BatchNorm2d(ngf * 8),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf * 4),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf * 2),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
                nn.Tanh()
            )

        def forward(self, input):
            return self.main(input)

    class Discriminator(nn.Module):
        def __init__(self):
            super(Discriminator, self).__init__()
            self.main = nn.Sequential(
                nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 2),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 4),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 4, ndf * 8, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 8),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 8, 1, 4, 1, 0, bias=False),
                nn.Sigmoid()
            )

        def forward(self, input):
            output = self.main(input)
            return output.view(-1, 1).squeeze(1)

    netG, netD = Generator(), Discriminator()
    netG.apply(weights_init)
    netD.apply(weights_init)
    return netG, netD


def super_resolution(torch, upscale_factor=3):
    """pytorch/examples super_resolution/model.py (its orthogonal init is
    replaced by the copied state dict)"""
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self, upscale_factor):
            super(Net, self).__init__()
            self.relu = nn.ReLU()
            self.conv1 = nn.Conv2d(1, 64, (5, 5), (1, 1), (2, 2))
            self.conv2 = nn.Conv2d(64, 64, (3, 3), (1, 1), (1, 1))
            self.conv3 = nn.Conv2d(64, 32, (3, 3), (1, 1), (1, 1))
            self.conv4 = nn.Conv2d(32, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
            self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

        def forward(self, x):
            x = self.relu(self.conv1(x))
            x = self.relu(self.conv2(x))
            x = self.relu(self.conv3(x))
            x = self.pixel_shuffle(self.conv4(x))
            return x

    return Net(upscale_factor)


class TestProgramsVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def check(self, gnet, tnet, x, rtol=1e-5):
        check_state_dict_keys(self, gnet, tnet)
        load_torch_into_gnn(gnet, tnet)
        self.assertEqual(repr(gnet), repr(tnet))
        for training in (True, False):
            gnet.train(training)
            tnet.train(training)
            check_forward_backward(self, gnet, tnet, x, rtol)

    def test_fast_neural_style(self):
        # a convolution's bias before an instance norm has a gradient of 0
        # up to rounding (the norm removes it): float32 noise of ~1e-5
        self.check(transformer_net(gnn), transformer_net(torch), torch.rand(2, 3, 32, 28) * 255, rtol=1e-4)

    def test_dcgan(self):
        (gG, gD), (tG, tD) = dcgan(gnn), dcgan(torch)
        # weights_init ran through Module.apply on Gnn's layers too
        self.assertAlmostEqual(float(gG.main[1].weight.numpy().mean()), 1.0, delta=0.02)
        self.assertEqual(float(gG.main[1].bias.numpy().sum()), 0.0)
        self.check(gG, tG, torch.randn(3, 16, 1, 1))
        self.check(gD, tD, torch.randn(3, 3, 64, 64))

    def test_super_resolution(self):
        self.check(super_resolution(gnn), super_resolution(torch), torch.rand(2, 1, 12, 10))


if __name__ == '__main__':
    unittest.main()
