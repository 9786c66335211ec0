# torch.linalg's solve, inv, det, slogdet and cholesky (LAPACK) side by
# side with PyTorch 1.13: values in float32 and float64, batches and
# broadcast batches, the vector form of solve, gradients of every input,
# grad_fn names, and torch's messages for singular, non-square,
# non-positive-definite and integer input.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

RNG = np.random.default_rng(26)


def well_conditioned(*shape):
    """Random square matrices with a dominant diagonal."""
    a = RNG.standard_normal(shape)
    return a + shape[-1] * np.eye(shape[-1])


def spd(*shape):
    a = RNG.standard_normal(shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def both(fn, *arrays, dtype=np.float64):
    """fn(lib, *tensors) for Gnn and torch: outputs, then the gradients of
    sum(y * w) for every input."""
    out = []
    w = None
    for lib in (Gnn, torch):
        ts = [lib.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
        y = fn(lib, *ts)
        if w is None:
            w = RNG.standard_normal(tuple(y.shape)).astype(dtype)
        (y * lib.tensor(w)).sum().backward()
        out.append(([y.detach().numpy()] + [t.grad.numpy() for t in ts], y.grad_fn.name()))
    return out


class LinalgVsTorch(unittest.TestCase):
    def check(self, fn, *arrays, name=True):
        for dtype, tol in ((np.float64, 1e-9), (np.float32, 2e-4)):
            (got, gname), (want, tname) = both(fn, *arrays, dtype=dtype)
            if name:
                self.assertEqual(gname, tname)
            for g, t in zip(got, want):
                self.assertEqual(g.dtype, t.dtype)
                np.testing.assert_allclose(g, t, rtol=tol, atol=tol)

    def test_solve(self):
        for a, b in ((well_conditioned(3, 3), RNG.standard_normal((3, 2))),
                     (well_conditioned(3, 3), RNG.standard_normal(3)),          # a vector
                     (well_conditioned(2, 4, 4), RNG.standard_normal((2, 4))),   # batch of vectors
                     (well_conditioned(2, 3, 3), RNG.standard_normal((3, 1))),   # B broadcast
                     (well_conditioned(3, 3), RNG.standard_normal((2, 3, 2))),   # A broadcast
                     (well_conditioned(1, 3, 3), RNG.standard_normal((2, 3, 5)))):
            self.check(lambda lib, x, y: lib.linalg.solve(x, y), a, b)
        self.check(lambda lib, x, y: lib.linalg.solve(x, y, left=False),
                   well_conditioned(3, 3), RNG.standard_normal((2, 3)), name=False)

    def test_inv(self):
        for shape in ((1, 1), (4, 4), (2, 3, 3)):
            self.check(lambda lib, x: lib.linalg.inv(x), well_conditioned(*shape))
        self.check(lambda lib, x: lib.inverse(x), well_conditioned(3, 3))
        self.check(lambda lib, x: x.inverse(), well_conditioned(3, 3))

    def test_det_slogdet(self):
        a = well_conditioned(2, 3, 3)
        a[1] *= -1                                   # a negative determinant
        self.check(lambda lib, x: lib.linalg.det(x), a)
        self.check(lambda lib, x: lib.det(x[0]), a)
        self.check(lambda lib, x: lib.linalg.slogdet(x).logabsdet, a)
        self.check(lambda lib, x: lib.slogdet(x)[1], a)
        for lib in (Gnn, torch):
            s = lib.linalg.slogdet(lib.tensor(a)).sign
            np.testing.assert_array_equal(s.numpy(), [1.0, -1.0])

    def test_singular_det(self):
        for lib in (Gnn, torch):
            s = lib.tensor([[1., 2.], [2., 4.]])
            self.assertEqual(float(lib.linalg.det(s)), 0.0)
            sign, logabs = lib.linalg.slogdet(s)
            self.assertEqual(float(sign), 0.0)
            self.assertEqual(float(logabs), float('-inf'))
        for lib in (Gnn, torch):
            self.assertEqual(float(lib.linalg.det(lib.zeros(0, 0))), 1.0)
            self.assertEqual(tuple(lib.linalg.inv(lib.zeros(0, 0)).shape), (0, 0))

    def test_cholesky(self):
        for shape in ((1, 1), (4, 4), (3, 2, 2)):
            a = spd(*shape)
            self.check(lambda lib, x: lib.linalg.cholesky(x), a)
            self.check(lambda lib, x: lib.linalg.cholesky(x, upper=True), a)
        # only one triangle is read: the gradient is torch's symmetrized one
        a = spd(3, 3)
        a[0, 2] = 100.0
        self.check(lambda lib, x: lib.linalg.cholesky(x), a)

    def test_errors(self):
        singular = [[1., 2.], [2., 4.]]
        cases = [
            lambda lib: lib.linalg.solve(lib.tensor(singular), lib.ones(2)),
            lambda lib: lib.linalg.solve(lib.stack([lib.eye(2), lib.tensor(singular)]), lib.ones(2, 2)),
            lambda lib: lib.linalg.inv(lib.tensor(singular)),
            lambda lib: lib.linalg.inv(lib.stack([lib.eye(2), lib.tensor(singular)])),
            lambda lib: lib.linalg.inv(lib.ones(2, 3)),
            lambda lib: lib.linalg.inv(lib.ones(3)),
            lambda lib: lib.linalg.inv(lib.ones(2, 2, dtype=lib.long)),
            lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(2, dtype=lib.float64)),
            lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(3)),
            lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(3, 1)),
            lambda lib: lib.linalg.solve(lib.eye(2).expand(3, 2, 2), lib.ones(4, 2, 1)),
            lambda lib: lib.linalg.cholesky(lib.tensor(singular)),
            lambda lib: lib.linalg.cholesky(lib.stack([lib.eye(2), lib.tensor(singular)])),
            lambda lib: lib.linalg.cholesky(lib.ones(2, 3)),
            lambda lib: lib.linalg.det(lib.ones(2, 3)),
            lambda lib: lib.linalg.det(lib.ones(2, 2, dtype=lib.long)),
            lambda lib: lib.linalg.slogdet(lib.ones(2, 2, dtype=lib.long)),
            lambda lib: lib.linalg.cholesky(lib.ones(2, 2, dtype=lib.long)),
            lambda lib: lib.linalg.solve(lib.ones(2, 2, dtype=lib.long), lib.ones(2, dtype=lib.long)),
        ]
        for case in cases:
            with self.assertRaises(RuntimeError) as want:
                case(torch)
            with self.assertRaises(GLib.Error) as got:
                case(Gnn)
            self.assertEqual(got.exception.message, str(want.exception))


if __name__ == '__main__':
    unittest.main()
