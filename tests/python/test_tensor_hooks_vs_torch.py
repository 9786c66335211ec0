#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Tensor.register_hook side by side with torch 1.13: hooks on leaves and
non-leaves see the same gradients, a returned tensor replaces the gradient
(for .grad, retain_grad and the nodes further down), handles remove hooks,
and a tensor without requires_grad refuses one with torch's message."""

import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402,F401
import gnn  # noqa: E402


def run(T):
    seen = []
    x = T.tensor(np.array([1.0, -2.0, 3.0], dtype='float32'), requires_grad=True)
    w = T.tensor(np.array([0.5, 0.25, 2.0], dtype='float32'), requires_grad=True)
    h1 = x.register_hook(lambda g: seen.append(('x', g.tolist())))
    w.register_hook(lambda g: g * 10)
    y = x * w
    y.retain_grad()
    y.register_hook(lambda g: seen.append(('y', g.tolist())) or g + 1)
    z = (y * y).sum()
    z.backward(retain_graph=True)
    first = [x.grad.tolist(), w.grad.tolist(), y.grad.tolist()]
    h1.remove()
    z.backward()
    return seen, first, [x.grad.tolist(), w.grad.tolist()]


class TensorHooks(unittest.TestCase):
    def test_same_as_torch(self):
        got, want = run(gnn), run(torch)
        self.assertEqual(len(got[0]), len(want[0]))
        for (gn, gv), (tn, tv) in zip(got[0], want[0]):
            self.assertEqual(gn, tn)
            np.testing.assert_allclose(gv, tv, rtol=1e-6)
        for g, t in zip(got[1] + got[2], want[1] + want[2]):
            np.testing.assert_allclose(g, t, rtol=1e-6)

    def test_no_grad_tensor_refuses(self):
        for T in (gnn, torch):
            with self.assertRaises(RuntimeError) as cm:
                T.ones(2).register_hook(lambda g: None)
            self.assertEqual(str(cm.exception),
                             "cannot register a hook on a tensor that doesn't require gradient")


if __name__ == '__main__':
    unittest.main()
