# torch.nn.init side by side with PyTorch 1.13: gains and fans exactly,
# eye_ and dirac_ exactly, orthogonal_'s orthogonality, the random
# initializers' bounds and spreads checked statistically with fixed seeds
# (the generators differ from torch's), the in-place fill outside
# autograd, and torch's errors.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import unittest

import numpy as np
import torch
import torch.nn as tnn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

init = Gnn.nn.init


def gnn_param(*shape):
    return Gnn.nn.Parameter(Gnn.zeros(*shape))


class InitVsTorch(unittest.TestCase):
    def test_gains(self):
        for name in ('linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d',
                     'conv_transpose2d', 'conv_transpose3d', 'sigmoid', 'tanh', 'relu',
                     'leaky_relu', 'selu'):
            self.assertEqual(init.calculate_gain(name), tnn.init.calculate_gain(name), name)
        for param in (0.2, 1, 0.0):
            self.assertEqual(init.calculate_gain('leaky_relu', param),
                             tnn.init.calculate_gain('leaky_relu', param))
        for args in (('softmax',), ('leaky_relu', 'x'), ('leaky_relu', True)):
            with self.assertRaises(ValueError) as want:
                tnn.init.calculate_gain(*args)
            with self.assertRaises(ValueError) as got:
                init.calculate_gain(*args)
            self.assertEqual(str(got.exception), str(want.exception))

    def test_fans(self):
        for shape in ((3, 4), (8, 3, 5, 5), (2, 7, 3), (6, 2, 3, 4, 5)):
            self.assertEqual(init._calculate_fan_in_and_fan_out(Gnn.zeros(*shape)),
                             tnn.init._calculate_fan_in_and_fan_out(torch.zeros(*shape)))

    def test_eye_and_dirac_exactly(self):
        for shape in ((3, 5), (4, 2), (3, 3)):
            self.assertEqual(init.eye_(Gnn.zeros(*shape)).tolist(),
                             tnn.init.eye_(torch.zeros(*shape)).tolist())
        for shape, groups in (((4, 2, 3), 1), ((6, 3, 3, 3), 2), ((4, 4, 3, 2), 2),
                              ((2, 2, 3, 3, 3), 1), ((6, 2, 5), 3)):
            self.assertEqual(init.dirac_(Gnn.zeros(*shape), groups).tolist(),
                             tnn.init.dirac_(torch.zeros(*shape), groups).tolist())

    def test_orthogonal(self):
        Gnn.manual_seed(3)
        for shape, gain in (((6, 4), 1.0), ((3, 8), 2.0), ((4, 2, 3), 1.0), ((5, 5), 0.5)):
            w = init.orthogonal_(Gnn.zeros(*shape), gain).numpy().reshape(shape[0], -1)
            small = w @ w.T if w.shape[0] <= w.shape[1] else w.T @ w
            np.testing.assert_allclose(small, gain ** 2 * np.eye(small.shape[0]), atol=1e-5)
            t = tnn.init.orthogonal_(torch.zeros(*shape), gain).numpy().reshape(shape[0], -1)
            np.testing.assert_allclose(np.linalg.svd(w, compute_uv=False),
                                       np.linalg.svd(t, compute_uv=False), atol=1e-5)

    def test_distributions(self):
        # same bounds and spreads as torch's (the streams differ), 64k draws
        Gnn.manual_seed(0)
        torch.manual_seed(0)
        # (fill, upper bound, bounded: the extremes match torch's)
        cases = (
            (lambda m, t: m.uniform_(t, -0.3, 0.7), 0.7, True),
            (lambda m, t: m.normal_(t, 0.5, 0.02), None, False),
            (lambda m, t: m.xavier_uniform_(t, gain=2.0), None, True),
            (lambda m, t: m.xavier_normal_(t), None, False),
            (lambda m, t: m.kaiming_uniform_(t, a=math.sqrt(5)), None, True),
            (lambda m, t: m.kaiming_uniform_(t, mode='fan_out', nonlinearity='relu'), None, True),
            (lambda m, t: m.kaiming_normal_(t, mode='FAN_OUT', nonlinearity='tanh'), None, False),
            (lambda m, t: m.trunc_normal_(t, 0.1, 0.5, -0.5, 0.8), 0.8, True),
        )
        for i, fill in enumerate(cases):
            g, t = fill[0](init, gnn_param(256, 256)), fill[0](tnn.init, tnn.Parameter(
                torch.zeros(256, 256)))
            gv, tv = g.numpy(), t.detach().numpy()
            spread = tv.std()
            self.assertAlmostEqual(float(gv.mean()), float(tv.mean()), delta=0.02 * spread + 1e-4,
                                   msg=str(i))
            self.assertAlmostEqual(float(gv.std()), float(spread), delta=0.02 * spread, msg=str(i))
            if fill[2]:
                self.assertAlmostEqual(float(gv.max()), float(tv.max()), delta=0.01 * spread,
                                       msg=str(i))
                self.assertAlmostEqual(float(gv.min()), float(tv.min()), delta=0.01 * spread,
                                       msg=str(i))
            if fill[1] is not None:
                self.assertLessEqual(gv.max(), fill[1])

    def test_sparse(self):
        Gnn.manual_seed(1)
        g = init.sparse_(Gnn.zeros(10, 300), 0.3, std=0.5).numpy()
        t = tnn.init.sparse_(torch.zeros(10, 300), 0.3, std=0.5).numpy()
        np.testing.assert_array_equal((g == 0).sum(axis=0), (t == 0).sum(axis=0))
        self.assertAlmostEqual(float(g[g != 0].std()), 0.5, delta=0.03)

    def test_in_place_outside_autograd(self):
        for fill in (lambda t: init.xavier_uniform_(t), lambda t: init.zeros_(t),
                     lambda t: init.orthogonal_(t), lambda t: init.eye_(t),
                     lambda t: init.trunc_normal_(t), lambda t: init.sparse_(t, 0.5)):
            p = gnn_param(4, 3)
            self.assertIs(fill(p), p)
            self.assertTrue(p.requires_grad)
            self.assertTrue(p.is_leaf)
        g = Gnn.Generator.new(5)
        a = init.kaiming_normal_(Gnn.zeros(4, 5), generator=g).tolist()
        g.manual_seed(5)
        self.assertEqual(init.kaiming_normal_(Gnn.zeros(4, 5), generator=g).tolist(), a)
        self.assertEqual(init.kaiming_uniform_(Gnn.zeros(0, 3)).shape, (0, 3))

    def test_errors(self):
        cases = (lambda m, lib: m.xavier_uniform_(lib.zeros(3)),
                 lambda m, lib: m.kaiming_normal_(lib.zeros(3, 2), mode='fan_middle'),
                 lambda m, lib: m.kaiming_uniform_(lib.zeros(3, 2), nonlinearity='gelu'),
                 lambda m, lib: m.eye_(lib.zeros(2, 2, 2)),
                 lambda m, lib: m.dirac_(lib.zeros(2, 2)),
                 lambda m, lib: m.dirac_(lib.zeros(3, 2, 2), 2),
                 lambda m, lib: m.orthogonal_(lib.zeros(3)),
                 lambda m, lib: m.sparse_(lib.zeros(3, 2, 2), 0.1))
        for i, case in enumerate(cases):
            with self.assertRaises(ValueError) as want:
                case(tnn.init, torch)
            with self.assertRaises(ValueError) as got:
                case(init, Gnn)
            self.assertIsInstance(got.exception, GLib.Error)
            self.assertEqual(str(got.exception), str(want.exception), i)


if __name__ == '__main__':
    unittest.main()
