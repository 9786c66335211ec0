# MaxPool1d, AvgPool1d and the adaptive pools (AdaptiveAvgPool1d/2d/3d,
# AdaptiveMaxPool1d/2d/3d) with their F.* forms against torch 1.13: random
# shapes and settings (batch 1, unbatched), outputs, indices and input
# gradients, reprs and messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import random
import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import Gnn, assert_close, check_layer, check_same_error, to_gnn

F = Gnn.functional


class TestPoolsVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = random.Random(7)

    def test_pool1d_layers(self):
        compared = 0
        for trial in range(80):
            k = self.rng.randint(1, 4)
            kwargs = dict(kernel_size=k, stride=self.rng.choice([None, 1, 2, 3]), padding=self.rng.randint(0, k // 2),
                          ceil_mode=self.rng.random() < 0.5)
            maximum = self.rng.random() < 0.5
            if maximum:
                kwargs['dilation'] = self.rng.randint(1, 2)
            else:
                kwargs['count_include_pad'] = self.rng.random() < 0.5
            length = self.rng.randint(k * kwargs.get('dilation', 1), 12)
            name = 'MaxPool1d' if maximum else 'AvgPool1d'
            with self.subTest(name=name, kwargs=kwargs, length=length):
                g, t = getattr(Gnn, name)(**kwargs), getattr(tnn, name)(**kwargs)
                check_layer(self, g, t, [torch.randn(2, 3, length), torch.randn(1, 2, length),
                                         torch.randn(3, length, dtype=torch.float64).float()])
                compared += 1
        self.assertEqual(compared, 80)

    def test_adaptive_layers(self):
        for trial in range(60):
            n = self.rng.randint(1, 3)
            maximum = self.rng.random() < 0.5
            size = [self.rng.choice([1, 2, 3, 5, None]) for _ in range(n)]
            out = size[0] if n == 1 or self.rng.random() < 0.3 else tuple(size)
            if out is None:
                out = 2
            name = 'Adaptive%sPool%dd' % ('Max' if maximum else 'Avg', n)
            spatial = [self.rng.randint(1, 7) for _ in range(n)]
            dtype = self.rng.choice([torch.float32, torch.float64])
            with self.subTest(name=name, out=out, spatial=spatial):
                # an int of 2 or 3 dimensions prints as its tuple in Gnn
                as_torch_prints = (out,) * n if n > 1 and isinstance(out, int) else out
                g, t = getattr(Gnn, name)(out), getattr(tnn, name)(as_torch_prints)
                if dtype == torch.float64:
                    g.to(Gnn.DType.F64)
                check_layer(self, g, t, [torch.randn(2, 3, *spatial, dtype=dtype),
                                         torch.randn(3, *spatial, dtype=dtype)])

    def test_adaptive_max_indices(self):
        for n in (1, 2, 3):
            x = torch.randn(2, 3, *([7] * n))
            x.view(-1)[5] = float('nan')
            want, want_idx = getattr(TF, 'adaptive_max_pool%dd' % n)(x, 3, return_indices=True)
            got, got_idx = getattr(F, 'adaptive_max_pool%dd' % n)(to_gnn(x), 3, return_indices=True)
            np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
            np.testing.assert_array_equal(np.isnan(got.numpy()), np.isnan(want.numpy()))
            g = getattr(Gnn, 'AdaptiveMaxPool%dd' % n)(3, return_indices=True)
            out, idx = g.forward_with_indices(to_gnn(x))
            np.testing.assert_array_equal(idx.numpy(), want_idx.numpy())
            # a module call returns torch's pair, hooks seeing it, and gradients flow
            seen = []
            g.register_forward_hook(lambda m, args, output: seen.append(type(output)))
            xg = to_gnn(x.nan_to_num(), requires_grad=True)
            out, idx = g(xg)
            self.assertEqual(seen, [tuple])
            np.testing.assert_array_equal(idx.numpy(), getattr(tnn, 'AdaptiveMaxPool%dd' % n)(
                3, return_indices=True)(x.nan_to_num())[1].numpy())
            out.sum().backward()
            self.assertEqual(float(xg.grad.numpy().sum()), float(out.numpy().size))
            plain = getattr(Gnn, 'AdaptiveMaxPool%dd' % n)(3)
            self.assertIsInstance(plain(to_gnn(x)), Gnn.Tensor)

    def test_functional(self):
        x = torch.randn(2, 3, 11)
        for kwargs in (dict(kernel_size=3), dict(kernel_size=4, stride=2, padding=2, ceil_mode=True),
                       dict(kernel_size=2, stride=1, padding=1, count_include_pad=False)):
            assert_close(self, F.avg_pool1d(to_gnn(x), **kwargs), TF.avg_pool1d(x, **kwargs), 'avg_pool1d')
        for kwargs in (dict(kernel_size=3), dict(kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True)):
            assert_close(self, F.max_pool1d(to_gnn(x), **kwargs), TF.max_pool1d(x, **kwargs), 'max_pool1d')
        # a window longer than the input: an empty output, as torch's
        assert_close(self, F.max_pool1d(to_gnn(x[..., :3]), 4), TF.max_pool1d(x[..., :3], 4), 'empty')
        for n in (1, 2, 3):
            y = torch.randn(1, 2, *([6] * n))
            assert_close(self, getattr(F, 'adaptive_avg_pool%dd' % n)(to_gnn(y), 4),
                         getattr(TF, 'adaptive_avg_pool%dd' % n)(y, 4), 'adaptive avg')

    def test_errors(self):
        for f, args in ((TF.max_pool1d, ((2,), 2)), (TF.max_pool1d, ((1, 2, 3, 4), 2)),
                        (TF.max_pool1d, ((1, 2, 5), 3, None, 2)), (TF.max_pool1d, ((1, 0, 5), 2)),
                        (TF.max_pool1d, ((1, 2, 5), 2, None, 0, 0)),
                        (TF.avg_pool1d, ((2,), 2)), (TF.avg_pool1d, ((1, 2, 3), 4)),
                        (TF.avg_pool1d, ((1, 2, 5), 3, None, 2))):
            shape, rest = args[0], args[1:]
            x = torch.randn(*shape)
            with self.subTest(f=f.__name__, args=args):
                check_same_error(self, lambda: getattr(F, f.__name__)(to_gnn(x), *rest), lambda: f(x, *rest))
        for n in (1, 2, 3):
            for kind in ('avg', 'max'):
                name = 'adaptive_%s_pool%dd' % (kind, n)
                for shape, size in (([2] * n, 2), ([2] * (n + 3), 2), ([1, 2] + [3] * n, -1)):
                    x = torch.randn(*shape)
                    with self.subTest(name=name, shape=shape, size=size):
                        if size == -1 and kind == 'max':
                            continue      # torch fails creating the tensor; Gnn names the size
                        check_same_error(self, lambda: getattr(F, name)(to_gnn(x), size),
                                         lambda: getattr(TF, name)(x, size))


if __name__ == '__main__':
    unittest.main()
