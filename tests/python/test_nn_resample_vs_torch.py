# F.interpolate in every mode and Upsample, UpsamplingNearest2d,
# UpsamplingBilinear2d against torch 1.13: random shapes, sizes and scale
# factors (with and without align_corners / recompute_scale_factor),
# outputs, input gradients and node names to 1e-5, reprs, and messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import random
import unittest
import warnings

import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import Gnn, assert_close, check_layer, check_same_error, to_gnn

F = Gnn.functional
LINEAR = ('linear', 'bilinear', 'bicubic', 'trilinear')
RANK = {'linear': 1, 'bilinear': 2, 'bicubic': 2, 'trilinear': 3}


class TestResampleVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = random.Random(5)
        warnings.simplefilter('ignore')    # torch's align_corners and recompute warnings

    def test_random_interpolate(self):
        compared = 0
        for trial in range(300):
            mode = self.rng.choice(['nearest', 'nearest-exact', 'area'] + list(LINEAR))
            k = RANK.get(mode, self.rng.randint(1, 3))
            shape = [self.rng.randint(1, 3), self.rng.randint(1, 3)] + [self.rng.randint(1, 7) for _ in range(k)]
            size = sf = rsf = None
            if self.rng.random() < 0.5:
                size = [self.rng.randint(1, 9) for _ in range(k)]
                if self.rng.random() < 0.3:
                    size = size[0]
            else:
                sf = [self.rng.choice([0.5, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0]) for _ in range(k)]
                if any(int(s * f) < 1 for s, f in zip(shape[2:], sf)):
                    continue
                rsf = self.rng.choice([None, True, False])
            ac = self.rng.choice([None, False, True]) if mode in LINEAR else None
            dtype = self.rng.choice([torch.float32, torch.float64])
            x = torch.randn(*shape, dtype=dtype, requires_grad=True)
            with self.subTest(mode=mode, shape=shape, size=size, sf=sf, ac=ac, rsf=rsf):
                y = TF.interpolate(x, size, sf, mode, ac, rsf)
                gx = to_gnn(x, requires_grad=True)
                gy = F.interpolate(gx, size, sf, mode, ac, rsf)
                assert_close(self, gy, y, 'output')
                grad = torch.randn_like(y)
                y.backward(grad)
                gy.backward(to_gnn(grad), False)
                assert_close(self, gx.grad, x.grad, 'input gradient')
                self.assertEqual(gy.get_grad_fn_name(), type(y.grad_fn).__name__)
                compared += 1
        self.assertGreater(compared, 200)

    def test_upsample_layers(self):
        cases = [
            ('Upsample', dict(scale_factor=2), (2, 3, 4, 5)),
            ('Upsample', dict(scale_factor=2.5, mode='linear', align_corners=True), (2, 3, 5)),
            ('Upsample', dict(size=(5, 7), mode='bilinear'), (1, 2, 3, 4)),
            ('Upsample', dict(size=3, mode='bicubic', align_corners=False), (1, 2, 5, 6)),
            ('Upsample', dict(scale_factor=(2.0, 1.5, 1.0), mode='trilinear'), (1, 2, 2, 3, 4)),
            ('Upsample', dict(scale_factor=0.5, mode='area'), (2, 1, 6, 6)),
            ('Upsample', dict(size=9, mode='nearest-exact'), (2, 2, 4)),
            ('UpsamplingNearest2d', dict(scale_factor=3), (1, 2, 3, 3)),
            ('UpsamplingBilinear2d', dict(size=(4, 7)), (2, 1, 3, 5)),
        ]
        for name, kwargs, shape in cases:
            with self.subTest(name=name, kwargs=kwargs):
                g, t = getattr(Gnn, name)(**kwargs), getattr(tnn, name)(**kwargs)
                check_layer(self, g, t, [torch.randn(*shape), torch.randn(1, *shape[1:])])

    def test_from_properties(self):
        from gi.repository import GLib, GObject
        g = GObject.new(Gnn.Upsample, scale_factor=GLib.Variant('ad', [2.0]),
                        mode=Gnn.InterpolateMode.BILINEAR, align_corners=True)
        check_layer(self, g, tnn.Upsample(scale_factor=2.0, mode='bilinear', align_corners=True),
                    [torch.randn(1, 2, 3, 4)])
        # the fixed-mode subclasses keep their mode whatever the property says
        g = GObject.new(Gnn.UpsamplingBilinear2d, size=GLib.Variant('ax', [5]), mode=Gnn.InterpolateMode.NEAREST)
        check_layer(self, g, tnn.UpsamplingBilinear2d(size=5), [torch.randn(1, 2, 3, 4)])

    def test_errors(self):
        x = torch.randn(1, 2, 5, 6)
        for kwargs in (dict(), dict(size=3, scale_factor=2), dict(size=(3, 4, 5)), dict(size=3, mode='linear'),
                       dict(size=3, mode='trilinear'), dict(size=3, align_corners=True), dict(size=0),
                       dict(scale_factor=0.1), dict(size=3, mode='foo')):
            with self.subTest(kwargs=kwargs):
                check_same_error(self, lambda: F.interpolate(to_gnn(x), **kwargs),
                                 lambda: TF.interpolate(x, **kwargs))
        check_same_error(self, lambda: F.interpolate(to_gnn(x[0, 0]), size=3),
                         lambda: TF.interpolate(x[0, 0], size=3))
        check_same_error(self, lambda: F.interpolate(to_gnn(x.long()), size=3),
                         lambda: TF.interpolate(x.long(), size=3))
        check_same_error(self, lambda: Gnn.Upsample(scale_factor=2, mode='linear')(to_gnn(x)),
                         lambda: tnn.Upsample(scale_factor=2, mode='linear')(x))


if __name__ == '__main__':
    unittest.main()
