# MultiMarginLoss, MultiLabelMarginLoss, TripletMarginWithDistanceLoss and
# RReLU side by side with PyTorch 1.13: values and gradients (every
# reduction, float32 and float64, weights, p), grad_fn names, the modules'
# reprs and construction, a Python distance function (and its exception),
# rrelu's slopes in training and its mean slope in evaluation, and torch's
# error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

F = Gnn.nn.functional
RNG = np.random.default_rng(26)

X = RNG.standard_normal((5, 4))
T = np.array([1, 0, 3, 3, 2])
W = RNG.uniform(0.5, 2.0, 4)
ML = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [0, -1, 2, 2], [2, 1, 0, 3], [-1, 0, 0, 0]])
A, PO, NE = (RNG.standard_normal((5, 3)) for _ in range(3))

# name, f(module, lib, *tensors, reduction), arrays, which arrays are differentiable
CASES = [
    ('multi_margin', lambda m, lib, x, r: m.multi_margin_loss(x, lib.tensor(T), reduction=r),
     (X,), (0,)),
    ('multi_margin_p2', lambda m, lib, x, r: m.multi_margin_loss(x, lib.tensor(T), p=2,
                                                                 margin=0.7, reduction=r),
     (X,), (0,)),
    ('multi_margin_weight', lambda m, lib, x, w, r: m.multi_margin_loss(
        x, lib.tensor(T), weight=w, reduction=r), (X, W), (0,)),
    ('multi_margin_1d', lambda m, lib, x, r: m.multi_margin_loss(x[0], lib.tensor(T[:1]),
                                                                 reduction=r), (X,), (0,)),
    ('multilabel_margin', lambda m, lib, x, r: m.multilabel_margin_loss(
        x, lib.tensor(ML), reduction=r), (X,), (0,)),
    ('multilabel_margin_1d', lambda m, lib, x, r: m.multilabel_margin_loss(
        x[1], lib.tensor(ML[1]), reduction=r), (X,), (0,)),
    ('triplet_distance', lambda m, lib, a, p, n, r: m.triplet_margin_with_distance_loss(
        a, p, n, reduction=r), (A, PO, NE), (0, 1, 2)),
    ('triplet_distance_l1_swap', lambda m, lib, a, p, n, r: m.triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda u, v: (u - v).abs().sum(-1), margin=2.5, swap=True,
        reduction=r), (A, PO, NE), (0, 1, 2)),
    ('triplet_distance_cosine', lambda m, lib, a, p, n, r: m.triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda u, v: 1.0 - m.cosine_similarity(u, v), margin=0.5,
        reduction=r), (A, PO, NE), (0, 1, 2)),
]


def run(lib, f, arrays, grads, reduction, dtype):
    m = F if lib is Gnn else TF
    tensors = [lib.tensor(a.astype(dtype), requires_grad=i in grads)
               for i, a in enumerate(arrays)]
    out = f(m, lib, *tensors, reduction)
    weight = np.linspace(0.5, 1.5, out.numel()).reshape(tuple(out.shape)).astype(dtype)
    (out * lib.tensor(weight)).sum().backward()
    values = out.numpy() if lib is Gnn else out.detach().numpy()
    return [values] + [tensors[i].grad.numpy() for i in grads], type(out.grad_fn).__name__ \
        if lib is torch else out.grad_fn.name()


class LossesVsTorch(unittest.TestCase):
    def test_values_gradients_and_names(self):
        for name, f, arrays, grads in CASES:
            for dtype in (np.float32, np.float64):
                for reduction in ('none', 'mean', 'sum'):
                    with self.subTest(name=name, dtype=dtype.__name__, reduction=reduction):
                        got, got_name = run(Gnn, f, arrays, grads, reduction, dtype)
                        want, want_name = run(torch, f, arrays, grads, reduction, dtype)
                        tol = 1e-5 if dtype == np.float32 else 1e-12
                        for g, w in zip(got, want):
                            self.assertEqual(g.shape, w.shape)
                            np.testing.assert_allclose(g, w, rtol=tol, atol=tol)
                        self.assertEqual(got_name, want_name)

    def test_modules(self):
        x, t = X[:3], T[:3]
        for spec in ('MultiMarginLoss()', 'MultiMarginLoss(p=2, margin=0.5)',
                     "MultiMarginLoss(weight=W, reduction='sum')", 'MultiLabelMarginLoss()',
                     "MultiLabelMarginLoss(reduction='none')"):
            with self.subTest(spec=spec):
                out = []
                for lib, nn in ((Gnn, Gnn.nn), (torch, tnn)):
                    crit = eval(spec, {'W': lib.tensor(W), **vars(nn)})
                    xt = lib.tensor(x, requires_grad=True)
                    target = lib.tensor(ML[:3] if 'Label' in spec else t)
                    loss = crit(xt, target)
                    loss.sum().backward()
                    out.append((repr(crit), sorted(crit.state_dict().keys()),
                                loss.detach().numpy(), xt.grad.numpy()))
                self.assertEqual(out[0][0], out[1][0])
                self.assertEqual(out[0][1], out[1][1])
                np.testing.assert_allclose(out[0][2], out[1][2], rtol=1e-12)
                np.testing.assert_allclose(out[0][3], out[1][3], rtol=1e-12)

    def test_triplet_module(self):
        def l1(u, v):
            return (u - v).abs().sum(-1)
        out = []
        for lib, nn in ((Gnn, Gnn.nn), (torch, tnn)):
            crit = nn.TripletMarginWithDistanceLoss(distance_function=l1, margin=0.5, swap=True,
                                                    reduction='sum')
            a = lib.tensor(A, requires_grad=True)
            loss = crit(a, lib.tensor(PO), lib.tensor(NE))
            loss.backward()
            out.append((repr(crit), loss.item(), a.grad.numpy()))
        self.assertEqual(out[0][0], out[1][0])
        self.assertAlmostEqual(out[0][1], out[1][1], places=12)
        np.testing.assert_allclose(out[0][2], out[1][2], rtol=1e-12)
        # the default distance is pairwise_distance
        got = Gnn.nn.TripletMarginWithDistanceLoss()(Gnn.tensor(A), Gnn.tensor(PO),
                                                      Gnn.tensor(NE))
        want = tnn.TripletMarginWithDistanceLoss()(torch.tensor(A), torch.tensor(PO),
                                                   torch.tensor(NE))
        self.assertAlmostEqual(got.item(), want.item(), places=12)

    def test_distance_function_exception(self):
        def broken(u, v):
            raise KeyError('no distance')
        for call in (lambda: F.triplet_margin_with_distance_loss(
                         Gnn.tensor(A), Gnn.tensor(PO), Gnn.tensor(NE), distance_function=broken),
                     lambda: Gnn.nn.TripletMarginWithDistanceLoss(distance_function=broken)(
                         Gnn.tensor(A), Gnn.tensor(PO), Gnn.tensor(NE))):
            with self.assertRaises(KeyError):
                call()

    def test_errors(self):
        x = X[:3].astype(np.float32)
        cases = [
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0, 4])),
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0, -1])),
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0])),
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0, 2]), p=3),
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0, 2]),
                                               weight=lib.tensor(np.ones((2, 2)))),
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0, 2]),
                                               weight=lib.tensor(np.ones(4))),
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0, 2]).int()),
            lambda m, lib: m.multi_margin_loss(lib.tensor([[1, 2], [3, 4]]), lib.tensor([1, 0])),
            lambda m, lib: m.multi_margin_loss(lib.tensor(np.zeros((3, 0))), lib.tensor([1, 0, 2])),
            lambda m, lib: m.multi_margin_loss(lib.tensor(np.zeros((3, 4, 5))),
                                               lib.tensor([1, 0, 2])),
            lambda m, lib: m.multilabel_margin_loss(lib.tensor(x), lib.tensor(ML[:2])),
            lambda m, lib: m.multilabel_margin_loss(lib.tensor(x), lib.tensor(ML[:3] + 2)),
            lambda m, lib: m.multilabel_margin_loss(lib.tensor(x), lib.tensor(ML[:3] - 1)),
            lambda m, lib: m.multilabel_margin_loss(lib.tensor(x[0]), lib.tensor(ML[:3])),
            lambda m, lib: m.multilabel_margin_loss(lib.tensor(x), lib.tensor(ML[:3]).int()),
            lambda m, lib: m.multi_margin_loss(lib.tensor(x), lib.tensor([1, 0, 2]),
                                               reduction='foo'),
            lambda m, lib: m.rrelu(lib.tensor([1, -2]), training=True),
            lambda m, lib: m.rrelu(lib.tensor([1, -2])),
            lambda m, lib: m.rrelu(lib.tensor([1.0, -2.0]), 0.5, 0.2, training=True),
        ]
        for i, case in enumerate(cases):
            with self.subTest(case=i):
                with self.assertRaises((RuntimeError, ValueError, IndexError)) as want:
                    case(TF, torch)
                with self.assertRaises((GLib.Error, ValueError)) as got:
                    case(F, Gnn)
                message = getattr(got.exception, 'message', None) or str(got.exception)
                self.assertEqual(message, str(want.exception))


class RReLUVsTorch(unittest.TestCase):
    def test_eval_mean_slope(self):
        x = RNG.standard_normal((4, 6))
        x[0, 0] = 0.0
        for dtype in (np.float32, np.float64):
            for lower, upper in ((1.0 / 8, 1.0 / 3), (0.1, 0.9)):
                out = []
                for lib, m in ((Gnn, F), (torch, TF)):
                    xt = lib.tensor(x.astype(dtype), requires_grad=True)
                    y = m.rrelu(xt, lower, upper)
                    (y * lib.tensor(np.arange(24.0).reshape(4, 6).astype(dtype))).sum().backward()
                    name = y.grad_fn.name() if lib is Gnn else type(y.grad_fn).__name__
                    out.append((y.detach().numpy(), xt.grad.numpy(), name))
                np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-6)
                np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-6)
                self.assertEqual(out[0][2], out[1][2])

    def test_training_slopes(self):
        x = RNG.standard_normal((50, 40))
        xt = Gnn.tensor(x, requires_grad=True)
        y = F.rrelu(xt, 0.2, 0.6, training=True)
        y.sum().backward()
        y, g = y.numpy(), xt.grad.numpy()
        pos = x > 0
        np.testing.assert_array_equal(y[pos], x[pos])
        np.testing.assert_array_equal(g[pos], 1.0)
        slopes = y[~pos] / x[~pos]
        self.assertTrue(np.all((slopes >= 0.2) & (slopes < 0.6)))
        self.assertGreater(np.std(slopes), 0.05)        # drawn, not one slope
        np.testing.assert_allclose(g[~pos], slopes, rtol=1e-12)
        # the same generator seed draws the same slopes
        runs = [F.rrelu(Gnn.tensor(x), training=True).numpy() for _ in range(2)
                if Gnn.manual_seed(5) is None or True]
        np.testing.assert_array_equal(runs[0], runs[1])
        gen = Gnn.Generator.new(3)
        a = Gnn.Tensor.rrelu(Gnn.tensor(x), 0.1, 0.3, True, gen).numpy()
        gen.manual_seed(3)
        b = Gnn.Tensor.rrelu(Gnn.tensor(x), 0.1, 0.3, True, gen).numpy()
        np.testing.assert_array_equal(a, b)

    def test_inplace_and_module(self):
        for lib, nn, m in ((Gnn, Gnn.nn, F), (torch, tnn, TF)):
            with self.subTest(lib=lib.__name__):
                x = lib.tensor([[-1.0, 2.0], [0.5, -4.0]], requires_grad=True)
                y = x * 1
                z = m.rrelu(y, inplace=True)
                name = z.grad_fn.name() if lib is Gnn else type(z.grad_fn).__name__
                self.assertEqual(name, 'RreluWithNoiseBackward1')
                z.sum().backward()
                np.testing.assert_allclose(x.grad.numpy(), [[(1 / 8 + 1 / 3) / 2, 1],
                                                            [1, (1 / 8 + 1 / 3) / 2]])
        for spec in ('RReLU()', 'RReLU(0.1, 0.3)', 'RReLU(0.1, 0.3, True)',
                     'RReLU(lower=0.2, inplace=True)'):
            got, want = eval(spec, vars(Gnn.nn)), eval(spec, vars(tnn))
            self.assertEqual(repr(got), repr(want))
            x = np.array([-2.0, 3.0])
            got.eval()
            want.eval()
            np.testing.assert_allclose(got(Gnn.tensor(x)).numpy(),
                                       want(torch.tensor(x)).numpy(), rtol=1e-12)
            got.train()
            y = got(Gnn.tensor(x)).numpy()
            self.assertEqual(y[1], 3.0)
            self.assertTrue(got.lower * 2 >= -y[0] >= got.upper * 2 or
                            got.lower * 2 <= -y[0] <= got.upper * 2)


if __name__ == '__main__':
    unittest.main()
