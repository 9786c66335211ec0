# _optim_state.py: an optimizer's state dict in torch's layout ({'state':
# {index: {name: value}}, 'param_groups': [{..., 'params': [indices]}]}) over
# the C codec's flat one (tensors 'state.<index>.<name>', metadata
# 'param_groups.<group>.<option>'). Only the shapes of values change:
# Python ints and floats <-> 0-d int64 / float64 tensors, and LBFGS's
# history lists <-> stacked rows.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math

from gi.repository import GLib

from ._creation import stack, tensor, zeros
from ._dtype import float64, int64
from ._gi import Gnn, np
from ._optim import PAIRS
from ._state import StateDict

# torch's Python-only switches, dropped on the way in where they hold the
# values Gnn computes with
_TORCH_ONLY = {'foreach': (None, False, True), 'differentiable': (False,),
               'capturable': (False,), 'fused': (None, False)}
# LBFGS keeps lists; Gnn stacks them (rows) or packs their scalars
_LBFGS_ROWS = ('old_dirs', 'old_stps')
_LBFGS_SCALARS = ('ro', 'al')


def _python_value(tensor):
    """A 0-d int64 tensor is one of torch's Python ints."""
    if tensor.get_dtype() == Gnn.DType.I64 and tensor.ndim == 0:
        return int(tensor.item())
    return tensor


def _lbfgs_entry(name, tensor, float32):
    if name in _LBFGS_ROWS:
        return [tensor[i] for i in range(tensor.shape[0])]
    if name in _LBFGS_SCALARS:
        return [tensor[i] for i in range(tensor.shape[0])]
    if name == 'prev_loss' or (name == 't' and tensor.get_dtype() == Gnn.DType.F64 and float32):
        return float(tensor.item())
    return _python_value(tensor)


def nested_state_dict(optimizer):
    """torch's layout of optimizer.state_dict()."""
    flat = Gnn.Optimizer.state_dict(optimizer)
    lbfgs = isinstance(optimizer, Gnn.LBFGS)
    float32 = optimizer.get_n_params() > 0 and \
        optimizer.get_param(0).get_dtype() == Gnn.DType.F32
    state = {}
    for key in flat.get_keys():
        _, index, name = key.split('.', 2)
        tensor = flat.lookup(key)
        value = _lbfgs_entry(name, tensor, float32) if lbfgs else _python_value(tensor)
        state.setdefault(int(index), {})[name] = value
    groups = []
    first = 0
    for i, view in enumerate(optimizer.param_groups):
        group = {k: view[k] for k in view if k != 'params'}
        n = len(view['params'])
        group['params'] = list(range(first, first + n))
        first += n
        groups.append(group)
    return {'state': state, 'param_groups': groups}


def _as_tensor(value, dtype=None):
    if isinstance(value, Gnn.Tensor):
        return value
    if np is not None and isinstance(value, np.ndarray):
        return Gnn.Tensor.from_numpy(np.ascontiguousarray(value))
    if isinstance(value, bool):
        raise TypeError('an optimizer state holds tensors and numbers, not bool')
    if isinstance(value, int):
        return tensor(value, dtype=int64)
    if isinstance(value, float):
        return tensor(value, dtype=float64)
    raise TypeError('an optimizer state holds tensors and numbers, not %s' % type(value).__name__)


def _stack(values, width, dtype):
    """LBFGS's lists: rows stacked into [k, n], scalars into [k] (None,
    torch's unused slots, as 0)."""
    if not values:
        return zeros(0, width, dtype=dtype) if width is not None else \
            zeros(0, dtype=dtype)
    items = [zeros((), dtype=dtype) if v is None else _as_tensor(v) for v in values]
    return stack(items)


def _text(value):
    """A group value as the codec's metadata text."""
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else {'inf': 'inf', '-inf': '-inf'}.get(
            repr(value), 'nan')
    if value is None or isinstance(value, str):
        return GLib.Variant('ms', value).print_(False)
    raise TypeError('a parameter group holds numbers, booleans, strings and None, not %s'
                    % type(value).__name__)


def flat_state_dict(optimizer, state_dict):
    """The C codec's form of torch's layout."""
    if not isinstance(state_dict, dict) or 'state' not in state_dict or \
            'param_groups' not in state_dict:
        raise TypeError("an optimizer state dict is {'state': ..., 'param_groups': [...]} "
                        "or a Gnn.StateDict, not %s" % type(state_dict).__name__)
    flat = StateDict()
    lbfgs = isinstance(optimizer, Gnn.LBFGS)
    n = sum(p.get_numel() for p in (optimizer.get_param(i)
                                    for i in range(optimizer.get_n_params())))
    dtype = optimizer.get_param(0).get_dtype() if optimizer.get_n_params() else Gnn.DType.F32
    for index, entries in state_dict['state'].items():
        for name, value in entries.items():
            if value is None:        # SGD's momentum_buffer without momentum
                continue
            if lbfgs and name in _LBFGS_ROWS + _LBFGS_SCALARS:
                value = _stack(value, n if name in _LBFGS_ROWS else None, dtype)
            flat['state.%d.%s' % (int(index), name)] = _as_tensor(value)
    for g, group in enumerate(state_dict['param_groups']):
        flat.set_metadata('param_groups.%d.params' % g,
                          ','.join(str(int(i)) for i in group['params']))
        for key, value in group.items():
            if key == 'params' or (key in _TORCH_ONLY and value in _TORCH_ONLY[key]):
                continue
            if key in PAIRS:
                for half, v in zip(PAIRS[key], value):
                    flat.set_metadata('param_groups.%d.%s' % (g, half), _text(float(v)))
            elif value is not None or type(optimizer).find_property(key.replace('_', '-')):
                flat.set_metadata('param_groups.%d.%s' % (g, key), _text(value))
    return flat
