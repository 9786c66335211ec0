#!/usr/bin/python3
# test_order_reduce_vs_torch.py: the fast paths of sort / topk (integer
# order keys, the threshold scan for a small k), logsumexp (one fused
# kernel), cumsum and gather / scatter_add (split among threads) give torch
# 1.13's values exactly: NaN the largest value, ±inf, -0.0 equal to 0.0,
# ties in position order (torch's stable sort), empty slices, k = 0 and
# k = n, every dim of a 3-d tensor, every dtype of the key path; at 1 and
# 2 threads.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
import unittest

try:
    import torch
except ImportError:  # pragma: no cover
    print('torch is not installed: skipping')
    sys.exit(77)

import numpy as np

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

DTYPES = {torch.float32: 'float32', torch.float64: 'float64', torch.int64: 'int64',
          torch.int32: 'int32', torch.int16: 'int16', torch.int8: 'int8',
          torch.uint8: 'uint8', torch.bool: 'bool'}
NAN, INF = float('nan'), float('inf')


def gnn(x):
    """The torch tensor @x as a Gnn tensor of the same dtype and shape."""
    dtype = getattr(Gnn, DTYPES[x.dtype])
    if x.numel() == 0:
        return Gnn.zeros(*x.shape, dtype=dtype)
    return Gnn.tensor(x.tolist(), dtype=dtype)


def rows_with_specials(n):
    """Three rows of length n: ties, NaN, ±inf and -0.0 mixed in."""
    c = torch.randint(-3, 4, (3, n)).float()
    c[0, ::3] = NAN
    c[1, ::5] = INF
    c[2, ::4] = -INF
    c[1, ::7] = -0.0
    c[2, 1::6] = 0.0
    return c


class ThreadsCase(unittest.TestCase):
    """Every test runs at 1 and at 2 threads."""

    def run(self, result=None):
        old = Gnn.get_num_threads()
        try:
            for n in (1, 2):
                Gnn.set_num_threads(n)
                super().run(result)
        finally:
            Gnn.set_num_threads(old)

    def same(self, got, want, what, signs=True):
        self.assertEqual(tuple(got.shape), tuple(want.shape), what)
        b = want.numpy()
        a = np.array(got.tolist(), dtype=b.dtype).reshape(b.shape)
        if b.dtype.kind == 'f':
            # bit-exact, NaN where NaN, -0.0 kept
            self.assertTrue(np.array_equal(a, b, equal_nan=True), f'{what}: {a} != {b}')
            if signs:
                self.assertTrue(np.array_equal(np.signbit(a), np.signbit(b)), f'{what}: signs')
        else:
            self.assertTrue(np.array_equal(a, b), f'{what}: {a} != {b}')


class TestSortTopk(ThreadsCase):
    def check_slices(self, x, dim, ks):
        g = gnn(x)
        for desc in (False, True):
            v, i = torch.sort(x, dim=dim, descending=desc, stable=True)
            gv, gi_ = g.sort(dim=dim, descending=desc)
            what = f'sort {x.dtype} {tuple(x.shape)} dim={dim} desc={desc}'
            self.same(gv, v, what)
            self.same(gi_, i, what + ' indices')
            for k in ks if x.dtype != torch.bool else ():  # torch: no bool topk
                # torch leaves the order of ties to topk unspecified; the
                # stable sort's first k is the answer Gnn gives
                gv, gi_ = g.topk(k, dim=dim, largest=desc)
                what = f'topk {x.dtype} {tuple(x.shape)} dim={dim} k={k} largest={desc}'
                self.same(gv, v.narrow(dim, 0, k), what)
                self.same(gi_, i.narrow(dim, 0, k), what + ' indices')
                tv, _ = torch.topk(x, k, dim, largest=desc)
                # (which of the tied 0.0 and -0.0 torch.topk takes is unspecified)
                self.same(gv, tv, what + ' vs torch.topk', signs=False)

    def test_float32_specials_every_length(self):
        torch.manual_seed(0)
        for n in (1, 5, 16, 17, 33, 63, 64, 65, 100, 1000, 4096):
            ks = sorted({k for k in (0, 1, 2, 16, 32, 33) if k <= n} | {n})
            self.check_slices(torch.randn(3, n), 1, ks)
            self.check_slices(rows_with_specials(n), 1, ks)

    def test_sorted_inputs_fill_the_topk_buffer(self):
        # ascending input for largest: every element enters the buffer
        x = torch.arange(300, dtype=torch.float32).repeat(2, 1)
        x[1] = x[1].flip(0)
        self.check_slices(x, 1, [1, 16, 32, 299, 300])

    def test_every_dtype(self):
        torch.manual_seed(1)
        for dtype in DTYPES:
            if dtype == torch.bool:
                x = torch.randint(0, 2, (4, 300)).bool()
            elif dtype == torch.uint8:
                x = torch.randint(0, 256, (4, 300)).to(dtype)
            else:
                x = (torch.randint(-100, 100, (4, 300))).to(dtype)
            self.check_slices(x, 1, [0, 3, 40, 300])

    def test_bool_refused_as_torch(self):
        # torch has no bool kernel for these (mode has one): the same message
        x = torch.tensor([[True, False, True]])
        g = gnn(x)
        for call in (lambda t: t.topk(1), lambda t: t.topk(0), lambda t: t.kthvalue(1),
                     lambda t: t.median(), lambda t: t.median(1), lambda t: t.nanmedian(),
                     lambda t: t.nanmedian(1)):
            with self.assertRaises(RuntimeError) as want:
                call(x)
            with self.assertRaises(GLib.Error) as got:
                call(g)
            self.assertEqual(got.exception.message, str(want.exception))
        v, i = g.mode(1)
        tv, ti = x.mode(1)
        self.same(v, tv, 'bool mode')
        self.same(i, ti, 'bool mode indices')

    def test_every_dim_and_empty(self):
        torch.manual_seed(2)
        x = torch.randn(5, 70, 3)
        x[1, 3, :] = NAN
        for dim in (0, 1, 2):
            self.check_slices(x, dim, [0, 1, 2, x.shape[dim]])
        self.check_slices(torch.zeros(3, 0), 1, [0])
        self.check_slices(torch.zeros(0, 4), 1, [0, 2, 4])


class TestLogsumexp(ThreadsCase):
    def test_shapes_and_dims(self):
        torch.manual_seed(3)
        for shape, dims in [((64, 1024), (1,)), ((7, 13), (0,)), ((7, 13), (1,)),
                            ((3, 5, 70), (1, 2)), ((3, 5, 70), (0, 1)), ((3, 5, 70), (0, 2)),
                            ((3, 200, 7), (1,)), ((3, 1, 130), (0, 1)), ((3,), (0,)),
                            ((2, 0, 3), (1,)), ((2, 0, 3), (2,))]:
            for dtype in (torch.float32, torch.float64, torch.int32):
                x = (torch.randn(shape) * 10).to(dtype)
                for keep in (False, True):
                    want = torch.logsumexp(x, dims, keep)
                    got = gnn(x).logsumexp(list(dims), keepdim=keep)
                    self.assertEqual(tuple(got.shape), tuple(want.shape))
                    np.testing.assert_allclose(np.array(got.tolist()).reshape(want.shape),
                                               want.numpy(),
                                               rtol=1e-6, atol=1e-6,
                                               err_msg=f'{shape} {dims} {dtype} {keep}')

    def test_infinities_and_nan(self):
        x = torch.tensor([[1., INF, 2], [1, -INF, 2], [-INF] * 3, [NAN, 1, 2], [INF, NAN, 0],
                          [INF] * 3, [-INF, NAN, -INF], [100., 100, 100], [-INF, INF, 5]])
        for dtype in (torch.float32, torch.float64):
            y = x.to(dtype)
            self.same(gnn(y).logsumexp([1]), torch.logsumexp(y, 1), f'rows {dtype}')
            self.same(gnn(y.t().contiguous()).logsumexp([0]), torch.logsumexp(y.t(), 0),
                      f'columns {dtype}')


class TestScanGather(ThreadsCase):
    def test_cumsum_rows_in_fours(self):
        # 1030 rows (groups of four and a tail), large enough to split
        torch.manual_seed(4)
        for dtype in (torch.float32, torch.float64, torch.int32):
            x = (torch.randn(1030, 300) * 100).to(dtype)
            for dim in (0, 1):
                self.same(gnn(x).cumsum(dim), torch.cumsum(x, dim), f'cumsum {dtype} {dim}')

    def test_gather_scatter_add_split(self):
        torch.manual_seed(5)
        a, src = torch.randn(600, 500), torch.randn(600, 400)
        for dim in (0, 1):
            idx = torch.randint(0, a.shape[dim], (600, 400))
            self.same(gnn(a).gather(dim, gnn(idx)), torch.gather(a, dim, idx), f'gather {dim}')
            got = gnn(a).scatter_add(dim, gnn(idx), gnn(src))
            want = torch.scatter_add(a, dim, idx, src)
            # the same order of additions per element: bit-exact
            self.same(got, want, f'scatter_add {dim}')

    def test_gather_scatter_bad_index_split(self):
        # the bounds check runs inside the threaded walk: the message still
        # names the first bad index in the index's order (here in the
        # second thread's half too), and nothing is written
        torch.manual_seed(6)
        a, src = torch.randn(600, 500), torch.randn(600, 400)
        g_src = gnn(src)
        for bad in ([(590, 7, 500), (20, 300, -1)], [(599, 399, 500)], [(1, 0, -3)]):
            idx = torch.randint(0, 500, (600, 400))
            for row, col, value in bad:
                idx[row, col] = value
            g_idx = gnn(idx)
            calls = (('gather', lambda s, i, r: s.gather(1, i)),
                     ('scatter_add', lambda s, i, r: s.scatter_add(1, i, r)),
                     ('scatter', lambda s, i, r: s.scatter(1, i, r)),
                     ('scatter_add_', lambda s, i, r: s.scatter_add_(1, i, r)),
                     ('scatter_', lambda s, i, r: s.scatter_(1, i, r)))
            for name, call in calls:
                t_self, g_self = a.clone(), gnn(a)
                threads = torch.get_num_threads()
                torch.set_num_threads(1)  # torch names whichever thread's bad index
                try:
                    with self.assertRaises(RuntimeError) as tcm:
                        call(t_self, idx, src)
                finally:
                    torch.set_num_threads(threads)
                with self.assertRaises(GLib.Error) as gcm:
                    call(g_self, g_idx, g_src)
                self.assertEqual(gcm.exception.message, str(tcm.exception), f'{name} {bad}')
                self.same(g_self, a, f'{name} {bad}: self unchanged')


if __name__ == '__main__':
    unittest.main()
