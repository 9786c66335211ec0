# _optim.py: torch.optim's spellings: Gnn.optim.SGD/Adam/AdamW(params, ...)
# (torch's signatures declared here), param_groups as a list of dicts whose
# 'lr' reads and writes the optimizer's learning rate, zero_grad(set_to_none=
# True), and Gnn.optim.lr_scheduler.StepLR / CosineAnnealingLR.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc as abc
import types

from ._signature import Post, betas, ignore, only, torch_class
from ._gi import OVERRIDE_MODULE, Gnn, call_c, export, override


def add_param_groups(optimizer, params):
    """torch's `params`: an iterable of tensors, or of one dict with
    'params' and options (Gnn optimizers have a single group)."""
    params = list(params)
    if params and isinstance(params[0], abc.Mapping):
        if len(params) != 1:
            raise ValueError('Gnn optimizers have a single parameter group, got %d'
                             % len(params))
        group = dict(params[0])
        tensors = group.pop('params')
        tensors = [tensors] if isinstance(tensors, Gnn.Tensor) else list(tensors)
        call_c(Gnn.Optimizer.add_params, optimizer, tensors)
        for key, value in group.items():
            ParamGroup(optimizer)[key] = value
        return
    if not params:
        raise ValueError('optimizer got an empty parameter list')
    call_c(Gnn.Optimizer.add_params, optimizer, params)


class ParamGroup(abc.MutableMapping):
    """optimizer.param_groups[0]: a live view of the optimizer's options
    ('params', 'lr', and its properties: 'momentum', 'betas', ...)."""

    def __init__(self, optimizer):
        self._opt = optimizer

    def _keys(self):
        names = [p.name.replace('-', '_') for p in self._opt.list_properties()]
        if 'beta1' in names:
            names = [n for n in names if n not in ('beta1', 'beta2')] + ['betas']
        return ['params'] + names

    def __getitem__(self, key):
        opt = self._opt
        if key == 'params':
            return [opt.get_param(i) for i in range(opt.get_n_params())]
        if key == 'lr':
            return opt.get_lr()
        if key == 'betas' and 'betas' in self._keys():
            return (opt.get_property('beta1'), opt.get_property('beta2'))
        if key not in self._keys():
            raise KeyError(key)
        return opt.get_property(key.replace('_', '-'))

    def __setitem__(self, key, value):
        opt = self._opt
        if key == 'lr':
            opt.set_lr(float(value))
        elif key == 'betas':
            opt.set_property('beta1', float(value[0]))
            opt.set_property('beta2', float(value[1]))
        elif key in self._keys() and key != 'params':
            opt.set_property(key.replace('_', '-'), value)
        elif key == 'initial_lr':
            pass      # schedulers keep the initial lr themselves
        else:
            raise KeyError('cannot set %r of a Gnn optimizer parameter group' % key)

    def __delitem__(self, key):
        raise KeyError('cannot delete %r of a Gnn optimizer parameter group' % key)

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._keys())

    def __repr__(self):
        return repr(dict(self))


class Optimizer(Gnn.Optimizer):
    """torch.optim.Optimizer's protocol: param_groups, zero_grad(), step()."""

    __module__ = OVERRIDE_MODULE

    @property
    def param_groups(self):
        return [ParamGroup(self)]

    def zero_grad(self, set_to_none=False):
        """torch 1.13's default: the gradients are zeroed (set_to_none=True,
        torch 2.x's default, drops them)."""
        Gnn.Optimizer.zero_grad(self, set_to_none)

    def step(self, closure=None):
        loss = closure() if closure is not None else None
        call_c(Gnn.Optimizer.step, self)
        return loss


Optimizer = override(Optimizer)


def _add_params(optimizer, params):
    add_param_groups(optimizer, params)


_PARAMS = Post(_add_params)
_ADAM = {'params': _PARAMS, 'betas': betas, 'foreach': ignore, 'capturable': ignore,
         'fused': ignore, 'differentiable': only(False, 'differentiable')}
SGD = torch_class('SGD', 'params, lr=0.001, momentum=0, dampening=0, weight_decay=0, '
                  'nesterov=False, *, maximize=False, foreach=None, differentiable=False',
                  {'params': _PARAMS, 'foreach': ignore,
                   'differentiable': only(False, 'differentiable')})
Adam = torch_class('Adam', 'params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, '
                   'amsgrad=False, *, foreach=None, maximize=False, capturable=False, '
                   'differentiable=False, fused=None', _ADAM)
AdamW = torch_class('AdamW', 'params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, '
                    'weight_decay=0.01, amsgrad=False, *, maximize=False, foreach=None, '
                    'capturable=False, differentiable=False, fused=None', _ADAM)


class LRScheduler(Gnn.LRScheduler):
    """torch's scheduler protocol: step(), get_last_lr() as a list."""

    __module__ = OVERRIDE_MODULE

    def get_last_lr(self):
        return [Gnn.LRScheduler.get_last_lr(self)]

    @property
    def last_epoch(self):
        return Gnn.LRScheduler.get_last_epoch(self)


LRScheduler = override(LRScheduler)


StepLR = torch_class('StepLR', 'optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False',
                     {'last_epoch': only(-1, 'last_epoch'), 'verbose': ignore})
CosineAnnealingLR = torch_class('CosineAnnealingLR',
                                'optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False',
                                {'T_max': 't_max', 'last_epoch': only(-1, 'last_epoch'),
                                 'verbose': ignore})

lr_scheduler = types.ModuleType('Gnn.optim.lr_scheduler')
lr_scheduler.StepLR = StepLR
lr_scheduler.CosineAnnealingLR = CosineAnnealingLR
lr_scheduler.LRScheduler = LRScheduler

optim = export(types.ModuleType('Gnn.optim', "torch.optim's spellings."), 'optim')
optim.Optimizer = Optimizer
optim.SGD = SGD
optim.Adam = Adam
optim.AdamW = AdamW
optim.lr_scheduler = lr_scheduler
