# Activations (torch.nn.functional's and torch.nn's modules) side by side
# with PyTorch 1.13: values and input gradients within 1e-5 relative in
# float32 and float64 (saturated and kink inputs included), in-place forms,
# reprs, state_dict keys (PReLU's weight), construction from torch's
# signatures and from properties, and error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, GObject, Gnn  # noqa: E402

F = Gnn.nn.functional
RNG = np.random.default_rng(11)


def sample(shape, dtype):
    x = RNG.standard_normal(shape) * 3
    flat = x.reshape(-1)
    special = (0.0, -3.0, 3.0, 100.0, -100.0, 1.0, -1.0, 6.0)   # kinks and saturation
    flat[:len(special)] = special[:flat.size]
    return x.astype(dtype)


def run(f, x, lib, weight):
    t = lib.tensor(x, requires_grad=True)
    y = f(t)
    (y * lib.tensor(weight.astype(x.dtype)) if weight is not None else y).sum().backward()
    return y.detach().numpy() if lib is torch else y.numpy(), t.grad.numpy()


FUNCTIONS = [
    ('leaky_relu', lambda m: lambda x: m.leaky_relu(x, 0.2)),
    ('elu', lambda m: lambda x: m.elu(x, 1.5)),
    ('selu', lambda m: m.selu),
    ('celu', lambda m: lambda x: m.celu(x, 0.7)),
    ('silu', lambda m: m.silu),
    ('mish', lambda m: m.mish),
    ('hardtanh', lambda m: lambda x: m.hardtanh(x, -2.0, 1.5)),
    ('relu6', lambda m: m.relu6),
    ('hardswish', lambda m: m.hardswish),
    ('hardsigmoid', lambda m: m.hardsigmoid),
    ('softplus', lambda m: lambda x: m.softplus(x, 2, 3)),
    ('softplus_default', lambda m: m.softplus),
    ('softsign', lambda m: m.softsign),
    ('tanhshrink', lambda m: m.tanhshrink),
    ('threshold', lambda m: lambda x: m.threshold(x, 0.1, 20)),
    ('gelu', lambda m: m.gelu),
    ('gelu_tanh', lambda m: lambda x: m.gelu(x, approximate='tanh')),
    ('logsigmoid', lambda m: m.logsigmoid),
    ('glu', lambda m: lambda x: m.glu(x, 1)),
    ('glu_last', lambda m: m.glu),
    ('softmin', lambda m: lambda x: m.softmin(x, dim=1)),
    ('hardshrink', lambda m: m.hardshrink),
    ('hardshrink_1', lambda m: lambda x: m.hardshrink(x, 1.0)),
    ('softshrink', lambda m: m.softshrink),
    ('softshrink_1', lambda m: lambda x: m.softshrink(x, lambd=1.0)),
]


class FunctionalVsTorch(unittest.TestCase):
    def test_values_and_gradients(self):
        for dtype in (np.float32, np.float64):
            x = sample((5, 6), dtype)
            for name, make in FUNCTIONS:
                with self.subTest(name=name, dtype=dtype.__name__):
                    want_y = make(TF)(torch.tensor(x))
                    weight = RNG.standard_normal(tuple(want_y.shape))
                    gy, gg = run(make(F), x, Gnn, weight)
                    ty, tg = run(make(TF), x, torch, weight)
                    np.testing.assert_allclose(gy, ty, rtol=1e-5, atol=1e-6)
                    np.testing.assert_allclose(gg, tg, rtol=1e-5, atol=1e-6)
                    self.assertEqual(gy.dtype, ty.dtype)

    def test_grad_fn_names(self):
        for name, make in FUNCTIONS:
            x = sample((2, 4), np.float32)
            g = Gnn.tensor(x, requires_grad=True)
            t = torch.tensor(x, requires_grad=True)
            self.assertEqual(make(F)(g).get_grad_fn_name(), type(make(TF)(t).grad_fn).__name__,
                             name)

    def test_prelu(self):
        for shape, n in (((4, 3, 5), 3), ((4, 3), 1), ((7,), 1), ((2, 3, 2, 2), 3)):
            x = sample(shape, np.float32)
            w = RNG.standard_normal(n).astype(np.float32)
            out = []
            for lib, m in ((Gnn, F), (torch, TF)):
                t, wt = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
                m.prelu(t, wt).pow(2).sum().backward()
                out.append((m.prelu(t, wt).detach().numpy(), t.grad.numpy(), wt.grad.numpy()))
            for a, b in zip(*out):
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)

    def test_inplace(self):
        for name, args in (('leaky_relu', (0.1,)), ('elu', (0.5,)), ('celu', (2.0,)),
                           ('selu', ()), ('hardtanh', (-0.5, 0.5)), ('threshold', (0.3, -1.0))):
            x = sample((3, 4), np.float32)
            g, t = Gnn.tensor(x), torch.tensor(x)
            self.assertIs(getattr(F, name + '_')(g, *args), g)
            getattr(TF, name + '_')(t, *args)
            np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=1e-6, atol=1e-7)
        for name in ('relu6', 'silu', 'mish', 'hardswish', 'hardsigmoid'):
            x = sample((3, 4), np.float32)
            g, t = Gnn.tensor(x), torch.tensor(x)
            self.assertIs(getattr(F, name)(g, inplace=True), g)
            getattr(TF, name)(t, inplace=True)
            np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=1e-6, atol=1e-7)

    def test_inplace_in_graph(self):
        x = sample((3, 4), np.float32)
        out = []
        for lib, m in ((Gnn, F), (torch, TF)):
            t = lib.tensor(x, requires_grad=True)
            y = t * 2
            m.elu(y, 0.5, inplace=True)
            (y * y).sum().backward()
            out.append(t.grad.numpy())
            with self.assertRaises((GLib.Error, RuntimeError)) as cm:
                m.leaky_relu(t, 0.1, inplace=True)
            out.append(cm.exception.message if lib is Gnn else str(cm.exception))
        np.testing.assert_allclose(out[0], out[2], rtol=1e-5, atol=1e-6)
        self.assertEqual(out[1], out[3])

    def test_errors(self):
        cases = [
            lambda m, lib: m.leaky_relu(lib.tensor([1, 2])),
            lambda m, lib: m.softplus(lib.tensor([1, 2])),
            lambda m, lib: m.glu(lib.tensor([1.0, 2.0, 3.0])),
            lambda m, lib: m.glu(lib.tensor(np.zeros((2, 3), np.float32)), 1),
            lambda m, lib: m.prelu(lib.tensor(np.zeros((2, 4), np.float32)),
                                   lib.tensor(np.ones(3, np.float32))),
            lambda m, lib: m.gelu(lib.tensor([1.0]), approximate='cubic'),
            lambda m, lib: m.celu(lib.tensor([1.0]), 0.0),
            lambda m, lib: m.softshrink(lib.tensor([1.0]), -1.0),
            lambda m, lib: m.hardshrink(lib.tensor([1, 2])),
        ]
        for case in cases:
            with self.assertRaises(RuntimeError) as want:
                case(TF, torch)
            with self.assertRaises(GLib.Error) as got:
                case(F, Gnn)
            self.assertEqual(got.exception.message, str(want.exception))


MODULES = ['ReLU6()', 'ReLU6(True)', 'LeakyReLU()', 'LeakyReLU(0.2, True)', 'PReLU()',
           'PReLU(4, 0.1)', 'ELU()', 'ELU(2.5, True)', 'SELU()', 'SELU(True)', 'CELU()',
           'CELU(0.5, True)', 'SiLU()', 'SiLU(True)', 'Mish()', 'Mish(True)', 'Hardtanh()',
           'Hardtanh(-2.0, 2.0, True)', 'Hardtanh(min_value=-0.5)', 'Hardswish(True)',
           'Hardsigmoid(True)', 'Softplus()', 'Softplus(beta=2.5, threshold=10.5)', 'Softsign()',
           'Tanhshrink()', 'Threshold(0.1, 20)', 'Threshold(0.1, 20, True)', 'GELU()',
           "GELU('tanh')", 'GLU()', 'GLU(1)', 'LogSigmoid()', 'Softmin(1)', 'Softmin(dim=-1)',
           'Softmax2d()', 'Hardshrink()', 'Hardshrink(1.0)', 'Softshrink()', 'Softshrink(0.25)',
           'Softshrink(lambd=2.0)']


class ModulesVsTorch(unittest.TestCase):
    def test_modules(self):
        x = sample((2, 4, 3, 2), np.float32)
        for text in MODULES:
            with self.subTest(module=text):
                t, g = eval('tnn.' + text), eval('Gnn.nn.' + text)
                self.assertEqual(repr(g), repr(t))
                self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
                tx, gx = torch.tensor(x, requires_grad=True), Gnn.tensor(x, requires_grad=True)
                ty, gy = t(tx * 1), g(gx * 1)
                np.testing.assert_allclose(gy.numpy(), ty.detach().numpy(), rtol=1e-5,
                                           atol=1e-6)
                ty.pow(2).sum().backward()
                gy.pow(2).sum().backward()
                np.testing.assert_allclose(gx.grad.numpy(), tx.grad.numpy(), rtol=1e-5,
                                           atol=1e-5)

    def test_prelu_parameter(self):
        g, t = Gnn.nn.PReLU(3, 0.1), tnn.PReLU(3, 0.1)
        np.testing.assert_allclose(g.weight.numpy(), t.weight.detach().numpy())
        self.assertEqual([n for n, _ in g.named_parameters()],
                         [n for n, _ in t.named_parameters()])
        x = sample((4, 3), np.float32)
        g(Gnn.tensor(x)).sum().backward()
        t(torch.tensor(x)).sum().backward()
        np.testing.assert_allclose(g.weight.grad.numpy(), t.weight.grad.numpy(), rtol=1e-5)
        g.load_state_dict({'weight': Gnn.tensor([0.5, 0.6, 0.7])})
        self.assertEqual(g.weight.tolist(), [0.5, 0.6000000238418579, 0.699999988079071])

    def test_built_from_properties(self):
        for cls, props, want in ((Gnn.LeakyReLU, {'negative_slope': 0.3}, tnn.LeakyReLU(0.3)),
                                 (Gnn.ELU, {'alpha': 0.5, 'inplace': True}, tnn.ELU(0.5, True)),
                                 (Gnn.Softplus, {'beta': 2.0}, tnn.Softplus(2)),
                                 (Gnn.GLU, {'dim': 0}, tnn.GLU(0)),
                                 (Gnn.PReLU, {'num_parameters': 2}, tnn.PReLU(2))):
            g = GObject.new(cls, **props)
            self.assertEqual(repr(g), repr(want))
            x = sample((2, 2), np.float32)
            np.testing.assert_allclose(g(Gnn.tensor(x)).numpy(),
                                       want(torch.tensor(x)).detach().numpy(), rtol=1e-6)

    def test_construction_errors(self):
        with self.assertRaises(GLib.Error) as cm:
            Gnn.nn.Hardtanh(1.0, -1.0)
        self.assertIn('max_val (-1.0) must be larger than min_val (1.0)', cm.exception.message)
        with self.assertRaises(AssertionError):
            tnn.Hardtanh(1.0, -1.0)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.nn.Softmax2d()(Gnn.zeros(2, 3))
        with self.assertRaises(AssertionError) as want:
            tnn.Softmax2d()(torch.zeros(2, 3))
        self.assertEqual(cm.exception.message, str(want.exception))


if __name__ == '__main__':
    unittest.main()
