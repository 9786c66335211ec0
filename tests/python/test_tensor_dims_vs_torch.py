#!/usr/bin/python3
# test_tensor_dims_vs_torch.py: a `dim` out of range is torch's IndexError
# "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
# for every operation that takes one — never a wrap-around (sort(dim=2) on
# a 2-d tensor sorted dim 0 before) — and the whole valid range works, side
# by side with torch 1.13. Operations composed in the Python override check
# through the library's one check (gnn_tensor_wrap_dim).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
import unittest

try:
    import torch
except ImportError:  # pragma: no cover
    print('torch is not installed: skipping')
    sys.exit(77)

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

# Tensor methods: torch's IndexError (and the GLib.Error C reported).
METHODS = {
    'sort': lambda L, x, d: x.sort(dim=d),
    'argsort': lambda L, x, d: x.argsort(dim=d),
    'topk': lambda L, x, d: x.topk(1, dim=d),
    'gather': lambda L, x, d: x.gather(d, L.zeros(2, 3, dtype=L.int64)),
    'var': lambda L, x, d: x.var(d),
    'std': lambda L, x, d: x.std(d),
    'split': lambda L, x, d: x.split(1, d),
    'chunk': lambda L, x, d: x.chunk(2, d),
    'all': lambda L, x, d: (x > 0).all(d),
    'any': lambda L, x, d: (x > 0).any(d),
}
# More methods, functions and a layer's dim= property: the same.
MORE = {
    'sum': lambda L, x, d: x.sum(d),
    'mean': lambda L, x, d: x.mean(d),
    'max': lambda L, x, d: x.max(d),
    'argmax': lambda L, x, d: x.argmax(d),
    'softmax': lambda L, x, d: x.softmax(d),
    'log_softmax': lambda L, x, d: x.log_softmax(d),
    'cat': lambda L, x, d: L.cat([x, x], d),
    'narrow': lambda L, x, d: x.narrow(d, 0, 1),
    'select': lambda L, x, d: x.select(d, 0),
    'index_select': lambda L, x, d: x.index_select(d, L.tensor([0])),
    'transpose': lambda L, x, d: x.transpose(0, d),
    'squeeze': lambda L, x, d: x.squeeze(d),
    'flatten': lambda L, x, d: x.flatten(d),
    'size': lambda L, x, d: x.size(d),
    'Softmax': lambda L, x, d: L.nn.Softmax(dim=d)(x),
    'normalize': lambda L, x, d: L.nn.functional.normalize(x, dim=d),
}


def outcome(fn):
    try:
        fn()
        return None
    except Exception as e:     # noqa: BLE001 - the type is part of the outcome
        return type(e), getattr(e, 'message', str(e))


class Dims(unittest.TestCase):
    def check(self, table):
        for name, op in table.items():
            for d in (2, -3, 5, -1, 0, 1, -2):
                with self.subTest(op=name, dim=d):
                    got = outcome(lambda: op(Gnn, Gnn.ones(2, 3), d))
                    want = outcome(lambda: op(torch, torch.ones(2, 3), d))
                    if want is None:
                        self.assertIsNone(got)
                        continue
                    self.assertIsNotNone(got, 'dim %d accepted' % d)
                    self.assertEqual(got[1], want[1])
                    self.assertTrue(issubclass(got[0], want[0]), got)

    def test_methods(self):
        self.check(METHODS)

    def test_more(self):
        self.check(MORE)

    def test_sort_no_longer_wraps(self):
        # the case: sort(dim=2) on a 2-d tensor sorted dim 0
        x = Gnn.tensor([[3.0, 1.0], [2.0, 4.0]])
        with self.assertRaises(IndexError):
            x.sort(dim=2)
        self.assertEqual(x.sort(dim=-2).values.tolist(), [[2.0, 1.0], [3.0, 4.0]])

    def test_zero_dim(self):
        for lib in (Gnn, torch):
            s = lib.tensor(3.0)
            self.assertEqual(s.sort(dim=-1).values.item(), 3.0)
            with self.assertRaises(IndexError):
                s.sort(dim=1)


if __name__ == '__main__':
    unittest.main(verbosity=2)
