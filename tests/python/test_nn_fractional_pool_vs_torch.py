# FractionalMaxPool2d/3d and F.fractional_max_pool2d/3d(_with_indices)
# against torch 1.13 given the same _random_samples: outputs, indices, input
# gradients, reprs, grad_fn names, state dict keys and torch's messages;
# average pooling of int64 inputs (torch's truncating mean) and torch's
# refusal of the other integer dtypes.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import random
import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import Gnn, assert_close, backward_both, check_same_error, to_gnn

F = Gnn.functional


class TestFractionalMaxPool(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = random.Random(7)

    def random_case(self, n):
        k = [self.rng.randint(1, 3) for _ in range(n)]
        scalar = self.rng.random() < 0.3
        if scalar:
            k = [k[0]] * n
        lead = [[], [1], [self.rng.randint(1, 3)]][self.rng.randint(0, 2)]
        planes = self.rng.randint(1, 3)
        size = [self.rng.randint(kk + 1, kk + 7) for kk in k]
        shape = lead + [planes] + size
        # the largest output: out + k - 1 <= size (2-d), < size (3-d: torch's check is strict)
        most = [s - kk + (n == 2) for s, kk in zip(size, k)]
        if self.rng.random() < 0.5:
            kwargs = dict(output_size=[self.rng.randint(1, m) for m in most])
        else:
            kwargs = dict(output_ratio=[self.rng.choice([0.3, 0.5, 0.75, 0.9]) for _ in range(n)])
            if any(int(s * r) > m for s, r, m in zip(size, kwargs['output_ratio'], most)):
                kwargs = dict(output_size=[1] * n)
        return k[0] if scalar else k, shape, kwargs

    def test_functional_values_indices_gradients(self):
        for trial in range(60):
            n = self.rng.choice([2, 3])
            k, shape, kwargs = self.random_case(n)
            dtype = self.rng.choice([torch.float32, torch.float64])
            batch = shape[0] if len(shape) == n + 2 else 1
            samples = torch.rand(batch, shape[-n - 1], n, dtype=dtype)
            name = 'fractional_max_pool%dd' % n
            with self.subTest(name=name, k=k, shape=shape, kwargs=kwargs, dtype=dtype):
                x = torch.randn(*shape, dtype=dtype)
                if self.rng.random() < 0.3:
                    x[(0,) * x.dim()] = float('nan')
                x.requires_grad_(True)
                gx = to_gnn(x, requires_grad=True)
                want, want_idx = getattr(TF, name)(x, k, return_indices=True, _random_samples=samples, **kwargs)
                got, got_idx = getattr(F, name)(gx, k, return_indices=True, _random_samples=to_gnn(samples),
                                                **kwargs)
                np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
                np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
                self.assertEqual(got.grad_fn.name(), want.grad_fn.name())
                backward_both(self, got, want, gx, x, name)
                # the _with_indices form always returns the pair
                pair = getattr(F, name + '_with_indices')(to_gnn(x.detach()), k, _random_samples=to_gnn(samples),
                                                          **kwargs)
                np.testing.assert_array_equal(pair[1].numpy(), want_idx.numpy())

    def test_samples_drawn_when_not_given(self):
        x = torch.randn(2, 3, 9, 9)
        got, idx = F.fractional_max_pool2d(to_gnn(x), 2, output_size=4, return_indices=True)
        self.assertEqual(list(got.shape), [2, 3, 4, 4])
        # every output is the input at its index
        flat = x.reshape(2, 3, -1)
        np.testing.assert_array_equal(got.numpy(), torch.gather(flat, 2, torch.from_numpy(
            idx.numpy()).reshape(2, 3, -1)).reshape(2, 3, 4, 4).numpy())
        got3 = F.fractional_max_pool3d(to_gnn(torch.randn(3, 5, 6, 7)), (2, 1, 2), output_ratio=0.5)
        self.assertEqual(list(got3.shape), [3, 2, 3, 3])

    def test_layers(self):
        for n in (2, 3):
            name = 'FractionalMaxPool%dd' % n
            samples = torch.rand(2, 3, n)
            for kwargs in (dict(output_size=3), dict(output_ratio=0.6), dict(output_size=(3,) * n),
                           dict(output_ratio=(0.5,) * (n - 1) + (0.75,))):
                with self.subTest(name=name, kwargs=kwargs):
                    t = getattr(tnn, name)(2, return_indices=True, _random_samples=samples, **kwargs)
                    g = getattr(Gnn, name)(2, return_indices=True, _random_samples=to_gnn(samples), **kwargs)
                    self.assertEqual(repr(g), repr(t))
                    self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
                    x = torch.randn(2, 3, *[7] * n, requires_grad=True)
                    gx = to_gnn(x, requires_grad=True)
                    want, want_idx = t(x)
                    got, got_idx = g(gx)
                    np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
                    assert_close(self, got, want, name)
                    backward_both(self, got, want, gx, x, name)
            # without samples: no buffer in the state dict, a plain call gives the output alone
            t = getattr(tnn, name)(2, output_size=2)
            g = getattr(Gnn, name)(2, output_size=2)
            self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
            self.assertEqual(list(g(to_gnn(torch.randn(1, 2, *[5] * n))).shape), [1, 2] + [2] * n)
            # from properties alone
            props = {'kernel-' + a: 2 for a in 'dhw'[3 - n:]}
            props.update({'output-ratio-' + a: 0.5 for a in 'dhw'[3 - n:]})
            g = getattr(Gnn, name)(**{k.replace('-', '_'): v for k, v in props.items()})
            self.assertEqual(list(g(to_gnn(torch.randn(2, *[6] * n))).shape), [2] + [3] * n)

    def test_constructor_errors(self):
        cases = [
            lambda nn: nn.FractionalMaxPool2d(2),
            lambda nn: nn.FractionalMaxPool3d(2),
            lambda nn: nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5),
            lambda nn: nn.FractionalMaxPool2d(2, output_ratio=1.5),
            lambda nn: nn.FractionalMaxPool2d(2, output_ratio=(0.5, 1.0)),
            lambda nn: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.25, 0.0)),
            lambda nn: nn.FractionalMaxPool3d(2, output_ratio=-0.5),
        ]
        for i, case in enumerate(cases):
            with self.subTest(case=i):
                check_same_error(self, lambda: case(Gnn), lambda: case(tnn))

    def test_call_errors(self):
        x = torch.randn(2, 3, 7, 8)
        s2 = torch.rand(2, 3, 2)
        cases = [
            lambda f, T: f.fractional_max_pool2d(T(x), 2),
            lambda f, T: f.fractional_max_pool3d(T(x), 2),
            lambda f, T: f.fractional_max_pool2d(T(x), 2, output_size=7, _random_samples=T(s2)),
            lambda f, T: f.fractional_max_pool2d(T(x), 3, output_size=(4, 7), _random_samples=T(s2)),
            lambda f, T: f.fractional_max_pool2d(T(x[:, :, :0]), 2, output_size=2, _random_samples=T(s2)),
            lambda f, T: f.fractional_max_pool2d(T(x.unsqueeze(2)), 2, output_size=2, _random_samples=T(s2)),
            lambda f, T: f.fractional_max_pool2d(T(x), 2, output_size=(-1, 2), _random_samples=T(s2)),
            lambda f, T: f.fractional_max_pool2d(T(x.long()), 2, output_size=2),
            lambda f, T: f.fractional_max_pool2d(T(x.long()), 2, output_size=2, _random_samples=T(s2)),
            lambda f, T: f.fractional_max_pool2d(T(x), 2, output_size=2, _random_samples=T(s2.double())),
            lambda f, T: f.fractional_max_pool2d(T(x[0, 0]), 2, output_size=2),
            lambda f, T: f.fractional_max_pool3d(T(x), 2, output_size=2, _random_samples=T(torch.rand(1, 2, 3))),
            lambda f, T: f.fractional_max_pool3d(T(x.unsqueeze(0).unsqueeze(0)), 2, output_size=2),
            lambda f, T: f.fractional_max_pool3d(T(x[0]), 2, output_size=2),
        ]
        for i, case in enumerate(cases):
            with self.subTest(case=i):
                check_same_error(self, lambda: case(F, to_gnn), lambda: case(TF, lambda v: v))

    def test_samples_of_the_wrong_shape_are_refused(self):
        # torch 1.13 reads such samples out of bounds; Gnn names them
        x = to_gnn(torch.randn(2, 3, 7, 8))
        for bad in (torch.rand(1, 3, 2), torch.rand(2, 3, 3), torch.rand(3, 2)):
            with self.assertRaisesRegex(Exception, 'expected _random_samples of shape'):
                F.fractional_max_pool2d(x, 2, output_size=2, _random_samples=to_gnn(bad))
        with self.assertRaisesRegex(Exception, 'kernel_size must be greater than zero'):
            F.fractional_max_pool2d(x, (0, 2), output_size=2)


class TestIntegerAveragePooling(unittest.TestCase):
    def test_int64_mean_truncates_as_torch(self):
        rng = random.Random(3)
        for trial in range(30):
            n = rng.choice([1, 2, 3])
            k = rng.randint(1, 3)
            kwargs = dict(kernel_size=k, stride=rng.choice([None, 1, 2]), padding=rng.randint(0, k // 2),
                          ceil_mode=rng.random() < 0.5, count_include_pad=rng.random() < 0.5)
            if n > 1 and rng.random() < 0.3:
                kwargs['divisor_override'] = rng.randint(1, 5)
            shape = [rng.randint(1, 2), rng.randint(1, 3)][:rng.randint(1, 2)] + [rng.randint(k, 7)] * n
            x = torch.randint(-50, 50, shape)
            name = 'avg_pool%dd' % n
            with self.subTest(name=name, kwargs=kwargs, shape=shape):
                want = getattr(TF, name)(x, **kwargs)
                got = getattr(F, name)(to_gnn(x), **kwargs)
                self.assertEqual(str(got.dtype).split('.')[-1], 'int64')
                np.testing.assert_array_equal(got.numpy(), want.numpy())
                layer = 'AvgPool%dd' % n
                np.testing.assert_array_equal(getattr(Gnn, layer)(**kwargs)(to_gnn(x)).numpy(),
                                              getattr(tnn, layer)(**kwargs)(x).numpy())

    def test_other_dtypes_refused_with_torch_message(self):
        for dtype in (torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool):
            for n in (1, 2, 3):
                x = torch.zeros([1, 2] + [4] * n, dtype=dtype)
                name = 'avg_pool%dd' % n
                with self.subTest(dtype=dtype, name=name):
                    check_same_error(self, lambda: getattr(F, name)(to_gnn(x), 2),
                                     lambda: getattr(TF, name)(x, 2))
        for n in (1, 2, 3):
            x = torch.zeros([1, 2] + [4] * n, dtype=torch.int64)
            name = 'adaptive_avg_pool%dd' % n
            with self.subTest(name=name):
                check_same_error(self, lambda: getattr(F, name)(to_gnn(x), 2), lambda: getattr(TF, name)(x, 2))


if __name__ == '__main__':
    unittest.main()
