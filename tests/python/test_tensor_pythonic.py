#!/usr/bin/python3
# test_tensor_pythonic.py: the torch-style tensor conveniences of the
# override (flatten, sum, mean, max, argmax, softmax, reshape, view,
# transpose, permute, T, requires_grad, grad) against torch 1.13, and the
# C signatures they keep accepting.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


def pair(shape, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return Gnn.Tensor.from_numpy(a), torch.from_numpy(a.copy())


class PythonicTest(unittest.TestCase):
    def test_huge_contiguous_raises(self):
        from gi.repository import GLib
        huge = Gnn.Tensor.ones([1], Gnn.DType.F32).expand([2**40])
        with self.assertRaises(GLib.Error) as caught:
            huge.contiguous()
        self.assertIn('cannot allocate', caught.exception.message)
        with self.assertRaises(GLib.Error):
            huge.clone()


    def check(self, got, want, atol=1e-6):
        self.assertIsInstance(got, Gnn.Tensor)
        self.assertEqual(got.shape, tuple(want.shape))
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=atol)

    def test_flatten(self):
        g, t = pair((2, 3, 4, 5))
        self.check(g.flatten(), t.flatten())
        self.check(g.flatten(1), t.flatten(1))
        self.check(g.flatten(start_dim=1, end_dim=2), t.flatten(start_dim=1, end_dim=2))
        self.check(g.flatten(0, -2), t.flatten(0, -2))

    def test_sum(self):
        g, t = pair((2, 3, 4))
        self.check(g.sum(), t.sum(), atol=1e-5)
        self.check(g.sum(1), t.sum(1))
        self.check(g.sum(dim=-1, keepdim=True), t.sum(dim=-1, keepdim=True))
        self.check(g.sum((0, 2)), t.sum((0, 2)))
        self.check(g.sum([1], False), t.sum(1))          # the C signature
        self.check(g.sum(None, False), t.sum())

    def test_mean(self):
        g, t = pair((2, 3, 4))
        self.check(g.mean(), t.mean())
        self.check(g.mean(0), t.mean(0))
        self.check(g.mean((0, 2), keepdim=True), t.mean((0, 2), keepdim=True))
        self.check(g.mean([0, 2], True), t.mean((0, 2), keepdim=True))

    def test_max_all(self):
        g, t = pair((3, 4))
        self.check(g.max(), t.max())
        self.assertEqual(g.max().item(), t.max().item())

    def test_max_dim_values_indices(self):
        g, t = pair((3, 4, 5))
        for dim, keepdim in ((1, False), (-1, True), (0, False)):
            got, want = g.max(dim, keepdim=keepdim), t.max(dim, keepdim=keepdim)
            values, indices = got                      # unpacks like torch's
            self.check(values, want.values)
            self.check(got.indices, want.indices)
            self.assertEqual(indices.dtype, Gnn.DType.I64)

    def test_max_dims_list_is_amax(self):
        g, t = pair((2, 3, 4))
        self.check(g.max([1], False), t.amax(1))         # the C signature
        self.check(g.max((0, 2), True), t.amax((0, 2), keepdim=True))

    def test_argmax(self):
        g, t = pair((3, 4, 5))
        self.check(g.argmax(), t.argmax())
        self.check(g.argmax(keepdim=True), t.argmax(keepdim=True))
        self.check(g.argmax(1), t.argmax(1))
        self.check(g.argmax(dim=-1, keepdim=True), t.argmax(dim=-1, keepdim=True))
        self.check(g.argmax(1, False), t.argmax(1))

    def test_softmax(self):
        g, t = pair((3, 5))
        self.check(g.softmax(1), t.softmax(1))
        self.check(g.softmax(dim=0), t.softmax(dim=0))
        self.check(g.softmax(-1), t.softmax(-1))

    def test_reshape(self):
        g, t = pair((2, 3, 4))
        self.check(g.reshape(6, 4), t.reshape(6, 4))
        self.check(g.reshape(-1), t.reshape(-1))
        self.check(g.reshape((4, -1)), t.reshape((4, -1)))
        self.check(g.reshape([3, 8]), t.reshape([3, 8]))
        self.check(g.transpose(0, 2).reshape(4, 6), t.transpose(0, 2).reshape(4, 6))

    def test_view(self):
        g, t = pair((2, 3, 4))
        self.check(g.view(6, 4), t.view(6, 4))
        self.check(g.view((-1,)), t.view((-1,)))
        self.check(g.view([2, 12]), t.view([2, 12]))
        self.assertTrue(g.view(24).shares_storage(g))
        with self.assertRaises(GLib.Error):
            g.transpose(0, 2).view(24)                 # torch: RuntimeError too

    def test_transpose(self):
        g, t = pair((2, 3, 4))
        self.check(g.transpose(0, 2), t.transpose(0, 2))
        self.check(g.transpose(-1, 1), t.transpose(-1, 1))

    def test_permute(self):
        g, t = pair((2, 3, 4))
        self.check(g.permute(2, 0, 1), t.permute(2, 0, 1))
        self.check(g.permute((1, 2, 0)), t.permute((1, 2, 0)))
        self.check(g.permute([1, 2, 0]), t.permute([1, 2, 0]))

    def test_T(self):
        g, t = pair((3, 5))
        self.check(g.T, t.T)
        self.assertTrue(g.T.shares_storage(g))
        g1, t1 = pair((4,))
        self.check(g1.T, t1)                           # torch: 1-d T is itself (and warns)

    def test_requires_grad_property(self):
        g, t = pair((2, 3))
        self.assertEqual(g.requires_grad, t.requires_grad)
        g.requires_grad = True
        t.requires_grad = True
        self.assertTrue(g.requires_grad)
        self.assertTrue(g.get_requires_grad())
        g.requires_grad = False
        self.assertFalse(g.get_requires_grad())
        self.assertIs(g.requires_grad_(), g)
        self.assertTrue(g.requires_grad)

    def test_grad(self):
        g, t = pair((2, 3))
        g.requires_grad = True
        t.requires_grad = True
        self.assertIsNone(g.grad)
        self.assertIsNone(t.grad)
        (g * g).sum().backward()
        (t * t).sum().backward()
        self.check(g.grad, t.grad)

    def test_chain_like_torch_code(self):
        # a line as it would be ported from torch
        g, t = pair((4, 2, 3))
        got = g.flatten(1).softmax(dim=1).max(1).indices.sum()
        want = t.flatten(1).softmax(dim=1).max(1).indices.sum()
        self.assertEqual(got.item(), want.item())


if __name__ == '__main__':
    unittest.main()
