# The losses of torch.nn.functional and their modules side by side with
# PyTorch 1.13: values and gradients (input and target, every reduction,
# float32 and float64, broadcasting, weights), the modules' reprs,
# state_dict keys, construction from torch's signatures and properties,
# the call with missing inputs, and torch's error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest
import warnings

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, GObject, Gnn  # noqa: E402

F = Gnn.nn.functional
RNG = np.random.default_rng(17)

X = RNG.standard_normal((4, 5))
Y = RNG.standard_normal((4, 5))
P = RNG.uniform(0.02, 0.98, (4, 5))
P[0, :2] = (0.0, 1.0)                       # saturated probabilities
BIN = (RNG.uniform(size=(4, 5)) > 0.5).astype(float)
SIGN = np.where(RNG.uniform(size=4) > 0.5, 1.0, -1.0)
SIGN45 = np.where(RNG.uniform(size=(4, 5)) > 0.5, 1.0, -1.0)
COUNTS = RNG.integers(0, 5, (4, 5)).astype(float)
VAR = RNG.uniform(0.1, 2.0, (4, 5))
W5 = RNG.uniform(0.5, 2.0, 5)

# name, f(lib, module, *tensors, reduction=), arrays, which inputs get a gradient
CASES = [
    ('l1', lambda m, x, y, r: m.l1_loss(x, y, reduction=r), (X, Y), (0, 1)),
    ('l1_broadcast', lambda m, x, y, r: m.l1_loss(x, y, reduction=r), (X, Y[:1]), (0, 1)),
    ('mse', lambda m, x, y, r: m.mse_loss(x, y, reduction=r), (X, Y), (0, 1)),
    ('smooth_l1', lambda m, x, y, r: m.smooth_l1_loss(x, y, reduction=r, beta=0.7), (X, Y),
     (0, 1)),
    ('smooth_l1_beta0', lambda m, x, y, r: m.smooth_l1_loss(x, y, reduction=r, beta=0.0),
     (X, Y), (0, 1)),
    ('huber', lambda m, x, y, r: m.huber_loss(x, y, reduction=r, delta=0.6), (X, Y), (0, 1)),
    ('bce', lambda m, x, y, r: m.binary_cross_entropy(x, y, reduction=r), (P, BIN), (0, 1)),
    ('bce_weight', lambda m, x, y, w, r: m.binary_cross_entropy(x, y, w, reduction=r),
     (P[1:], BIN[1:], W5), (0,)),
    ('bce_logits', lambda m, x, y, r: m.binary_cross_entropy_with_logits(x, y, reduction=r),
     (X, P), (0, 1)),
    ('bce_logits_pos', lambda m, x, y, w, r: m.binary_cross_entropy_with_logits(
        x, y, reduction=r, pos_weight=w), (X, P, W5), (0, 1)),
    ('kl_div', lambda m, x, y, r: m.kl_div(x, y, reduction=r), (X, P), (0, 1)),
    ('kl_div_log', lambda m, x, y, r: m.kl_div(x, y, reduction=r, log_target=True), (X, Y),
     (0, 1)),
    ('poisson', lambda m, x, y, r: m.poisson_nll_loss(x, y, reduction=r), (X, COUNTS), (0, 1)),
    ('poisson_full', lambda m, x, y, r: m.poisson_nll_loss(x, y, log_input=False, full=True,
                                                          reduction=r), (P * 3, COUNTS), (0,)),
    ('gaussian', lambda m, x, y, v, r: m.gaussian_nll_loss(x, y, v, full=True, reduction=r),
     (X, Y, VAR), (0, 1, 2)),
    ('gaussian_per_sample', lambda m, x, y, v, r: m.gaussian_nll_loss(x, y, v, reduction=r),
     (X, Y, VAR[:, 0].copy()), (0, 1, 2)),
    ('multilabel_soft_margin', lambda m, x, y, r: m.multilabel_soft_margin_loss(
        x, y, reduction=r), (X, BIN), (0, 1)),
    ('hinge_embedding', lambda m, x, y, r: m.hinge_embedding_loss(x, y, margin=0.5, reduction=r),
     (X, SIGN45), (0,)),
    ('margin_ranking', lambda m, a, b, y, r: m.margin_ranking_loss(a, b, y, margin=0.2,
                                                                  reduction=r),
     (X, Y, SIGN45), (0, 1, 2)),
    ('cosine_embedding', lambda m, a, b, y, r: m.cosine_embedding_loss(a, b, y, margin=0.1,
                                                                      reduction=r),
     (X, Y, SIGN), (0, 1)),
    ('soft_margin', lambda m, x, y, r: m.soft_margin_loss(x, y, reduction=r), (X, SIGN45), (0,)),
    ('soft_margin_wide', lambda m, x, y, r: m.soft_margin_loss(x * 8, y, reduction=r),
     (X, SIGN45), (0,)),
    ('triplet_margin', lambda m, a, p, n, r: m.triplet_margin_loss(a, p, n, reduction=r),
     (X, Y, X[::-1].copy()), (0, 1, 2)),
    ('triplet_margin_swap', lambda m, a, p, n, r: m.triplet_margin_loss(a, p, n, p=1, swap=True,
                                                                       reduction=r),
     (X, Y, X[::-1].copy()), (0, 1, 2)),
]


def run(lib, f, arrays, grads, reduction, dtype):
    m = F if lib is Gnn else TF
    tensors = [lib.tensor(a.astype(dtype), requires_grad=i in grads)
               for i, a in enumerate(arrays)]
    out = f(m, *tensors, reduction)
    weight = np.linspace(0.5, 1.5, out.numel()).reshape(tuple(out.shape)).astype(dtype)
    (out * lib.tensor(weight)).sum().backward()
    values = out.numpy() if lib is Gnn else out.detach().numpy()
    return [values] + [tensors[i].grad.numpy() for i in grads]


class FunctionalVsTorch(unittest.TestCase):
    def test_values_and_gradients(self):
        for name, f, arrays, grads in CASES:
            for dtype in (np.float32, np.float64):
                reductions = ('none', 'mean', 'sum') + (('batchmean',) if 'kl' in name else ())
                for reduction in reductions:
                    with self.subTest(name=name, dtype=dtype.__name__, reduction=reduction):
                        with warnings.catch_warnings():
                            warnings.simplefilter('ignore')
                            want = run(torch, f, arrays, grads, reduction, dtype)
                        got = run(Gnn, f, arrays, grads, reduction, dtype)
                        for g, w in zip(got, want):
                            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
                            self.assertEqual(g.dtype, w.dtype)

    def test_classification(self):
        x = RNG.standard_normal((6, 4, 3))
        t = RNG.integers(0, 4, (6, 3))
        t[0, 0] = -100
        probs = RNG.dirichlet(np.ones(4), (6, 3)).transpose(0, 2, 1).copy()
        w = RNG.uniform(0.5, 2.0, 4)
        cases = [
            lambda m, lib, a: m.nll_loss(a, lib.tensor(t), reduction='none'),
            lambda m, lib, a: m.nll_loss(a, lib.tensor(t), weight=lib.tensor(w)),
            lambda m, lib, a: m.nll_loss(a[:, :, 0], lib.tensor(t[:, 1]), reduction='sum'),
            lambda m, lib, a: m.cross_entropy(a, lib.tensor(t), label_smoothing=0.2),
            lambda m, lib, a: m.cross_entropy(a, lib.tensor(t), weight=lib.tensor(w),
                                              label_smoothing=0.1, reduction='none'),
            lambda m, lib, a: m.cross_entropy(a, lib.tensor(probs)),
            lambda m, lib, a: m.cross_entropy(a, lib.tensor(probs), weight=lib.tensor(w),
                                              label_smoothing=0.3, reduction='none'),
            lambda m, lib, a: m.cross_entropy(a[0, :, 0], lib.tensor(probs[0, :, 0]),
                                              reduction='sum'),
        ]
        for i, case in enumerate(cases):
            out = []
            for lib, m in ((Gnn, F), (torch, TF)):
                a = lib.tensor(x, requires_grad=True)
                y = case(m, lib, a)
                (y * y).sum().backward()
                out.append((y.numpy() if lib is Gnn else y.detach().numpy(), a.grad.numpy()))
            for g, w_ in zip(*out):
                np.testing.assert_allclose(g, w_, rtol=1e-5, atol=1e-7, err_msg=str(i))

    def test_ctc(self):
        T, N, C = 12, 4, 6
        logits = RNG.standard_normal((T, N, C))
        targets = RNG.integers(1, C, (N, 7))
        tl, il = [3, 5, 0, 7], [12, 10, 6, 5]          # the last input is too short: inf
        concat = np.concatenate([targets[b, :tl[b]] for b in range(N)])
        for dtype in (np.float32, np.float64):
            for form in (targets, concat):
                for reduction in ('none', 'mean', 'sum'):
                    for zero_infinity in (False, True):
                        out = []
                        for lib, m in ((Gnn, F), (torch, TF)):
                            x = lib.tensor(logits.astype(dtype), requires_grad=True)
                            loss = m.ctc_loss(x.log_softmax(2), lib.tensor(form), il, tl,
                                              reduction=reduction, zero_infinity=zero_infinity)
                            (loss * 1.5).sum().backward()
                            out.append((loss.numpy() if lib is Gnn else loss.detach().numpy(),
                                        x.grad.numpy()))
                        for g, w in zip(*out):
                            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        # the module, lengths as tensors, and torch's gradient for leaf log-probabilities
        lp = np.log(RNG.dirichlet(np.ones(C), (T, 2)))
        out = []
        for lib, m in ((Gnn, Gnn.nn), (torch, tnn)):
            x = lib.tensor(lp, requires_grad=True)
            loss = m.CTCLoss(blank=C - 1)(x, lib.tensor([[1, 2, 3], [2, 2, 0]]),
                                         lib.tensor([12, 9]), lib.tensor([3, 2]))
            loss.backward()
            out.append((loss.item(), x.grad.numpy()))
        self.assertAlmostEqual(out[0][0], out[1][0], places=10)
        np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-9, atol=1e-12)
        for args in (([13, 9], [3, 2]), ([12, 9], [3, 4])):
            with self.assertRaises(RuntimeError) as want:
                TF.ctc_loss(torch.zeros(12, 2, C), torch.tensor([[1, 2, 3], [2, 2, 0]]), *args)
            with self.assertRaises(GLib.Error) as got:
                F.ctc_loss(Gnn.zeros(12, 2, C), Gnn.tensor([[1, 2, 3], [2, 2, 0]]), *args)
            self.assertEqual(got.exception.message, str(want.exception))

    def test_grad_fn_names(self):
        x, t = RNG.standard_normal((3, 4)), RNG.integers(0, 4, 3)
        for f in (lambda m, lib, a: m.mse_loss(a, a * 0),
                  lambda m, lib, a: m.l1_loss(a, a * 0),
                  lambda m, lib, a: m.smooth_l1_loss(a, a * 0),
                  lambda m, lib, a: m.huber_loss(a, a * 0),
                  lambda m, lib, a: m.binary_cross_entropy(a.sigmoid(), a * 0),
                  lambda m, lib, a: m.binary_cross_entropy_with_logits(a, a * 0),
                  lambda m, lib, a: m.nll_loss(a, lib.tensor(t)),
                  lambda m, lib, a: m.kl_div(a, a * 0, reduction='batchmean')):
            g = f(F, Gnn, Gnn.tensor(x, requires_grad=True))
            t_ = f(TF, torch, torch.tensor(x, requires_grad=True))
            self.assertEqual(g.get_grad_fn_name(), type(t_.grad_fn).__name__)

    def test_errors(self):
        z34, z24 = np.zeros((3, 4)), np.zeros((2, 4))
        cases = [
            lambda m, lib: m.l1_loss(lib.tensor(z34), lib.tensor(z24)),
            lambda m, lib: m.binary_cross_entropy(lib.tensor(z34 + 0.5), lib.tensor(z34[:1])),
            lambda m, lib: m.binary_cross_entropy(lib.tensor(z34 + 2), lib.tensor(z34)),
            lambda m, lib: m.binary_cross_entropy_with_logits(lib.tensor(z34), lib.tensor(z24)),
            lambda m, lib: m.smooth_l1_loss(lib.tensor(z34), lib.tensor(z34), beta=-1.0),
            lambda m, lib: m.huber_loss(lib.tensor(z34), lib.tensor(z34), delta=0.0),
            lambda m, lib: m.kl_div(lib.tensor(z34), lib.tensor(z34), reduction='foo'),
            lambda m, lib: m.mse_loss(lib.tensor(z34), lib.tensor(z34), reduction='batchmean'),
            lambda m, lib: m.gaussian_nll_loss(lib.tensor(z34), lib.tensor(z34),
                                               lib.tensor(-np.ones((3, 4)))),
            lambda m, lib: m.gaussian_nll_loss(lib.tensor(z34), lib.tensor(z34),
                                               lib.tensor(np.ones((2, 4)))),
            lambda m, lib: m.margin_ranking_loss(lib.tensor(z34[0]), lib.tensor(z34),
                                                 lib.tensor(z34)),
            lambda m, lib: m.cosine_embedding_loss(lib.tensor(z34[None]), lib.tensor(z34[None]),
                                                   lib.tensor(np.ones(1))),
            lambda m, lib: m.triplet_margin_loss(lib.tensor(z34), lib.tensor(z34[0]),
                                                 lib.tensor(z34)),
            lambda m, lib: m.nll_loss(lib.tensor(np.zeros((2, 3))), lib.tensor([0, 1, 2])),
            lambda m, lib: m.nll_loss(lib.tensor(np.zeros((2, 3, 4))),
                                      lib.tensor(np.zeros((2, 5), np.int64))),
            lambda m, lib: m.nll_loss(lib.tensor(np.zeros((2, 3))), lib.tensor([0, 5])),
            lambda m, lib: m.nll_loss(lib.tensor(np.zeros((2, 3))), lib.tensor([0.0, 1.0])),
            lambda m, lib: m.cross_entropy(lib.tensor(z34), lib.tensor(z34 + 0.25),
                                           ignore_index=1),
            lambda m, lib: m.cross_entropy(lib.tensor(z34), lib.tensor([0, 1, 2]),
                                           label_smoothing=1.5),
            lambda m, lib: m.soft_margin_loss(lib.tensor(z34), lib.tensor(z34,
                                                                           requires_grad=True)),
        ]
        for i, case in enumerate(cases):
            with self.subTest(case=i):
                with self.assertRaises((RuntimeError, ValueError, IndexError)) as want:
                    with warnings.catch_warnings():
                        warnings.simplefilter('ignore')
                        case(TF, torch)
                with self.assertRaises((GLib.Error, ValueError)) as got:
                    case(F, Gnn)
                message = getattr(got.exception, 'message', None) or str(got.exception)
                self.assertEqual(message, str(want.exception))


MODULES = ['L1Loss()', "L1Loss(reduction='sum')", 'SmoothL1Loss(beta=0.5)', 'HuberLoss(delta=2.0)',
           'BCELoss()', 'BCELoss(weight=W)', "KLDivLoss(reduction='batchmean', log_target=True)",
           'PoissonNLLLoss(log_input=False, eps=1e-6)', 'GaussianNLLLoss(full=True)',
           'MultiLabelSoftMarginLoss(weight=W)', 'HingeEmbeddingLoss(margin=2.0)',
           'MarginRankingLoss(margin=0.5)', 'CosineEmbeddingLoss(margin=0.1)',
           'TripletMarginLoss(swap=True)', 'TripletMarginLoss(1.5, 1.0)',
           'CrossEntropyLoss(weight=W, label_smoothing=0.1)',
           'BCEWithLogitsLoss(weight=W, pos_weight=W)', 'NLLLoss(ignore_index=1)', 'MSELoss()',
           'SoftMarginLoss()', "SoftMarginLoss(reduction='sum')"]


class ModulesVsTorch(unittest.TestCase):
    def inputs(self, name, lib):
        x = lib.tensor(X[:, :3], requires_grad=True)
        two = {'BCELoss': (x.sigmoid(), lib.tensor(BIN[:, :3])),
               'CrossEntropyLoss': (x, lib.tensor([0, 1, 2, 1])),
               'NLLLoss': (x, lib.tensor([0, 1, 2, 1])),
               'PoissonNLLLoss': (x.exp(), lib.tensor(COUNTS[:, :3])),
               'GaussianNLLLoss': (x, lib.tensor(Y[:, :3]), lib.tensor(VAR[:, :3])),
               'HingeEmbeddingLoss': (x, lib.tensor(SIGN45[:, :3])),
               'SoftMarginLoss': (x, lib.tensor(SIGN45[:, :3])),
               'MarginRankingLoss': (x, lib.tensor(Y[:, :3]), lib.tensor(SIGN45[:, :3])),
               'CosineEmbeddingLoss': (x, lib.tensor(Y[:, :3]), lib.tensor(SIGN)),
               'TripletMarginLoss': (x, lib.tensor(Y[:, :3]), lib.tensor(X[::-1, :3].copy()))}
        return x, two.get(name, (x, lib.tensor(P[:, :3])))

    def test_modules(self):
        for text in MODULES:
            with self.subTest(module=text):
                name = text.split('(')[0]
                W = Gnn.tensor(W5[:3])                       # noqa: F841 (eval)
                g = eval('Gnn.nn.' + text)
                W = torch.tensor(W5[:3])                     # noqa: F841
                t = eval('tnn.' + text)
                self.assertEqual(repr(g), repr(t))
                self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
                gx, gin = self.inputs(name, Gnn)
                tx, tin = self.inputs(name, torch)
                gy, ty = g(*gin), t(*tin)
                np.testing.assert_allclose(gy.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-7)
                gy.sum().backward()
                ty.sum().backward()
                np.testing.assert_allclose(gx.grad.numpy(), tx.grad.numpy(), rtol=1e-5,
                                           atol=1e-7)

    def test_missing_inputs(self):
        for name in ('L1Loss', 'MarginRankingLoss', 'TripletMarginLoss', 'GaussianNLLLoss'):
            with self.assertRaises(TypeError) as want:
                getattr(tnn, name)()(torch.zeros(3))
            with self.assertRaises(GLib.Error) as got:
                getattr(Gnn.nn, name)()(Gnn.zeros(3))
            self.assertTrue(got.exception.message.startswith(
                str(want.exception)), got.exception.message)

    def test_call_path_with_hooks(self):
        # criterion(input, target) is the module call: hooks see both inputs
        out = []
        for lib, m in ((Gnn, Gnn.nn), (torch, tnn)):
            loss = m.MarginRankingLoss(margin=0.2)
            seen = []
            loss.register_forward_pre_hook(lambda mod, args: seen.append(len(args)))
            loss.register_forward_hook(lambda mod, args, output: output * 2)
            x = lib.tensor(X)
            value = loss(x, lib.tensor(Y), target=lib.tensor(SIGN45)).item()
            out.append((value, seen))
        self.assertAlmostEqual(out[0][0], out[1][0], places=6)
        self.assertEqual(out[0][1], out[1][1])

    def test_built_from_properties(self):
        x = Gnn.tensor(X)
        for cls, props, f in ((Gnn.SmoothL1Loss, {'beta': 0.5, 'reduction': 'sum'},
                               lambda: F.smooth_l1_loss(x, x * 2, reduction='sum', beta=0.5)),
                              (Gnn.KLDivLoss, {'reduction': 'batchmean'},
                               lambda: F.kl_div(x, x.exp(), reduction='batchmean')),
                              (Gnn.TripletMarginLoss, {'margin': 2.0, 'swap': True},
                               lambda: F.triplet_margin_loss(x, x * 2, x * 3, 2.0, swap=True))):
            loss = GObject.new(cls, **props)
            args = (x, x.exp()) if cls is Gnn.KLDivLoss else \
                (x, x * 2, x * 3) if cls is Gnn.TripletMarginLoss else (x, x * 2)
            self.assertEqual(loss(*args).item(), f().item())
        with self.assertRaises(GLib.Error) as cm:
            GObject.new(Gnn.L1Loss, reduction='batchmean')(x, x)
        self.assertEqual(cm.exception.message, 'batchmean is not a valid value for reduction')


if __name__ == '__main__':
    unittest.main()
