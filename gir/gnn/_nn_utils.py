# _nn_utils.py: Gnn.nn.utils, torch.nn.utils with torch's signatures over
# the C functions: gradient clipping (Gnn.clip_grad_norm_,
# Gnn.clip_grad_value_), parameters_to_vector / vector_to_parameters, and
# the weight reparametrizations weight_norm / spectral_norm (forward
# pre-hooks in C) with their removal. `parameters` may be one tensor or any
# iterable of tensors, as torch's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types

from ._gi import EXPORTS, Gnn, call_as_torch


def _tensors(parameters):
    if isinstance(parameters, Gnn.Tensor):
        return [parameters]
    return list(parameters)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    return call_as_torch(RuntimeError, Gnn.clip_grad_norm_, _tensors(parameters), float(max_norm),
               float(norm_type), bool(error_if_nonfinite))


def clip_grad_value_(parameters, clip_value, foreach=None):
    Gnn.clip_grad_value_(_tensors(parameters), float(clip_value))


def parameters_to_vector(parameters):
    return Gnn.parameters_to_vector(_tensors(parameters))


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, Gnn.Tensor):
        raise TypeError('expected torch.Tensor, but got: {}'.format(type(vec).__name__))
    Gnn.vector_to_parameters(vec, _tensors(parameters))


def weight_norm(module, name='weight', dim=0):
    call_as_torch(RuntimeError, Gnn.weight_norm, module, name,
        Gnn.NORM_DIM_NONE if dim is None else dim)
    return module


def remove_weight_norm(module, name='weight'):
    call_as_torch(ValueError, Gnn.remove_weight_norm, module, name)
    return module


def spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    call_as_torch(ValueError if n_power_iterations <= 0 else RuntimeError, Gnn.spectral_norm, module,
        name, n_power_iterations, float(eps), Gnn.NORM_DIM_NONE if dim is None else dim, None)
    return module


def remove_spectral_norm(module, name='weight'):
    call_as_torch(ValueError, Gnn.remove_spectral_norm, module, name)
    return module


utils = types.ModuleType('Gnn.nn.utils', "torch.nn.utils's spellings.")
for _f in (clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters,
           weight_norm, remove_weight_norm, spectral_norm, remove_spectral_norm):
    setattr(utils, _f.__name__, _f)
EXPORTS['nn'].utils = utils
