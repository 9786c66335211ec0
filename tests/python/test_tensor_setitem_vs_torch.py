#!/usr/bin/python3
# test_tensor_setitem_vs_torch.py: writing scalars and reading/writing with
# advanced keys as torch 1.13 does, side by side:
#   - t[k] = v and fill_(v) refuse a value t's dtype cannot hold (NaN or
#     2**70 into int64 stored INT64_MIN before), "Overflow when unpacking
#     long" for an int beyond int64, exact int64 values beyond 2**53;
#   - a uint8 index is a mask, with torch's deprecation warning;
#   - a short list holding lists (or a 2-d numpy array) is a tuple of
#     index lists: x[[[0, 1], [1, 2]]] is x[[0, 1], [1, 2]];
#   - an advanced write into a tensor in the graph keeps the gradient of
#     the elements it does not write.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
import unittest
import warnings

import numpy as np

try:
    import torch
except ImportError:  # pragma: no cover
    print('torch is not installed: skipping')
    sys.exit(77)

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8',
          'uint8', 'bool']
VALUES = [float('nan'), float('inf'), -float('inf'), 1e39, 1e10, 3e5, 2**70, 2**63, 2**63 - 1,
          -2**63, -2**63 - 1, 2**62 + 1, -1, 300, 2.7, -2.7, -129, -300, 1e19, -1.0, 255.5,
          -0.5, True]


def outcome(lib, write, name):
    x = lib.zeros(2, dtype=getattr(lib, name))
    try:
        write(lib, x)
    except RuntimeError as e:
        return 'RuntimeError: ' + getattr(e, 'message', str(e))
    # repr: NaN equals NaN
    return repr(x.to(lib.float64).tolist() if name == 'bfloat16' else x.tolist())


def observed(lib, fn):
    """fn(lib)'s shape and values (or error), and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            r = fn(lib)
            result = (list(r.shape), r.flatten().tolist())
        except (IndexError, RuntimeError) as e:
            result = type(e).__name__ + ': ' + getattr(e, 'message', str(e))
    # torch appends where in ATen it warned
    return result, [str(w.message).split(' (Triggered internally')[0] for w in caught]


class ScalarWrites(unittest.TestCase):
    def test_values_into_every_dtype(self):
        writes = {
            'x[0] = v': lambda lib, x, v: x.__setitem__(0, v),
            'x.fill_(v)': lambda lib, x, v: x.fill_(v),
            'x[[0]] = v': lambda lib, x, v: x.__setitem__([0], v),
            'x[mask] = v': lambda lib, x, v: x.__setitem__(lib.tensor([True, False]), v),
        }
        for name in DTYPES:
            for v in VALUES:
                for what, write in writes.items():
                    with self.subTest(dtype=name, value=v, write=what):
                        self.assertEqual(outcome(Gnn, lambda lib, x: write(lib, x, v), name),
                                         outcome(torch, lambda lib, x: write(lib, x, v), name))

    def test_issue_cases(self):
        for lib in (Gnn, torch):
            x = lib.zeros(3, dtype=lib.int64)
            with self.assertRaisesRegex(RuntimeError, 'int64_t without overflow'):
                x[0] = float('nan')
            with self.assertRaisesRegex(RuntimeError, 'Overflow when unpacking long'):
                x[0] = 2**70
            self.assertEqual(x.tolist(), [0, 0, 0])


class Keys(unittest.TestCase):
    CASES = {
        'list of lists': lambda L: L.arange(24.).reshape(2, 3, 4)[[[0, 1], [1, 2]]],
        'list of one list': lambda L: L.arange(24.).reshape(2, 3, 4)[[[0, 1]]],
        '2-d numpy': lambda L: L.arange(24.).reshape(2, 3, 4)[np.array([[0, 1], [1, 2]])],
        '1-d numpy': lambda L: L.arange(24.).reshape(2, 3, 4)[np.array([0, 1])],
        'list with a slice': lambda L: L.arange(24.).reshape(2, 3, 4)[[0, slice(None), 1]],
        'list with None': lambda L: L.arange(24.).reshape(2, 3, 4)[[0, None]],
        'list with ...': lambda L: L.arange(24.).reshape(2, 3, 4)[[0, ...]],
        'list of tensors': lambda L: L.arange(24.).reshape(2, 3, 4)[[L.tensor([0, 1]),
                                                                      L.tensor([1, 2])]],
        'long list of lists': lambda L: L.arange(24.).reshape(2, 3, 4)[[[0] * 33, [1] * 33]],
        '33 rows of numpy': lambda L: L.arange(24.).reshape(2, 3, 4)[np.zeros((33, 2), dtype=np.int64)],
        'three lists': lambda L: L.arange(24.).reshape(2, 3, 4)[[[0, 1], [1, 2], [0, 3]]],
        'too many lists': lambda L: L.arange(24.).reshape(2, 3, 4)[[[0, 1], [1, 2], [0, 3], [0, 0]]],
        '1-d, list of lists': lambda L: L.arange(5.)[[[0, 1], [1, 2]]],
        'flat list': lambda L: L.arange(24.).reshape(2, 3, 4)[[1, 0]],
        'bool list': lambda L: L.arange(24.).reshape(2, 3, 4)[[True, False]],
        'uint8 tensor': lambda L: L.arange(24.).reshape(2, 3, 4)[L.tensor([1, 0], dtype=L.uint8)],
        'uint8 numpy': lambda L: L.arange(24.).reshape(2, 3, 4)[np.array([1, 0], dtype=np.uint8)],
        'uint8 after an int': lambda L: L.arange(24.).reshape(2, 3, 4)[
            0, L.tensor([1, 0, 1], dtype=L.uint8)],
        'uint8 2-d': lambda L: L.arange(24.).reshape(2, 3, 4)[
            L.tensor([[1, 0, 1], [0, 0, 1]], dtype=L.uint8)],
        'uint8 wrong shape': lambda L: L.arange(24.).reshape(2, 3, 4)[
            L.tensor([1, 0, 1], dtype=L.uint8)],
    }

    def test_reads(self):
        for name, case in self.CASES.items():
            with self.subTest(case=name):
                self.assertEqual(observed(Gnn, case), observed(torch, case))

    def test_writes(self):
        def list_of_lists(L):
            y = L.zeros(2, 3, 4)
            y[[[0, 1], [1, 2]]] = 1
            return y

        def uint8_mask_scalar(L):
            y = L.zeros(3)
            y[L.tensor([1, 0, 1], dtype=L.uint8)] = 5
            return y

        def numpy_rows_tensor(L):
            y = L.zeros(2, 3)
            y[np.array([[0, 1], [1, 2]])] = L.tensor([7., 8.])
            return y

        def uint8_mask_tensor(L):
            y = L.zeros(3, 2)
            y[L.tensor([1, 0, 1], dtype=L.uint8)] = L.ones(2, 2)
            return y

        for case in (list_of_lists, uint8_mask_scalar, numpy_rows_tensor, uint8_mask_tensor):
            with self.subTest(case=case.__name__):
                self.assertEqual(observed(Gnn, case), observed(torch, case))

    def test_advanced_write_in_graph(self):
        # before: the whole tensor was replaced, cutting every gradient
        def run(L):
            x = L.tensor([1., 2., 3.], requires_grad=True)
            y = x * 2
            y[[0, 2]] = 0
            z = x * 1
            z[L.tensor([True, False, False])] = 5.
            (y.sum() + (z * z).sum()).backward()
            return x.grad.tolist()
        self.assertEqual(run(Gnn), run(torch))


if __name__ == '__main__':
    unittest.main(verbosity=2)
