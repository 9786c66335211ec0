# Fold, Unfold, PixelShuffle, PixelUnshuffle, Unflatten, Embedding's
# options and the channel-wise / alpha dropouts against torch 1.13:
# outputs and gradients to 1e-5, node names, reprs, messages; dropout by
# its structure (which channels, which scale), as the masks come from
# another generator.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import (Gnn, assert_close, check_forward_backward, check_layer, check_same_error,
                          load_torch_into_gnn, to_gnn)

F = Gnn.functional


class TestMiscVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def test_fold_unfold(self):
        for kwargs, spatial in ((dict(kernel_size=2), (5, 5)), (dict(kernel_size=(2, 3), dilation=2, padding=1,
                                                                       stride=(1, 2)), (6, 7)),
                                (dict(kernel_size=3, stride=2, padding=1), (7, 4))):
            for dtype in (torch.float32, torch.float64):
                with self.subTest(kwargs=kwargs, dtype=dtype):
                    g, t = Gnn.Unfold(**kwargs), tnn.Unfold(**kwargs)
                    check_layer(self, g, t, [torch.randn(2, 3, *spatial, dtype=dtype),
                                             torch.randn(3, *spatial, dtype=dtype)])
                    cols = t(torch.randn(2, 3, *spatial, dtype=dtype))
                    g, t = Gnn.Fold(spatial, **kwargs), tnn.Fold(spatial, **kwargs)
                    check_layer(self, g, t, [torch.randn(*cols.shape, dtype=dtype), torch.randn(*cols.shape[1:],
                                                                                                dtype=dtype)])
        x = to_gnn(torch.randn(1, 2, 4, 4), requires_grad=True)
        self.assertEqual(F.unfold(x, 2).get_grad_fn_name(), 'Im2ColBackward0')
        self.assertEqual(F.fold(F.unfold(x, 2), (4, 4), 2).get_grad_fn_name(), 'Col2ImBackward0')

    def test_pixel_shuffle(self):
        for r, shape in ((2, (2, 8, 3, 4)), (3, (9, 2, 2)), (1, (1, 2, 3, 3, 3)), (2, (2, 1, 4, 2, 3))):
            with self.subTest(r=r, shape=shape):
                check_layer(self, Gnn.PixelShuffle(r), tnn.PixelShuffle(r), [torch.randn(*shape)])
                y = TF.pixel_shuffle(torch.randn(*shape), r)
                check_layer(self, Gnn.PixelUnshuffle(r), tnn.PixelUnshuffle(r), [torch.randn(*y.shape)])
        x = to_gnn(torch.randn(1, 8, 2, 4), requires_grad=True)
        self.assertEqual(F.pixel_shuffle(x, 2).get_grad_fn_name(), 'PixelShuffleBackward0')
        self.assertEqual(F.pixel_unshuffle(x, 2).get_grad_fn_name(), 'PixelUnshuffleBackward0')

    def test_unflatten(self):
        for dim, sizes, shape in ((1, (2, 5), (3, 10)), (-1, (2, -1), (4, 3, 6)), (0, (1, 2, 2), (4,)),
                                  (2, (3,), (2, 2, 3))):
            check_layer(self, Gnn.Unflatten(dim, sizes), tnn.Unflatten(dim, sizes), [torch.randn(*shape)])

    def test_embedding_options(self):
        for kwargs in (dict(), dict(padding_idx=2), dict(padding_idx=-1), dict(max_norm=1.0),
                       dict(max_norm=0.7, norm_type=1.0), dict(scale_grad_by_freq=True, padding_idx=0),
                       dict(max_norm=1.5, norm_type=3.0, scale_grad_by_freq=True)):
            with self.subTest(kwargs=kwargs):
                g, t = Gnn.Embedding(6, 4, **kwargs), tnn.Embedding(6, 4, **kwargs)
                self.assertEqual(repr(g), repr(t))
                if 'padding_idx' in kwargs:
                    self.assertEqual(g.padding_idx, t.padding_idx)
                    self.assertTrue((g.weight.numpy()[t.padding_idx] == 0).all())
                load_torch_into_gnn(g, t)
                for idx in (torch.tensor([[1, 2, 2, 0], [5, 2, 4, 4]]), torch.tensor([3]), torch.tensor(2)):
                    check_forward_backward(self, g, t, idx, grad_input=False)
                    assert_close(self, g.weight, t.weight, 'renormed weight')
        w = torch.randn(5, 3, requires_grad=True)
        gw = to_gnn(w, requires_grad=True)
        idx = torch.tensor([1, 2, 2, 4])
        y = TF.embedding(idx, w, padding_idx=2, scale_grad_by_freq=True)
        gy = F.embedding(to_gnn(idx), gw, padding_idx=2, scale_grad_by_freq=True)
        y.sum().backward()
        gy.sum().backward()
        assert_close(self, gw.grad, w.grad, 'F.embedding gradient')

    def test_channel_dropout(self):
        for name, shape, channel_dims in (('Dropout1d', (4, 16, 5), 2), ('Dropout1d', (16, 5), 1),
                                          ('Dropout2d', (4, 16, 3, 3), 2), ('Dropout3d', (2, 16, 2, 2, 2), 2),
                                          ('Dropout3d', (16, 2, 2, 2), 1)):
            with self.subTest(name=name, shape=shape):
                layer = getattr(Gnn, name)(0.4)
                self.assertEqual(repr(layer), repr(getattr(tnn, name)(0.4)))
                x = to_gnn(torch.rand(*shape) + 1.0, requires_grad=True)
                y = layer(x)
                ratio = y.numpy() / x.numpy()
                # every channel scaled by 0 or 1 / (1 - p), whole
                per_channel = ratio.reshape(ratio.shape[:channel_dims] + (-1,))
                self.assertTrue(np.allclose(per_channel, per_channel[..., :1]))
                self.assertTrue(set(np.round(np.unique(per_channel.astype(np.float64)), 4)) <= {0.0, round(1 / 0.6, 4)})
                y.sum().backward()
                np.testing.assert_allclose(x.grad.numpy(), ratio, rtol=1e-6)
                layer.eval()
                # torch returns the input itself, or a squeezed view of it when unbatched
                np.testing.assert_array_equal(layer(x).numpy(), x.numpy())

    def test_alpha_dropout(self):
        for name in ('AlphaDropout', 'FeatureAlphaDropout'):
            layer = getattr(Gnn, name)(0.2)
            self.assertEqual(repr(layer), repr(getattr(tnn, name)(0.2)))
            y = layer(to_gnn(torch.randn(64, 200, 50))).numpy()
            self.assertAlmostEqual(float(y.mean()), 0.0, delta=0.02)
            self.assertAlmostEqual(float(y.std()), 1.0, delta=0.02)
        zeros = F.alpha_dropout(to_gnn(torch.randn(3, 4)), 1.0, True).numpy()
        self.assertTrue((zeros == 0).all())

    def test_errors(self):
        for f, x, args in ((TF.unfold, torch.randn(2, 3, 5, 5), (6,)), (TF.unfold, torch.randn(2, 3, 5, 5), (0,)),
                           (TF.unfold, torch.randn(2, 0, 5, 5), (2,)),
                           (TF.unfold, torch.randn(2, 3, 5, 5), (2, 1, -1)),
                           (TF.fold, torch.randn(2, 3, 12, 16), ((5, 5), 2)), (TF.fold, torch.randn(2, 13, 16), ((5, 5), 2)),
                           (TF.fold, torch.randn(2, 12, 15), ((5, 5), 2)), (TF.pixel_shuffle, torch.randn(4, 4), (2,)),
                           (TF.pixel_shuffle, torch.randn(5, 4, 4), (2,)), (TF.pixel_shuffle, torch.randn(4, 4, 4), (0,)),
                           (TF.pixel_unshuffle, torch.randn(4, 5, 4), (2,)), (TF.pixel_unshuffle, torch.randn(4, 4, 5), (2,))):
            with self.subTest(f=f.__name__, shape=tuple(x.shape), args=args):
                check_same_error(self, lambda: getattr(F, f.__name__)(to_gnn(x), *args), lambda: f(x, *args))
        check_same_error(self, lambda: Gnn.Unflatten(1, (2, 3))(to_gnn(torch.randn(2, 5))),
                         lambda: tnn.Unflatten(1, (2, 3))(torch.randn(2, 5)))
        check_same_error(self, lambda: Gnn.Unflatten(1, (2, 3.0)), lambda: tnn.Unflatten(1, (2, 3.0)))
        check_same_error(self, lambda: Gnn.Embedding(5, 3, padding_idx=5), lambda: tnn.Embedding(5, 3, padding_idx=5))
        check_same_error(self, lambda: Gnn.Dropout2d(1.5), lambda: tnn.Dropout2d(1.5))
        check_same_error(self, lambda: Gnn.Dropout1d(0.5)(to_gnn(torch.randn(2, 3, 4, 5))),
                         lambda: tnn.Dropout1d(0.5)(torch.randn(2, 3, 4, 5)))

    def test_from_properties(self):
        from gi.repository import GLib, GObject
        g = GObject.new(Gnn.Unflatten, dim=1, unflattened_size=GLib.Variant('ax', [3, 2]))
        check_layer(self, g, tnn.Unflatten(1, (3, 2)), [torch.randn(2, 6)])
        g = GObject.new(Gnn.Fold, output_h=4, output_w=5, kernel_h=2, kernel_w=2)
        check_layer(self, g, tnn.Fold((4, 5), 2), [torch.randn(2, 8, 12)])
        g = GObject.new(Gnn.Embedding, num_embeddings=4, embedding_dim=2, padding_idx=-1)
        self.assertEqual(g.padding_idx, 3)


if __name__ == '__main__':
    unittest.main()
