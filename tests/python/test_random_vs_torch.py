#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gnn.rand / randn / rand_like / randn_like: the C constructors
(Gnn.Tensor.rand / randn) behind torch's spellings. Shapes, dtypes,
requires_grad and errors as torch's; values are Gnn's own (counter-based
fills, not torch's mt19937), so they are compared with the C functions'
draws from the same generator state and for their distribution.
"""

import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402
import gnn  # noqa: E402


def raised(fn):
    """The first line of the message fn() raises (Gnn's GLib.Error or torch's
    RuntimeError), or None."""
    try:
        fn()
    except Exception as e:     # noqa: BLE001 - the message is compared
        return getattr(e, 'message', None) or str(e).splitlines()[0]
    return None


class RandomConstructors(unittest.TestCase):
    def test_routes_to_c(self):
        for py, c in ((gnn.randn, Gnn.Tensor.randn), (gnn.rand, Gnn.Tensor.rand)):
            a = py(3, 5, generator=gnn.Generator().manual_seed(7))
            b = c([3, 5], Gnn.DType.F32, gnn.Generator().manual_seed(7))
            self.assertEqual(a.tolist(), b.tolist())

    def test_shapes_dtypes_like_torch(self):
        for name in ('rand', 'randn'):
            for args, kw in (((2, 3), {}), (((4,),), {}), (((),), {}),
                             ((2, 0), {'dtype': 'float64'}), ((3,), {'requires_grad': True})):
                tkw = dict(kw)
                if 'dtype' in kw:
                    tkw['dtype'] = getattr(torch, kw['dtype'])
                    kw = dict(kw, dtype=getattr(gnn, kw['dtype']))
                t = getattr(torch, name)(*args, **tkw)
                g = getattr(gnn, name)(*args, **kw)
                self.assertEqual(list(g.shape), list(t.shape))
                self.assertEqual(str(g.dtype).split('.')[-1], str(t.dtype).split('.')[-1])
                self.assertEqual(g.requires_grad, t.requires_grad)
            like_t = getattr(torch, name + '_like')(torch.zeros(2, 3, dtype=torch.float64).t())
            like_g = getattr(gnn, name + '_like')(gnn.zeros(2, 3, dtype=gnn.float64).t())
            self.assertEqual(list(like_g.shape), list(like_t.shape))
            self.assertEqual(str(like_g.dtype).split('.')[-1], str(like_t.dtype).split('.')[-1])

    def test_reproducible_with_seed(self):
        gnn.manual_seed(123)
        a = gnn.randn(1000)
        b = gnn.randn(1000)
        gnn.manual_seed(123)
        self.assertEqual(gnn.randn(1000).tolist(), a.tolist())
        self.assertNotEqual(a.tolist(), b.tolist())
        gnn.manual_seed(123)
        like = gnn.randn_like(gnn.zeros(1000))
        self.assertEqual(like.tolist(), a.tolist())

    def test_distribution(self):
        g = gnn.Generator().manual_seed(1)
        v = np.asarray(gnn.randn(200000, generator=g).tolist())
        self.assertLess(abs(v.mean()), 0.02)
        self.assertLess(abs(v.std() - 1), 0.02)
        u = np.asarray(gnn.rand(200000, generator=g).tolist())
        self.assertGreaterEqual(u.min(), 0.0)
        self.assertLess(u.max(), 1.0)
        self.assertLess(abs(u.mean() - 0.5), 0.01)

    def test_errors_like_torch(self):
        for name in ('rand', 'randn'):
            for dt in ('int64', 'int32', 'bool'):
                self.assertEqual(
                    raised(lambda: getattr(gnn, name)(2, dtype=getattr(gnn, dt))),
                    raised(lambda: getattr(torch, name)(2, dtype=getattr(torch, dt))),
                    (name, dt))
            self.assertEqual(
                raised(lambda: getattr(gnn, name + '_like')(gnn.zeros(2, dtype=gnn.int64))),
                raised(lambda: getattr(torch, name + '_like')(torch.zeros(2, dtype=torch.int64))))
            self.assertIsNotNone(raised(lambda: getattr(gnn, name)(2, -1)))

    def test_meta_device(self):
        t = gnn.randn(1000, 1000, device='meta')
        self.assertTrue(t.is_meta)
        self.assertEqual(list(t.shape), [1000, 1000])


if __name__ == '__main__':
    unittest.main()
