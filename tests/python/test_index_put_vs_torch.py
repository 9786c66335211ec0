# Tensor.index_put_ / torch.index_put side by side with PyTorch 1.13:
# overwrite and accumulate (repeated positions add up), several index
# tensors broadcast together, negative indices, bool masks, values
# broadcast, gradients of self and values, torch's messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

RNG = np.random.default_rng(261)


class IndexPutVsTorch(unittest.TestCase):
    def run_both(self, shape, make_indices, vshape, accumulate, inplace=True):
        x = RNG.standard_normal(shape).astype(np.float32)
        v = RNG.standard_normal(vshape).astype(np.float32)
        results = []
        for lib in (Gnn, torch):
            base = lib.tensor(x, requires_grad=True)
            vals = lib.tensor(v, requires_grad=True)
            indices = make_indices(lib)
            if inplace:
                y = base * 1.0
                y.index_put_(indices, vals, accumulate=accumulate)
            else:
                y = lib.index_put(base, indices, vals, accumulate)
            w = lib.tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
            (y * w).sum().backward()
            results.append((y.detach().numpy(), base.grad.numpy(), vals.grad.numpy()))
        for g, t in zip(*results):
            np.testing.assert_allclose(g, t, rtol=1e-5, atol=1e-5)

    def test_values_and_gradients(self):
        for accumulate in (False, True):
            for inplace in (True, False):
                self.run_both((5, 3), lambda lib: (lib.tensor([0, 2, 4]),), (3, 3), accumulate, inplace)
                self.run_both((4, 3, 2), lambda lib: (lib.tensor([1, -1]), lib.tensor([0, 2])),
                              (2, 2), accumulate, inplace)
                self.run_both((4, 3), lambda lib: (lib.tensor([[0], [3]]), lib.tensor([0, 1, 2])),
                              (3,), accumulate, inplace)                       # broadcast indices
                self.run_both((3, 4), lambda lib: (lib.tensor([[True, False, True, False]] * 3),),
                              (6,), accumulate, inplace)                       # a mask
        # repeated positions add up with accumulate
        self.run_both((5, 3), lambda lib: (lib.tensor([1, 1, 1, 4]),), (4, 3), True)
        self.run_both((5,), lambda lib: (lib.tensor([1, 1, 0]),), (), True)

    def test_grad_fn(self):
        # one IndexPutBackward0 node on self, as torch's (not CopySlices of
        # a merged view); broadcast values get their summed gradient
        for accumulate in (False, True):
            out = []
            for lib in (Gnn, torch):
                x = lib.tensor(np.arange(24.).reshape(2, 3, 4), requires_grad=True)
                v = lib.tensor(np.array([1., 2., 3., 4.]), requires_grad=True)
                y = x * 1
                y.index_put_((lib.tensor([0, 1, 0]), lib.tensor([2, 2, 2])), v,
                             accumulate=accumulate)
                name = y.grad_fn.name() if lib is Gnn else type(y.grad_fn).__name__
                (y * lib.tensor(np.arange(24.).reshape(2, 3, 4))).sum().backward()
                out.append((name, x.grad.numpy(), v.grad.numpy()))
            self.assertEqual(out[0][0], 'IndexPutBackward0')
            self.assertEqual(out[0][0], out[1][0])
            np.testing.assert_array_equal(out[0][1], out[1][1])
            np.testing.assert_array_equal(out[0][2], out[1][2])

    def test_python_spelling(self):
        for lib in (Gnn, torch):
            x = lib.zeros(4)
            x.index_put_((lib.tensor([0, 0, 3]),), lib.tensor(2.0), accumulate=True)
            np.testing.assert_array_equal(x.numpy(), [4.0, 0.0, 0.0, 2.0])

    def test_errors(self):
        cases = [
            lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([5]),), lib.tensor(1.), accumulate=True),
            lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([-4]),), lib.tensor(1.), accumulate=True),
            lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0.5]),), lib.tensor(1.)),
            lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0]),) * 3, lib.tensor(1.)),
            lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0, 1]), lib.tensor([0, 1, 2])),
                                                   lib.ones(1)),
        ]
        for case in cases:
            with self.assertRaises(IndexError) as want:
                case(torch)
            with self.assertRaises(GLib.Error) as got:
                case(Gnn)
            self.assertEqual(got.exception.message, str(want.exception))
        cases = [
            lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0, 1]),), lib.ones(3, 4),
                                                   accumulate=True),
            lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0, 1]),),
                                                   lib.ones(2, 4, dtype=lib.float64)),
            lambda lib: lib.zeros(3, 4, requires_grad=True).index_put_((lib.tensor([0]),),
                                                                       lib.tensor(1.)),
        ]
        for case in cases:
            with self.assertRaises(RuntimeError) as want:
                case(torch)
            x = Gnn.zeros(3, 4)
            with self.assertRaises(GLib.Error) as got:
                case(Gnn)
            self.assertEqual(got.exception.message, str(want.exception))
            np.testing.assert_array_equal(x.numpy(), np.zeros((3, 4)))


if __name__ == '__main__':
    unittest.main()
