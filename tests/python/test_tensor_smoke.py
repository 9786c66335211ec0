#!/usr/bin/python3
# test_tensor_smoke.py: the bindings smoke test for Gnn.Tensor from Python:
# build tensors, matmul, read values back, operators, errors as GLib.Error.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


def floats(values, shape):
    return Gnn.Tensor.new_from_floats(values, shape)


class TensorSmokeTest(unittest.TestCase):

    def assertValues(self, tensor, expected, places=5):
        got = tensor.to_floats()
        self.assertEqual(len(got), len(expected))
        for g, e in zip(got, expected):
            self.assertAlmostEqual(g, e, places=places)

    def test_override_is_loaded(self):
        t = floats([1, 2, 3], [3])
        self.assertTrue(hasattr(Gnn.Tensor, 'from_numpy'))
        self.assertIsInstance(t, Gnn.Tensor)
        self.assertEqual(t.shape, (3,))

    def test_build_and_read_back(self):
        t = floats([1, 2, 3, 4, 5, 6], [2, 3])
        self.assertEqual(t.shape, (2, 3))
        self.assertEqual(t.dtype, Gnn.DType.F32)
        self.assertEqual(t.ndim, 2)
        self.assertEqual(len(t), 2)
        self.assertEqual(t.numel(), 6)
        self.assertEqual(t.get_element([1, 2]), 6.0)
        self.assertValues(t, [1, 2, 3, 4, 5, 6])

    def test_matmul(self):
        a = floats([1, 2, 3, 4, 5, 6], [2, 3])
        b = floats([7, 8, 9, 10, 11, 12], [3, 2])
        c = a.matmul(b)
        self.assertEqual(c.shape, (2, 2))
        self.assertValues(c, [58, 64, 139, 154])
        self.assertValues(a @ b, [58, 64, 139, 154])

    def test_matmul_shape_mismatch_error(self):
        a = floats([1, 2, 3, 4, 5, 6], [2, 3])
        with self.assertRaises(GLib.Error) as cm:
            a @ a
        err = cm.exception
        self.assertEqual(err.domain, 'gnn-error-quark')
        self.assertEqual(err.code, int(Gnn.Error.SHAPE))
        # torch: "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"
        self.assertIn('2x3 and 2x3', err.message)

    def test_broadcast_mismatch_error(self):
        a = floats([1, 2, 3, 4, 5, 6], [2, 3])
        b = floats([1, 2], [2])
        with self.assertRaises(GLib.Error) as cm:
            a + b
        self.assertEqual(cm.exception.code, int(Gnn.Error.SHAPE))
        # torch: "The size of tensor a (3) must match the size of tensor b (2)
        # at non-singleton dimension 1"
        self.assertIn('The size of tensor a (3) must match the size of tensor b (2)',
                      cm.exception.message)

    def test_view_error(self):
        t = floats([1, 2, 3, 4, 5, 6], [2, 3])
        with self.assertRaises(GLib.Error) as cm:
            t.view([4, 4])
        self.assertIn("shape '[4, 4]' is invalid for input of size 6", cm.exception.message)

    def test_item(self):
        self.assertEqual(Gnn.Tensor.new_scalar(2.5, Gnn.DType.F32).item(), 2.5)
        i = Gnn.Tensor.new_scalar(7, Gnn.DType.I64).item()
        self.assertEqual(i, 7)
        self.assertIsInstance(i, int)
        self.assertIs(Gnn.Tensor.new_scalar(1, Gnn.DType.BOOL).item(), True)
        big = Gnn.Tensor.new_from_int64s([2**62 + 1], [1])
        self.assertEqual(big.item(), 2**62 + 1)
        with self.assertRaises(GLib.Error):
            floats([1, 2], [2]).item()

    def test_operators(self):
        a = floats([1, 2, 3, 4], [2, 2])
        b = floats([10, 20], [2])
        self.assertValues(a + b, [11, 22, 13, 24])
        self.assertValues(a - b, [-9, -18, -7, -16])
        self.assertValues(a * b, [10, 40, 30, 80])
        self.assertValues(a / b, [0.1, 0.1, 0.3, 0.2])
        self.assertValues(-a, [-1, -2, -3, -4])
        self.assertValues(a + 1, [2, 3, 4, 5])
        self.assertValues(1 + a, [2, 3, 4, 5])
        self.assertValues(a - 1, [0, 1, 2, 3])
        self.assertValues(10 - a, [9, 8, 7, 6])
        self.assertValues(a * 2, [2, 4, 6, 8])
        self.assertValues(2 * a, [2, 4, 6, 8])
        self.assertValues(a / 2, [0.5, 1, 1.5, 2])
        self.assertValues(12 / a, [12, 6, 4, 3])
        self.assertValues(a ** 2, [1, 4, 9, 16])
        self.assertValues(abs(-a), [1, 2, 3, 4])
        with self.assertRaises(TypeError):
            a + 'x'

    def test_scalar_operand_promotion(self):
        i = Gnn.Tensor.new_from_int64s([1, 2, 3], [3])
        self.assertEqual((i + 1).dtype, Gnn.DType.I64)
        self.assertEqual((i + 0.5).dtype, Gnn.DType.F32)
        self.assertValues(i + 0.5, [1.5, 2.5, 3.5])
        # true division of integers gives float32, as in torch
        q = i / 2
        self.assertEqual(q.dtype, Gnn.DType.F32)
        self.assertValues(q, [0.5, 1, 1.5])

    def test_inplace_operators(self):
        a = floats([1, 2, 3], [3])
        alias = a
        a += floats([1, 1, 1], [3])
        a *= 2
        self.assertIs(a, alias)
        self.assertValues(alias, [4, 6, 8])
        i = Gnn.Tensor.new_from_int64s([1, 2, 3], [3])
        with self.assertRaises(RuntimeError):    # torch's type for the cast error
            i += 0.5
        with self.assertRaises(RuntimeError):
            i /= 2
        self.assertEqual(i.to_floats(), [1, 2, 3])

    def test_comparison_operators(self):
        a = floats([1, 2, 3], [3])
        lt = a < 2
        self.assertEqual(lt.dtype, Gnn.DType.BOOL)
        self.assertEqual(lt.to_floats(), [1, 0, 0])
        self.assertEqual((a >= floats([3, 2, 1], [3])).to_floats(), [0, 1, 1])
        # == is elementwise as in torch; identity is `is`, hashing by identity
        self.assertEqual((a == floats([1, 0, 3], [3])).to_floats(), [1, 0, 1])
        self.assertEqual((a != 2).to_floats(), [1, 0, 1])
        self.assertEqual((a == 2).dtype, Gnn.DType.BOOL)
        self.assertIs(a, a)
        self.assertIn(a, {a})

    def test_str_and_repr(self):
        t = floats([1, 2, 3, 4], [2, 2])
        self.assertEqual(repr(t), t.to_string())
        self.assertEqual(str(t), t.to_string())
        self.assertTrue(repr(t).startswith('tensor('), repr(t))

    def test_indexing_and_iteration(self):
        t = floats([1, 2, 3, 4, 5, 6], [2, 3])
        self.assertEqual(t[1].shape, (3,))
        self.assertEqual(t[1].to_floats(), [4, 5, 6])
        self.assertEqual(t[-1, 0].item(), 4)
        self.assertEqual(t[:, 1:].to_floats(), [2, 3, 5, 6])
        self.assertEqual(t[..., 2].to_floats(), [3, 6])
        self.assertEqual([row.to_floats() for row in t], [[1, 2, 3], [4, 5, 6]])
        with self.assertRaises(IndexError):
            t[0, 0, 0]
        with self.assertRaises(IndexError):     # torch's type
            t[5]

    def test_len_and_bool_of_scalar(self):
        s = Gnn.Tensor.new_scalar(0.0, Gnn.DType.F32)
        with self.assertRaises(TypeError):
            len(s)
        self.assertFalse(s)
        with self.assertRaises(RuntimeError):
            bool(floats([1, 2], [2]))

    def test_parameter_inherits_protocol(self):
        p = Gnn.Parameter.new(floats([1, 2], [2]), True)
        self.assertIsInstance(p, Gnn.Tensor)
        self.assertEqual(p.shape, (2,))
        self.assertValues(p * 2, [2, 4])


if __name__ == '__main__':
    unittest.main(verbosity=2)
