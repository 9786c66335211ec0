# Conv2d, pooling, normalization and embedding layers against torch 1.13:
# same weights (copied through numpy), same outputs to 1e-5, same reprs,
# state_dict names, train/eval behaviour and error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn as tnn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


def to_gnn(t):
    return Gnn.Tensor.from_numpy(np.array(t.detach().numpy()))   # a copy: from_numpy shares


def copy_params(gmod, tmod):
    """Registers copies of torch's parameters and buffers in the Gnn module."""
    for name, p in tmod.named_parameters(recurse=False):
        gmod.register_parameter(name, Gnn.Parameter.new(to_gnn(p), True))
    for name, b in tmod.named_buffers(recurse=False):
        gmod.register_buffer(name, to_gnn(b), True)


def forward(gmod, x):
    return gmod.call(to_gnn(x)).numpy()


class TestConvVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def check(self, gmod, tmod, x, atol=1e-5):
        copy_params(gmod, tmod)
        expect = tmod(x).detach().numpy()
        got = forward(gmod, x)
        self.assertEqual(got.shape, expect.shape)
        np.testing.assert_allclose(got, expect, rtol=1e-5, atol=atol)

    def test_conv2d_basic(self):
        t = tnn.Conv2d(1, 8, 3, padding=1)
        g = Gnn.Conv2d.new(1, 8, 3, 1, 1, True)
        self.assertEqual(g.extra_repr(), t.extra_repr())
        self.check(g, t, torch.randn(2, 1, 9, 7))

    def test_conv2d_all_options(self):
        for args in [dict(kernel_size=(3, 5), stride=(2, 1), padding=(1, 2), dilation=(2, 1), groups=2),
                     dict(kernel_size=1, stride=1, padding=0, dilation=1, groups=1),
                     dict(kernel_size=(2, 3), stride=(3, 2), padding=(0, 1), dilation=1, groups=4)]:
            k = args['kernel_size'] if isinstance(args['kernel_size'], tuple) else (args['kernel_size'],) * 2
            s = args['stride'] if isinstance(args['stride'], tuple) else (args['stride'],) * 2
            p = args['padding'] if isinstance(args['padding'], tuple) else (args['padding'],) * 2
            d = args['dilation'] if isinstance(args['dilation'], tuple) else (args['dilation'],) * 2
            for bias in (True, False):
                t = tnn.Conv2d(4, 8, bias=bias, **args)
                g = Gnn.Conv2d.new_full(4, 8, k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1],
                                        args['groups'], bias, None)
                self.assertEqual(g.extra_repr(), t.extra_repr())
                self.check(g, t, torch.randn(3, 4, 11, 10))
                # a map of ≥ 256 outputs: one GEMM per image into the output
                g = Gnn.Conv2d.new_full(4, 8, k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1],
                                        args['groups'], bias, None)
                self.check(g, t, torch.randn(3, 4, 53, 40))

    def test_conv2d_unbatched(self):
        t = tnn.Conv2d(3, 5, 3, stride=2)
        g = Gnn.Conv2d.new(3, 5, 3, 2, 0, True)
        self.check(g, t, torch.randn(3, 8, 8))

    def test_conv2d_float64(self):
        t = tnn.Conv2d(2, 3, 3, padding=1).double()
        g = Gnn.Conv2d.new(2, 3, 3, 1, 1, True)
        self.check(g, t, torch.randn(2, 2, 5, 5, dtype=torch.float64))

    def test_conv2d_from_properties(self):
        g = Gnn.Conv2d(in_channels=2, out_channels=4, kernel_h=3, kernel_w=3, padding_h=1, padding_w=1)
        self.assertEqual(g.extra_repr(), tnn.Conv2d(2, 4, 3, padding=1).extra_repr())
        self.assertEqual(list(g.get_parameter('weight').numpy().shape), [4, 2, 3, 3])

    def test_conv2d_errors(self):
        g = Gnn.Conv2d.new(1, 8, 3, 1, 0, True)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.zeros([2, 3], Gnn.DType.F32))
        self.assertIn('Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [2, 3]',
                      cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.zeros([2, 3, 5, 5], Gnn.DType.F32))
        self.assertIn('Given groups=1, weight of size [8, 1, 3, 3], expected input[2, 3, 5, 5] to have 1 '
                      'channels, but got 3 channels instead', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Conv2d.new_full(4, 6, 3, 3, 1, 1, 0, 0, 1, 1, 3, True, None)
        self.assertIn('in_channels must be divisible by groups', cm.exception.message)

    def test_conv2d_init_bounds(self):
        g = Gnn.Conv2d.new(4, 16, 3, 1, 0, True)
        w = g.get_parameter('weight').numpy()
        b = g.get_parameter('bias').numpy()
        bound = 1 / np.sqrt(4 * 9)
        self.assertLessEqual(np.abs(w).max(), bound + 1e-7)   # kaiming a=sqrt(5): 1/sqrt(fan_in)
        self.assertLessEqual(np.abs(b).max(), bound + 1e-7)
        self.assertGreater(np.abs(w).max(), bound * 0.8)

    def test_max_pool2d(self):
        for args in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                     dict(kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True),
                     dict(kernel_size=2, ceil_mode=True)]:
            t = tnn.MaxPool2d(**args)
            g = Gnn.MaxPool2d.new(args['kernel_size'], args.get('stride', 0), args.get('padding', 0),
                                  args.get('dilation', 1), args.get('ceil_mode', False))
            self.assertEqual(g.extra_repr(), t.extra_repr())
            self.check(g, t, torch.randn(2, 3, 9, 11))
            self.check(g, t, torch.randn(3, 7, 8))

    def test_max_pool2d_rect(self):
        t = tnn.MaxPool2d((2, 3), stride=1)
        g = Gnn.MaxPool2d.new_full(2, 3, 1, 1, 0, 0, 1, 1, False)
        self.assertEqual(g.extra_repr(), t.extra_repr())
        self.check(g, t, torch.randn(1, 2, 6, 7))

    def test_max_pool2d_dense_nan(self):
        # windows inside the input take the unchecked loop; NaN anywhere in a window wins
        x = torch.randn(2, 3, 8, 9)
        x[0, 0, 0, 1] = x[0, 1, 3, 3] = x[1, 2, 6, 0] = x[1, 0, 7, 7] = float('nan')
        x[0, 2, 4, 4] = float('-inf')
        for k, s in ((2, 2), (3, 2), (2, 1), (3, 3)):
            t = tnn.MaxPool2d(k, s)
            g = Gnn.MaxPool2d.new(k, s, 0, 1, False)
            self.check(g, t, x)

    def test_max_pool2d_2x2_grad_ties_nan(self):
        # training's 2x2/2 windows (indices recorded for backward): the first
        # maximum wins a tie, a NaN beats everything and a later NaN the
        # earlier one; values and input gradients as torch's
        x = torch.randint(-2, 3, (2, 3, 9, 11)).float()
        x[0, 0, 0, 0] = x[0, 0, 1, 1] = float('nan')      # two NaNs in one window
        x[0, 1, 2, 3] = float('nan')
        x[1, 2, 4, 4] = x[1, 2, 4, 5] = x[1, 2, 5, 4] = x[1, 2, 5, 5] = float('-inf')
        grad = torch.randn(2, 3, 4, 5)
        grad[0, 2, 1, 1] = -0.0                            # torch's += into zeros gives +0
        tx = x.clone().requires_grad_(True)
        ty = tnn.functional.max_pool2d(tx, 2, 2)
        ty.backward(grad)
        gx = to_gnn(x)
        gx.set_requires_grad(True)
        gy = Gnn.MaxPool2d.new(2, 2, 0, 1, False).call(gx)
        gy.backward(to_gnn(grad), False)
        np.testing.assert_array_equal(gy.numpy(), ty.detach().numpy())
        np.testing.assert_array_equal(gx.grad.numpy(), tx.grad.numpy())
        # the last row and column (9 x 11) lie in no window: zero, not left over
        np.testing.assert_array_equal(np.signbit(gx.grad.numpy()), np.signbit(tx.grad.numpy()))

    def test_conv2d_batch_chunks(self):
        # 2.25 MiB of float32 columns per image: forward GEMMs over chunks of 3, 3 and 1 images
        t = tnn.Conv2d(16, 4, 3, padding=1)
        g = Gnn.Conv2d.new(16, 4, 3, 1, 1, True)
        self.check(g, t, torch.randn(7, 16, 64, 64), atol=1e-4)

    def test_conv2d_one_channel_direct(self):
        # one input channel, up to 3x3 taps, rows of >= 8 outputs: the direct
        # kernel (the first layer of an image model); outputs and weight,
        # bias and input gradients as torch's
        for cout, k, pad, size in ((32, (3, 3), (1, 1), (28, 28)), (5, (2, 3), (0, 2), (13, 19)),
                                   (3, (1, 1), (0, 0), (4, 37))):
            t = tnn.Conv2d(1, cout, k, padding=pad)
            g = Gnn.Conv2d.new_full(1, cout, k[0], k[1], 1, 1, pad[0], pad[1], 1, 1, 1, True, None)
            copy_params(g, t)
            x = torch.randn(6, 1, *size, requires_grad=True)
            ty = t(x)
            grad = torch.randn(ty.shape)
            ty.backward(grad)
            gx = to_gnn(x)
            gx.set_requires_grad(True)
            gy = g.call(gx)
            gy.backward(to_gnn(grad), False)
            np.testing.assert_allclose(gy.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(gx.grad.numpy(), x.grad.numpy(), rtol=1e-4, atol=1e-4)
            for name, p in t.named_parameters():
                np.testing.assert_allclose(getattr(g, name).grad.numpy(), p.grad.numpy(),
                                           rtol=1e-4, atol=1e-3)

    def test_conv2d_non_finite_like_torch(self):
        # a NaN or an infinity in the input stays in its receptive field, and
        # an infinity gives torch's +-inf, not NaN (Winograd's tiles would mix
        # it into every output of the tile): 8 images (F(4x4)) and 3 (F(2x2))
        t = tnn.Conv2d(8, 8, 3, padding=1)
        g = Gnn.Conv2d.new(8, 8, 3, 1, 1, True)
        copy_params(g, t)
        for n in (8, 3):
            for value in (float('nan'), float('inf'), float('-inf')):
                x = torch.randn(n, 8, 12, 12)
                x[1, 2, 5, 6] = value
                want = t(x).detach().numpy()
                got = forward(g, x)
                np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
                np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want))
                np.testing.assert_array_equal(np.isneginf(got), np.isneginf(want))
                finite = np.isfinite(want)
                np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5, atol=1e-5)

    def test_threads_like_torch(self):
        # Gnn.set_num_threads / get_num_threads as torch's; with 2 threads the
        # split loops (Winograd transforms, im2col, bias gradient, max-pool)
        # give torch's values and gradients
        old = Gnn.get_num_threads()
        try:
            Gnn.set_num_threads(2)
            self.assertEqual(Gnn.get_num_threads(), 2)
            for bad in (0, -1):     # torch's RuntimeError (GLib.Error is one) and message
                with self.assertRaisesRegex(RuntimeError, 'set_num_threads expects a positive integer'):
                    Gnn.set_num_threads(bad)
            self.assertEqual(Gnn.get_num_threads(), 2)
            for cin, cout in ((32, 64), (1, 32)):      # Winograd, direct
                t = tnn.Conv2d(cin, cout, 3, padding=1)
                g = Gnn.Conv2d.new(cin, cout, 3, 1, 1, True)
                copy_params(g, t)
                x = torch.randn(24, cin, 14, 14)
                ty = tnn.functional.max_pool2d(torch.relu(t(x)), 2, 2)
                grad = torch.randn(ty.shape)
                ty.backward(grad)
                gy = Gnn.MaxPool2d.new(2, 2, 0, 1, False).call(g.call(to_gnn(x)).relu())
                gy.backward(to_gnn(grad), False)
                np.testing.assert_allclose(gy.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-4)
                for name, p in t.named_parameters():
                    np.testing.assert_allclose(getattr(g, name).grad.numpy(), p.grad.numpy(),
                                               rtol=1e-3, atol=1e-3)
        finally:
            Gnn.set_num_threads(old)

    def test_avg_pool2d(self):
        for args in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                     dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
                     dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
                     dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
                     dict(kernel_size=2, divisor_override=3)]:
            t = tnn.AvgPool2d(**args)
            g = Gnn.AvgPool2d.new(args['kernel_size'], args.get('stride', 0), args.get('padding', 0),
                                  args.get('ceil_mode', False), args.get('count_include_pad', True),
                                  args.get('divisor_override') or 0)
            self.assertEqual(g.extra_repr(), t.extra_repr())
            self.check(g, t, torch.randn(2, 3, 9, 10))

    def test_pool_errors(self):
        g = Gnn.MaxPool2d.new(3, 0, 2, 1, False)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.zeros([1, 1, 5, 5], Gnn.DType.F32))
        self.assertIn('pad should be at most half of kernel size, but got pad=2 and kernel_size=3',
                      cm.exception.message)
        g = Gnn.AvgPool2d.new(3, 0, 0, False, True, 0)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.zeros([1, 1, 2, 2], Gnn.DType.F32))
        self.assertIn('Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small',
                      cm.exception.message)

    def test_layer_norm(self):
        for shape, affine in [([16], True), ([3, 4], False), ([3, 4], True)]:
            t = tnn.LayerNorm(shape, elementwise_affine=affine)
            if affine:
                with torch.no_grad():
                    t.weight.normal_()
                    t.bias.normal_()
            g = Gnn.LayerNorm.new(shape, 1e-5, affine)
            self.assertEqual(g.extra_repr(), t.extra_repr())
            self.check(g, t, torch.randn(5, 2, *shape) * 3 + 1)

    def test_layer_norm_error(self):
        g = Gnn.LayerNorm.new([16], 1e-5, True)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.zeros([2, 15], Gnn.DType.F32))
        self.assertIn('Given normalized_shape=[16], expected input with shape [*, 16], but got input of '
                      'size[2, 15]', cm.exception.message)

    def batch_norm_pair(self, cls, gcls, n, **kw):
        t = cls(n, **kw)
        if t.affine:
            with torch.no_grad():
                t.weight.normal_()
                t.bias.normal_()
        g = gcls.new(n, kw.get('eps', 1e-5), kw.get('momentum', 0.1), kw.get('affine', True),
                     kw.get('track_running_stats', True))
        self.assertEqual(g.extra_repr(), t.extra_repr())
        copy_params(g, t)
        return t, g

    def test_batch_norm2d_train_then_eval(self):
        t, g = self.batch_norm_pair(tnn.BatchNorm2d, Gnn.BatchNorm2d, 8)
        for _ in range(3):
            x = torch.randn(4, 8, 5, 6) * 2 + 0.5
            np.testing.assert_allclose(forward(g, x), t(x).detach().numpy(), rtol=1e-5, atol=1e-5)
        for name in ('running_mean', 'running_var'):
            np.testing.assert_allclose(g.get_buffer(name).numpy(), getattr(t, name).numpy(),
                                       rtol=1e-5, atol=1e-6)
        self.assertEqual(int(g.get_buffer('num_batches_tracked').numpy()), 3)
        t.eval()
        g.eval()
        x = torch.randn(2, 8, 3, 3)
        np.testing.assert_allclose(forward(g, x), t(x).detach().numpy(), rtol=1e-5, atol=1e-5)
        self.assertEqual(int(g.get_buffer('num_batches_tracked').numpy()), 3)

    def test_batch_norm1d(self):
        for shape in [(6, 5), (6, 5, 7)]:
            t, g = self.batch_norm_pair(tnn.BatchNorm1d, Gnn.BatchNorm1d, 5, momentum=0.3)
            x = torch.randn(*shape)
            np.testing.assert_allclose(forward(g, x), t(x).detach().numpy(), rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(g.get_buffer('running_var').numpy(), t.running_var.numpy(),
                                       rtol=1e-5)

    def test_batch_norm_no_stats_no_affine(self):
        t, g = self.batch_norm_pair(tnn.BatchNorm2d, Gnn.BatchNorm2d, 3, affine=False,
                                    track_running_stats=False)
        t.eval()
        g.eval()
        x = torch.randn(4, 3, 2, 2)
        np.testing.assert_allclose(forward(g, x), t(x).detach().numpy(), rtol=1e-5, atol=1e-5)

    def test_batch_norm_state_dict_keys(self):
        g = Gnn.BatchNorm2d.new(8, 1e-5, 0.1, True, True)
        sd = g.state_dict()
        self.assertEqual(list(sd.get_keys()), list(tnn.BatchNorm2d(8).state_dict().keys()))
        self.assertEqual(sd.lookup('num_batches_tracked').get_dtype(), Gnn.DType.I64)
        self.assertEqual(sd.lookup('num_batches_tracked').get_ndim(), 0)

    def test_conv_state_dict_keys(self):
        self.assertEqual(list(Gnn.Conv2d.new(1, 2, 3, 1, 0, False).state_dict().get_keys()), ['weight'])
        self.assertEqual(list(Gnn.LayerNorm.new([4], 1e-5, True).state_dict().get_keys()), ['weight', 'bias'])

    def test_batch_norm_errors(self):
        g = Gnn.BatchNorm1d.new(3, 1e-5, 0.1, True, True)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.zeros([2, 3, 4, 5], Gnn.DType.F32))
        self.assertIn('expected 2D or 3D input (got 4D input)', cm.exception.message)
        g = Gnn.BatchNorm2d.new(3, 1e-5, 0.1, True, True)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.zeros([2, 3, 4], Gnn.DType.F32))
        self.assertIn('expected 4D input (got 3D input)', cm.exception.message)

    def test_embedding(self):
        t = tnn.Embedding(10, 3)
        g = Gnn.Embedding.new(10, 3, None)
        self.assertEqual(g.extra_repr(), t.extra_repr())
        idx = torch.tensor([[1, 2, 9], [0, 0, 4]])
        copy_params(g, t)
        got = g.call(Gnn.Tensor.from_numpy(idx.numpy())).numpy()
        np.testing.assert_allclose(got, t(idx).detach().numpy(), rtol=0, atol=0)
        with self.assertRaises(GLib.Error) as cm:
            g.call(Gnn.Tensor.from_numpy(np.array([10], dtype=np.int64)))
        self.assertIn('index out of range in self', cm.exception.message)

    def test_embedding_init_is_standard_normal(self):
        g = Gnn.Embedding.new(1000, 50, Gnn.Generator.new(1))
        w = g.get_parameter('weight').numpy()
        self.assertAlmostEqual(float(w.mean()), 0.0, delta=0.02)
        self.assertAlmostEqual(float(w.std()), 1.0, delta=0.02)


if __name__ == '__main__':
    unittest.main()
