# gnn.convert and gnn-convert side by side with torch 1.13: torchvision's
# ResNet-18 and a Transformer encoder converted from the module (from_torch), from a .pt of the whole
# module (python3 -m gnn.convert) and from a state dict plus the Gnn
# architecture (the C tool gnn-convert): the same outputs within 1e-5, and
# the model file loads in C with nothing but the file. Layers without a
# table entry are named in the error.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch
import torch.nn as tnn
import torchvision

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402
from gnn import convert  # noqa: E402

BUILD = os.environ.get('GNN_BUILD_ROOT', 'build')


def resnet18():
    torch.manual_seed(0)
    model = torchvision.models.resnet18()
    model.train()
    with torch.no_grad():   # running statistics that are not 0 and 1
        model(torch.randn(4, 3, 64, 64))
    return model.eval()


def gnn_output(model, x):
    model.eval()
    return model(Gnn.Tensor.from_numpy(x.numpy())).numpy()


class Convert(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='gnn-convert-')
        cls.resnet = resnet18()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_resnet18_from_module(self):
        torch.manual_seed(1)
        x = torch.randn(1, 3, 224, 224)
        model, diff = convert.from_torch(self.resnet, x)
        self.assertLess(diff, 1e-5)
        self.assertEqual(list(model.state_dict().keys()), list(self.resnet.state_dict().keys()))
        self.assertIsInstance(model.layer1[0], Gnn.BasicBlock)
        self.assertIn('(downsample): Sequential(', repr(model.layer2[0]))
        with torch.no_grad():
            expected = self.resnet(x).numpy()
        np.testing.assert_allclose(gnn_output(model, x), expected, atol=1e-5, rtol=0)

    def test_resnet18_whole_module_file_then_c(self):
        pt = self.path('resnet18.pt')
        out = self.path('resnet18.safetensors')
        torch.save(self.resnet, pt)
        r = subprocess.run([sys.executable, '-m', 'gnn.convert', pt, '-o', out,
                            '--input-shape', '2,3,64,64'], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('largest output difference', r.stdout)
        # C builds it from the file alone
        model = Gnn.Module.load_model(out, Gnn.LoadFlags.NONE)
        torch.manual_seed(2)
        x = torch.randn(2, 3, 64, 64)
        with torch.no_grad():
            expected = self.resnet(x).numpy()
        np.testing.assert_allclose(gnn_output(model, x), expected, atol=1e-5, rtol=0)

        # the C tool: torch's state dict + that architecture
        weights = self.path('resnet18-weights.pth')
        torch.save({'model': self.resnet.state_dict(), 'epoch': 90}, weights)
        again = self.path('resnet18-again.safetensors')
        r = subprocess.run([os.path.join(BUILD, 'tools', 'gnn-convert'), '--arch', out,
                            '--key', 'model.', weights, '-o', again],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('written to', r.stdout)
        model = Gnn.Module.load_model(again, Gnn.LoadFlags.NONE)
        np.testing.assert_allclose(gnn_output(model, x), expected, atol=1e-5, rtol=0)
        # without --key the checkpoint's keys do not fit
        r = subprocess.run([os.path.join(BUILD, 'tools', 'gnn-convert'), '--arch', out, weights,
                            '-o', again], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn('Missing key(s) in state_dict: "conv1.weight"', r.stderr)

    def test_module_factory_and_weights(self):
        weights = self.path('w.pth')
        torch.save(self.resnet.state_dict(), weights)
        out = self.path('factory.safetensors')
        r = subprocess.run([sys.executable, '-m', 'gnn.convert', '--module',
                            'torchvision.models:resnet18', '--weights', weights, '-o', out,
                            '--input-shape', '1,3,32,32'], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIsInstance(Gnn.load(out), Gnn.Sequential)

    def test_flags_and_small_layers(self):
        torch.manual_seed(3)
        m = tnn.Sequential(tnn.Linear(6, 5), tnn.BatchNorm1d(5), tnn.GELU(approximate='tanh'),
                           tnn.Dropout(0.1), tnn.Linear(5, 4), tnn.LayerNorm(4), tnn.Tanh(),
                           tnn.Linear(4, 3), tnn.LogSoftmax(dim=1))
        m.train()
        m(torch.randn(8, 6))
        m[1].eval()
        m[0].weight.requires_grad_(False)
        model, diff = convert.from_torch(m, torch.randn(3, 6))
        self.assertLess(diff, 1e-5)
        self.assertTrue(model.training)
        self.assertFalse(model[1].training)
        self.assertFalse(model[0].weight.requires_grad)
        self.assertTrue(model[4].weight.requires_grad)

    def test_layers_by_signature(self):
        # DCGAN's generator, a super-resolution tail and a style-transfer block:
        # no entries, built from torch's signatures and attributes
        torch.manual_seed(4)
        m = tnn.Sequential(tnn.ConvTranspose2d(8, 6, 4, 2, 1, bias=False), tnn.BatchNorm2d(6),
                           tnn.ReflectionPad2d(1), tnn.Conv2d(6, 8, 3), tnn.InstanceNorm2d(8, affine=True),
                           tnn.Upsample(scale_factor=2, mode='bilinear', align_corners=False),
                           tnn.PixelShuffle(2), tnn.GroupNorm(1, 2), tnn.AdaptiveAvgPool2d((3, 2)),
                           tnn.Flatten(), tnn.Unflatten(1, (2, 6)), tnn.Dropout1d(0.2))
        m.eval()
        model, diff = convert.from_torch(m, torch.randn(2, 8, 5, 5))
        self.assertLess(diff, 1e-5)
        self.assertEqual(repr(model), repr(m))
        # a configuration the attributes do not carry is refused, not lost
        shuffle = tnn.PixelShuffle(2)
        shuffle.extra_repr = lambda: 'upscale_factor=3'
        with self.assertRaisesRegex(NotImplementedError, 'Gnn builds'):
            convert.from_torch(tnn.Sequential(shuffle))

    def test_transformer_encoder_then_c(self):
        # a Transformer encoder built in torch: same outputs within 1e-5,
        # then rebuilt in C from the model file alone
        torch.manual_seed(3)
        layer = tnn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                            batch_first=True, norm_first=True)
        encoder = tnn.TransformerEncoder(layer, num_layers=3, norm=tnn.LayerNorm(32))
        x = torch.randn(2, 7, 32)
        model, diff = convert.from_torch(encoder, x)
        self.assertLess(diff, 1e-5)
        self.assertIsInstance(model, Gnn.TransformerEncoder)
        self.assertEqual(list(model.state_dict().keys()), list(encoder.state_dict().keys()))
        self.assertEqual(repr(model), repr(encoder))
        out = self.path('encoder.safetensors')
        Gnn.Module.save_model(model, out, None)
        again = Gnn.Module.load_model(out, Gnn.LoadFlags.NONE)
        encoder.eval()
        with torch.no_grad():
            expected = encoder(x).numpy()
        np.testing.assert_allclose(gnn_output(again, x), expected, atol=1e-5, rtol=0)
        # decoder layers with gelu convert too; an activation Gnn lacks is named
        decoder = tnn.TransformerDecoder(
            tnn.TransformerDecoderLayer(16, 2, 32, activation='gelu'), num_layers=2)
        converted, _ = convert.from_torch(decoder)
        self.assertEqual(list(converted.state_dict().keys()), list(decoder.state_dict().keys()))
        odd = tnn.TransformerEncoderLayer(8, 2, 16, activation=torch.tanh)
        with self.assertRaisesRegex(NotImplementedError, 'TransformerEncoderLayer with activation'):
            convert.from_torch(odd)

    def test_layers_without_an_entry(self):
        with self.assertRaisesRegex(NotImplementedError,
                                    "no converter for torch's torch.nn.modules.distance."
                                    "PairwiseDistance"):
            convert.from_torch(tnn.PairwiseDistance())
        # a layer Gnn has converts from its declared signature
        self.assertEqual(repr(convert.from_torch(tnn.RReLU(0.1, 0.2))[0]),
                         'RReLU(lower=0.1, upper=0.2)')
        self.assertEqual(repr(convert.from_torch(tnn.ChannelShuffle(2))[0]), 'ChannelShuffle(groups=2)')
        self.assertEqual(repr(convert.from_torch(tnn.FractionalMaxPool2d(2, output_size=2))[0]),
                         'FractionalMaxPool2d()')

        class Custom(tnn.Module):
            def forward(self, x):
                return x
        with self.assertRaisesRegex(NotImplementedError, r'0 \(Custom\).*CONVERTERS'):
            convert.from_torch(tnn.Sequential(Custom()))


if __name__ == '__main__':
    unittest.main()
