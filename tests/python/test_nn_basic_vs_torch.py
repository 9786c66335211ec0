# Layers and containers built side by side in Gnn and PyTorch 1.13: the same
# parameter names and shapes, state_dict keys, repr text and (after copying
# the weights from torch) forward outputs. Plain gi API, no module sugar.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import re
import unittest
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


def torch_names(text):
    """Gnn prints GType names (GnnLinear); PyTorch prints Linear."""
    return re.sub(r'\bGnn(?=[A-Z])', '', text)


def linear(i, o, bias=True):
    return Gnn.Linear.new(i, o, bias, None)


def gnn_params(module):
    """[(name, parameter)]: the plain C API returns (values, names), the
    Python override (when present) already a list of pairs."""
    result = module.named_parameters('', True)
    if isinstance(result, tuple):
        values, names = result
        return list(zip(names, values))
    return list(result)


def copy_from_torch(gmod, tmod):
    sd = Gnn.StateDict.new()
    for k, v in tmod.state_dict().items():
        sd.insert(k, Gnn.Tensor.from_numpy(v.detach().numpy()))
    gmod.load_state_dict(sd, True)


class TestNnBasicVsTorch(unittest.TestCase):
    def assert_same_model(self, gmod, tmod, x):
        gp = gnn_params(gmod)
        tp = list(tmod.named_parameters())
        self.assertEqual([n for n, _ in gp], [n for n, _ in tp])
        self.assertEqual([list(v.get_shape()) for _, v in gp],
                         [list(v.shape) for _, v in tp])
        self.assertEqual(list(gmod.state_dict().get_keys()), list(tmod.state_dict().keys()))
        self.assertEqual(torch_names(gmod.to_string()), repr(tmod))
        copy_from_torch(gmod, tmod)
        tmod.eval()
        gmod.eval()
        with torch.no_grad():
            expected = tmod(torch.from_numpy(x)).numpy()
        got = gmod.call(Gnn.Tensor.from_numpy(x)).numpy()
        self.assertEqual(got.shape, expected.shape)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)

    def test_mlp(self):
        torch.manual_seed(0)
        t = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
        g = Gnn.Sequential.new([linear(4, 8), Gnn.ReLU.new(False), linear(8, 3)])
        x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)
        self.assert_same_model(g, t, x)

    def test_nested_with_every_activation(self):
        torch.manual_seed(1)
        t = nn.Sequential(
            nn.Flatten(),
            nn.Linear(12, 16),
            nn.Sequential(nn.GELU(), nn.Dropout(0.1), nn.Linear(16, 16, bias=False)),
            nn.Tanh(), nn.Identity(),
            nn.Sequential(nn.Linear(16, 6), nn.Sigmoid(), nn.GELU('tanh')),
            nn.ReLU(inplace=True),
            nn.LogSoftmax(dim=-1))
        g = Gnn.Sequential.new([
            Gnn.Flatten.new(1, -1),
            linear(12, 16),
            Gnn.Sequential.new([Gnn.GELU.new(None), Gnn.Dropout.new(0.1, False, None),
                                linear(16, 16, False)]),
            Gnn.Tanh.new(), Gnn.Identity.new(),
            Gnn.Sequential.new([linear(16, 6), Gnn.Sigmoid.new(), Gnn.GELU.new('tanh')]),
            Gnn.ReLU.new(True),
            Gnn.LogSoftmax.new(-1)])
        x = np.random.default_rng(1).standard_normal((3, 3, 4)).astype(np.float32)
        self.assert_same_model(g, t, x)

    def test_softmax_dims(self):
        t = nn.Sequential(nn.Softmax(dim=0), nn.Softmax(dim=1), nn.Softmax())
        g = Gnn.Sequential.new([Gnn.Softmax.new(0), Gnn.Softmax.new(1),
                                Gnn.Softmax.new(Gnn.SOFTMAX_DIM_NONE)])
        x = np.random.default_rng(2).standard_normal((4, 5)).astype(np.float32)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            self.assert_same_model(g, t, x)

    def test_module_dict(self):
        torch.manual_seed(2)
        t = nn.ModuleDict({'enc': nn.Linear(3, 4), 'act': nn.ReLU(),
                           'dec': nn.Sequential(nn.Linear(4, 2), nn.Tanh())})
        g = Gnn.ModuleDict.new()
        g.set('enc', linear(3, 4))
        g.set('act', Gnn.ReLU.new(False))
        g.set('dec', Gnn.Sequential.new([linear(4, 2), Gnn.Tanh.new()]))
        self.assertEqual(list(g.get_keys()), list(t.keys()))
        self.assertEqual(torch_names(g.to_string()), repr(t))
        self.assertEqual([n for n, _ in gnn_params(g)], [n for n, _ in t.named_parameters()])
        copy_from_torch(g, t)
        x = np.random.default_rng(3).standard_normal((2, 3)).astype(np.float32)
        with torch.no_grad():
            expected = t['dec'](t['act'](t['enc'](torch.from_numpy(x)))).numpy()
        h = Gnn.Tensor.from_numpy(x)
        for key in ('enc', 'act', 'dec'):
            h = g.get(key).call(h)
        np.testing.assert_allclose(h.numpy(), expected, rtol=1e-5, atol=1e-5)
        with self.assertRaises(GLib.Error):
            g.call(Gnn.Tensor.from_numpy(x))

    def test_slicing_and_pop(self):
        t = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 4), nn.Tanh())
        g = Gnn.Sequential.new([linear(2, 3), Gnn.ReLU.new(False), linear(3, 4), Gnn.Tanh.new()])
        self.assertEqual(torch_names(g.slice(1, 3, 1).to_string()), repr(t[1:3]))
        self.assertEqual(torch_names(g.slice(GLib.MAXINT64, GLib.MININT64, -1).to_string()),
                         repr(t[::-1]))
        self.assertEqual(list(g.slice(2, GLib.MAXINT64, 1).state_dict().get_keys()),
                         list(t[2:].state_dict().keys()))
        t.pop(1)
        g.pop(1)
        self.assertEqual(torch_names(g.to_string()), repr(t))
        with self.assertRaisesRegex(GLib.Error, 'index 7 is out of range'):
            g.get(7)
        tl = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Linear(1, 2)])
        gl = Gnn.ModuleList.new([Gnn.ReLU.new(False), Gnn.Tanh.new(), linear(1, 2)])
        self.assertEqual(torch_names(gl.slice(1, GLib.MAXINT64, 1).to_string()), repr(tl[1:]))
        self.assertEqual(torch_names(gl.to_string()), repr(tl))

    def test_parameter_containers(self):
        a = torch.randn(2, 3)
        b = torch.randn(4, dtype=torch.float64)
        tl = nn.ParameterList([nn.Parameter(a), nn.Parameter(b)])
        gl = Gnn.ParameterList.new([Gnn.Tensor.from_numpy(a.numpy()),
                                    Gnn.Tensor.from_numpy(b.numpy())])
        self.assertEqual(torch_names(gl.to_string()), repr(tl))
        self.assertEqual(list(gl.state_dict().get_keys()), list(tl.state_dict().keys()))
        # a plain dict would be sorted by ParameterDict.update; keep insertion order
        td = nn.ParameterDict(OrderedDict([('w', nn.Parameter(a)), ('v', nn.Parameter(b))]))
        gd = Gnn.ParameterDict.new()
        gd.set('w', Gnn.Tensor.from_numpy(a.numpy()))
        gd.set('v', Gnn.Tensor.from_numpy(b.numpy()))
        self.assertEqual(torch_names(gd.to_string()), repr(td))
        self.assertEqual([n for n, _ in gnn_params(gd)], [n for n, _ in td.named_parameters()])

    def test_properties(self):
        lin = Gnn.Linear(in_features=4, out_features=8, has_bias=False)
        self.assertEqual(torch_names(lin.to_string()), repr(nn.Linear(4, 8, bias=False)))
        self.assertIsNone(lin.props.bias)
        self.assertEqual(list(lin.props.weight.get_shape()), [8, 4])
        d = Gnn.Dropout(p=0.25)
        self.assertEqual(torch_names(d.to_string()), repr(nn.Dropout(0.25)))
        self.assertEqual(torch_names(Gnn.Flatten(start_dim=0, end_dim=2).to_string()),
                         repr(nn.Flatten(0, 2)))

    def test_dropout_train_statistics(self):
        gen = Gnn.Generator.new(0)
        d = Gnn.Dropout.new(0.5, False, gen)
        x = np.ones((100, 100), dtype=np.float32)
        y = d.call(Gnn.Tensor.from_numpy(x)).numpy()
        self.assertTrue(set(np.unique(y)) <= {0.0, 2.0})
        self.assertAlmostEqual(float((y == 0).mean()), 0.5, delta=0.03)
        d.eval()
        np.testing.assert_array_equal(d.call(Gnn.Tensor.from_numpy(x)).numpy(), x)



class TestInitAndClipVsTorch(unittest.TestCase):
    def test_gains_and_fans(self):
        for name, param in (('linear', None), ('conv2d', None), ('sigmoid', None),
                            ('tanh', None), ('relu', None), ('leaky_relu', None),
                            ('leaky_relu', 0.2), ('selu', None)):
            self.assertAlmostEqual(Gnn.nn.init.calculate_gain(name, param),
                                   nn.init.calculate_gain(name, param), places=12)
        for shape in ((3, 4), (8, 3, 5, 5), (2, 7, 3)):
            self.assertEqual(Gnn.nn.init._calculate_fan_in_and_fan_out(Gnn.zeros(*shape)),
                             nn.init._calculate_fan_in_and_fan_out(torch.zeros(*shape)))
        with self.assertRaises(ValueError) as cm:
            Gnn.nn.init.xavier_uniform_(Gnn.zeros(3))
        with self.assertRaises(ValueError) as want:
            nn.init.xavier_uniform_(torch.zeros(3))
        self.assertEqual(str(cm.exception), str(want.exception))

    def test_initializers_fill_in_their_bounds(self):
        # same bounds and spreads as torch's (the streams differ)
        for fill, bound in ((lambda t, m: m.xavier_uniform_(t), (6 / 96) ** 0.5),
                            (lambda t, m: m.kaiming_uniform_(t, a=5 ** 0.5), (1 / 64) ** 0.5),
                            (lambda t, m: m.uniform_(t, -0.3, 0.3), 0.3)):
            g = Gnn.nn.Parameter(Gnn.zeros(32, 64))
            t = torch.nn.Parameter(torch.zeros(32, 64))
            self.assertIs(fill(g, Gnn.nn.init), g)   # in place, outside autograd
            fill(t, nn.init)
            self.assertLessEqual(g.abs().max().item(), bound)
            self.assertGreater(g.abs().max().item(), 0.95 * bound)
            self.assertAlmostEqual(float(g.numpy().std()), float(t.detach().numpy().std()),
                                   delta=0.05 * bound)
        g = Gnn.nn.init.normal_(Gnn.zeros(20000), 0.0, 0.02)
        self.assertAlmostEqual(float(g.numpy().std()), 0.02, delta=0.001)
        self.assertEqual(Gnn.nn.init.constant_(Gnn.zeros(3), 0.5).to_doubles(), [0.5] * 3)

    def test_clip_grad_norm_and_value(self):
        rng = np.random.default_rng(3)
        grads = [rng.standard_normal(s).astype(np.float32) for s in ((4, 3), (3,), (2, 2))]
        for norm_type in (2.0, 1.0, float('inf')):
            for max_norm in (0.5, 100.0):
                gp = [Gnn.nn.Parameter(Gnn.zeros(*g.shape)) for g in grads]
                tp = [torch.nn.Parameter(torch.zeros(*g.shape)) for g in grads]
                for p, q, g in zip(gp, tp, grads):
                    p.grad, q.grad = Gnn.from_numpy(g.copy()), torch.from_numpy(g.copy())
                got = Gnn.nn.utils.clip_grad_norm_(gp, max_norm, norm_type)
                want = nn.utils.clip_grad_norm_(tp, max_norm, norm_type)
                self.assertAlmostEqual(got.item(), want.item(), places=4)
                for p, q in zip(gp, tp):
                    np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5,
                                               atol=1e-6)
        gp = [Gnn.nn.Parameter(Gnn.zeros(4, 3))]
        gp[0].grad = Gnn.from_numpy(grads[0].copy())
        Gnn.nn.utils.clip_grad_value_(gp, 0.5)
        np.testing.assert_allclose(gp[0].grad.numpy(), np.clip(grads[0], -0.5, 0.5))


if __name__ == '__main__':
    unittest.main()
