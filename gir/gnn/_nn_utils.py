# _nn_utils.py: Gnn.nn.utils, the gradient clipping of torch.nn.utils that
# training loops call between backward() and step().
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import types

from ._autograd import no_grad
from ._creation import full_like, stack, tensor
from ._gi import EXPORTS, Gnn


def _grads(parameters):
    if isinstance(parameters, Gnn.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """torch's: scales the gradients in place so that their joint
    `norm_type` norm is at most `max_norm`; returns the norm before (a 0-d
    tensor)."""
    grads = _grads(parameters)
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not grads:
        return tensor(0.0)
    with no_grad():
        if norm_type == math.inf:
            norms = [g.abs().max() for g in grads]
            total = stack(norms).max() if len(norms) > 1 else norms[0]
        else:
            total = sum((g.abs() ** norm_type).sum() for g in grads) ** (1.0 / norm_type)
        value = total.item()
        if error_if_nonfinite and not math.isfinite(value):
            raise RuntimeError(
                f'The total norm of order {norm_type} for gradients from `parameters` is '
                f'non-finite, so it cannot be clipped. To disable this error and scale the '
                f'gradients by the non-finite norm anyway, set `error_if_nonfinite=False`')
        coef = max_norm / (value + 1e-6)
        if coef < 1.0 or math.isnan(coef):   # torch scales by a NaN coefficient too
            for g in grads:
                g.mul_(coef)
    return total


def clip_grad_value_(parameters, clip_value):
    """torch's: clamps every gradient element to [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    with no_grad():
        for g in _grads(parameters):
            high, low = full_like(g, clip_value), full_like(g, -clip_value)
            g.copy_(Gnn.Tensor.where(g > high, high, Gnn.Tensor.where(g < low, low, g)))


utils = types.ModuleType('Gnn.nn.utils', 'torch.nn.utils\'s gradient clipping.')
utils.clip_grad_norm_ = clip_grad_norm_
utils.clip_grad_value_ = clip_grad_value_
EXPORTS['nn'].utils = utils
