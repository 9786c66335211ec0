#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gnn.vision.models side by side with torchvision 0.14: ResNet-18/34/50
with torchvision's state_dict keys, order, shapes and repr; torchvision's
weights (a state dict and a .pth file) load and give the same outputs in
eval and train mode, and the same gradients; torchvision's initialization;
nn.AdaptiveAvgPool2d against torch's; bad input."""

import os
import tempfile
import unittest

import numpy as np

import gnn
import gnn.nn
from gnn.vision import models as GM

import torch
import torchvision.models as TM


def copy_weights(src, dst):
    dst.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in src.state_dict().items()})


class ResNets(unittest.TestCase):
    def test_keys_shapes_and_repr(self):
        for name in ('resnet18', 'resnet34', 'resnet50'):
            t, g = getattr(TM, name)(), getattr(GM, name)()
            ts, gs = t.state_dict(), g.state_dict()
            self.assertEqual(list(ts.keys()), list(gs.keys()), name)
            for key in ts:
                self.assertEqual(tuple(ts[key].shape), tuple(gs[key].shape), key)
            self.assertEqual(repr(t), repr(g), name)
            self.assertEqual([n for n, _ in t.named_modules()], [n for n, _ in g.named_modules()])

    def check_outputs(self, name, train, size=64):
        torch.manual_seed(1)
        t, g = getattr(TM, name)(num_classes=7), getattr(GM, name)(num_classes=7)
        copy_weights(t, g)
        t.train(train)
        g.train(train)
        x = torch.randn(2, 3, size, size)
        xt = x.clone().requires_grad_(True)
        xg = gnn.tensor(x.numpy(), requires_grad=True)
        a, b = t(xt), g(xg)
        np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-4, atol=1e-4)
        a.sum().backward()
        b.sum().backward()
        np.testing.assert_allclose(xg.grad.numpy(), xt.grad.numpy(), rtol=1e-3, atol=1e-4)
        tp, gp = dict(t.named_parameters()), dict(g.named_parameters())
        for key in ('fc.weight', 'conv1.weight', 'layer4.1.bn2.bias' if name == 'resnet18'
                    else 'layer4.2.bn3.bias'):
            np.testing.assert_allclose(gp[key].grad.numpy(), tp[key].grad.numpy(),
                                       rtol=1e-3, atol=1e-3, err_msg=key)
        if train:   # the batch norms' running statistics moved the same way
            ts, gs = t.state_dict(), g.state_dict()
            for key in ('bn1.running_mean', 'layer1.0.bn1.running_var',
                        'layer2.0.downsample.1.running_mean', 'bn1.num_batches_tracked'):
                np.testing.assert_allclose(gs[key].numpy(), ts[key].numpy(), rtol=1e-4,
                                           atol=1e-5, err_msg=key)

    def test_resnet18_eval_and_train(self):
        self.check_outputs('resnet18', train=False)
        self.check_outputs('resnet18', train=True)

    def test_resnet50_eval(self):
        self.check_outputs('resnet50', train=False, size=48)

    def test_torchvision_file_loads(self):
        t = TM.resnet18().eval()
        g = GM.resnet18().eval()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'resnet18.pth')
            torch.save(t.state_dict(), path)
            g.load_state_dict(gnn.load(path))
        x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
        with torch.no_grad():
            expected = t(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(g(gnn.tensor(x)).detach().numpy(), expected, rtol=1e-4,
                                   atol=1e-4)

    def test_initialization_as_torchvision(self):
        g = GM.resnet18()
        state = g.state_dict()
        for key, fan_out in (('conv1.weight', 64 * 49), ('layer3.0.conv2.weight', 256 * 9),
                             ('layer2.0.downsample.0.weight', 128)):
            w = state[key].numpy()
            self.assertAlmostEqual(w.mean(), 0.0, delta=0.1 * np.sqrt(2 / fan_out) + 1e-3)
            self.assertAlmostEqual(w.std() / np.sqrt(2.0 / fan_out), 1.0, delta=0.1, msg=key)
        np.testing.assert_array_equal(state['layer1.0.bn2.weight'].numpy(), 1.0)
        np.testing.assert_array_equal(state['bn1.bias'].numpy(), 0.0)
        zero = GM.resnet50(zero_init_residual=True).state_dict()
        np.testing.assert_array_equal(zero['layer1.0.bn3.weight'].numpy(), 0.0)
        np.testing.assert_array_equal(zero['layer1.0.bn2.weight'].numpy(), 1.0)
        zero = GM.resnet18(zero_init_residual=True).state_dict()
        np.testing.assert_array_equal(zero['layer4.1.bn2.weight'].numpy(), 0.0)

    def test_resnet_class_and_blocks(self):
        g = GM.ResNet(GM.Bottleneck, [1, 1, 1, 1], num_classes=3)
        t = TM.ResNet(TM.resnet.Bottleneck, [1, 1, 1, 1], num_classes=3)
        self.assertEqual(list(t.state_dict()), list(g.state_dict()))
        block = GM.BasicBlock(64, 128, stride=2, downsample=True)
        self.assertEqual(list(block.state_dict()),
                         list(TM.resnet.BasicBlock(64, 128, 2, torch.nn.Sequential(
                             torch.nn.Conv2d(64, 128, 1, 2, bias=False),
                             torch.nn.BatchNorm2d(128))).state_dict()))
        self.assertEqual(GM.Bottleneck.expansion, 4)

    def test_bad_input(self):
        with self.assertRaisesRegex(ValueError, 'downloads no weights'):
            GM.resnet18(weights='DEFAULT')
        with self.assertRaisesRegex(Exception, 'layers must hold 4'):
            GM.ResNet(GM.BasicBlock, [2, 2, 2])
        with self.assertRaisesRegex(TypeError, 'BasicBlock or Bottleneck'):
            GM.ResNet(gnn.nn.Linear, [2, 2, 2, 2])
        with self.assertRaisesRegex(Exception, 'num_classes must be positive'):
            GM.resnet18(num_classes=0)
        with self.assertRaisesRegex(ValueError, 'groups'):
            GM.resnet18(groups=2)
        with self.assertRaisesRegex(Exception, 'Expected 3D .* or 4D .* input to conv2d'):
            GM.resnet18()(gnn.zeros(3, 32))


class AdaptiveAvgPool2d(unittest.TestCase):
    def test_vs_torch(self):
        x = np.random.default_rng(2).standard_normal((2, 3, 12, 8)).astype(np.float32)
        for size in (1, (1, 1), (3, 2), (6, 8), 4, (12, 1), 5, (None, 3)):
            t, g = torch.nn.AdaptiveAvgPool2d(size), gnn.nn.AdaptiveAvgPool2d(size)
            if not isinstance(size, int):   # an int prints as a pair in Gnn
                self.assertEqual(repr(t), repr(g))
            xt = torch.from_numpy(x).requires_grad_(True)
            xg = gnn.tensor(x, requires_grad=True)
            a, b = t(xt), g(xg)
            np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-5,
                                       atol=1e-6, err_msg=str(size))
            (a * a).sum().backward()
            (b * b).sum().backward()
            np.testing.assert_allclose(xg.grad.numpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-6)
        self.assertEqual(tuple(gnn.nn.AdaptiveAvgPool2d(2)(gnn.zeros(3, 4, 4)).shape), (3, 2, 2))

    def test_errors(self):
        with self.assertRaisesRegex(Exception, 'Expected 3D or 4D'):
            gnn.nn.AdaptiveAvgPool2d(1)(gnn.zeros(4))



if __name__ == '__main__':
    unittest.main()
