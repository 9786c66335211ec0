# _optim.py: torch.optim's protocol over the C optimizers: construction from
# params or param-group dicts (torch's signatures declared at the end),
# `param_groups` as live dict-like views whose reads and writes go to C,
# add_param_group, step(closure), zero_grad, state_dict / load_state_dict in
# torch's layout (_optim_state), and the Gnn.optim namespace.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc as abc
import types

from gi.repository import GLib

from ._signature import Post, ignore, none_or, only, torch_class
from ._gi import OVERRIDE_MODULE, Gnn, call_c, export, override, trampoline

# torch's tuple options: one key over two C options
PAIRS = {'betas': ('beta1', 'beta2'), 'etas': ('etaminus', 'etaplus'),
         'step_sizes': ('step_size_min', 'step_size_max')}
_HALVES = {half: pair for pair, halves in PAIRS.items() for half in halves}


def _variant(value, like=None):
    """A Python value as a group option's GVariant (the C option's type
    when known: `like`, its current value)."""
    kind = like.get_type_string() if like is not None else None
    if kind == 'd' or (kind is None and isinstance(value, float)):
        return GLib.Variant('d', float(value))
    if kind == 'b' or (kind is None and isinstance(value, bool)):
        return GLib.Variant('b', bool(value))
    if kind == 'x' or (kind is None and isinstance(value, int)):
        return GLib.Variant('x', int(value))
    if kind == 'ms' or value is None:
        return GLib.Variant('ms', value)
    if kind is None and isinstance(value, str):
        return GLib.Variant('s', value)
    raise TypeError('a parameter group holds numbers, booleans and strings, not %s'
                    % type(value).__name__)


def group_options(options):
    """torch's option dict (betas as a pair) as C's a{sv}."""
    flat = {}
    for key, value in options.items():
        if key in PAIRS:
            for half, v in zip(PAIRS[key], value):
                flat[half] = _variant(float(v))
        else:
            flat[key] = _variant(value)
    return GLib.Variant('a{sv}', flat)


def _tensor_list(params):
    if isinstance(params, Gnn.Tensor):
        return [params]
    if isinstance(params, (set, frozenset)):
        raise TypeError('optimizer parameters need to be organized in ordered collections, but '
                        'the ordering of tensors in sets will change between runs. Please use '
                        'a list instead.')
    return list(params)


def add_param_groups(optimizer, params):
    """torch's `params`: an iterable of tensors (one group), or of dicts
    with 'params' and options (one group each)."""
    if isinstance(params, Gnn.Tensor):
        raise TypeError('params argument given to the optimizer should be an iterable of '
                        'Tensors or dicts, but got %s' % type(params).__name__)
    groups = list(params)
    if not groups:
        raise ValueError('optimizer got an empty parameter list')
    if not isinstance(groups[0], abc.Mapping):
        groups = [{'params': groups}]
    for group in groups:
        optimizer.add_param_group(group)


class ParamGroup(abc.MutableMapping):
    """optimizer.param_groups[i]: a live view of group i — 'params', the
    options in torch's names (pairs such as 'betas' as tuples) and the
    group's other keys ('initial_lr'); reads and writes go to C."""

    def __init__(self, optimizer, index):
        self._opt = optimizer
        self._index = index

    def _raw(self):
        return Gnn.Optimizer.list_group_options(self._opt, self._index) or []

    def _names(self):
        names = ['params']
        for name in self._raw():
            pair = _HALVES.get(name)
            if pair is None:
                names.append(name)
            elif pair not in names:
                names.append(pair)
        return names

    def __getitem__(self, key):
        opt, i = self._opt, self._index
        if key == 'params':
            return list(Gnn.Optimizer.get_group_params(opt, i))
        if key in PAIRS and PAIRS[key][0] in self._raw():
            return tuple(self[half] for half in PAIRS[key])
        if not isinstance(key, str) or key not in self._raw():
            raise KeyError(key)
        return Gnn.Optimizer.get_group_option(opt, i, key).unpack()

    def __setitem__(self, key, value):
        opt, i = self._opt, self._index
        if key in PAIRS and PAIRS[key][0] in self._raw():
            for half, v in zip(PAIRS[key], value):
                self[half] = v
            return
        if key == 'params':
            raise KeyError("a Gnn optimizer's parameter group keeps its params: use "
                           "add_param_group for new ones")
        like = Gnn.Optimizer.get_group_option(opt, i, key) if key in self._raw() else None
        Gnn.Optimizer.set_group_option(opt, i, key, _variant(value, like))

    def __delitem__(self, key):
        raise KeyError('cannot delete %r of a Gnn optimizer parameter group' % key)

    def __iter__(self):
        return iter(self._names())

    def __len__(self):
        return len(self._names())

    def __repr__(self):
        return repr(dict(self))


class Optimizer(Gnn.Optimizer):
    """torch.optim.Optimizer's protocol."""

    __module__ = OVERRIDE_MODULE

    @property
    def param_groups(self):
        return [ParamGroup(self, i) for i in range(self.get_n_param_groups())]

    @property
    def defaults(self):
        """The properties: the options new groups start with."""
        out = {}
        for pspec in self.list_properties():
            name = pspec.name.replace('-', '_')
            pair = _HALVES.get(name)
            if pair is None:
                out[name] = self.get_property(pspec.name)
            elif pair not in out:
                out[pair] = tuple(self.get_property(h.replace('_', '-')) for h in PAIRS[pair])
        return out

    @property
    def state(self):
        """{parameter: its live state (a Gnn.StateDict)}, PyTorch's
        optimizer.state."""
        return {self.get_param(i): self.get_state(i) for i in range(self.get_n_params())
                if len(self.get_state(i)) > 0}

    def add_param_group(self, param_group):
        """torch's add_param_group({'params': ..., **options})."""
        if not isinstance(param_group, abc.Mapping):
            raise TypeError('param group must be a dict')
        options = dict(param_group)
        params = _tensor_list(options.pop('params'))
        call_c(Gnn.Optimizer.add_param_group, self, params, group_options(options))

    def zero_grad(self, set_to_none=False):
        """torch 1.13's default: the gradients are zeroed (set_to_none=True,
        torch 2.x's default, drops them)."""
        Gnn.Optimizer.zero_grad(self, set_to_none)

    def step(self, closure=None):
        """One step; `closure` re-evaluates the model and returns the loss
        (a tensor or a number), which step returns, as torch's does."""
        if closure is None:
            call_c(Gnn.Optimizer.step, self)
            return None
        losses = []

        def evaluate(user_data):
            loss = closure()
            losses.append(loss)
            if isinstance(loss, Gnn.Tensor):
                return loss
            return Gnn.Tensor.new_from_doubles([float(loss)], [])   # float64: no rounding
        call_c(Gnn.Optimizer.step_with_closure, self, trampoline(evaluate, 'closure'), None)
        return losses[0] if losses else None

    def state_dict(self):
        """torch's layout: {'state': {index: {name: value}}, 'param_groups':
        [{options..., 'params': [indices]}]}, Gnn tensors inside (Gnn.save
        writes it; torch tensors from it load into torch)."""
        from ._optim_state import nested_state_dict
        return nested_state_dict(self)

    def load_state_dict(self, state_dict):
        """Loads torch's layout (with Gnn tensors or numpy arrays, e.g. a
        torch optimizer's state converted) or a flat Gnn.StateDict (from C
        or a file); all of it or nothing."""
        from ._optim_state import flat_state_dict
        if not isinstance(state_dict, Gnn.StateDict):  # torch's layout
            state_dict = flat_state_dict(self, state_dict)
        call_c(Gnn.Optimizer.load_state_dict, self, state_dict)

    def __repr__(self):
        lines = [type(self).__name__ + ' (']
        for i, group in enumerate(self.param_groups):
            lines.append('Parameter Group %d' % i)
            lines += ['    %s: %s' % (k, group[k]) for k in sorted(group) if k != 'params']
        return '\n'.join(lines) + '\n)'


Optimizer = override(Optimizer)

# torch's tuple options as two properties
def pair_of(first, second):
    def convert(value):
        a, b = value
        return {first: float(a), second: float(b)}
    return convert


def _add_params(optimizer, params):
    add_param_groups(optimizer, params)


# torch's Python-only switches are accepted at the values Gnn computes with
_OPTIM = {'params': Post(_add_params), 'betas': pair_of('beta1', 'beta2'),
          'etas': pair_of('etaminus', 'etaplus'),
          'step_sizes': pair_of('step_size_min', 'step_size_max'), 'foreach': ignore,
          'capturable': ignore, 'fused': ignore, 'differentiable': only(False, 'differentiable')}
SIGNATURES = {
    'SGD': 'params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, '
           'maximize=False, foreach=None, differentiable=False',
    'Adam': 'params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, *, '
            'foreach=None, maximize=False, capturable=False, differentiable=False, fused=None',
    'AdamW': 'params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, '
             '*, maximize=False, foreach=None, capturable=False, differentiable=False, fused=None',
    'Adadelta': 'params, lr=1.0, rho=0.9, eps=1e-06, weight_decay=0, foreach=None, *, '
                'maximize=False',
    'Adagrad': 'params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, '
               'eps=1e-10, foreach=None, *, maximize=False',
    'Adamax': 'params, lr=0.002, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, foreach=None, *, '
              'maximize=False',
    'NAdam': 'params, lr=0.002, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, '
             'momentum_decay=0.004, foreach=None',
    'RAdam': 'params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, foreach=None',
    'RMSprop': 'params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, '
               'centered=False, foreach=None, maximize=False, differentiable=False',
    'Rprop': 'params, lr=0.01, etas=(0.5, 1.2), step_sizes=(1e-06, 50), foreach=None, '
             'maximize=False',
    'ASGD': 'params, lr=0.01, lambd=0.0001, alpha=0.75, t0=1000000.0, weight_decay=0, '
            'foreach=None, maximize=False',
    'LBFGS': 'params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-07, '
             'tolerance_change=1e-09, history_size=100, line_search_fn=None',
}
optim = export(types.ModuleType('Gnn.optim', "torch.optim's spellings."), 'optim')
optim.Optimizer = Optimizer
for _name, _signature in SIGNATURES.items():
    setattr(optim, _name, torch_class(_name, _signature,
                                      dict(_OPTIM, max_eval=none_or('max_eval'))
                                      if _name == 'LBFGS' else _OPTIM))
