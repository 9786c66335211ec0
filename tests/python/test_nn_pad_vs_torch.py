# F.pad in its four modes and the padding layers (ConstantPad1d/2d/3d,
# ZeroPad2d, ReflectionPad1d/2d/3d, ReplicationPad1d/2d/3d) against torch
# 1.13: random shapes and pads (negative ones crop), values, gradients and
# node names, reprs, and torch's messages for every refusal.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import random
import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import GLib, Gnn, assert_close, check_layer, check_same_error, to_gnn

F = Gnn.functional


def torch_reads_garbage(mode, shape, pad):
    """torch 1.13's circular padding copies slices of its output into
    itself: a pad larger than what a crop on the other side leaves reads
    memory it has not written yet (uninitialized values). Not compared."""
    if mode != 'circular':
        return False
    for j in range(len(pad) // 2):
        size = shape[-1 - j]
        left, right = pad[2 * j], pad[2 * j + 1]
        kept = size - max(-left, 0) - max(-right, 0)
        if max(left, 0) > kept or max(right, 0) > kept:
            return True
    return False


def torch_narrow_quirk(message):
    # torch 1.13 wraps narrow's start like a dimension for some crops
    return message is not None and message.startswith('Dimension out of range')


class TestPadVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = random.Random(3)

    def test_random_pads(self):
        compared = refused = 0
        for trial in range(700):
            mode = self.rng.choice(['constant', 'reflect', 'replicate', 'circular'])
            shape = [self.rng.randint(0 if self.rng.random() < 0.1 else 1, 5)
                     for _ in range(self.rng.randint(1, 5))]
            k = self.rng.randint(0, min(len(shape), 3))
            pad = [self.rng.randint(-3, 4) for _ in range(2 * k)]
            value = self.rng.choice([0.0, 1.5]) if mode == 'constant' else None
            dtype = self.rng.choice([torch.float32, torch.float64])
            if torch_reads_garbage(mode, shape, pad):
                continue
            x = torch.randn(*shape, dtype=dtype, requires_grad=True)
            gx = to_gnn(x, requires_grad=True)
            with self.subTest(mode=mode, shape=shape, pad=pad):
                try:
                    y = TF.pad(x, pad, mode=mode, value=value)
                except Exception as e:   # noqa: BLE001 - torch's refusal is the reference
                    want = str(e).split('\n')[0]
                    if torch_narrow_quirk(want):
                        continue
                    with self.assertRaises((GLib.Error, NotImplementedError)) as cm:
                        F.pad(gx, pad, mode, value)
                    got = getattr(cm.exception, 'message', None) or str(cm.exception)
                    self.assertEqual(got, want)
                    refused += 1
                    continue
                gy = F.pad(gx, pad, mode, value)
                assert_close(self, gy, y, 'output')
                if y.numel() == 0:
                    continue
                grad = torch.randn_like(y)
                try:
                    y.backward(grad)
                except RuntimeError:
                    continue      # torch 1.13's backward refuses some crops of empty inputs
                gy.backward(to_gnn(grad), False)
                assert_close(self, gx.grad, x.grad, 'input gradient')
                self.assertEqual(gy.get_grad_fn_name(), type(y.grad_fn).__name__)
                compared += 1
        self.assertGreater(compared, 150)
        self.assertGreater(refused, 150)

    def test_integer_and_bool(self):
        x = torch.arange(12).view(3, 4)
        for mode, value in (('constant', 7), ('constant', 2.5)):
            got = F.pad(to_gnn(x), (1, 2, 0, 1), mode, value)
            self.assertEqual(got.dtype, Gnn.DType.I64)
            np.testing.assert_array_equal(got.numpy(), TF.pad(x, (1, 2, 0, 1), mode, value).numpy())
        b = torch.tensor([[True, False]])
        np.testing.assert_array_equal(F.pad(to_gnn(b), (1, 1), value=1).numpy(),
                                      TF.pad(b, (1, 1), value=1).numpy())
        # torch has no integer reflection padding; Gnn's reads the same positions
        np.testing.assert_array_equal(F.pad(to_gnn(x[None]), (2, 2), 'reflect').numpy(),
                                      TF.pad(x[None].double(), (2, 2), 'reflect').long().numpy())

    def test_layers(self):
        cases = [
            ('ConstantPad1d', ((1, 2), 3.5), (2, 3, 5)), ('ConstantPad1d', (2, -1.0), (4,)),
            ('ConstantPad2d', ((1, 0, -1, 2), 0.5), (2, 3, 4, 5)), ('ConstantPad3d', (1, 2.0), (2, 2, 3, 3)),
            ('ZeroPad2d', ((1, 2, 3, 0),), (1, 2, 3, 4)), ('ZeroPad2d', (2,), (3, 4)),
            ('ReflectionPad1d', (2,), (2, 3, 5)), ('ReflectionPad1d', ((0, 3),), (3, 5)),
            ('ReflectionPad2d', ((1, 2, 3, 0),), (1, 2, 4, 5)), ('ReflectionPad2d', (1,), (2, 3, 4)),
            ('ReflectionPad3d', (1,), (1, 2, 3, 3, 4)),
            ('ReplicationPad1d', ((3, 0),), (2, 2, 3)), ('ReplicationPad2d', (3,), (1, 2, 3, 4)),
            ('ReplicationPad2d', ((0, 1, 2, 3),), (2, 3, 3)), ('ReplicationPad3d', ((1, 0, 2, 1, 0, 2),), (2, 1, 2, 3, 2)),
        ]
        for name, args, shape in cases:
            with self.subTest(name=name, args=args):
                for dtype in (torch.float32, torch.float64):
                    g = getattr(Gnn, name)(*args)
                    t = getattr(tnn, name)(*args)
                    if dtype == torch.float64:
                        g.to(Gnn.DType.F64)
                    check_layer(self, g, t, [torch.randn(*shape, dtype=dtype),
                                             torch.randn(1, *shape[1:], dtype=dtype)])

    def test_layer_errors(self):
        for name, args, shape in (('ReflectionPad2d', (2,), (1, 2, 2)), ('ReflectionPad2d', (2,), (2, 2)),
                                  ('ReplicationPad2d', (2,), (2, 2)), ('ZeroPad2d', (2,), (2,)),
                                  ('ConstantPad2d', (2, 3.5), (2,)), ('ReflectionPad1d', (2,), (2, 2, 2, 2)),
                                  ('ReplicationPad1d', (1,), (2, 0, 4))):
            x = torch.randn(*shape)
            check_same_error(self, lambda: getattr(Gnn, name)(*args)(to_gnn(x)),
                             lambda: getattr(tnn, name)(*args)(x))

    def test_functional_errors(self):
        x = torch.randn(1, 2, 3)
        for args in (((1,),), ((1, 1, 1, 1, 1, 1, 1, 1),), ((1, 1), 'reflect', 1.0), ((3, 3), 'reflect'),
                     ((1, 1), 'foo'), ((4, 3), 'circular'), ((-2, -2),), ((-3, -1), 'replicate')):
            check_same_error(self, lambda: F.pad(to_gnn(x), *args), lambda: TF.pad(x, *args))

    def test_from_properties(self):
        from gi.repository import GObject
        g = GObject.new(Gnn.ReflectionPad2d, padding_left=1, padding_bottom=2)
        t = tnn.ReflectionPad2d((1, 0, 0, 2))
        check_layer(self, g, t, [torch.randn(2, 3, 4, 5)])
        g = GObject.new(Gnn.ConstantPad1d, padding_right=3, value=-2.0)
        self.assertEqual(repr(g), repr(tnn.ConstantPad1d((0, 3), -2.0)))


if __name__ == '__main__':
    unittest.main()
