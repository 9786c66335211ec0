# _functional_composed.py: torch.nn.functional activations and losses that
# Gnn composes from its differentiable ops (where, exp, log, abs, sum,
# mean, sigmoid, tanh) — leaky_relu, silu, elu, softplus, gelu's tanh
# approximation, normalize, l1_loss, smooth_l1_loss, binary_cross_entropy —
# and their nn modules (Python Gnn.Module subclasses with torch's
# constructors, extra_repr and a GObject property for each setting, so
# GObject.new(Gnn.LeakyReLU, negative_slope=0.2) builds one too).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math

from gi.repository import GLib, GObject

from ._gi import EXPORTS, Gnn, export
from ._creation import full_like
from ._module import Module


def _where(condition, a, b):
    return Gnn.Tensor.where(condition, a, b)


def _written_back(input, out, inplace):
    """inplace=True: the result written into `input`, as torch's. When
    autograd needs the old values of `input` (an op saved it), copy_ refuses
    and the result comes back as a new tensor: correct gradients rather
    than a failed or silently wrong in-place write."""
    if not inplace:
        return out
    try:
        return input.copy_(out)
    except GLib.Error as error:
        if error.matches(Gnn.Error.quark(), Gnn.Error.AUTOGRAD):
            return out
        raise


def _reduce(loss, reduction):
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    if reduction == 'none':
        return loss
    raise ValueError('%s is not a valid value for reduction' % reduction)


def l1_loss(input, target, reduction='mean'):
    return _reduce((input - target).abs(), reduction)


def smooth_l1_loss(input, target, reduction='mean', beta=1.0):
    diff = (input - target).abs()
    if beta == 0:
        return _reduce(diff, reduction)
    loss = _where(diff < float(beta), diff * diff * (0.5 / float(beta)), diff - 0.5 * float(beta))
    return _reduce(loss, reduction)


def binary_cross_entropy(input, target, weight=None, reduction='mean'):
    """torch's: -(t·log p + (1 - t)·log(1 - p)), each log clamped at -100,
    with torch's gradient (p - t) / max(p(1 - p), 1e-12) — finite at p = 0
    and 1, where the clamped logs have none. The value is computed detached
    and the gradient attached by p·c - (p·c).detach(), which is exactly 0."""
    if list(input.shape) != list(target.shape):
        raise ValueError('Using a target size ({}) that is different to the input size ({}) is '
                         'deprecated. Please ensure they have the same size.'
                         .format(target.shape, input.shape))
    p, t = input.detach(), target.detach()
    loss = -(t * p.log().clamp(min=-100.0) + (1.0 - t) * (1.0 - p).log().clamp(min=-100.0))
    coef = (p - t) / (p * (1.0 - p)).clamp(min=1e-12)
    if weight is not None:
        loss, coef = loss * weight, coef * weight
    if input.requires_grad:
        attached = input * coef
        loss = loss + (attached - attached.detach())
    return _reduce(loss, reduction)


# --- the modules ----------------------------------------------------------------

class _Loss(Module):
    __gtype_name__ = 'GnnPyLoss'
    reduction = GObject.Property(type=str, default='mean')

    def __init__(self, reduction='mean', **properties):
        super().__init__(reduction=reduction, **properties)


class L1Loss(_Loss):
    __gtype_name__ = 'GnnL1Loss'

    def forward(self, input, target):
        return l1_loss(input, target, self.reduction)


class SmoothL1Loss(_Loss):
    __gtype_name__ = 'GnnSmoothL1Loss'
    beta = GObject.Property(type=float, default=1.0)

    def __init__(self, reduction='mean', beta=1.0):
        super().__init__(reduction, beta=float(beta))

    def forward(self, input, target):
        return smooth_l1_loss(input, target, self.reduction, self.beta)


class BCELoss(_Loss):
    __gtype_name__ = 'GnnBCELoss'

    def __init__(self, weight=None, reduction='mean'):
        super().__init__(reduction)
        self.register_buffer('weight', weight)   # in state_dict() and .to(), as torch's

    def forward(self, input, target):
        # built from its properties alone (GObject.new), it has no weight buffer
        return binary_cross_entropy(input, target, getattr(self, 'weight', None), self.reduction)


functional = EXPORTS['functional']
for _f in (l1_loss, smooth_l1_loss, binary_cross_entropy):
    setattr(functional, _f.__name__, _f)
for _cls in (L1Loss, SmoothL1Loss, BCELoss):
    _cls.__module__ = 'gi.overrides.Gnn'
    export(_cls)
    setattr(EXPORTS['nn'], _cls.__name__, _cls)
