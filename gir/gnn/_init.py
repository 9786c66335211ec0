# _init.py: Gnn.nn.init, torch.nn.init's initializers. They fill in place,
# outside autograd, from the default generator unless given one, and return
# the tensor; the fans and gains are torch's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import types

from ._autograd import no_grad
from ._gi import EXPORTS

_LINEAR = ('linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d',
           'conv_transpose3d', 'sigmoid')


def calculate_gain(nonlinearity, param=None):
    """torch's recommended gain for `nonlinearity`."""
    if nonlinearity in _LINEAR:
        return 1.0
    if nonlinearity == 'tanh':
        return 5.0 / 3
    if nonlinearity == 'relu':
        return math.sqrt(2.0)
    if nonlinearity == 'leaky_relu':
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError('negative_slope {} not a valid number'.format(param))
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == 'selu':
        return 3.0 / 4
    raise ValueError('Unsupported nonlinearity {}'.format(nonlinearity))


def _calculate_fan_in_and_fan_out(tensor):
    shape = list(tensor.shape)
    if len(shape) < 2:
        raise ValueError('Fan in and fan out can not be computed for tensor with fewer than '
                         '2 dimensions')
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _fan(tensor, mode):
    mode = mode.lower()
    if mode not in ('fan_in', 'fan_out'):
        raise ValueError('Mode {} not supported, please use one of fan_in, fan_out'.format(mode))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == 'fan_in' else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator)


init = types.ModuleType('Gnn.nn.init', 'torch.nn.init\'s initializers.')
for _f in (calculate_gain, uniform_, normal_, constant_, ones_, zeros_, xavier_uniform_,
           xavier_normal_, kaiming_uniform_, kaiming_normal_):
    setattr(init, _f.__name__, _f)
init._calculate_fan_in_and_fan_out = _calculate_fan_in_and_fan_out
EXPORTS['nn'].init = init
