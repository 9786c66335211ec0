# torch.nn.functional's vector functions side by side with PyTorch 1.13:
# normalize, cosine_similarity, pairwise_distance (values and gradients,
# zero vectors and broadcasting included), torch.norm over dims, one_hot,
# and their error messages.
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
RNG = np.random.default_rng(5)


def both(fn, *arrays, dtype=np.float32):
    """fn(lib, *tensors) for Gnn and torch: values and the gradients of
    sum(y * w) with respect to every input."""
    out = []
    w = None
    for lib in (Gnn, torch):
        ts = [lib.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
        y = fn(lib, *ts)
        if w is None:
            w = RNG.standard_normal(tuple(y.shape)).astype(dtype)
        (y * lib.tensor(w)).sum().backward()
        # torch leaves no gradient where its formula has none (the 0-norm)
        out.append([y.detach().numpy()] + [np.zeros(t.shape) if t.grad is None else t.grad.numpy()
                                           for t in ts])
    return out


class VectorVsTorch(unittest.TestCase):
    def check(self, fn, *arrays, dtype=np.float32, tol=1e-5):
        got, want = both(fn, *arrays, dtype=dtype)
        for g, t in zip(got, want):
            np.testing.assert_allclose(g, t, rtol=tol, atol=tol)

    def test_normalize(self):
        x = RNG.standard_normal((4, 5))
        x[1] = 0.0                           # a zero row: gradient 1/eps
        for p, dim in ((2.0, 1), (1.0, 0), (3.0, -1), (float('inf'), 1)):
            for dtype in (np.float32, np.float64):
                self.check(lambda lib, t: (F if lib is Gnn else TF).normalize(t, p, dim) * 1e-6
                           if lib is not None else None, x, dtype=dtype)

    def test_cosine_similarity(self):
        a, b = RNG.standard_normal((4, 6)), RNG.standard_normal((4, 6))
        a[2] = 0.0
        self.check(lambda lib, x, y: (F if lib is Gnn else TF).cosine_similarity(x, y), a, b)
        self.check(lambda lib, x, y: (F if lib is Gnn else TF).cosine_similarity(x, y, dim=0),
                   a, b, dtype=np.float64)
        c = RNG.standard_normal((1, 6))     # broadcast
        self.check(lambda lib, x, y: (F if lib is Gnn else TF).cosine_similarity(x, y, -1), a, c)

    def test_pairwise_distance(self):
        a, b = RNG.standard_normal((5, 3)), RNG.standard_normal((5, 3))
        for p in (2.0, 1.0, 3.5, float('inf')):
            for keepdim in (False, True):
                self.check(lambda lib, x, y: (F if lib is Gnn else TF).pairwise_distance(
                    x, y, p, keepdim=keepdim), a, b)
        self.check(lambda lib, x, y: (F if lib is Gnn else TF).pairwise_distance(x, y), a, a[:1])

    def test_norm(self):
        x = RNG.standard_normal((3, 4, 2))
        x[0, 1] = [2.0, -2.0]                # ties for the inf norm
        for p in (2.0, 1.0, 0.5, 3.0, float('inf'), -float('inf'), 0.0):
            for dims in ([1], [0, 2], [-1]):
                for keepdim in (False, True):
                    self.check(lambda lib, t: t.norm(p, dims, keepdim) if lib is Gnn
                               else torch.norm(t, p, dims, keepdim), x, dtype=np.float64)
        g = Gnn.tensor(x, requires_grad=True)
        t = torch.tensor(x, requires_grad=True)
        self.assertEqual(g.norm(2.0, [1], False).get_grad_fn_name(),
                         type(torch.norm(t, 2.0, [1]).grad_fn).__name__)

    def test_one_hot(self):
        idx = np.array([[0, 3], [2, 1]])
        for n in (-1, 5):
            self.assertEqual(F.one_hot(Gnn.tensor(idx), n).tolist(),
                             TF.one_hot(torch.tensor(idx), n).tolist())
        self.assertEqual(F.one_hot(Gnn.tensor(idx)).dtype, Gnn.int64)
        for args in (([1, -1], -1), ([1, 4], 3), ([], -1)):
            with self.assertRaises(RuntimeError) as want:
                TF.one_hot(torch.tensor(args[0], dtype=torch.int64), args[1])
            with self.assertRaises(GLib.Error) as got:
                F.one_hot(Gnn.tensor(args[0], dtype=Gnn.int64), args[1])
            self.assertEqual(got.exception.message, str(want.exception))
        with self.assertRaises(GLib.Error) as got:
            F.one_hot(Gnn.tensor([1.0]))
        self.assertEqual(got.exception.message, 'one_hot is only applicable to index tensor.')

    def test_errors(self):
        for fn in (lambda m, lib: m.cosine_similarity(lib.zeros(2, 3), lib.zeros(2, 4)),
                   lambda m, lib: m.pairwise_distance(lib.zeros(2, 3), lib.zeros(4, 3)),
                   lambda m, lib: m.normalize(lib.zeros(2, 3), dim=2)):
            with self.assertRaises((RuntimeError, IndexError)) as want:
                fn(TF, torch)
            with self.assertRaises(GLib.Error) as got:
                fn(F, Gnn)
            self.assertEqual(got.exception.message, str(want.exception))


if __name__ == '__main__':
    unittest.main()
