# Bilinear and F.bilinear side by side with torch 1.13: outputs and every
# gradient (both inputs, weight, bias) on random shapes (batch 1, no batch
# dim, several batch dims, no bias) in float32 and float64, weights through
# a safetensors state file; keys, repr, init bounds, construction errors and
# torch's messages for bad calls (the module unchanged).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import random
import tempfile
import unittest

import numpy as np
import torch

import gnn
import gnn.nn
from gi.repository import GLib, Gnn

from test_io_interop import write_torch_safetensors


def G(t):
    return gnn.from_numpy(t.detach().numpy().copy())


def N(t):
    return t.detach().numpy()


def relative_error(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return np.abs(a - b).max(initial=0.0) / max(np.abs(a).max(initial=0.0), 1e-30)


def pair(in1, in2, out, bias=True, dtype=torch.float32):
    t = torch.nn.Bilinear(in1, in2, out, bias=bias).to(dtype)
    g = gnn.nn.Bilinear(in1, in2, out, bias=bias)
    if dtype == torch.float64:
        g.double()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'torch.safetensors')
        write_torch_safetensors(path, t.state_dict())
        g.load_state_dict(Gnn.StateDict.load(path))
    return t, g


class BilinearVsTorch(unittest.TestCase):
    def test_random_shapes(self):
        rng = random.Random(11)
        torch.manual_seed(3)
        for i in range(16):
            dtype = torch.float64 if i % 2 else torch.float32
            in1, in2, out = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 5)
            bias = rng.random() < 0.75
            lead = rng.choice([(), (1,), (4,), (2, 3)])
            with self.subTest(in1=in1, in2=in2, out=out, bias=bias, lead=lead, dtype=dtype):
                t, g = pair(in1, in2, out, bias, dtype)
                x1 = torch.randn(*lead, in1, dtype=dtype, requires_grad=True)
                x2 = torch.randn(*lead, in2, dtype=dtype, requires_grad=True)
                gx1, gx2 = G(x1), G(x2)
                gx1.requires_grad_(True)
                gx2.requires_grad_(True)
                ty, gy = t(x1, x2), g(gx1, gx2)
                self.assertEqual(tuple(ty.shape), tuple(gy.shape))
                tol = 1e-5 if dtype == torch.float32 else 1e-12
                self.assertLess(relative_error(N(ty), N(gy)), tol)
                w = torch.randn(*ty.shape, dtype=dtype)
                (ty * w).sum().backward()
                (gy * G(w)).sum().backward()
                self.assertLess(relative_error(N(x1.grad), N(gx1.grad)), tol)
                self.assertLess(relative_error(N(x2.grad), N(gx2.grad)), tol)
                params = dict(g.named_parameters())
                for name, p in t.named_parameters():
                    self.assertLess(relative_error(N(p.grad), N(params[name].grad)), tol, name)

    def test_functional(self):
        w, b = torch.randn(3, 2, 4, dtype=torch.float64), torch.randn(3, dtype=torch.float64)
        x1, x2 = torch.randn(5, 2, dtype=torch.float64), torch.randn(5, 4, dtype=torch.float64)
        want = torch.nn.functional.bilinear(x1, x2, w, b)
        got = gnn.nn.functional.bilinear(G(x1), G(x2), G(w), G(b))
        self.assertLess(relative_error(N(want), N(got)), 1e-12)
        got = gnn.nn.functional.bilinear(G(x1), G(x2), G(w))
        self.assertLess(relative_error(N(torch.nn.functional.bilinear(x1, x2, w)), N(got)), 1e-12)

    def test_keys_repr_init(self):
        t, g = torch.nn.Bilinear(20, 3, 4), gnn.nn.Bilinear(20, 3, 4)
        self.assertEqual(list(t.state_dict()), list(g.state_dict().keys()))
        self.assertEqual(repr(t), repr(g))
        self.assertEqual(repr(torch.nn.Bilinear(2, 3, 4, bias=False)),
                         repr(gnn.nn.Bilinear(2, 3, 4, bias=False)))
        self.assertIsNone(gnn.nn.Bilinear(2, 3, 4, bias=False).bias)
        bound = 1 / np.sqrt(20)
        for name, p in g.named_parameters():
            v = N(p)
            self.assertLessEqual(np.abs(v).max(), bound, name)
            self.assertGreater(np.abs(v).max(), 0.5 * bound, name)
        self.assertEqual(tuple(g.weight.shape), (4, 20, 3))

    def test_errors(self):
        t, g = pair(2, 3, 4)
        before = N(g.weight).copy()
        cases = [((5, 2), (5, 3, 1)), ((5, 2), (4, 3)), ((5, 3), (5, 3)), ((5, 2), (5, 2))]
        for s1, s2 in cases:
            with self.assertRaises(RuntimeError) as want:
                t(torch.randn(*s1), torch.randn(*s2))
            with self.assertRaises(GLib.Error) as got:
                g(gnn.from_numpy(np.zeros(s1, np.float32)), gnn.from_numpy(np.zeros(s2, np.float32)))
            self.assertEqual(str(want.exception), got.exception.message)
        with self.assertRaises(RuntimeError) as want:
            t(torch.randn(5, 2, dtype=torch.float64), torch.randn(5, 3))
        with self.assertRaises(GLib.Error) as got:
            g(gnn.from_numpy(np.zeros((5, 2))), gnn.from_numpy(np.zeros((5, 3), np.float32)))
        self.assertEqual(str(want.exception), got.exception.message)
        with self.assertRaises(TypeError) as want:
            t(torch.randn(5, 2))
        with self.assertRaises(GLib.Error) as got:
            g(gnn.from_numpy(np.zeros((5, 2), np.float32)))
        self.assertEqual(str(want.exception), got.exception.message)
        np.testing.assert_array_equal(before, N(g.weight))

    def test_construction_errors(self):
        with self.assertRaises(RuntimeError) as want:
            torch.nn.Bilinear(-1, 3, 4)
        with self.assertRaises(GLib.Error) as got:
            gnn.nn.Bilinear(-1, 3, 4)
        self.assertEqual(str(want.exception), got.exception.message)
        with self.assertRaises(ZeroDivisionError) as want:
            torch.nn.Bilinear(0, 3, 4)
        with self.assertRaises(GLib.Error) as got:
            gnn.nn.Bilinear(0, 3, 4)
        self.assertEqual(str(want.exception), got.exception.message)


if __name__ == '__main__':
    unittest.main()
