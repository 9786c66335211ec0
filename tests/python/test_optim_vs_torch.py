# Optimizers and LR schedulers against PyTorch 1.13: the same parameters, fed
# the same sequence of random gradients as .grad, follow the same
# trajectories; schedulers give the same learning rates. Plain gi API.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest
import warnings

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

STEPS = 20
TOL = {np.float32: 1e-5, np.float64: 1e-10}


def gnn_param(array):
    return Gnn.Parameter.new(Gnn.Tensor.from_numpy(np.array(array)), True)


def make_gnn(kind, params, kw):
    """Builds with the C constructor (positional, PyTorch's defaults)."""
    if kind == 'sgd':
        return Gnn.SGD.new(params, kw['lr'], kw.get('momentum', 0.0), kw.get('dampening', 0.0),
                           kw.get('weight_decay', 0.0), kw.get('nesterov', False))
    betas = kw.get('betas', (0.9, 0.999))
    default_wd = 0.01 if kind == 'adamw' else 0.0
    cls = Gnn.Adam if kind == 'adam' else Gnn.AdamW
    return cls.new(params, kw.get('lr', 1e-3), betas[0], betas[1], kw.get('eps', 1e-8),
                   kw.get('weight_decay', default_wd), kw.get('amsgrad', False))


def make_torch(kind, params, kw):
    cls = {'sgd': torch.optim.SGD, 'adam': torch.optim.Adam, 'adamw': torch.optim.AdamW}[kind]
    return cls(params, foreach=False, **kw)


CASES = [
    ('sgd', dict(lr=0.1)),
    ('sgd', dict(lr=0.05, momentum=0.9)),
    ('sgd', dict(lr=0.05, momentum=0.9, dampening=0.3)),
    ('sgd', dict(lr=0.05, momentum=0.9, nesterov=True)),
    ('sgd', dict(lr=0.05, weight_decay=0.1)),
    ('sgd', dict(lr=0.05, momentum=0.5, weight_decay=0.01, nesterov=True)),
    ('adam', dict(lr=0.01)),
    ('adam', dict(lr=0.01, amsgrad=True)),
    ('adam', dict(lr=0.01, weight_decay=0.1)),
    ('adam', dict(lr=0.003, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.05, amsgrad=True)),
    ('adamw', dict(lr=0.01)),
    ('adamw', dict(lr=0.01, weight_decay=0.2, amsgrad=True)),
]


class OptimizerTrajectories(unittest.TestCase):
    def run_case(self, kind, kw, dtype, seed=0):
        rng = np.random.default_rng(seed)
        shapes = [(3, 4), (5,), ()]
        init = [np.array(rng.standard_normal(s), dtype=dtype) for s in shapes]
        grads = [[np.array(rng.standard_normal(s), dtype=dtype) for s in shapes] for _ in range(STEPS)]

        tparams = [torch.nn.Parameter(torch.from_numpy(a.copy())) for a in init]
        gparams = [gnn_param(a) for a in init]
        topt = make_torch(kind, tparams, kw)
        gopt = make_gnn(kind, gparams, kw)

        for step in range(STEPS):
            for tp, gp, g in zip(tparams, gparams, grads[step]):
                tp.grad = torch.from_numpy(g.copy())
                gp.set_grad(Gnn.Tensor.from_numpy(g.copy()))
            topt.step()
            gopt.step()
            for i, (tp, gp) in enumerate(zip(tparams, gparams)):
                np.testing.assert_allclose(
                    gp.numpy(), tp.detach().numpy(), rtol=0, atol=TOL[dtype],
                    err_msg='%s %r %s: parameter %d differs at step %d'
                            % (kind, kw, np.dtype(dtype).name, i, step + 1))

    def test_trajectories_float32(self):
        for kind, kw in CASES:
            with self.subTest(kind=kind, kw=kw):
                self.run_case(kind, kw, np.float32)

    def test_trajectories_float64(self):
        for kind, kw in CASES:
            with self.subTest(kind=kind, kw=kw):
                self.run_case(kind, kw, np.float64, seed=1)

    def test_maximize(self):
        rng = np.random.default_rng(3)
        a = rng.standard_normal(6)
        tp = torch.nn.Parameter(torch.from_numpy(a.copy()))
        gp = gnn_param(a)
        topt = torch.optim.Adam([tp], lr=0.01, maximize=True, foreach=False)
        gopt = Gnn.Adam.new([gp], 0.01, 0.9, 0.999, 1e-8, 0.0, False)
        gopt.props.maximize = True
        for _ in range(5):
            g = rng.standard_normal(6)
            tp.grad = torch.from_numpy(g.copy())
            gp.set_grad(Gnn.Tensor.from_numpy(g.copy()))
            topt.step()
            gopt.step()
        np.testing.assert_allclose(gp.numpy(), tp.detach().numpy(), rtol=0, atol=1e-12)


class OptimizerPython(unittest.TestCase):
    def test_property_construction(self):
        p = gnn_param(np.ones(3))
        opt = Gnn.SGD(lr=0.1, momentum=0.9)
        opt.add_params([p])
        self.assertAlmostEqual(opt.props.lr, 0.1)
        self.assertAlmostEqual(opt.props.momentum, 0.9)
        p.set_grad(Gnn.Tensor.from_numpy(np.ones(3)))
        opt.step()
        np.testing.assert_allclose(p.numpy(), np.full(3, 0.9))

    def test_constructor_errors(self):
        p = gnn_param(np.ones(3))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SGD.new([p], -1.0, 0.0, 0.0, 0.0, False)
        self.assertIn('Invalid learning rate: -1', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SGD.new([p], 0.1, 0.0, 0.0, 0.0, True)
        self.assertIn('Nesterov momentum requires a momentum and zero dampening',
                      cm.exception.message)
        with self.assertRaises(ValueError) as tcm:
            torch.optim.SGD([torch.nn.Parameter(torch.ones(3))], lr=0.1, nesterov=True)
        self.assertIn(str(tcm.exception), cm.exception.message)

    def test_zero_grad(self):
        p = gnn_param(np.ones(3, dtype=np.float32))
        opt = Gnn.Adam.new([p], 1e-3, 0.9, 0.999, 1e-8, 0.0, False)
        p.set_grad(Gnn.Tensor.from_numpy(np.ones(3, dtype=np.float32)))
        opt.zero_grad(False)
        np.testing.assert_array_equal(p.get_grad().numpy(), np.zeros(3, dtype=np.float32))
        opt.zero_grad(True)
        self.assertIsNone(p.get_grad())


def torch_lrs(make_sched, n):
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
    sched = make_sched(opt)
    out = [sched.get_last_lr()[0]]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for _ in range(n):
            opt.step()
            sched.step()
            out.append(sched.get_last_lr()[0])
    return out


def gnn_lrs(make_sched, n):
    opt = Gnn.SGD.new([gnn_param(np.zeros(1, dtype=np.float32))], 0.1, 0.0, 0.0, 0.0, False)
    sched = make_sched(opt)
    out = [sched.get_last_lr()[0]]
    for _ in range(n):
        sched.step()
        out.append(sched.get_last_lr()[0])
        assert opt.props.lr == out[-1]
    return out


class Schedulers(unittest.TestCase):
    def test_step_lr(self):
        for step_size, gamma in [(1, 0.5), (3, 0.1), (7, 0.9)]:
            with self.subTest(step_size=step_size, gamma=gamma):
                expected = torch_lrs(
                    lambda o: torch.optim.lr_scheduler.StepLR(o, step_size, gamma), 30)
                got = gnn_lrs(lambda o: Gnn.StepLR.new(o, step_size, gamma), 30)
                np.testing.assert_allclose(got, expected, rtol=0, atol=1e-15)

    def test_cosine_annealing_three_periods(self):
        for t_max, eta_min in [(4, 0.0), (10, 0.001), (3, 0.05)]:
            with self.subTest(t_max=t_max, eta_min=eta_min):
                n = 6 * t_max   # three full periods (2 * T_max each)
                expected = torch_lrs(
                    lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, t_max, eta_min), n)
                got = gnn_lrs(lambda o: Gnn.CosineAnnealingLR.new(o, t_max, eta_min), n)
                np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)

    def test_keyword_construction(self):
        opt = Gnn.SGD.new([gnn_param(np.zeros(1))], 0.1, 0.0, 0.0, 0.0, False)
        sched = Gnn.StepLR(optimizer=opt, step_size=2, gamma=0.5)
        lrs = [sched.get_last_lr()[0]]
        for _ in range(4):
            sched.step()
            lrs.append(sched.get_last_lr()[0])
        np.testing.assert_allclose(lrs, [0.1, 0.1, 0.05, 0.05, 0.025])


if __name__ == '__main__':
    unittest.main()
