#!/usr/bin/python3
# test_tensor_numpy.py: Gnn.Tensor.from_numpy() / Tensor.numpy() round trips
# for every dtype, 0-d / empty / non-contiguous / non-native arrays; both
# share memory as torch's do (test_numpy_share_vs_torch.py compares).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

DTYPES = [
    (np.float32, Gnn.DType.F32),
    (np.float64, Gnn.DType.F64),
    (np.float16, Gnn.DType.F16),
    (np.int64, Gnn.DType.I64),
    (np.int32, Gnn.DType.I32),
    (np.int16, Gnn.DType.I16),
    (np.int8, Gnn.DType.I8),
    (np.uint8, Gnn.DType.U8),
    (np.bool_, Gnn.DType.BOOL),
]

SHAPES = [(), (1,), (5,), (2, 3), (2, 3, 4), (0,), (2, 0, 3), (1, 1, 1, 1)]


def sample(np_dtype, shape, rng):
    return np.asarray(_sample(np_dtype, shape, rng))


def _sample(np_dtype, shape, rng):
    if np_dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(np_dtype, np.integer):
        info = np.iinfo(np_dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=np_dtype, endpoint=True)
    return (rng.standard_normal(shape) * 100).astype(np_dtype)


class NumpyRoundTripTest(unittest.TestCase):

    def setUp(self):
        self.rng = np.random.default_rng(1234)

    def check_round_trip(self, array, gnn_dtype):
        t = Gnn.Tensor.from_numpy(array)
        self.assertEqual(t.dtype, gnn_dtype)
        self.assertEqual(t.shape, array.shape)
        self.assertEqual(t.numel(), array.size)
        self.assertEqual(t.is_contiguous(), array.flags.c_contiguous or array.size <= 1)
        back = t.numpy()
        self.assertEqual(back.dtype, array.dtype.newbyteorder('='))
        self.assertEqual(back.shape, array.shape)
        self.assertEqual(back.strides, array.strides)
        self.assertTrue(back.flags.writeable)
        np.testing.assert_array_equal(back, array)
        if array.size:
            self.assertTrue(np.shares_memory(back, array))
        return t, back

    def test_every_dtype_and_shape(self):
        for np_dtype, gnn_dtype in DTYPES:
            for shape in SHAPES:
                with self.subTest(dtype=np.dtype(np_dtype).name, shape=shape):
                    self.check_round_trip(sample(np_dtype, shape, self.rng), gnn_dtype)

    def test_values_seen_by_the_library(self):
        a = np.arange(6, dtype=np.float64).reshape(2, 3)
        t = Gnn.Tensor.from_numpy(a)
        self.assertEqual(t.get_element([1, 2]), 5.0)
        self.assertEqual(t.to_doubles(), [0, 1, 2, 3, 4, 5])
        i = Gnn.Tensor.from_numpy(np.array([[-3, 7]], dtype=np.int8))
        self.assertEqual(i.get_element([0, 0]), -3.0)
        b = Gnn.Tensor.from_numpy(np.array([True, False, True]))
        self.assertEqual(b.to_floats(), [1, 0, 1])

    def test_zero_d(self):
        t, back = self.check_round_trip(np.array(3.5, dtype=np.float32), Gnn.DType.F32)
        self.assertEqual(t.ndim, 0)
        self.assertEqual(t.item(), 3.5)
        self.assertEqual(back.ndim, 0)

    def test_empty(self):
        t, back = self.check_round_trip(np.zeros((3, 0), dtype=np.int32), Gnn.DType.I32)
        self.assertEqual(t.get_nbytes(), 0)
        self.assertEqual(back.size, 0)

    def test_non_contiguous_inputs(self):
        base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
        cases = {
            'transposed': base.T,
            'strided-slice': base[:, ::2, 1::2],
            'fortran': np.asfortranarray(base),
            'column': base[:, :, 2],
        }
        for name, array in cases.items():
            with self.subTest(case=name):
                self.assertFalse(array.flags.c_contiguous)
                self.check_round_trip(array, Gnn.DType.F32)

    def test_negative_strides_refused(self):
        # torch's error; Gnn.tensor() copies them
        with self.assertRaisesRegex(ValueError, 'negative'):
            Gnn.Tensor.from_numpy(np.arange(5.0)[::-1])
        self.assertEqual(Gnn.tensor(np.arange(5.0)[::-1]).tolist(), [4, 3, 2, 1, 0])

    def test_read_only_arrays_are_copied(self):
        # writing through a tensor into read-only memory could crash: copied
        a = np.broadcast_to(np.arange(5, dtype=np.float32), (3, 5))
        t = Gnn.Tensor.from_numpy(a)
        np.testing.assert_array_equal(t.numpy(), a)
        self.assertFalse(np.shares_memory(t.numpy(), a))

    def test_non_native_byte_order(self):
        a = np.arange(6, dtype='>i4').reshape(2, 3)
        with self.assertRaisesRegex(ValueError, 'byte order'):
            Gnn.Tensor.from_numpy(a)
        t = Gnn.tensor(a)          # converts, as torch.tensor does
        self.assertEqual(t.dtype, Gnn.DType.I32)
        self.assertEqual(t.get_element([1, 1]), 4.0)
        np.testing.assert_array_equal(t.numpy(), a)

    def test_from_numpy_shares(self):
        a = np.ones(4, dtype=np.float32)
        t = Gnn.Tensor.from_numpy(a)
        a[0] = 42
        self.assertEqual(t.to_floats()[0], 42.0)
        t.fill_(3)
        self.assertEqual(a.tolist(), [3, 3, 3, 3])

    def test_numpy_shares(self):
        t = Gnn.Tensor.new_from_floats([1, 2, 3], [3])
        back = t.numpy()
        back[0] = 42
        self.assertEqual(t.to_floats()[0], 42.0)

    def test_numpy_of_views(self):
        a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
        t = Gnn.Tensor.from_numpy(a)
        cases = [
            ('transpose', t.transpose(0, 2), a.transpose(2, 1, 0)),
            ('permute', t.permute([1, 2, 0]), a.transpose(1, 2, 0)),
            ('narrow', t.narrow(2, 1, 2), a[:, :, 1:3]),
            ('select', t.select(1, -1), a[:, -1]),
            ('expand', t.narrow(0, 0, 1).expand([3, 3, 4]),
             np.broadcast_to(a[:1], (3, 3, 4))),
            ('index', t[1, :, 2:], a[1, :, 2:]),
        ]
        for name, view, expected in cases:
            with self.subTest(view=name):
                np.testing.assert_array_equal(view.numpy(), expected)
                np.testing.assert_array_equal(np.asarray(view), expected)

    def test_numpy_of_every_dtype_from_library(self):
        for np_dtype, gnn_dtype in DTYPES:
            with self.subTest(dtype=np.dtype(np_dtype).name):
                t = Gnn.Tensor.ones([2, 2], gnn_dtype)
                back = t.numpy()
                self.assertEqual(back.dtype, np.dtype(np_dtype))
                np.testing.assert_array_equal(back, np.ones((2, 2), dtype=np_dtype))

    def test_unsupported_dtypes(self):
        for array in (np.zeros(2, dtype=np.uint16), np.zeros(2, dtype=np.complex64),
                      np.array(['a'])):
            with self.subTest(dtype=str(array.dtype)):
                with self.assertRaises(TypeError) as cm:
                    Gnn.Tensor.from_numpy(array)
                self.assertIn("can't convert np.ndarray of type", str(cm.exception))
        with self.assertRaises(TypeError):
            Gnn.Tensor.from_numpy([1.0, 2.0])
        bf16 = Gnn.Tensor.ones([2], Gnn.DType.BF16)
        with self.assertRaises(TypeError):
            bf16.numpy()
        np.testing.assert_array_equal(bf16.to_dtype(Gnn.DType.F32).numpy(), [1, 1])

    def test_library_errors_are_glib_errors(self):
        t = Gnn.Tensor.from_numpy(np.zeros((2, 3), dtype=np.float32))
        with self.assertRaises(GLib.Error) as cm:
            t.view([7])
        self.assertEqual(cm.exception.code, int(Gnn.Error.SHAPE))


if __name__ == '__main__':
    unittest.main(verbosity=2)
