# LR schedulers against PyTorch 1.13: every scheduler drives an optimizer
# with two parameter groups (different rates) for 40 steps and sets the
# same rates — and momenta, where it cycles them — as torch's, to the bit,
# chainable forms, closed forms (step(epoch)) and composites included; state
# dicts resume mid-run; bad settings fail with torch's messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest
import warnings

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

N = 40
T = torch.optim.lr_scheduler
G = Gnn.optim.lr_scheduler


def optimizers(kind='SGD', lrs=(0.1, 0.01)):
    tgroups = [{'params': [torch.nn.Parameter(torch.zeros(2))], 'lr': lr} for lr in lrs]
    ggroups = [{'params': [Gnn.nn.Parameter(Gnn.zeros(2))], 'lr': lr} for lr in lrs]
    kw = {'momentum': 0.9} if kind == 'SGD' else {}
    return getattr(torch.optim, kind)(tgroups, lr=0.5, **kw), \
        getattr(Gnn.optim, kind)(ggroups, lr=0.5, **kw)


def momenta(opt):
    return [g['momentum'] if 'momentum' in g else g['betas'][0] for g in opt.param_groups]


# name -> (optimizer kind, torch scheduler factory, Gnn scheduler factory)
CASES = {
    'StepLR': ('SGD', lambda o, S: S.StepLR(o, 3, gamma=0.5)),
    'MultiStepLR': ('SGD', lambda o, S: S.MultiStepLR(o, [2, 5, 5, 9], gamma=0.3)),
    'ExponentialLR': ('SGD', lambda o, S: S.ExponentialLR(o, 0.9)),
    'CosineAnnealingLR': ('SGD', lambda o, S: S.CosineAnnealingLR(o, 7, eta_min=0.001)),
    'CosineAnnealingWarmRestarts': ('SGD', lambda o, S: S.CosineAnnealingWarmRestarts(
        o, 3, T_mult=2, eta_min=0.001)),
    'LinearLR': ('SGD', lambda o, S: S.LinearLR(o, 0.2, 0.9, 7)),
    'ConstantLR': ('SGD', lambda o, S: S.ConstantLR(o, 0.3, 4)),
    'PolynomialLR': ('SGD', lambda o, S: S.PolynomialLR(o, 8, 2.0)),
    'OneCycleLR': ('Adam', lambda o, S: S.OneCycleLR(o, [0.5, 0.2], total_steps=N + 5)),
    'OneCycleLR three phases, linear': ('SGD', lambda o, S: S.OneCycleLR(
        o, 0.5, epochs=5, steps_per_epoch=9, three_phase=True, anneal_strategy='linear')),
    'CyclicLR triangular2': ('SGD', lambda o, S: S.CyclicLR(
        o, 0.01, [0.1, 0.2], step_size_up=4, step_size_down=3, mode='triangular2')),
    'CyclicLR exp_range': ('SGD', lambda o, S: S.CyclicLR(
        o, 0.01, 0.1, step_size_up=5, mode='exp_range', gamma=0.97)),
    'LambdaLR': ('SGD', lambda o, S: S.LambdaLR(o, [lambda e: 0.9 ** e, lambda e: 1 / (e + 1)])),
    'MultiplicativeLR': ('SGD', lambda o, S: S.MultiplicativeLR(o, lambda e: 0.95)),
    'SequentialLR': ('SGD', lambda o, S: S.SequentialLR(
        o, [S.ConstantLR(o, 0.1, 2), S.ExponentialLR(o, 0.9), S.StepLR(o, 2, 0.5)], [3, 8])),
    'SequentialLR with restarts': ('SGD', lambda o, S: S.SequentialLR(
        o, [S.LinearLR(o, 0.1, 1.0, 4), S.CosineAnnealingWarmRestarts(o, 5)], [4])),
    'ChainedScheduler': ('SGD', lambda o, S: S.ChainedScheduler(
        [S.ConstantLR(o, 0.1, 3), S.ExponentialLR(o, 0.9)])),
}


def run(kind, make, steps=N, metrics=None, epochs=None):
    """The rates (and momenta) both see before each step."""
    topt, gopt = optimizers(kind)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        tsched, gsched = make(topt, T), make(gopt, G)
        seen = []
        for i in range(steps):
            seen.append(([g['lr'] for g in topt.param_groups], [g['lr'] for g in gopt.param_groups],
                         momenta(topt), momenta(gopt)))
            if metrics is not None:
                tsched.step(metrics[i])
                gsched.step(metrics[i])
            elif epochs is not None:
                tsched.step(epochs[i])
                gsched.step(epochs[i])
            else:
                tsched.step()
                gsched.step()
    return seen, tsched, gsched, topt, gopt


class Sequences(unittest.TestCase):
    def check(self, seen, what):
        for i, (tl, gl, tm, gm) in enumerate(seen):
            self.assertEqual(gl, tl, '%s: rates at step %d' % (what, i))
            self.assertEqual(gm, tm, '%s: momenta at step %d' % (what, i))

    def test_every_scheduler(self):
        for name, (kind, make) in CASES.items():
            with self.subTest(name):
                seen, tsched, gsched, _, _ = run(kind, make)
                self.check(seen, name)
                if hasattr(tsched, 'get_last_lr'):
                    self.assertEqual(gsched.get_last_lr(), tsched.get_last_lr())
                if hasattr(tsched, 'last_epoch') and name != 'ChainedScheduler':
                    self.assertEqual(gsched.last_epoch, tsched.last_epoch)

    def test_reduce_on_plateau(self):
        metrics = [5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 2.9999, 2.5, 2.5, 2.5, 2.5] * 3
        for kw in (dict(patience=2, cooldown=1, factor=0.5, min_lr=[0.02, 0.001]),
                   dict(mode='max', threshold_mode='abs', threshold=0.1, patience=0),
                   dict(patience=1, eps=0.05)):
            with self.subTest(kw=kw):
                seen, tsched, gsched, _, _ = run(
                    'SGD', lambda o, S: S.ReduceLROnPlateau(o, **kw), len(metrics),
                    metrics=[-m if kw.get('mode') == 'max' else m for m in metrics])
                self.check(seen, 'ReduceLROnPlateau %r' % kw)
                self.assertEqual(gsched.last_epoch, tsched.last_epoch)

    def test_closed_forms(self):
        """step(epoch): torch's deprecated closed form, and the restarts'
        fractional epochs."""
        epochs = [0, 3, 1, 7, 7, 12, 2, 30, 5, 6]
        for name in ('StepLR', 'MultiStepLR', 'ExponentialLR', 'CosineAnnealingLR', 'LinearLR',
                     'ConstantLR', 'PolynomialLR', 'CosineAnnealingWarmRestarts'):
            with self.subTest(name):
                kind, make = CASES[name]
                self.check(run(kind, make, len(epochs), epochs=epochs)[0], name)
        fractional = [i / 4 for i in range(40)]
        self.check(run(*CASES['CosineAnnealingWarmRestarts'], len(fractional),
                       epochs=fractional)[0], 'fractional epochs')

    def test_scheduler_after_scheduler(self):
        """The second shares the first's initial_lr, as in torch."""
        def make(o, S):
            first = S.StepLR(o, 1, 0.5)
            first.step()
            first.step()
            return S.CosineAnnealingLR(o, 10)
        self.check(run('SGD', make, 15)[0], 'second scheduler')

    def test_resume_with_last_epoch(self):
        topt, gopt = optimizers()
        T.StepLR(topt, 2, 0.5)
        G.StepLR(gopt, 2, 0.5)
        for o in (topt, gopt):
            for g in o.param_groups:
                g['lr'] = 0.3
        tsched, gsched = T.StepLR(topt, 2, 0.5, last_epoch=5), G.StepLR(gopt, 2, 0.5, last_epoch=5)
        for _ in range(6):
            self.assertEqual(gsched.get_last_lr(), tsched.get_last_lr())
            tsched.step()
            gsched.step()
        fresh = Gnn.optim.SGD([Gnn.nn.Parameter(Gnn.ones(1))], lr=0.1)
        with self.assertRaises(GLib.Error) as cm:
            G.StepLR(fresh, 2, last_epoch=3)
        self.assertEqual(cm.exception.message,
                         "param 'initial_lr' is not specified in param_groups[0] when resuming "
                         "an optimizer")


class StateDicts(unittest.TestCase):
    def test_mid_run_resume(self):
        for name, (kind, make) in CASES.items():
            if name.startswith('Lambda') or name.startswith('Multiplicative'):
                continue   # their functions are no state
            with self.subTest(name):
                topt, straight_opt = optimizers(kind)
                _, resumed_opt = optimizers(kind)
                straight = make(straight_opt, G)
                resumed = make(resumed_opt, G)
                for _ in range(N // 2):
                    straight.step()
                    resumed.step()
                osd, ssd = resumed_opt.state_dict(), resumed.state_dict()
                _, fresh_opt = optimizers(kind, lrs=(0.7, 0.07))
                fresh = make(fresh_opt, G)
                fresh_opt.load_state_dict(osd)
                fresh.load_state_dict(ssd)
                for _ in range(N // 2, N):
                    straight.step()
                    fresh.step()
                    self.assertEqual([g['lr'] for g in fresh_opt.param_groups],
                                     [g['lr'] for g in straight_opt.param_groups], name)

    def test_plateau_resume(self):
        _, a_opt = optimizers()
        _, b_opt = optimizers()
        a = G.ReduceLROnPlateau(a_opt, patience=1)
        for m in (3, 3, 3, 2):
            a.step(m)
        b = G.ReduceLROnPlateau(b_opt, patience=1)
        b_opt.load_state_dict(a_opt.state_dict())
        b.load_state_dict(a.state_dict())
        for m in (2, 2, 2, 2):
            a.step(m)
            b.step(m)
            self.assertEqual(b.get_last_lr(), a.get_last_lr())

    def test_load_checks(self):
        _, opt = optimizers()
        s = G.StepLR(opt, 2, 0.5)
        sd = s.state_dict()
        sd.set_metadata('warmup', '3')
        with self.assertRaises(GLib.Error) as cm:
            s.load_state_dict(sd)
        self.assertEqual(cm.exception.message, "unexpected key in state dict: 'warmup'")
        self.assertEqual(s.last_epoch, 0)


class BadSettings(unittest.TestCase):
    def expect(self, make):
        topt, gopt = optimizers()
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            with self.assertRaises(ValueError) as tcm:
                make(topt, T)
            with self.assertRaises((GLib.Error, ValueError)) as cm:
                make(gopt, G)
        self.assertEqual(getattr(cm.exception, 'message', str(cm.exception)), str(tcm.exception))
        # the groups' rates are as they were
        self.assertEqual([g['lr'] for g in gopt.param_groups], [0.1, 0.01])

    def test_torch_messages(self):
        for make in (lambda o, S: S.ConstantLR(o, factor=1.5),
                     lambda o, S: S.LinearLR(o, start_factor=-0.1),
                     lambda o, S: S.LinearLR(o, end_factor=2.0),
                     lambda o, S: S.CosineAnnealingWarmRestarts(o, T_0=0),
                     lambda o, S: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
                     lambda o, S: S.OneCycleLR(o, 0.1),
                     lambda o, S: S.OneCycleLR(o, 0.1, total_steps=-3),
                     lambda o, S: S.OneCycleLR(o, 0.1, total_steps=10, pct_start=1.5),
                     lambda o, S: S.OneCycleLR(o, 0.1, total_steps=10, anneal_strategy='exp'),
                     lambda o, S: S.OneCycleLR(o, [0.1, 0.2, 0.3], total_steps=10),
                     lambda o, S: S.CyclicLR(o, 0.01, 0.1, mode='sawtooth'),
                     lambda o, S: S.ReduceLROnPlateau(o, factor=1.0),
                     lambda o, S: S.ReduceLROnPlateau(o, mode='median'),
                     lambda o, S: S.ReduceLROnPlateau(o, threshold_mode='log'),
                     lambda o, S: S.ReduceLROnPlateau(o, min_lr=[0.1, 0.2, 0.3]),
                     lambda o, S: S.LambdaLR(o, [lambda e: 1.0]),
                     lambda o, S: S.SequentialLR(o, [S.ExponentialLR(o, 0.9)], [3])):
            with self.subTest(make=make):
                self.expect(make)

    def test_one_cycle_past_the_end(self):
        topt, gopt = optimizers('Adam')
        t, g = T.OneCycleLR(topt, 0.1, total_steps=3), G.OneCycleLR(gopt, 0.1, total_steps=3)
        for _ in range(3):
            t.step()
            g.step()
        before = [x['lr'] for x in gopt.param_groups]
        with self.assertRaises(ValueError) as tcm:
            t.step()
        with self.assertRaises(GLib.Error) as cm:
            g.step()
        self.assertEqual(cm.exception.message, str(tcm.exception))
        self.assertEqual([x['lr'] for x in gopt.param_groups], before)
        self.assertEqual(g.last_epoch, 3)

    def test_lambda_raising(self):
        _, gopt = optimizers()
        calls = []

        def factor(epoch):
            calls.append(epoch)
            if epoch == 2:
                raise OverflowError('too far')
            return 0.5
        sched = G.LambdaLR(gopt, factor)
        sched.step()
        before = [x['lr'] for x in gopt.param_groups]
        with self.assertRaises(OverflowError):
            sched.step()
        self.assertEqual([x['lr'] for x in gopt.param_groups], before)
        self.assertEqual(sched.last_epoch, 1)


if __name__ == '__main__':
    unittest.main()
