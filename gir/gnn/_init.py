# _init.py: Gnn.nn.init, torch.nn.init's initializers with torch's
# signatures over the C functions (Gnn.init_xavier_uniform_ ...), which fill
# in place outside autograd, from the default generator unless given one;
# each returns the tensor, as torch's. The argument errors torch raises as
# ValueError (dimensions, modes, gains) are raised as exceptions that are
# both ValueError and GLib.Error.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import functools
import math
import types

from ._gi import EXPORTS, Gnn, call_as_torch


def _torch_errors(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return call_as_torch(ValueError, func, *args, **kwargs)
    return wrapper


@_torch_errors
def calculate_gain(nonlinearity, param=None):
    if param is not None and (isinstance(param, bool) or not isinstance(param, (int, float))):
        if nonlinearity == 'leaky_relu':
            raise ValueError('negative_slope {} not a valid number'.format(param))
        param = None
    return Gnn.init_calculate_gain(nonlinearity, math.nan if param is None else float(param))


@_torch_errors
def _calculate_fan_in_and_fan_out(tensor):
    ok, fan_in, fan_out = Gnn.init_calculate_fan_in_and_fan_out(tensor)
    return fan_in, fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    Gnn.init_uniform_(tensor, float(a), float(b), generator)
    return tensor


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    Gnn.init_normal_(tensor, float(mean), float(std), generator)
    return tensor


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    Gnn.init_trunc_normal_(tensor, float(mean), float(std), float(a), float(b), generator)
    return tensor


def constant_(tensor, val):
    Gnn.init_constant_(tensor, float(val))
    return tensor


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


@_torch_errors
def eye_(tensor):
    Gnn.init_eye_(tensor)
    return tensor


@_torch_errors
def dirac_(tensor, groups=1):
    Gnn.init_dirac_(tensor, groups)
    return tensor


@_torch_errors
def xavier_uniform_(tensor, gain=1.0, generator=None):
    Gnn.init_xavier_uniform_(tensor, float(gain), generator)
    return tensor


@_torch_errors
def xavier_normal_(tensor, gain=1.0, generator=None):
    Gnn.init_xavier_normal_(tensor, float(gain), generator)
    return tensor


@_torch_errors
def kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
    Gnn.init_kaiming_uniform_(tensor, float(a), mode, nonlinearity, generator)
    return tensor


@_torch_errors
def kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
    Gnn.init_kaiming_normal_(tensor, float(a), mode, nonlinearity, generator)
    return tensor


@_torch_errors
def orthogonal_(tensor, gain=1, generator=None):
    Gnn.init_orthogonal_(tensor, float(gain), generator)
    return tensor


@_torch_errors
def sparse_(tensor, sparsity, std=0.01, generator=None):
    Gnn.init_sparse_(tensor, float(sparsity), float(std), generator)
    return tensor


init = types.ModuleType('Gnn.nn.init', 'torch.nn.init\'s initializers.')
for _f in (calculate_gain, uniform_, normal_, trunc_normal_, constant_, ones_, zeros_, eye_,
           dirac_, xavier_uniform_, xavier_normal_, kaiming_uniform_, kaiming_normal_,
           orthogonal_, sparse_):
    setattr(init, _f.__name__, _f)
init._calculate_fan_in_and_fan_out = _calculate_fan_in_and_fan_out
EXPORTS['nn'].init = init
