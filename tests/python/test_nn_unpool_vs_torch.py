# MaxPool1d/2d with return_indices, MaxUnpool1d/2d/3d, LPPool1d/2d and
# ChannelShuffle with their F.* forms against torch 1.13: random shapes and
# settings (batch 1, unbatched), outputs, indices, input gradients, reprs,
# grad_fn names and torch's messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import random
import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import Gnn, assert_close, backward_both, check_layer, check_same_error, to_gnn

F = Gnn.functional


class TestReturnIndices(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = random.Random(11)

    def test_functional_indices_and_gradients(self):
        for trial in range(40):
            n = self.rng.choice([1, 2])
            k = self.rng.randint(1, 3)
            kwargs = dict(kernel_size=k, stride=self.rng.choice([None, 1, 2]), padding=self.rng.randint(0, k // 2),
                          dilation=self.rng.randint(1, 2), ceil_mode=self.rng.random() < 0.5)
            shape = [self.rng.randint(1, 2), self.rng.randint(1, 3)][:self.rng.randint(1, 2)]
            shape += [self.rng.randint(k * 2, 8) for _ in range(n)]
            dtype = self.rng.choice([torch.float32, torch.float64])
            name = 'max_pool%dd' % n
            with self.subTest(name=name, kwargs=kwargs, shape=shape):
                x = torch.randn(*shape, dtype=dtype, requires_grad=True)
                gx = to_gnn(x, requires_grad=True)
                want, want_idx = getattr(TF, name)(x, return_indices=True, **kwargs)
                got, got_idx = getattr(F, name)(gx, return_indices=True, **kwargs)
                np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
                assert_close(self, got, want, 'output')
                self.assertEqual(got.grad_fn.name(), want.grad_fn.name())
                backward_both(self, got, want, gx, x, name)

    def test_two_by_two_float32_indices(self):
        # the vector loop's lanes are not indices: return_indices takes the general loop
        x = torch.randn(2, 3, 8, 6)
        want, want_idx = TF.max_pool2d(x, 2, return_indices=True)
        got, got_idx = F.max_pool2d(to_gnn(x), 2, return_indices=True)
        np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
        assert_close(self, got, want, 'output')

    def test_module_call_returns_the_pair(self):
        for name, args in (('MaxPool1d', (3, 2, 1)), ('MaxPool2d', ((2, 3), 1, 1))):
            g = getattr(Gnn, name)(*args, return_indices=True)
            t = getattr(tnn, name)(*args, return_indices=True)
            self.assertEqual(repr(g), repr(t))
            x = torch.randn(2, 3, 7, 7)[..., 0, :] if name == 'MaxPool1d' else torch.randn(2, 3, 7, 7)
            seen = []
            g.register_forward_hook(lambda m, a, out: seen.append(type(out)))
            out, idx = g(to_gnn(x))
            want, want_idx = t(x)
            self.assertEqual(seen, [tuple])
            np.testing.assert_array_equal(idx.numpy(), want_idx.numpy())
            assert_close(self, out, want, name)
            self.assertTrue(g.get_property('return-indices'))
            with self.assertRaises(Exception):
                Gnn.Module.call(g, to_gnn(x))      # the one-tensor API names the general call


class TestMaxUnpool(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(1)

    def test_layers_against_torch(self):
        for n in (1, 2, 3):
            for k, s, p in ((2, None, 0), (3, 2, 1), (2, 1, 0)):
                size = [7, 6, 5][:n]
                with self.subTest(n=n, k=k, s=s, p=p):
                    x = torch.randn(2, 3, *size)
                    pooled, idx = getattr(TF, 'max_pool%dd' % n)(x, k, s, p, return_indices=True)
                    t = getattr(tnn, 'MaxUnpool%dd' % n)(k, s, p)
                    g = getattr(Gnn, 'MaxUnpool%dd' % n)(k, s, p)
                    self.assertEqual(repr(g), repr(t))
                    self.assertEqual(list(g.state_dict()), [])
                    for out_size in (None, list(x.shape[2:]), list(x.shape)):
                        px = pooled.clone().requires_grad_(True)
                        gx = to_gnn(px, requires_grad=True)
                        try:
                            want = t(px, idx, output_size=out_size)
                        except RuntimeError:
                            # the default size is smaller than the pooled input: both refuse an index
                            # (torch's threads may find another bad index first)
                            check_same_error(self, lambda: g(gx, to_gnn(idx), output_size=out_size),
                                             lambda: t(px, idx, output_size=out_size),
                                             contains='Found an invalid max index: ')
                            continue
                        got = g(gx, to_gnn(idx), output_size=out_size)
                        assert_close(self, got, want, 'MaxUnpool%dd' % n)
                        self.assertEqual(got.grad_fn.name(), want.grad_fn.name())
                        backward_both(self, got, want, gx, px, 'MaxUnpool%dd' % n)
                    # unbatched, and the functional form
                    size = list(x.shape[2:])
                    want = t(pooled[0], idx[0], size)
                    got = g(to_gnn(pooled[0]), to_gnn(idx[0]), size)
                    assert_close(self, got, want, 'unbatched')
                    fn = 'max_unpool%dd' % n
                    got = getattr(F, fn)(to_gnn(pooled), to_gnn(idx), k, s, p, size)
                    assert_close(self, got, getattr(TF, fn)(pooled, idx, k, s, p, size), fn)

    def test_roundtrip_through_gnn_pools(self):
        x = torch.randn(1, 2, 6, 6)
        pool = Gnn.MaxPool2d(2, return_indices=True)
        unpool = Gnn.MaxUnpool2d(2)
        out, idx = pool(to_gnn(x))
        got = unpool(out, idx)
        want = tnn.MaxUnpool2d(2)(*tnn.MaxPool2d(2, return_indices=True)(x))
        assert_close(self, got, want, 'roundtrip')

    def test_errors(self):
        x = torch.randn(1, 1, 2, 2)
        idx = torch.tensor([[[[0, 1], [2, 9]]]])
        cases = [
            (lambda B, T: B.MaxUnpool2d(2)(T(x), T(idx))),                         # 9 < 16: fine
            (lambda B, T: B.MaxUnpool2d(2)(T(x), T(idx), output_size=[3, 3])),    # 9 >= 9
            (lambda B, T: B.MaxUnpool2d(2)(T(x), T(idx), output_size=[7, 7])),
            (lambda B, T: B.MaxUnpool2d(2)(T(x), T(idx), output_size=[4])),
            (lambda B, T: B.MaxUnpool2d(2)(T(x), T(idx.float()))),
            (lambda B, T: B.MaxUnpool2d(2)(T(x), T(idx[..., :1]))),
            (lambda B, T: B.MaxUnpool3d(2)(T(x[0]), T(idx[0]), output_size=[2, 2, 2])),
        ]
        for i, case in enumerate(cases):
            with self.subTest(case=i):
                torch_error = None
                try:
                    case(tnn, lambda v: v)
                except Exception as e:   # noqa: BLE001
                    torch_error = e
                if torch_error is None:
                    out = case(Gnn, to_gnn)
                    self.assertEqual(list(out.shape), list(case(tnn, lambda v: v).shape))
                    continue
                check_same_error(self, lambda: case(Gnn, to_gnn), lambda: case(tnn, lambda v: v))
        # a 1-d input: torch fails indexing its size in Python; Gnn names the rank
        with self.assertRaisesRegex(Exception, 'Input to max_unpooling2d should be a 3d or 4d Tensor'):
            Gnn.MaxUnpool2d(2)(to_gnn(x[0, 0, 0]), to_gnn(idx[0, 0, 0]))


class TestPool3d(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(3)
        self.rng = random.Random(5)

    def test_layers(self):
        for trial in range(30):
            k = self.rng.choice([1, 2, 3, (2, 1, 3)])
            kmin = min(k) if isinstance(k, tuple) else k
            kwargs = dict(kernel_size=k, stride=self.rng.choice([None, 1, 2, (1, 2, 1)]),
                          padding=self.rng.randint(0, kmin // 2), ceil_mode=self.rng.random() < 0.5)
            maximum = self.rng.random() < 0.5
            if maximum:
                kwargs['dilation'] = self.rng.choice([1, 2]) if kmin > 1 else 1
            else:
                kwargs['count_include_pad'] = self.rng.random() < 0.5
                kwargs['divisor_override'] = self.rng.choice([None, None, 3])
            name = 'MaxPool3d' if maximum else 'AvgPool3d'
            dtype = self.rng.choice([torch.float32, torch.float64])
            with self.subTest(name=name, kwargs=kwargs):
                g, t = getattr(Gnn, name)(**kwargs), getattr(tnn, name)(**kwargs)
                check_layer(self, g, t, [torch.randn(2, 2, 7, 8, 7, dtype=dtype), torch.randn(1, 7, 7, 8, dtype=dtype)])
                fn = name[:3].lower() + '_pool3d'
                x = torch.randn(1, 2, 7, 8, 9, dtype=dtype, requires_grad=True)
                gx = to_gnn(x, requires_grad=True)
                got, want = getattr(F, fn)(gx, **kwargs), getattr(TF, fn)(x, **kwargs)
                assert_close(self, got, want, fn)
                self.assertEqual(got.grad_fn.name(), want.grad_fn.name())
                backward_both(self, got, want, gx, x, fn)

    def test_max_indices_and_unpool(self):
        x = torch.randn(2, 3, 6, 6, 6)
        want, want_idx = tnn.MaxPool3d(2, return_indices=True)(x)
        got, got_idx = Gnn.MaxPool3d(2, return_indices=True)(to_gnn(x))
        np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
        assert_close(self, Gnn.MaxUnpool3d(2)(got, got_idx), tnn.MaxUnpool3d(2)(want, want_idx), 'unpool')

    def test_errors(self):
        for f, shape, args in ((TF.max_pool3d, (2, 3, 4), (2,)), (TF.max_pool3d, (1, 2, 3, 4, 4), (3, 1, 2)),
                               (TF.max_pool3d, (1, 2, 1, 4, 4), (2,)), (TF.avg_pool3d, (1, 2, 1, 4, 4), (2,)),
                               (TF.max_pool3d, (1, 0, 3, 4, 4), (2,))):
            x = torch.randn(*shape)
            with self.subTest(f=f.__name__, shape=shape, args=args):
                check_same_error(self, lambda: getattr(F, f.__name__)(to_gnn(x), *args), lambda: f(x, *args))


class TestLPPoolAndChannelShuffle(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(2)

    def test_lp_pool(self):
        for p in (1, 2, 3.5):
            for args in ((3,), (2, 1), (3, 2, True)):
                with self.subTest(p=p, args=args):
                    t1, g1 = tnn.LPPool1d(p, *args), Gnn.LPPool1d(p, *args)
                    x1 = torch.rand(2, 3, 9) + 0.1
                    check_layer(self, g1, t1, [x1, x1[0], x1[:1]])
                    k = args[0] if len(args) == 1 else (args[0], args[0] + 1)
                    rest = args[1:]
                    t2, g2 = tnn.LPPool2d(p, k, *rest), Gnn.LPPool2d(p, k, *rest)
                    x2 = torch.rand(2, 3, 8, 9) + 0.1
                    check_layer(self, g2, t2, [x2, x2[0]])
                    assert_close(self, F.lp_pool2d(to_gnn(x2), p, k, *rest), TF.lp_pool2d(x2, p, k, *rest),
                                 'lp_pool2d')
                    assert_close(self, F.lp_pool1d(to_gnn(x1), p, *args), TF.lp_pool1d(x1, p, *args),
                                 'lp_pool1d')
        self.assertEqual(repr(Gnn.LPPool2d(2, 3)), repr(tnn.LPPool2d(2, 3)))
        self.assertEqual(repr(Gnn.LPPool2d(2, (2, 3), 1)), repr(tnn.LPPool2d(2, (2, 3), 1)))

    def test_channel_shuffle(self):
        for shape, groups in (((2, 6, 3, 3), 3), ((1, 4, 5), 2), ((2, 8, 2, 2, 2), 4), ((3, 6, 1), 1)):
            with self.subTest(shape=shape, groups=groups):
                x = torch.randn(*shape)
                t, g = tnn.ChannelShuffle(groups), Gnn.ChannelShuffle(groups)
                self.assertEqual(repr(g), repr(t))
                assert_close(self, g(to_gnn(x)), t(x), 'ChannelShuffle')
                assert_close(self, F.channel_shuffle(to_gnn(x), groups), TF.channel_shuffle(x, groups), 'F')
                # torch 1.13 has no backward for it: the gradient is the
                # inverse shuffle, that of torch's view/transpose/reshape
                xr = x.clone().requires_grad_(True)
                ref = xr.reshape(shape[0], groups, shape[1] // groups, *shape[2:]).transpose(1, 2).reshape(shape)
                gx = to_gnn(x, requires_grad=True)
                backward_both(self, F.channel_shuffle(gx, groups), ref, gx, xr, 'channel_shuffle')
        for shape, groups in (((2, 4), 2), ((2, 4, 3), 3), ((2, 4, 3), 0)):
            x = torch.randn(*shape)
            check_same_error(self, lambda: Gnn.ChannelShuffle(groups)(to_gnn(x)),
                             lambda: tnn.ChannelShuffle(groups)(x))


if __name__ == '__main__':
    unittest.main()
