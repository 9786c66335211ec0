# Conv1d/2d/3d and ConvTranspose1d/2d/3d (and F.conv*, F.conv_transpose*)
# against torch 1.13: random configurations and shapes, batch 1 and
# unbatched inputs, outputs and input/weight/bias gradients to 1e-5
# relative, state dicts both ways, repr, padding modes and 'same', errors.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import random
import unittest

import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import (Gnn, GLib, assert_close, load_torch_into_gnn, check_layer, check_same_error,
                          to_gnn)

F = Gnn.functional
CLASSES = {(1, False): 'Conv1d', (2, False): 'Conv2d', (3, False): 'Conv3d',
           (1, True): 'ConvTranspose1d', (2, True): 'ConvTranspose2d',
           (3, True): 'ConvTranspose3d'}


def random_config(rng, n, transposed):
    groups = rng.choice([1, 1, 2, 3])
    cfg = dict(in_channels=groups * rng.randint(1, 3), out_channels=groups * rng.randint(1, 3),
               kernel_size=tuple(rng.randint(1, 4) for _ in range(n)),
               stride=tuple(rng.randint(1, 3) for _ in range(n)),
               padding=tuple(rng.randint(0, 2) for _ in range(n)),
               dilation=tuple(rng.randint(1, 2) for _ in range(n)),
               groups=groups, bias=rng.random() < 0.7)
    if transposed:
        cfg['output_padding'] = tuple(rng.randint(0, max(s, d) - 1)
                                      for s, d in zip(cfg['stride'], cfg['dilation']))
    elif rng.random() < 0.3:
        cfg['padding_mode'] = rng.choice(['reflect', 'replicate', 'circular'])
    return cfg


def input_shapes(rng, n, cfg):
    """Batch 1, a batch of 3 and an unbatched input, each large enough."""
    if 'output_padding' in cfg:
        # (in - 1) s - 2 p + d (k - 1) + op + 1 >= 1
        lo = [max(-(-(2 * p - d * (k - 1) - op) // s) + 1, 1)
              for k, d, p, s, op in zip(cfg['kernel_size'], cfg['dilation'], cfg['padding'],
                                        cfg['stride'], cfg['output_padding'])]
    else:
        lo = [max(d * (k - 1) + 1 - 2 * p, 1) + (2 if cfg.get('padding_mode') else 0)
              for k, d, p in zip(cfg['kernel_size'], cfg['dilation'], cfg['padding'])]
    spatial = [rng.randint(low + 1, low + 6) for low in lo]
    return [[1, cfg['in_channels']] + spatial, [3, cfg['in_channels']] + spatial,
            [cfg['in_channels']] + spatial]


class TestConvLayersVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = random.Random(1)

    def run_random(self, n, transposed, trials):
        name = CLASSES[(n, transposed)]
        for trial in range(trials):
            cfg = random_config(self.rng, n, transposed)
            if cfg.get('padding_mode') == 'circular':
                cfg['padding'] = tuple(min(p, 1) for p in cfg['padding'])
            dtype = self.rng.choice([torch.float32, torch.float64])
            with self.subTest(trial=trial, cfg=cfg, dtype=dtype):
                t = getattr(tnn, name)(**cfg).to(dtype)
                g = getattr(Gnn, name)(**cfg)
                if dtype == torch.float64:
                    g.to(Gnn.DType.F64)
                inputs = [torch.randn(*s, dtype=dtype) for s in input_shapes(self.rng, n, cfg)]
                if cfg.get('padding_mode') == 'circular':
                    inputs = inputs[:2]       # torch pads circularly batched inputs only
                check_layer(self, g, t, inputs)

    def test_conv1d(self):
        self.run_random(1, False, 25)

    def test_conv2d(self):
        self.run_random(2, False, 20)

    def test_conv3d(self):
        self.run_random(3, False, 12)

    def test_conv_transpose1d(self):
        self.run_random(1, True, 25)

    def test_conv_transpose2d(self):
        self.run_random(2, True, 20)

    def test_conv_transpose3d(self):
        self.run_random(3, True, 12)

    def test_dcgan_shapes(self):
        # the generator's and the discriminator's layers (4x4, stride 2, pad
        # 1; the first 4x4 from 1x1) and a 3x3 stride-1 transposed
        # convolution (Winograd's shape)
        for t, g, x in ((tnn.ConvTranspose2d(100, 64, 4, 1, 0, bias=False),
                         Gnn.ConvTranspose2d(100, 64, 4, 1, 0, bias=False), torch.randn(2, 100, 1, 1)),
                        (tnn.ConvTranspose2d(64, 32, 4, 2, 1, bias=False),
                         Gnn.ConvTranspose2d(64, 32, 4, 2, 1, bias=False), torch.randn(2, 64, 8, 8)),
                        (tnn.Conv2d(32, 64, 4, 2, 1, bias=False),
                         Gnn.Conv2d(32, 64, 4, 2, 1, bias=False), torch.randn(2, 32, 16, 16)),
                        (tnn.ConvTranspose2d(16, 8, 3, 1, 1), Gnn.ConvTranspose2d(16, 8, 3, 1, 1),
                         torch.randn(3, 16, 12, 12))):
            check_layer(self, g, t, [x])

    def test_transposed_stride2_shapes(self):
        # the DCGAN generator's 4x4 / stride 2 / padding 1 transposed
        # convolution with groups, bias, batch 1, unbatched, odd and
        # non-square maps, a 1x1 input, and its neighbours: output_padding,
        # dilation, other paddings
        for cin, cout, groups, bias, shape, extra in (
                (6, 4, 1, True, (2, 6, 5, 3), {}),
                (6, 4, 2, False, (1, 6, 4, 4), {}),
                (9, 6, 3, True, (3, 9, 1, 1), {}),
                (5, 3, 1, True, (5, 7, 2), {}),
                (4, 8, 1, True, (2, 4, 3, 5), dict(output_padding=1)),
                (4, 2, 2, False, (2, 4, 4, 4), dict(output_padding=(0, 1))),
                (4, 6, 1, True, (2, 4, 5, 5), dict(dilation=2)),
                (4, 6, 2, True, (2, 4, 5, 5), dict(padding=(1, 2))),
                (3, 2, 1, True, (2, 3, 6, 6), dict(padding=0))):
            cfg = dict(dict(groups=groups, bias=bias, stride=2, padding=1), **extra)
            with self.subTest(cin=cin, cout=cout, shape=shape, cfg=cfg):
                t = tnn.ConvTranspose2d(cin, cout, 4, **cfg)
                g = Gnn.ConvTranspose2d(cin, cout, 4, **cfg)
                check_layer(self, g, t, [torch.randn(*shape) * 3])

    def test_transposed_output_size(self):
        # forward(input, output_size): the output padding that reaches the
        # size asked for, with or without the batch and channel sizes
        for n, size in ((1, [10]), (2, (9, 10)), (2, [2, 3, 10, 9]), (3, [9, 10, 9])):
            with self.subTest(n=n, size=size):
                t = getattr(tnn, 'ConvTranspose%dd' % n)(4, 3, 3, stride=2, padding=1)
                g = getattr(Gnn, 'ConvTranspose%dd' % n)(4, 3, 3, stride=2, padding=1)
                load_torch_into_gnn(g, t)
                x = torch.randn(2, 4, *([5] * n), requires_grad=True)
                gx = to_gnn(x, requires_grad=True)
                ty, gy = t(x, size), g(gx, output_size=size)
                assert_close(self, gy, ty, 'output')
                grad = torch.randn_like(ty)
                ty.backward(grad)
                gy.backward(to_gnn(grad), False)
                assert_close(self, gx.grad, x.grad, 'input gradient')
                assert_close(self, g.weight.grad, t.weight.grad, 'weight gradient')
                assert_close(self, g(gx, None), t(x, None), 'output_size=None')
        t, g = tnn.ConvTranspose2d(4, 3, 3, stride=2), Gnn.ConvTranspose2d(4, 3, 3, stride=2)
        x = torch.randn(2, 4, 5, 5)
        for size in ([13, 14], (10, 11), [2, 3, 11, 11, 11], [1, 2, 3], (14,), 12):
            check_same_error(self, lambda: g(to_gnn(x), size), lambda: t(x, size))
        check_same_error(self, lambda: g(to_gnn(x[0]), [14, 12]), lambda: t(x[0], [14, 12]))

    def test_padding_same(self):
        for n in (1, 2, 3):
            for k, d in ((3, 1), (4, 1), (2, 3), (4, 2)):
                name = CLASSES[(n, False)]
                for mode in ('zeros', 'reflect'):
                    t = getattr(tnn, name)(2, 3, k, padding='same', dilation=d, padding_mode=mode)
                    g = getattr(Gnn, name)(2, 3, k, padding='same', dilation=d, padding_mode=mode)
                    check_layer(self, g, t, [torch.randn(2, 2, *([8] * n))])
                    w = torch.randn(3, 2, *([k] * n))
                    x = torch.randn(1, 2, *([9] * n))
                    conv = getattr(TF, 'conv%dd' % n)
                    assert_close(self, getattr(F, 'conv%dd' % n)(to_gnn(x), to_gnn(w), None, 1, 'same', d),
                                 conv(x, w, None, 1, 'same', d), 'F.conv same')

    def test_functional(self):
        for n in (1, 2, 3):
            x = torch.randn(2, 4, *([7] * n))
            w = torch.randn(6, 2, *([3] * n))
            b = torch.randn(6)
            conv, gconv = getattr(TF, 'conv%dd' % n), getattr(F, 'conv%dd' % n)
            assert_close(self, gconv(to_gnn(x), to_gnn(w), to_gnn(b), 2, 1, groups=2),
                         conv(x, w, b, 2, 1, groups=2), 'conv%dd' % n)
            assert_close(self, gconv(to_gnn(x), to_gnn(w), None, padding='valid', groups=2, dilation=2),
                         conv(x, w, None, padding='valid', groups=2, dilation=2), 'valid')
            wt = torch.randn(4, 3, *([3] * n))
            convt, gconvt = getattr(TF, 'conv_transpose%dd' % n), getattr(F, 'conv_transpose%dd' % n)
            assert_close(self, gconvt(to_gnn(x), to_gnn(wt), None, 2, 1, 1, 2, 1),
                         convt(x, wt, None, 2, 1, 1, 2, 1), 'conv_transpose%dd' % n)
            assert_close(self, gconvt(to_gnn(x), to_gnn(wt), stride=2, output_padding=1, groups=2,
                                      dilation=2),
                         convt(x, wt, stride=2, output_padding=1, groups=2, dilation=2), 'keywords')

    def test_grad_fn_name(self):
        x = to_gnn(torch.randn(1, 2, 5), requires_grad=True)
        w = to_gnn(torch.randn(2, 3, 3))
        self.assertEqual(F.conv_transpose1d(x, w).get_grad_fn_name(), 'ConvolutionBackward0')
        self.assertEqual(F.conv1d(x, Gnn.Tensor.ones([4, 2, 3], Gnn.DType.F32)).get_grad_fn_name(),
                         'ConvolutionBackward0')

    def test_repr_and_properties(self):
        for args, kwargs in (((4, 6, 3), {}), ((4, 6, (3, 1, 2)), dict(padding=1, stride=(1, 2, 1))),
                             ((4, 6, 3), dict(groups=2, bias=False, dilation=2))):
            n = 1 if isinstance(args[2], int) and not kwargs else 3
            for transposed in (False, True):
                name = CLASSES[(n, transposed)]
                self.assertEqual(repr(getattr(Gnn, name)(*args, **kwargs)),
                                 repr(getattr(tnn, name)(*args, **kwargs)))
        self.assertEqual(repr(Gnn.ConvTranspose2d(4, 6, 3, 2, 1, 1, 2, False, 2)),
                         repr(tnn.ConvTranspose2d(4, 6, 3, 2, 1, 1, 2, False, 2)))
        self.assertEqual(repr(Gnn.Conv1d(4, 6, 3, padding=1, padding_mode='circular')),
                         repr(tnn.Conv1d(4, 6, 3, padding=1, padding_mode='circular')))
        g = Gnn.ConvTranspose1d(2, 4, 3, output_padding=1, stride=2)
        self.assertEqual((g.in_channels, g.out_channels, g.kernel_size, g.stride, g.output_padding),
                         (2, 4, 3, 2, 1))
        self.assertTrue(g.get_transposed())
        self.assertEqual(g.get_n_spatial(), 1)
        self.assertIsInstance(g, Gnn.ConvNd)

    def test_from_properties(self):
        from gi.repository import GObject
        for name, props in (('Conv1d', dict(in_channels=2, out_channels=4, kernel_size=3)),
                            ('Conv3d', dict(in_channels=2, out_channels=4, kernel_d=1, kernel_h=2,
                                            kernel_w=3, padding_d=1)),
                            ('ConvTranspose2d', dict(in_channels=2, out_channels=4, kernel_h=4,
                                                     kernel_w=4, stride_h=2, stride_w=2,
                                                     output_padding_h=1, output_padding_w=1))):
            g = GObject.new(getattr(Gnn, name), **props)
            t_args = {1: lambda: tnn.Conv1d(2, 4, 3),
                      3: lambda: tnn.Conv3d(2, 4, (1, 2, 3), padding=(1, 0, 0)),
                      2: lambda: tnn.ConvTranspose2d(2, 4, 4, 2, output_padding=1)}
            t = t_args[g.get_n_spatial()]()
            self.assertEqual(repr(g), repr(t))
            check_layer(self, g, t, [torch.randn(2, 2, *([6] * g.get_n_spatial()))])

    def test_initialization_bounds(self):
        for g, fan_in in ((Gnn.Conv1d(4, 16, 5), 20), (Gnn.ConvTranspose2d(4, 6, 3, groups=2), 27),
                          (Gnn.Conv3d(2, 3, 2), 16)):
            bound = 1 / fan_in ** 0.5
            w, b = g.weight.numpy(), g.bias.numpy()
            self.assertLessEqual(abs(w).max(), bound + 1e-7)
            self.assertGreater(abs(w).max(), bound * 0.7)
            self.assertLessEqual(abs(b).max(), bound + 1e-7)

    def test_constructor_errors(self):
        for name in ('Conv1d', 'ConvTranspose2d', 'Conv3d'):
            check_same_error(self, lambda: getattr(Gnn, name)(4, 6, 3, groups=3),
                             lambda: getattr(tnn, name)(4, 6, 3, groups=3),
                             'in_channels must be divisible by groups')
            check_same_error(self, lambda: getattr(Gnn, name)(4, 6, 3, groups=0),
                             lambda: getattr(tnn, name)(4, 6, 3, groups=0),
                             'groups must be a positive integer')
        check_same_error(self, lambda: Gnn.Conv1d(4, 6, 3, padding='same', stride=2),
                         lambda: tnn.Conv1d(4, 6, 3, padding='same', stride=2))
        check_same_error(self, lambda: Gnn.ConvTranspose2d(4, 6, 3, padding_mode='reflect'),
                         lambda: tnn.ConvTranspose2d(4, 6, 3, padding_mode='reflect'))
        check_same_error(self, lambda: Gnn.Conv2d(4, 6, 3, padding_mode='foo'),
                         lambda: tnn.Conv2d(4, 6, 3, padding_mode='foo'), 'padding_mode must be one of')
        check_same_error(self, lambda: Gnn.Conv2d(4, 6, 3, padding='foo'),
                         lambda: tnn.Conv2d(4, 6, 3, padding='foo'), "Invalid padding string 'foo'")

    def test_forward_errors(self):
        cases = [
            ((2,), 'Conv1d', (2, 8, 3)),
            ((1, 2, 3, 4, 5), 'Conv1d', (2, 8, 3)),
            ((1, 3, 5), 'Conv1d', (2, 8, 3)),
            ((1, 2, 2), 'Conv1d', (2, 8, 3)),
            ((2, 3), 'Conv3d', (2, 8, 3)),
            ((1, 3, 4, 4, 4), 'Conv3d', (2, 8, 3)),
            ((1, 2, 2, 4, 4), 'Conv3d', (2, 8, 3)),
            ((2, 3), 'ConvTranspose2d', (8, 2, 3)),
            ((1, 3, 4, 4), 'ConvTranspose2d', (8, 2, 3)),
            ((1, 8, 1, 1), 'ConvTranspose2d', (8, 2, 3, 1, 3)),
            ((1, 8, 4, 4), 'ConvTranspose2d', (8, 2, 3, 1, 0, 1)),
            ((1, 8, 4), 'ConvTranspose1d', (8, 2, 3, 1, 0, 1)),
            ((1, 8, 1), 'ConvTranspose1d', (8, 2, 3, 1, 3)),
            ((8,), 'ConvTranspose1d', (8, 2, 3)),
            ((1, 8, 4, 4, 4), 'ConvTranspose3d', (8, 2, 3, 1, 0, 1)),
            ((1, 8, 1, 1, 1), 'ConvTranspose3d', (8, 2, 3, 1, 3)),
        ]
        for shape, name, args in cases:
            with self.subTest(name=name, args=args, shape=shape):
                g, t = getattr(Gnn, name)(*args), getattr(tnn, name)(*args)
                x = torch.randn(*shape)
                check_same_error(self, lambda: g(to_gnn(x)), lambda: t(x))

    def test_functional_errors(self):
        x = torch.randn(1, 2, 5)
        w = torch.randn(8, 2, 3)
        for kwargs in (dict(stride=0), dict(padding=-1), dict(dilation=0), dict(groups=0),
                       dict(stride=(1, 1))):
            check_same_error(self, lambda: F.conv1d(to_gnn(x), to_gnn(w), **kwargs),
                             lambda: TF.conv1d(x, w, **kwargs))
        check_same_error(self, lambda: F.conv1d(to_gnn(x), to_gnn(w), to_gnn(torch.randn(3))),
                         lambda: TF.conv1d(x, w, torch.randn(3)))
        check_same_error(self, lambda: F.conv1d(to_gnn(x.double()), to_gnn(w)),
                         lambda: TF.conv1d(x.double(), w))
        wt = torch.randn(8, 2, 3, 3)
        xt = torch.randn(1, 8, 4, 4)
        check_same_error(self, lambda: F.conv_transpose2d(to_gnn(xt), to_gnn(wt), to_gnn(torch.randn(3))),
                         lambda: TF.conv_transpose2d(xt, wt, torch.randn(3)))
        check_same_error(self, lambda: F.conv_transpose2d(to_gnn(xt), to_gnn(wt), groups=3),
                         lambda: TF.conv_transpose2d(xt, wt, groups=3),
                         'expected weight to be divisible by 3 at dimension 0')
        check_same_error(self, lambda: F.conv_transpose1d(to_gnn(xt[0]), to_gnn(wt[..., 0]),
                                                          output_padding=-1),
                         lambda: TF.conv_transpose1d(xt[0], wt[..., 0], output_padding=-1))
        self.assertRaises(GLib.Error, F.conv1d, to_gnn(x), to_gnn(torch.randn(8, 2)))


if __name__ == '__main__':
    unittest.main()
