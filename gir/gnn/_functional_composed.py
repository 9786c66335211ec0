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


def _written_back(input, compute, inplace):
    """compute(input), written into `input` for inplace=True as torch's. In
    the graph the result is computed from a copy of `input`: the write then
    leaves the values autograd saved intact (torch's in-place kernels keep
    the original the same way). A leaf that requires grad is refused as in
    torch; a view of a tensor in the graph (which Gnn cannot write through
    yet) gets the result as a new tensor."""
    if not inplace:
        return compute(input)
    in_graph = input.requires_grad and Gnn.is_grad_enabled()
    out = compute(input.clone() if in_graph and not input.is_leaf else input)
    try:
        return input.copy_(out)
    except GLib.Error as error:
        if error.matches(Gnn.Error.quark(), Gnn.Error.AUTOGRAD) and not input.is_leaf:
            return out
        raise


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _written_back(input, lambda x: _where(
        x > 0, x, Gnn.Tensor.mul_scalar(x, float(negative_slope))), inplace)


def silu(input, inplace=False):
    return _written_back(input, lambda x: x * Gnn.Tensor.sigmoid(x), inplace)


def elu(input, alpha=1.0, inplace=False):
    # exp of the clamped input: the branch where() drops must not be inf
    # (its zero gradient times inf would be NaN)
    def compute(x):
        negative = Gnn.Tensor.mul_scalar(x.clamp(max=0.0).exp() - 1.0, float(alpha))
        return _where(x > 0, x, negative)
    return _written_back(input, compute, inplace)


def softplus(input, beta=1.0, threshold=20.0):
    scaled = input * float(beta)
    soft = (scaled.clamp(max=float(threshold)).exp() + 1.0).log() / float(beta)
    return _where(scaled > float(threshold), input, soft)


def gelu(input, approximate='none'):
    if approximate == 'tanh':
        inner = (input + input * input * input * 0.044715) * math.sqrt(2.0 / math.pi)
        return input * 0.5 * (Gnn.Tensor.tanh(inner) + 1.0)
    if approximate != 'none':
        raise RuntimeError("approximate argument must be either none or tanh.")
    return EXPORTS['GELU']()(input)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    # a zero row's norm has no gradient (0·inf): its root is taken of 1
    # instead and masked, so the row gets torch's x / eps gradient, not NaN
    total = (input.abs() ** float(p)).sum(dim, keepdim=True)
    nonzero = total > 0
    root = _where(nonzero, total, full_like(total, 1.0)) ** (1.0 / float(p))
    norm = _where(nonzero, root, full_like(total, 0.0))
    return input / norm.clamp(min=float(eps))


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

class LeakyReLU(Module):
    __gtype_name__ = 'GnnLeakyReLU'
    negative_slope = GObject.Property(type=float, default=0.01)
    inplace = GObject.Property(type=bool, default=False)

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__(negative_slope=float(negative_slope), inplace=bool(inplace))

    def forward(self, input):
        return leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return 'negative_slope={}{}'.format(self.negative_slope,
                                            ', inplace=True' if self.inplace else '')


class SiLU(Module):
    __gtype_name__ = 'GnnSiLU'
    inplace = GObject.Property(type=bool, default=False)

    def __init__(self, inplace=False):
        super().__init__(inplace=bool(inplace))

    def forward(self, input):
        return silu(input, self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class ELU(Module):
    __gtype_name__ = 'GnnELU'
    alpha = GObject.Property(type=float, default=1.0)
    inplace = GObject.Property(type=bool, default=False)

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(alpha=float(alpha), inplace=bool(inplace))

    def forward(self, input):
        return elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return 'alpha={}{}'.format(self.alpha, ', inplace=True' if self.inplace else '')


class Softplus(Module):
    __gtype_name__ = 'GnnSoftplus'
    beta = GObject.Property(type=float, default=1.0)
    threshold = GObject.Property(type=float, default=20.0)

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__(beta=float(beta), threshold=float(threshold))

    def forward(self, input):
        return softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return 'beta={:g}, threshold={:g}'.format(self.beta, self.threshold)


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
for _f in (leaky_relu, silu, elu, softplus, gelu, normalize, l1_loss, smooth_l1_loss,
           binary_cross_entropy):
    setattr(functional, _f.__name__, _f)
for _cls in (LeakyReLU, SiLU, ELU, Softplus, L1Loss, SmoothL1Loss, BCELoss):
    _cls.__module__ = 'gi.overrides.Gnn'
    export(_cls)
    setattr(EXPORTS['nn'], _cls.__name__, _cls)
