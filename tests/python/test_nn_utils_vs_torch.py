# torch.nn.utils side by side with PyTorch 1.13: clip_grad_norm_ (every norm
# type, the non-finite error), clip_grad_value_, parameters_to_vector and
# vector_to_parameters, weight_norm and spectral_norm (state_dict keys,
# values and gradients with the same starting state, the power iteration,
# eval mode, removal) and their errors.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn as tnn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

utils = Gnn.nn.utils
RNG = np.random.default_rng(23)


def same_layer(kind, *args):
    """A Gnn layer and a torch layer with the same parameters, in float64
    (the reparametrized gradients cancel terms: float32 would compare the
    two libraries' rounding)."""
    g = getattr(Gnn.nn, kind)(*args).to(Gnn.float64)
    t = getattr(tnn, kind)(*args).double()
    with torch.no_grad():
        for name, p in t.named_parameters():
            p.copy_(torch.tensor(getattr(g, name).numpy()))
    return g, t


def params_with_grads(lib, grads):
    ps = [lib.nn.Parameter(lib.zeros(*g.shape)) for g in grads]
    for p, g in zip(ps, grads):
        p.grad = lib.tensor(g.copy())
    return ps


class ClipVsTorch(unittest.TestCase):
    def test_clip_grad_norm(self):
        grads = [RNG.standard_normal(s).astype(np.float32) for s in ((4, 3), (3,), (2, 2))]
        for norm_type in (2.0, 1.0, 3.0, 0.5, float('inf'), -float('inf')):
            for max_norm in (0.5, 100.0):
                gp, tp = params_with_grads(Gnn, grads), params_with_grads(torch, grads)
                got = utils.clip_grad_norm_(gp, max_norm, norm_type)
                want = tnn.utils.clip_grad_norm_(tp, max_norm, norm_type)
                self.assertAlmostEqual(got.item(), want.item(), places=4)
                self.assertEqual(got.dtype, Gnn.float32)
                for p, q in zip(gp, tp):
                    np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5,
                                               atol=1e-6)
        one = params_with_grads(Gnn, grads[:1])[0]
        self.assertAlmostEqual(utils.clip_grad_norm_(one, 1.0).item(),
                               float(np.linalg.norm(grads[0])), places=5)
        self.assertEqual(utils.clip_grad_norm_([Gnn.nn.Parameter(Gnn.zeros(2))], 1.0).item(), 0.0)

    def test_nonfinite(self):
        bad = [np.array([1.0, np.inf], np.float32)]
        with self.assertRaises(RuntimeError) as want:
            tnn.utils.clip_grad_norm_(params_with_grads(torch, bad), 1.0, error_if_nonfinite=True)
        with self.assertRaises(RuntimeError) as got:
            utils.clip_grad_norm_(params_with_grads(Gnn, bad), 1.0, error_if_nonfinite=True)
        self.assertIsInstance(got.exception, GLib.Error)
        self.assertEqual(str(got.exception), str(want.exception))
        gp, tp = params_with_grads(Gnn, bad), params_with_grads(torch, bad)
        self.assertEqual(str(utils.clip_grad_norm_(gp, 1.0).item()),
                         str(tnn.utils.clip_grad_norm_(tp, 1.0).item()))
        np.testing.assert_array_equal(gp[0].grad.numpy(), tp[0].grad.numpy())

    def test_clip_grad_value(self):
        grads = [RNG.standard_normal((5, 4)).astype(np.float32) * 3]
        for value in (0.5, 2.0, -1.0):
            gp, tp = params_with_grads(Gnn, grads), params_with_grads(torch, grads)
            utils.clip_grad_value_(gp, value)
            tnn.utils.clip_grad_value_(tp, value)
            np.testing.assert_array_equal(gp[0].grad.numpy(), tp[0].grad.numpy())

    def test_vectors(self):
        shapes = ((3, 2), (4,), (2, 1, 2))
        values = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
        for lib, m in ((Gnn, utils), (torch, tnn.utils)):
            ps = [lib.nn.Parameter(lib.tensor(v)) for v in values]
            vec = m.parameters_to_vector(ps)
            self.assertEqual(list(vec.shape), [14])
            (vec * lib.arange(14.0)).sum().backward()
            m.vector_to_parameters(vec.detach() * 2, ps)
            if lib is Gnn:
                got = [p.numpy() for p in ps] + [ps[2].grad.numpy()]
            else:
                want = [p.detach().numpy() for p in ps] + [ps[2].grad.numpy()]
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        with self.assertRaises(TypeError) as cm:
            utils.vector_to_parameters([1.0], [])
        self.assertEqual(str(cm.exception), 'expected torch.Tensor, but got: list')


class WeightNormVsTorch(unittest.TestCase):
    def compare(self, g, t, x, train=True):
        g.train(train)
        t.train(train)
        gx, tx = Gnn.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
        gy, ty = g(gx), t(tx)
        np.testing.assert_allclose(gy.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
        gy.pow(2).sum().backward()
        ty.pow(2).sum().backward()
        np.testing.assert_allclose(gx.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
        for name, p in t.named_parameters():
            np.testing.assert_allclose(getattr(g, name).grad.numpy(), p.grad.numpy(),
                                       rtol=1e-4, atol=1e-6, err_msg=name)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        for key, value in t.state_dict().items():
            np.testing.assert_allclose(g.state_dict()[key].numpy(), value.numpy(), rtol=1e-5,
                                       atol=1e-6, err_msg=key)

    def test_weight_norm(self):
        for kind, args, dim, shape in (('Linear', (4, 3), 0, (2, 4)),
                                       ('Linear', (4, 3), 1, (2, 4)),
                                       ('Linear', (4, 3), None, (2, 4)),
                                       ('Conv2d', (2, 3, 3), 0, (1, 2, 5, 5))):
            with self.subTest(kind=kind, dim=dim):
                g, t = same_layer(kind, *args)
                self.assertIs(utils.weight_norm(g, dim=dim), g)
                tnn.utils.weight_norm(t, dim=dim)
                self.assertEqual(list(dict(g.named_parameters())),
                                 list(dict(t.named_parameters())))
                self.compare(g, t, RNG.standard_normal(shape))
                utils.remove_weight_norm(g)
                tnn.utils.remove_weight_norm(t)
                self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
                np.testing.assert_allclose(g.weight.numpy(), t.weight.detach().numpy(),
                                           rtol=1e-5, atol=1e-6)

    def test_spectral_norm(self):
        for kind, args, shape in (('Linear', (5, 3), (2, 5)), ('Conv2d', (2, 4, 3), (1, 2, 6, 6))):
            with self.subTest(kind=kind):
                g, t = same_layer(kind, *args)
                self.assertIs(utils.spectral_norm(g), g)
                tnn.utils.spectral_norm(t)
                self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
                self.assertEqual([n for n, _ in g.named_buffers()],
                                 [n for n, _ in t.named_buffers()])
                # the same starting u and v: the power iteration then agrees
                g.load_state_dict({k: Gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
                for _ in range(3):
                    x = RNG.standard_normal(shape)
                    self.compare(g, t, x)
                self.compare(g, t, x, train=False)     # eval: no power iteration
                utils.remove_spectral_norm(g)
                tnn.utils.remove_spectral_norm(t)
                self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
                np.testing.assert_allclose(g.weight.numpy(), t.weight.detach().numpy(),
                                           rtol=1e-5, atol=1e-6)

    def test_spectral_norm_converges(self):
        g = Gnn.nn.Linear(8, 6)
        utils.spectral_norm(g, n_power_iterations=3)
        for _ in range(10):
            g(Gnn.randn(2, 8))
        self.assertAlmostEqual(float(np.linalg.svd(g.weight.numpy(), compute_uv=False)[0]), 1.0,
                               places=4)

    def test_errors(self):
        cases = (
            (lambda m, lib: m.weight_norm(m.weight_norm(lib.nn.Linear(2, 2))), RuntimeError),
            (lambda m, lib: m.spectral_norm(m.spectral_norm(lib.nn.Linear(2, 2))), RuntimeError),
            (lambda m, lib: m.spectral_norm(lib.nn.Linear(2, 2), n_power_iterations=0),
             ValueError),
            (lambda m, lib: m.remove_weight_norm(lib.nn.Linear(2, 2)), ValueError),
            (lambda m, lib: m.remove_spectral_norm(lib.nn.Linear(2, 2)), ValueError),
        )
        for i, (case, kind) in enumerate(cases):
            with self.assertRaises(kind) as want:
                case(tnn.utils, torch)
            with self.assertRaises(kind) as got:
                case(utils, Gnn)
            self.assertEqual(str(got.exception), str(want.exception), i)


if __name__ == '__main__':
    unittest.main()
