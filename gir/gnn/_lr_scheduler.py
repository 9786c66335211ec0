# _lr_scheduler.py: torch.optim.lr_scheduler's protocol over the C
# schedulers: get_last_lr() and base_lrs as lists, last_epoch, step(epoch),
# ReduceLROnPlateau.step(metrics), LambdaLR / MultiplicativeLR taking a
# function or one per group, and the Gnn.optim.lr_scheduler namespace.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from gi.repository import GLib

from ._signature import ignore, none_or, only, torch_class, torch_factory
from ._gi import OVERRIDE_MODULE, Gnn, call_c, override, trampoline
from ._optim import optim


class LRScheduler(Gnn.LRScheduler):
    """torch's scheduler protocol."""

    __module__ = OVERRIDE_MODULE

    def get_last_lr(self):
        return list(Gnn.LRScheduler.get_last_lrs(self))

    @property
    def base_lrs(self):
        return list(Gnn.LRScheduler.get_base_lrs(self))

    @property
    def last_epoch(self):
        return Gnn.LRScheduler.get_last_epoch(self)

    @property
    def optimizer(self):
        return Gnn.LRScheduler.get_optimizer(self)

    def step(self, epoch=None):
        """step(), or the deprecated step(epoch): the closed form."""
        if epoch is None:
            call_c(Gnn.LRScheduler.step, self)
        else:
            call_c(Gnn.LRScheduler.step_to_epoch, self, float(epoch))

    def load_state_dict(self, state_dict):
        call_c(Gnn.LRScheduler.load_state_dict, self, state_dict)


LRScheduler = override(LRScheduler)


def _lambda_factory(new):
    """LambdaLR(optimizer, lr_lambda, last_epoch=-1): lr_lambda a function
    of the epoch, or a list of them, one per group."""
    def make(optimizer, lr_lambda, last_epoch=-1, verbose=False):
        n = optimizer.get_n_param_groups()
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError('Expected %d lr_lambdas, but got %d' % (n, len(lr_lambda)))
            lambdas = list(lr_lambda)
        else:
            lambdas = [lr_lambda] * n

        def factor(epoch, group, user_data):
            return float(lambdas[group](epoch))     # the out argument
        return call_c(new, optimizer, trampoline(factor, 'lr_lambda'), None, last_epoch)
    return make


def _plateau_step(self, metrics, epoch=None):
    """torch's step(metrics): `metrics` a number or a one-element tensor."""
    call_c(Gnn.ReduceLROnPlateau.step_with_metric, self, float(metrics))


def doubles(name):
    """A number or one per parameter group, as the property's `ad` variant."""
    def convert(value):
        values = list(value) if isinstance(value, (list, tuple)) else [value]
        return {name: GLib.Variant('ad', [float(v) for v in values])}
    return convert


def int64s(name):
    def convert(value):
        return {name: GLib.Variant('ax', [int(v) for v in value])}
    return convert


def schedulers(value):
    from gi.repository import Gio
    store = Gio.ListStore(item_type=Gnn.LRScheduler)
    for scheduler in value:
        store.append(scheduler)
    return {'schedulers': store}


_SCHED = {'verbose': ignore}
_MOMENTA = {'base_momentum': doubles('base_momentum'), 'max_momentum': doubles('max_momentum')}
SIGNATURES = {
    'StepLR': ('optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False', {}),
    'MultiStepLR': ('optimizer, milestones, gamma=0.1, last_epoch=-1, verbose=False',
                    {'milestones': int64s('milestones')}),
    'ConstantLR': ('optimizer, factor=0.3333333333333333, total_iters=5, last_epoch=-1, '
                   'verbose=False', {}),
    'LinearLR': ('optimizer, start_factor=0.3333333333333333, end_factor=1.0, total_iters=5, '
                 'last_epoch=-1, verbose=False', {}),
    'ExponentialLR': ('optimizer, gamma, last_epoch=-1, verbose=False', {}),
    'SequentialLR': ('optimizer, schedulers, milestones, last_epoch=-1, verbose=False',
                     {'schedulers': schedulers, 'milestones': int64s('milestones')}),
    'PolynomialLR': ('optimizer, total_iters=5, power=1.0, last_epoch=-1, verbose=False', {}),
    'CosineAnnealingLR': ('optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False',
                          {'T_max': 't_max'}),
    'ChainedScheduler': ('schedulers', {'schedulers': schedulers}),
    'ReduceLROnPlateau': ("optimizer, mode='min', factor=0.1, patience=10, threshold=0.0001, "
                          "threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-08, verbose=False",
                          {'min_lr': doubles('min_lr')}),
    'CyclicLR': ("optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, "
                 "mode='triangular', gamma=1.0, scale_fn=None, scale_mode='cycle', "
                 "cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1, "
                 "verbose=False",
                 dict(_MOMENTA, base_lr=doubles('base_lr'), max_lr=doubles('max_lr'),
                      step_size_down=none_or('step_size_down'),
                      scale_fn=only(None, 'scale_fn'), scale_mode=ignore)),
    'CosineAnnealingWarmRestarts': ('optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1, '
                                    'verbose=False', {'T_0': 't_0', 'T_mult': 't_mult'}),
    'OneCycleLR': ("optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, "
                   "pct_start=0.3, anneal_strategy='cos', cycle_momentum=True, "
                   "base_momentum=0.85, max_momentum=0.95, div_factor=25.0, "
                   "final_div_factor=10000.0, three_phase=False, last_epoch=-1, verbose=False",
                   dict(_MOMENTA, max_lr=doubles('max_lr'), total_steps=none_or('total_steps'),
                        epochs=none_or('epochs'), steps_per_epoch=none_or('steps_per_epoch'))),
}
lr_scheduler = types.ModuleType('Gnn.optim.lr_scheduler', "torch.optim.lr_scheduler's spellings.")
lr_scheduler.LRScheduler = lr_scheduler._LRScheduler = LRScheduler
for _name, (_signature, _mapping) in SIGNATURES.items():
    setattr(lr_scheduler, _name, torch_class(
        _name, _signature, dict(_SCHED, **_mapping),
        extra={'step': _plateau_step} if _name == 'ReduceLROnPlateau' else None))
for _name in ('LambdaLR', 'MultiplicativeLR'):
    setattr(lr_scheduler, _name, torch_factory(
        _name, _lambda_factory(getattr(Gnn, _name).new),
        'optimizer, lr_lambda, last_epoch=-1, verbose=False'))
optim.lr_scheduler = lr_scheduler
