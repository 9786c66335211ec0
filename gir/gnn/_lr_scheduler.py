# _lr_scheduler.py: torch.optim.lr_scheduler's protocol over the C
# schedulers: get_last_lr() and base_lrs as lists, last_epoch, step(epoch),
# ReduceLROnPlateau.step(metrics), LambdaLR / MultiplicativeLR taking a
# function or one per group, and the Gnn.optim.lr_scheduler namespace.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from ._compat_torch_signatures import torch_class
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


SCHEDULERS = ('StepLR', 'MultiStepLR', 'ConstantLR', 'LinearLR', 'ExponentialLR', 'SequentialLR',
              'PolynomialLR', 'CosineAnnealingLR', 'ChainedScheduler', 'ReduceLROnPlateau',
              'CyclicLR', 'CosineAnnealingWarmRestarts', 'OneCycleLR')
lr_scheduler = types.ModuleType('Gnn.optim.lr_scheduler', "torch.optim.lr_scheduler's spellings.")
lr_scheduler.LRScheduler = lr_scheduler._LRScheduler = LRScheduler
for _name in SCHEDULERS:
    setattr(lr_scheduler, _name, torch_class(
        _name, extra={'step': _plateau_step} if _name == 'ReduceLROnPlateau' else None))
for _name in ('LambdaLR', 'MultiplicativeLR'):
    setattr(lr_scheduler, _name, torch_class(
        _name, factory=_lambda_factory(getattr(Gnn, _name).new),
        signature='optimizer, lr_lambda, last_epoch=-1, verbose=False'))
optim.lr_scheduler = lr_scheduler
