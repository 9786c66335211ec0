#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gnn.vision.models side by side with torchvision 0.14: VGG (11/13/16/19,
with and without batch norm), AlexNet, SqueezeNet 1.0/1.1, MobileNetV2 and
DenseNet-121 with torchvision's state_dict keys, order and shapes;
torchvision's weights copied in give the same outputs (eval and train) and
input gradients at small input sizes; bad input."""

import unittest

import numpy as np

import gnn
from gnn.vision import models as GM

import torch
import torchvision.models as TM


def copy_weights(src, dst):
    dst.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in src.state_dict().items()})


class Classifiers(unittest.TestCase):
    def check_keys(self, name, **kwargs):
        t, g = getattr(TM, name)(**kwargs), getattr(GM, name)(**kwargs)
        ts, gs = t.state_dict(), g.state_dict()
        self.assertEqual(list(ts.keys()), list(gs.keys()), name)
        for key in ts:
            self.assertEqual(tuple(ts[key].shape), tuple(gs[key].shape), key)
        self.assertEqual([n for n, _ in t.named_modules()], [n for n, _ in g.named_modules()])
        return t, g

    def check_outputs(self, name, size, train=False, **kwargs):
        torch.manual_seed(3)
        t, g = self.check_keys(name, num_classes=5, **kwargs)
        copy_weights(t, g)
        # no dropout so that train mode compares too
        for m in t.modules():
            if isinstance(m, torch.nn.Dropout):
                m.p = 0.0
        for key, m in g.named_modules():
            if type(m).__name__ == 'Dropout':
                m.p = 0.0
        t.train(train)
        g.train(train)
        # training batch norms over a batch of 2 at 1x1 are ill-conditioned
        # (outputs are +-1 whatever the input): 4 images in training
        x = torch.randn(4 if train else 2, 3, size, size)
        xt = x.clone().requires_grad_(True)
        xg = gnn.tensor(x.numpy(), requires_grad=True)
        a, b = t(xt), g(xg)
        self.assertEqual(tuple(a.shape), tuple(b.shape))
        np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-4, atol=1e-4,
                                   err_msg=name)
        if train:   # the batch norms' running statistics moved the same way
            ts, gs = t.state_dict(), g.state_dict()
            for key in ts:
                if key.endswith('running_mean') or key.endswith('running_var'):
                    np.testing.assert_allclose(gs[key].numpy(), ts[key].numpy(), rtol=1e-3,
                                               atol=1e-4, err_msg=key)
            return
        a.sum().backward()
        b.sum().backward()
        np.testing.assert_allclose(xg.grad.numpy(), xt.grad.numpy(), rtol=1e-3, atol=1e-4,
                                   err_msg=name)

    def test_vgg_keys(self):
        for name in ('vgg13', 'vgg16_bn', 'vgg19'):
            self.check_keys(name, init_weights=False)

    def test_vgg_outputs(self):
        self.check_outputs('vgg11', 32)
        self.check_outputs('vgg11_bn', 32, train=True)
        self.check_outputs('vgg11_bn', 32)

    def test_alexnet(self):
        self.check_outputs('alexnet', 64)
        t, g = TM.alexnet(), GM.alexnet()
        self.assertEqual(repr(t), repr(g))

    def test_squeezenet(self):
        self.check_outputs('squeezenet1_0', 48)
        self.check_outputs('squeezenet1_1', 48)
        self.assertEqual(repr(TM.squeezenet1_1()), repr(GM.squeezenet1_1()))

    def test_mobilenet_v2(self):
        self.check_outputs('mobilenet_v2', 32)
        self.check_outputs('mobilenet_v2', 64, train=True)
        self.check_keys('mobilenet_v2', width_mult=0.5)

    def test_densenet121(self):
        self.check_outputs('densenet121', 32)
        self.check_outputs('densenet121', 64, train=True)

    def test_initialization_as_torchvision(self):
        vgg = GM.vgg11_bn(num_classes=10).state_dict()
        w = vgg['features.4.weight'].numpy()         # 64 -> 128, fan_out 128 * 9
        self.assertAlmostEqual(w.std() / np.sqrt(2.0 / (128 * 9)), 1.0, delta=0.1)
        self.assertAlmostEqual(vgg['classifier.0.weight'].numpy().std(), 0.01, delta=0.001)
        np.testing.assert_array_equal(vgg['features.0.bias'].numpy(), 0.0)
        np.testing.assert_array_equal(vgg['features.1.weight'].numpy(), 1.0)
        sq = GM.squeezenet1_1(num_classes=10).state_dict()
        self.assertAlmostEqual(sq['classifier.1.weight'].numpy().std(), 0.01, delta=0.002)
        w = sq['features.3.expand3x3.weight'].numpy()   # kaiming uniform, fan_in 16 * 9
        self.assertLessEqual(np.abs(w).max(), np.sqrt(6.0 / (16 * 9)) + 1e-6)
        np.testing.assert_array_equal(sq['features.3.squeeze.bias'].numpy(), 0.0)
        mb = GM.mobilenet_v2(num_classes=10).state_dict()
        self.assertAlmostEqual(mb['classifier.1.weight'].numpy().std(), 0.01, delta=0.002)
        dn = GM.densenet121(num_classes=10).state_dict()
        w = dn['features.conv0.weight'].numpy()          # kaiming normal, fan_in 3 * 49
        self.assertAlmostEqual(w.std() / np.sqrt(2.0 / (3 * 49)), 1.0, delta=0.1)
        np.testing.assert_array_equal(dn['classifier.bias'].numpy(), 0.0)

    def test_bad_input(self):
        with self.assertRaisesRegex(ValueError, 'downloads no weights'):
            GM.vgg16(weights='DEFAULT')
        with self.assertRaisesRegex(Exception, 'Unsupported SqueezeNet version 2_0'):
            GM.SqueezeNet('2_0')
        with self.assertRaisesRegex(Exception, 'num_classes must be positive'):
            GM.densenet121(num_classes=0)
        with self.assertRaisesRegex(Exception, 'stride should be 1 or 2 instead of 3'):
            GM.InvertedResidual(16, 16, 3, 6)
        with self.assertRaisesRegex(Exception, r'cfg\[1\] must be a channel count'):
            GM.VGG([64, 0])
        with self.assertRaisesRegex(ValueError, 'memory_efficient'):
            GM.densenet121(memory_efficient=True)
        with self.assertRaisesRegex(Exception, 'Expected 3D .* or 4D .* input to conv2d'):
            GM.squeezenet1_1()(gnn.zeros(3, 32))


if __name__ == '__main__':
    unittest.main()
