# BatchNorm3d, GroupNorm, InstanceNorm1d/2d/3d and LocalResponseNorm (and F.group_norm,
# F.instance_norm, F.local_response_norm) against torch 1.13: outputs and
# input/weight/bias gradients to 1e-5, running statistics, batch 1 and
# unbatched inputs, state dicts both ways, reprs and messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest
import warnings

import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import (Gnn, assert_close, check_forward_backward, check_layer, check_same_error,
                          to_gnn)

F = Gnn.functional


class TestNormVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        warnings.simplefilter('ignore')   # torch's num_features warning

    def test_group_norm(self):
        for args, shape in (((2, 4), (3, 4, 5)), ((1, 3), (2, 3, 4, 4)), ((3, 3), (2, 3, 4)),
                            ((2, 6, 1e-3, False), (1, 6, 3, 2, 2)), ((2, 4), (1, 4))):
            for dtype in (torch.float32, torch.float64):
                with self.subTest(args=args, shape=shape, dtype=dtype):
                    g, t = Gnn.GroupNorm(*args), tnn.GroupNorm(*args).to(dtype)
                    if dtype == torch.float64:
                        g.to(Gnn.DType.F64)
                    check_layer(self, g, t, [torch.randn(*shape, dtype=dtype) * 2 + 3])

    def test_instance_norm(self):
        for n in (1, 2, 3):
            for kwargs in (dict(), dict(affine=True), dict(track_running_stats=True),
                           dict(affine=True, track_running_stats=True, momentum=0.3, eps=1e-3)):
                name = 'InstanceNorm%dd' % n
                with self.subTest(name=name, kwargs=kwargs):
                    g, t = getattr(Gnn, name)(4, **kwargs), getattr(tnn, name)(4, **kwargs)
                    shape = (3, 4) + (5,) * n
                    check_layer(self, g, t, [torch.randn(*shape) * 2 + 1, torch.randn(*shape[1:])])
                    if kwargs.get('track_running_stats'):
                        assert_close(self, g.running_mean, t.running_mean, 'running_mean')
                        assert_close(self, g.running_var, t.running_var, 'running_var')
                        g.eval()
                        t.eval()
                        check_forward_backward(self, g, t, torch.randn(*shape))

    def test_batch_norm3d(self):
        for kwargs in (dict(), dict(affine=False, momentum=0.3), dict(track_running_stats=False, eps=1e-3)):
            with self.subTest(kwargs=kwargs):
                g, t = Gnn.BatchNorm3d(3, **kwargs), tnn.BatchNorm3d(3, **kwargs)
                check_layer(self, g, t, [torch.randn(2, 3, 4, 3, 2) * 2 + 1, torch.randn(1, 3, 2, 2, 3)])
                if kwargs.get('track_running_stats', True):
                    assert_close(self, g.running_mean, t.running_mean, 'running_mean')
                    assert_close(self, g.running_var, t.running_var, 'running_var')
                    g.eval()
                    t.eval()
                    check_forward_backward(self, g, t, torch.randn(2, 3, 2, 2, 2))
        x = torch.randn(2, 3, 4, 4)
        check_same_error(self, lambda: Gnn.BatchNorm3d(3)(to_gnn(x)), lambda: tnn.BatchNorm3d(3)(x))

    def test_local_response_norm(self):
        for args in ((3,), (2, 1e-3, 0.5, 2.0), (5,)):
            g, t = Gnn.LocalResponseNorm(*args), tnn.LocalResponseNorm(*args)
            check_layer(self, g, t, [torch.randn(2, 6, 4), torch.randn(1, 4, 3, 3), torch.randn(2, 3, 2, 2, 2)])

    def test_functional(self):
        x = torch.randn(2, 4, 3, 3)
        w, b = torch.randn(4), torch.randn(4)
        assert_close(self, F.group_norm(to_gnn(x), 2, to_gnn(w), to_gnn(b), 1e-3),
                     TF.group_norm(x, 2, w, b, 1e-3), 'group_norm')
        rm, rv = torch.randn(4), torch.rand(4) + 0.5
        for use_input_stats in (True, False):
            grm, grv = to_gnn(rm), to_gnn(rv)
            trm, trv = rm.clone(), rv.clone()
            assert_close(self, F.instance_norm(to_gnn(x), grm, grv, to_gnn(w), to_gnn(b), use_input_stats, 0.2),
                         TF.instance_norm(x, trm, trv, w, b, use_input_stats, 0.2), 'instance_norm')
            assert_close(self, grm, trm, 'running mean')
            assert_close(self, grv, trv, 'running var')
        assert_close(self, F.local_response_norm(to_gnn(x), 3, 1e-2), TF.local_response_norm(x, 3, 1e-2), 'lrn')

    def test_node_names(self):
        x = to_gnn(torch.randn(2, 4, 5), requires_grad=True)
        self.assertEqual(F.group_norm(x, 2).get_grad_fn_name(), 'NativeGroupNormBackward0')
        self.assertEqual(F.instance_norm(x).get_grad_fn_name(), 'ViewBackward0')
        self.assertEqual(F.local_response_norm(x, 3).get_grad_fn_name(), 'DivBackward0')

    def test_errors(self):
        for shape, rest in (((3,), (1,)), ((2, 3), (2,)), ((2, 4, 5), (2, torch.randn(3))),
                            ((2, 4, 5), (2, None, torch.randn(3)))):
            x = torch.randn(*shape)
            gnn_rest = [to_gnn(r) if isinstance(r, torch.Tensor) else r for r in rest]
            with self.subTest(shape=shape, rest=rest):
                check_same_error(self, lambda: F.group_norm(to_gnn(x), *gnn_rest), lambda: TF.group_norm(x, *rest))
        check_same_error(self, lambda: F.group_norm(to_gnn(torch.randn(2, 4)), 0),
                         lambda: TF.group_norm(torch.randn(2, 4), 0), 'division or modulo by zero')
        check_same_error(self, lambda: Gnn.GroupNorm(2, 3), lambda: tnn.GroupNorm(2, 3))
        for n, shape in ((1, (2, 3, 4, 5)), (2, (3, 4)), (3, (2, 3))):
            x = torch.randn(*shape)
            check_same_error(self, lambda: getattr(Gnn, 'InstanceNorm%dd' % n)(3)(to_gnn(x)),
                             lambda: getattr(tnn, 'InstanceNorm%dd' % n)(3)(x))
        x = torch.randn(2, 3, 1)
        check_same_error(self, lambda: Gnn.InstanceNorm1d(3)(to_gnn(x)), lambda: tnn.InstanceNorm1d(3)(x))
        x = torch.randn(2, 4, 4, 4)
        check_same_error(self, lambda: Gnn.InstanceNorm2d(3, affine=True)(to_gnn(x)),
                         lambda: tnn.InstanceNorm2d(3, affine=True)(x))
        x = torch.randn(2, 3)
        check_same_error(self, lambda: Gnn.LocalResponseNorm(2)(to_gnn(x)), lambda: tnn.LocalResponseNorm(2)(x))

    def test_from_properties(self):
        from gi.repository import GObject
        g = GObject.new(Gnn.InstanceNorm2d, num_features=3, affine=True)
        check_layer(self, g, tnn.InstanceNorm2d(3, affine=True), [torch.randn(2, 3, 4, 4)])
        g = GObject.new(Gnn.GroupNorm, num_groups=2, num_channels=4, eps=1e-3)
        check_layer(self, g, tnn.GroupNorm(2, 4, eps=1e-3), [torch.randn(2, 4, 3)])


if __name__ == '__main__':
    unittest.main()
