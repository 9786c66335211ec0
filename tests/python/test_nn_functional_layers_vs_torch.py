# torch.nn.functional's linear and dropout side by side with PyTorch 1.13:
# linear's values and gradients (batched inputs, with and without bias, a
# transposed weight), dropout's mask law (values 0 or 1 / (1 - p), the
# gradient the mask, MulBackward0), its identity cases (training=False,
# p=0), p=1, inplace=True returning the input, and the error messages and
# exception types of both.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn.functional as TF

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

F = Gnn.nn.functional
RNG = np.random.default_rng(17)


class LinearVsTorch(unittest.TestCase):
    def run_both(self, x, w, b, weight_t=False):
        out = []
        for lib, m in ((Gnn, F), (torch, TF)):
            t = lib.tensor(x, requires_grad=True)
            wt = lib.tensor(w.T.copy() if weight_t else w, requires_grad=True)
            bt = None if b is None else lib.tensor(b, requires_grad=True)
            y = m.linear(t, wt.t() if weight_t else wt, bt)
            (y * y).sum().backward()
            out.append([y.detach().numpy(), t.grad.numpy(), wt.grad.numpy()] +
                       ([] if b is None else [bt.grad.numpy()]))
        for g, t in zip(*out):
            np.testing.assert_allclose(g, t, rtol=1e-5, atol=1e-5)

    def test_values_and_gradients(self):
        for shape in ((3, 5), (5,), (2, 3, 5)):
            for dtype in (np.float32, np.float64):
                x = RNG.standard_normal(shape).astype(dtype)
                w = RNG.standard_normal((4, 5)).astype(dtype)
                b = RNG.standard_normal(4).astype(dtype)
                with self.subTest(shape=shape, dtype=dtype.__name__):
                    self.run_both(x, w, b)
                    self.run_both(x, w, None)
                    self.run_both(x, w, b, weight_t=True)

    def test_no_grad_matches_module(self):
        x = RNG.standard_normal((6, 5)).astype(np.float32)
        lin = Gnn.nn.Linear(5, 3)
        want = lin(Gnn.tensor(x)).detach().numpy()
        with Gnn.no_grad():
            got = F.linear(Gnn.tensor(x), lin.weight, lin.bias).numpy()
        np.testing.assert_array_equal(got, want)

    def test_errors(self):
        for shapes in (((2, 3), (4, 5), None), ((2, 3), (4, 3), (3,))):
            with self.assertRaises(RuntimeError) as want:
                TF.linear(*(None if s is None else torch.zeros(s) for s in shapes))
            with self.assertRaises(GLib.Error) as got:
                F.linear(*(None if s is None else Gnn.zeros(*s) for s in shapes))
            if shapes[2] is None:
                self.assertEqual(got.exception.message, str(want.exception))


class DropoutVsTorch(unittest.TestCase):
    def test_mask_law_and_gradient(self):
        for p, dtype in ((0.3, np.float32), (0.75, np.float64)):
            x = RNG.uniform(1.0, 2.0, (200, 50)).astype(dtype)
            g = Gnn.tensor(x, requires_grad=True)
            y = F.dropout(g, p)
            self.assertEqual(y.get_grad_fn_name(),
                             type(TF.dropout(torch.tensor(x, requires_grad=True), p).grad_fn).__name__)
            y.sum().backward()
            mask = g.grad.numpy()
            self.assertEqual(g.grad.dtype, g.dtype)
            np.testing.assert_allclose(np.unique(mask), [0.0, 1.0 / (1.0 - p)], rtol=1e-6)
            np.testing.assert_allclose(y.detach().numpy(), x * mask, rtol=1e-6)
            kept = np.count_nonzero(mask) / mask.size
            self.assertLess(abs(kept - (1.0 - p)), 0.03)     # 10,000 draws

    def test_identity_cases(self):
        for lib, m in ((Gnn, F), (torch, TF)):
            t = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
            self.assertIs(m.dropout(t, 0.5, training=False), t)
            self.assertIs(m.dropout(t, 0.0), t)
            zero = m.dropout(t, 1.0)
            self.assertEqual(zero.tolist(), [0.0, 0.0, 0.0])
            self.assertIsNotNone(zero.grad_fn if lib is torch else zero.get_grad_fn_name())

    def test_inplace(self):
        g = Gnn.tensor(np.ones(1000, np.float32))
        self.assertIs(F.dropout(g, 0.5, inplace=True), g)
        self.assertEqual(set(np.unique(g.numpy())), {0.0, 2.0})

    def test_errors(self):
        for p in (-0.1, 1.5):
            with self.assertRaises(ValueError) as want:
                TF.dropout(torch.zeros(3), p)
            with self.assertRaises(ValueError) as got:
                F.dropout(Gnn.zeros(3), p)
            self.assertIsInstance(got.exception, GLib.Error)
            self.assertEqual(str(got.exception), str(want.exception))
        with self.assertRaises(RuntimeError) as want:
            TF.dropout(torch.tensor([1, 2]), 0.5)
        with self.assertRaises(GLib.Error) as got:
            F.dropout(Gnn.tensor([1, 2]), 0.5)
        self.assertEqual(got.exception.message, str(want.exception))


if __name__ == '__main__':
    unittest.main()
