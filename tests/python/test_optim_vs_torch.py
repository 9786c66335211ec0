# Optimizers against PyTorch 1.13: the same parameters, in several parameter
# groups with their own options, fed the same random gradients (some steps
# without a gradient for one parameter), follow the same trajectories for
# 20 steps in float32 and float64, every flag included; LBFGS with both line
# searches on a closure; state dicts resume mid-run in Gnn, and move between
# Gnn and torch; bad input fails with torch's messages and changes nothing.
# Schedulers: tests/python/test_lr_scheduler_vs_torch.py.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

STEPS = 20
SHAPES = [(3, 4), (5,), ()]


def close(gnn_value, torch_value, what):
    """Within 1e-6, relative to the magnitude (they are equal to the bit in
    practice: the C kernels use torch's fused multiply-adds)."""
    a = np.asarray(gnn_value, dtype=np.float64)
    b = np.asarray(torch_value, dtype=np.float64)
    bad = np.abs(a - b) > 1e-6 * np.maximum(1.0, np.abs(b))
    if bad.any():
        raise AssertionError('%s: Gnn %r, torch %r' % (what, a[bad][:3], b[bad][:3]))


def to_gnn(value):
    """A torch state dict's values as Gnn's (tensors through numpy)."""
    if isinstance(value, torch.Tensor):
        return Gnn.Tensor.from_numpy(value.detach().numpy().copy())
    if isinstance(value, dict):
        return {k: to_gnn(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_gnn(v) for v in value)
    return value


def to_torch(value):
    if isinstance(value, Gnn.Tensor):
        return torch.from_numpy(np.array(value.numpy()))
    if isinstance(value, dict):
        return {k: to_torch(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_torch(v) for v in value)
    return value


# (optimizer, constructor keywords, [(parameter indices, group options)])
CASES = [
    ('SGD', dict(lr=0.1), [([0], {}), ([1, 2], {'lr': 0.05, 'weight_decay': 0.1})]),
    ('SGD', dict(lr=0.05, momentum=0.9, dampening=0.3),
     [([0], {'nesterov': False}), ([1], {'momentum': 0.5, 'maximize': True}), ([2], {})]),
    ('SGD', dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
     [([0, 1, 2], {})]),
    ('Adam', dict(lr=0.01), [([0], {'amsgrad': True}),
                             ([1, 2], {'betas': (0.8, 0.95), 'weight_decay': 0.1, 'eps': 1e-6})]),
    ('Adam', dict(lr=0.003, maximize=True, amsgrad=True, weight_decay=0.05), [([0, 1, 2], {})]),
    ('AdamW', dict(lr=0.01), [([0], {'amsgrad': True}), ([1, 2], {'weight_decay': 0.2})]),
    ('AdamW', dict(lr=0.01, maximize=True, betas=(0.85, 0.99)), [([0, 1, 2], {})]),
    ('Adadelta', dict(lr=1.0), [([0, 1], {}), ([2], {'rho': 0.8, 'weight_decay': 0.1})]),
    ('Adadelta', dict(lr=0.5, maximize=True, eps=1e-5), [([0, 1, 2], {})]),
    ('Adagrad', dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1),
     [([0], {}), ([1, 2], {'lr': 0.05, 'weight_decay': 0.1})]),
    ('Adagrad', dict(lr=0.1, maximize=True, eps=1e-6), [([0, 1, 2], {})]),
    ('Adamax', dict(lr=0.01), [([0, 1], {'betas': (0.8, 0.99)}), ([2], {'weight_decay': 0.1})]),
    ('Adamax', dict(lr=0.01, maximize=True), [([0, 1, 2], {})]),
    ('NAdam', dict(lr=0.01), [([0, 1], {'momentum_decay': 0.01}), ([2], {'weight_decay': 0.1})]),
    ('RAdam', dict(lr=0.01), [([0, 1], {'betas': (0.8, 0.9)}), ([2], {'weight_decay': 0.1})]),
    ('RMSprop', dict(lr=0.01),
     [([0], {'centered': True}), ([1], {'momentum': 0.9}),
      ([2], {'momentum': 0.5, 'centered': True, 'weight_decay': 0.1})]),
    ('RMSprop', dict(lr=0.01, maximize=True, alpha=0.9), [([0, 1, 2], {})]),
    ('Rprop', dict(lr=0.01), [([0, 1], {'etas': (0.3, 1.5)}), ([2], {'step_sizes': (1e-3, 0.02)})]),
    ('Rprop', dict(lr=0.01, maximize=True), [([0, 1, 2], {})]),
    ('ASGD', dict(lr=0.01, t0=5), [([0, 1], {'lambd': 0.01, 'alpha': 0.5}),
                                   ([2], {'weight_decay': 0.1})]),
    ('ASGD', dict(lr=0.01, maximize=True), [([0, 1, 2], {})]),
]


class Run(object):
    """The same problem in torch and in Gnn: parameters, random gradients."""

    def __init__(self, name, kw, groups, dtype, seed=0):
        rng = np.random.default_rng(seed)
        self.init = [np.array(rng.standard_normal(s), dtype=dtype) for s in SHAPES]
        self.grads = [[np.array(rng.standard_normal(s), dtype=dtype) for s in SHAPES]
                      for _ in range(2 * STEPS)]
        self.name, self.kw, self.groups = name, kw, groups
        self.tp = [torch.nn.Parameter(torch.from_numpy(a.copy())) for a in self.init]
        self.gp = [Gnn.nn.Parameter(Gnn.Tensor.from_numpy(a.copy())) for a in self.init]
        self.topt = self.make_torch(self.tp)
        self.gopt = self.make_gnn(self.gp)

    def make_torch(self, params):
        extra = {} if self.name == 'LBFGS' else {'foreach': False}
        return getattr(torch.optim, self.name)(
            [dict(o, params=[params[i] for i in idx]) for idx, o in self.groups],
            **self.kw, **extra)

    def make_gnn(self, params):
        return getattr(Gnn.optim, self.name)(
            [dict(o, params=[params[i] for i in idx]) for idx, o in self.groups], **self.kw)

    def step(self, k, which='both'):
        """Step k: parameter 1 has no gradient on every third step."""
        for i, (t, g) in enumerate(zip(self.tp, self.gp)):
            grad = self.grads[k][i]
            skip = i == 1 and k % 3 == 2
            if which != 'gnn':
                t.grad = None if skip else torch.from_numpy(grad.copy())
            if which != 'torch':
                g.grad = None if skip else Gnn.Tensor.from_numpy(grad.copy())
        if which != 'gnn':
            self.topt.step()
        if which != 'torch':
            self.gopt.step()

    def check(self, what):
        for i, (t, g) in enumerate(zip(self.tp, self.gp)):
            close(g.numpy(), t.detach().numpy(), '%s: parameter %d' % (what, i))


class Trajectories(unittest.TestCase):
    def run_case(self, name, kw, groups, dtype):
        run = Run(name, kw, groups, dtype)
        for k in range(STEPS):
            run.step(k)
            run.check('%s %r %s step %d' % (name, kw, np.dtype(dtype).name, k + 1))
        # the state, entry for entry, in torch's layout
        tsd, gsd = run.topt.state_dict(), run.gopt.state_dict()
        # (torch keeps SGD's momentum_buffer=None without momentum; Gnn nothing)
        kept = {i: e for i, e in tsd['state'].items() if any(v is not None for v in e.values())}
        self.assertEqual(sorted(kept), sorted(gsd['state']))
        for index, entries in kept.items():
            names = [n for n, v in entries.items() if v is not None]
            self.assertEqual(sorted(names), sorted(gsd['state'][index]), name)
            for n in names:
                close(np.array(to_gnn(entries[n]).numpy() if isinstance(entries[n], torch.Tensor)
                               else entries[n]),
                      np.array(gsd['state'][index][n].numpy()
                               if isinstance(gsd['state'][index][n], Gnn.Tensor)
                               else gsd['state'][index][n]), '%s state %s' % (name, n))

    def test_float32(self):
        for name, kw, groups in CASES:
            with self.subTest(name=name, kw=kw):
                self.run_case(name, kw, groups, np.float32)

    def test_float64(self):
        for name, kw, groups in CASES:
            with self.subTest(name=name, kw=kw):
                self.run_case(name, kw, groups, np.float64)


def rosenbrock(x):
    return ((1 - x[:-1]) ** 2).sum() + (100 * (x[1:] - x[:-1] ** 2) ** 2).sum()


class LBFGSClosure(unittest.TestCase):
    """LBFGS on the Rosenbrock function: the closure computes the loss and
    gradient with torch's autograd for both sides (the same numbers)."""

    def run_lbfgs(self, dtype, kw, steps=5, closure_failure_at=None):
        start = np.array(np.random.default_rng(0).standard_normal(6) * 0.5, dtype=dtype)
        tp = torch.nn.Parameter(torch.from_numpy(start.copy()))
        gp = Gnn.nn.Parameter(Gnn.Tensor.from_numpy(start.copy()))
        topt = torch.optim.LBFGS([tp], **kw)
        gopt = Gnn.optim.LBFGS([gp], **kw)

        def tclosure():
            topt.zero_grad()
            loss = rosenbrock(tp)
            loss.backward()
            return loss

        def gclosure():
            x = torch.from_numpy(np.array(gp.numpy())).requires_grad_()
            loss = rosenbrock(x)
            loss.backward()
            gp.grad = Gnn.Tensor.from_numpy(x.grad.numpy().copy())
            return loss.item()
        for s in range(steps):
            self.assertEqual(gopt.step(gclosure), topt.step(tclosure).item())
            close(gp.numpy(), tp.detach().numpy(), 'LBFGS %r step %d' % (kw, s + 1))
        tstate, gstate = topt.state[tp], gopt.state_dict()['state'][0]
        self.assertEqual((gstate['func_evals'], gstate['n_iter']),
                         (tstate['func_evals'], tstate['n_iter']))
        self.assertEqual(len(gstate['old_dirs']), len(tstate['old_dirs']))
        return tp, gp, topt, gopt, tclosure, gclosure

    def test_fixed_steps_and_strong_wolfe(self):
        for dtype in (np.float32, np.float64):
            for kw in (dict(lr=0.1), dict(lr=0.05, history_size=3, max_iter=7),
                       dict(line_search_fn='strong_wolfe'),
                       dict(line_search_fn='strong_wolfe', history_size=2, tolerance_grad=1e-5)):
                with self.subTest(dtype=np.dtype(dtype).name, kw=kw):
                    self.run_lbfgs(dtype, kw)

    def test_resume_from_torch_state(self):
        tp, gp, topt, gopt, tclosure, gclosure = self.run_lbfgs(
            np.float64, dict(line_search_fn='strong_wolfe'), steps=2)
        fresh = Gnn.optim.LBFGS([gp], line_search_fn='strong_wolfe')
        fresh.load_state_dict(to_gnn(topt.state_dict()))
        for s in range(3):
            topt.step(tclosure)
            fresh.step(gclosure)
            close(gp.numpy(), tp.detach().numpy(), 'resumed LBFGS step %d' % (s + 1))

    def test_closure_failure_changes_nothing(self):
        tp, gp, topt, gopt, tclosure, gclosure = self.run_lbfgs(
            np.float64, dict(line_search_fn='strong_wolfe'), steps=1)
        before_params = np.array(gp.numpy())
        before_state = {k: (np.array(v.numpy()) if isinstance(v, Gnn.Tensor) else v)
                        for k, v in gopt.state_dict()['state'][0].items()
                        if not isinstance(v, list)}
        calls = []

        def failing():
            calls.append(1)
            if len(calls) == 3:        # inside the line search, parameters moved
                raise ZeroDivisionError('the closure failed')
            return gclosure()
        with self.assertRaises(ZeroDivisionError):
            gopt.step(failing)
        np.testing.assert_array_equal(gp.numpy(), before_params)
        after = gopt.state_dict()['state'][0]
        for k, v in before_state.items():
            np.testing.assert_array_equal(np.array(after[k].numpy()) if isinstance(after[k], Gnn.Tensor)
                                          else after[k], v, k)
        # and it goes on as torch does
        topt.step(tclosure)
        gopt.step(gclosure)
        close(gp.numpy(), tp.detach().numpy(), 'after the failure')

    def test_needs_a_closure(self):
        opt = Gnn.optim.LBFGS([Gnn.nn.Parameter(Gnn.ones(2))])
        with self.assertRaises(GLib.Error) as cm:
            opt.step()
        self.assertIn("missing 1 required positional argument: 'closure'", cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            opt.add_param_group({'params': [Gnn.nn.Parameter(Gnn.ones(2))]})
        self.assertEqual(cm.exception.message,
                         "LBFGS doesn't support per-parameter options (parameter groups)")


class StateDicts(unittest.TestCase):
    def test_gnn_resume_is_identical(self):
        for name, kw, groups in CASES:
            with self.subTest(name=name, kw=kw):
                straight = Run(name, kw, groups, np.float32)
                resumed = Run(name, kw, groups, np.float32)
                for k in range(STEPS // 2):
                    straight.step(k, 'gnn')
                    resumed.step(k, 'gnn')
                saved = resumed.gopt.state_dict()
                # a fresh optimizer (other defaults) over the same parameters
                resumed.gopt = getattr(Gnn.optim, name)(
                    [dict(params=[resumed.gp[i] for i in idx]) for idx, _ in groups], lr=1.0)
                resumed.gopt.load_state_dict(saved)
                for k in range(STEPS // 2, STEPS):
                    straight.step(k, 'gnn')
                    resumed.step(k, 'gnn')
                for a, b in zip(straight.gp, resumed.gp):
                    np.testing.assert_array_equal(a.numpy(), b.numpy())

    def test_torch_state_loads_into_gnn_and_back(self):
        for name, kw, groups in CASES:
            with self.subTest(name=name, kw=kw):
                run = Run(name, kw, groups, np.float64)
                for k in range(STEPS // 2):
                    run.step(k, 'torch')
                for g, t in zip(run.gp, run.tp):
                    g.copy_(Gnn.Tensor.from_numpy(t.detach().numpy().copy()))
                run.gopt = run.make_gnn(run.gp)
                run.gopt.load_state_dict(to_gnn(run.topt.state_dict()))
                for k in range(STEPS // 2, STEPS - 3):
                    run.step(k)
                    run.check('%s loaded from torch, step %d' % (name, k + 1))
                # and Gnn's state dict loads into a fresh torch optimizer
                run.topt = run.make_torch(run.tp)
                run.topt.load_state_dict(to_torch(run.gopt.state_dict()))
                for k in range(STEPS - 3, STEPS):
                    run.step(k)
                    run.check('%s loaded into torch, step %d' % (name, k + 1))

    def test_layout(self):
        run = Run('Adam', dict(lr=0.01), [([0], {}), ([1, 2], {'betas': (0.8, 0.9)})], np.float32)
        run.step(0)
        tsd, gsd = run.topt.state_dict(), run.gopt.state_dict()
        drop = ('foreach', 'capturable', 'differentiable', 'fused')
        self.assertEqual([{k: v for k, v in g.items() if k not in drop}
                          for g in tsd['param_groups']], gsd['param_groups'])
        self.assertEqual(list(gsd['state'][0]), ['step', 'exp_avg', 'exp_avg_sq'])
        self.assertEqual(gsd['state'][0]['step'].item(), 1.0)
        # torch's Python ints stay ints
        rms = Run('RMSprop', dict(lr=0.01), [([0, 1, 2], {})], np.float32)
        rms.step(0)
        self.assertIs(type(rms.gopt.state_dict()['state'][0]['step']), int)

    def test_load_checks_and_is_atomic(self):
        run = Run('SGD', dict(lr=0.1, momentum=0.9), [([0], {}), ([1, 2], {'lr': 0.5})],
                  np.float64)
        run.step(0, 'gnn')
        before = run.gopt.state_dict()
        one_group = Run('SGD', dict(lr=0.1, momentum=0.9), [([0, 1, 2], {})], np.float64)
        one_group.step(0, 'gnn')
        with self.assertRaises(GLib.Error) as cm:
            run.gopt.load_state_dict(one_group.gopt.state_dict())
        self.assertIn('loaded state dict has a different number of parameter groups',
                      cm.exception.message)
        bad = run.gopt.state_dict()
        bad['param_groups'][1]['params'] = [1]
        with self.assertRaises(GLib.Error) as cm:
            run.gopt.load_state_dict(bad)
        self.assertIn("loaded state dict contains a parameter group that doesn't match the size "
                      "of optimizer's group", cm.exception.message)
        bad = run.gopt.state_dict()
        bad['param_groups'][0]['lr'] = 99.0
        bad['state'][0]['momentum_buffer'] = Gnn.zeros(7, dtype=Gnn.float64)
        with self.assertRaises(GLib.Error):
            run.gopt.load_state_dict(bad)
        after = run.gopt.state_dict()
        self.assertEqual(after['param_groups'], before['param_groups'])
        np.testing.assert_array_equal(after['state'][0]['momentum_buffer'].numpy(),
                                      before['state'][0]['momentum_buffer'].numpy())

    def test_checkpoint_file(self):
        import os
        import tempfile
        run = Run('Adagrad', dict(lr=0.1), [([0], {}), ([1, 2], {'lr': 0.05})], np.float32)
        run.step(0, 'gnn')
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'ckpt.safetensors')
            Gnn.save({'optimizer': run.gopt.state_dict()}, path)
            loaded = Gnn.load(path)['optimizer']
        self.assertEqual(loaded['param_groups'], run.gopt.state_dict()['param_groups'])
        fresh = run.make_gnn(run.gp)
        fresh.load_state_dict(loaded)
        np.testing.assert_array_equal(fresh.state_dict()['state'][1]['sum'].numpy(),
                                      run.gopt.state_dict()['state'][1]['sum'].numpy())


class ParamGroups(unittest.TestCase):
    def test_read_and_write_from_python(self):
        m = Gnn.nn.Linear(3, 2)
        opt = Gnn.optim.SGD([{'params': [m.weight]}, {'params': m.bias, 'lr': 1e-3}], lr=1e-2,
                            momentum=0.9)
        self.assertEqual([g['lr'] for g in opt.param_groups], [1e-2, 1e-3])
        for g in opt.param_groups:
            g['lr'] = 0.5
        self.assertEqual([opt.get_group_lr(i) for i in range(2)], [0.5, 0.5])
        self.assertEqual(list(opt.param_groups[0]),
                         ['params', 'lr', 'momentum', 'dampening', 'weight_decay', 'nesterov',
                          'maximize'])
        opt.param_groups[1]['name'] = 'bias'     # torch allows any key
        self.assertEqual(opt.param_groups[1]['name'], 'bias')
        self.assertEqual(opt.defaults['lr'], 1e-2)
        adam = Gnn.optim.Adam(m.parameters(), lr=1e-3)
        adam.param_groups[0]['betas'] = (0.5, 0.6)
        self.assertEqual(adam.param_groups[0]['betas'], (0.5, 0.6))
        with self.assertRaises(KeyError):
            adam.param_groups[0]['momentum']

    def test_add_param_group(self):
        a, b = Gnn.nn.Parameter(Gnn.ones(2)), Gnn.nn.Parameter(Gnn.ones(3))
        opt = Gnn.optim.Adam([a], lr=0.1, weight_decay=0.01)
        opt.add_param_group({'params': [b], 'lr': 0.2})
        self.assertEqual([(g['lr'], g['weight_decay']) for g in opt.param_groups],
                         [(0.1, 0.01), (0.2, 0.01)])
        with self.assertRaises(GLib.Error) as cm:
            opt.add_param_group({'params': [a]})
        self.assertEqual(cm.exception.message,
                         'some parameters appear in more than one parameter group')
        torch_opt = torch.optim.Adam([torch.nn.Parameter(torch.ones(2))], lr=0.1)
        with self.assertRaises(ValueError) as tcm:
            torch_opt.add_param_group({'params': torch_opt.param_groups[0]['params']})
        self.assertEqual(str(tcm.exception), cm.exception.message)
        self.assertEqual(len(opt.param_groups), 2)


class BadInput(unittest.TestCase):
    def expect(self, name, kw, what):
        p = [Gnn.nn.Parameter(Gnn.ones(2))]
        tp = [torch.nn.Parameter(torch.ones(2))]
        with self.assertRaises(ValueError) as tcm:
            getattr(torch.optim, name)(tp, **kw)
        with self.assertRaises(GLib.Error) as cm:
            getattr(Gnn.optim, name)(p, **kw)
        self.assertEqual(cm.exception.message, str(tcm.exception), what)

    def test_torch_messages(self):
        for name, kw in [('SGD', dict(lr=-0.1)), ('SGD', dict(lr=0.1, momentum=-1.0)),
                         ('SGD', dict(lr=0.1, nesterov=True)),
                         ('Adam', dict(lr=-1.0)), ('Adam', dict(betas=(1.0, 0.9))),
                         ('Adam', dict(betas=(0.9, -0.5))), ('AdamW', dict(eps=-1e-8)),
                         ('Adam', dict(weight_decay=-0.25)), ('Adadelta', dict(rho=1.5)),
                         ('Adagrad', dict(lr_decay=-1.0)),
                         ('Adagrad', dict(initial_accumulator_value=-0.5)),
                         ('Adamax', dict(betas=(0.9, 1.0))), ('NAdam', dict(momentum_decay=-0.1)),
                         ('RAdam', dict(eps=-1.0)), ('RMSprop', dict(alpha=-0.5)),
                         ('RMSprop', dict(momentum=-0.5)), ('Rprop', dict(etas=(1.5, 2.0))),
                         ('ASGD', dict(weight_decay=-1.0))]:
            with self.subTest(name=name, kw=kw):
                self.expect(name, kw, '%s %r' % (name, kw))

    def test_empty_and_wrong_params(self):
        with self.assertRaises(ValueError) as cm:
            Gnn.optim.SGD([], lr=0.1)
        self.assertEqual(str(cm.exception), 'optimizer got an empty parameter list')
        with self.assertRaises(TypeError):
            Gnn.optim.SGD(Gnn.ones(2), lr=0.1)

    def test_failed_step_changes_nothing(self):
        p = Gnn.nn.Parameter(Gnn.ones(3))
        opt = Gnn.optim.Adam([p], lr=0.1)
        p.grad = Gnn.ones(4)
        with self.assertRaises(GLib.Error) as cm:
            opt.step()
        self.assertIn('has shape [3] but its gradient has shape [4]', cm.exception.message)
        np.testing.assert_array_equal(p.numpy(), np.ones(3, dtype=np.float32))
        self.assertEqual(opt.state, {})

    def test_closure_exception_propagates(self):
        p = Gnn.nn.Parameter(Gnn.ones(3))
        opt = Gnn.optim.SGD([p], lr=0.1)

        def closure():
            raise KeyError('no data')
        with self.assertRaises(KeyError):
            opt.step(closure)
        np.testing.assert_array_equal(p.numpy(), np.ones(3, dtype=np.float32))


if __name__ == '__main__':
    unittest.main()
