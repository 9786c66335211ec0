# _namespaces.py: torch's sub-namespaces that no domain module owns —
# Gnn.utils.data's functions, Gnn.autograd, Gnn.nn.utils.rnn (empty until
# recurrent layers land) and Gnn.vision with its datasets / transforms /
# utils / models (filled by the vision code). Like Gnn.nn, they are
# namespace objects a private module adds names to (setattr); the public
# modules gnn.utils.data, gnn.autograd, ... mirror them (see _public.py).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers
import types

from . import _autograd, _nn_utils  # noqa: F401  (the namespaces below extend theirs)
from ._data import fields, rebuilt
from ._gi import EXPORTS, Gnn, call_c, export


def _namespace(name, doc):
    return types.ModuleType(name, doc)


# --- torch.utils.data's functions (its classes come from the typelib) ----------

def random_split(dataset, lengths, generator=None):
    """torch's random_split: `lengths` as counts or as fractions summing to
    1; the permutation from `generator` (the default generator if None)."""
    lengths = list(lengths)
    if all(isinstance(n, numbers.Integral) and not isinstance(n, bool) for n in lengths):
        parts = call_c(Gnn.random_split, dataset, [int(n) for n in lengths], generator)
    else:
        parts = call_c(Gnn.random_split_fractions, dataset, [float(f) for f in lengths],
                       generator)
    return list(parts)


def default_collate(batch):
    """torch's default_collate for a list of samples (tensors, numbers,
    numpy arrays, or tuples / dicts of them): one batch, the fields stacked."""
    batch = list(batch)
    if not batch:
        raise IndexError('default_collate: the batch is empty')
    rows = [fields(sample, where='default_collate') for sample in batch]
    flat = [t for row in rows for t in row]
    stacked = list(call_c(Gnn.default_collate, flat, len(rows[0])))
    value = rebuilt(stacked)
    if value is not None:
        return value
    return tuple(stacked) if isinstance(batch[0], tuple) else stacked


def get_worker_info():
    """Inside a loader's worker: its WorkerInfo (id, num_workers, seed,
    dataset); None in the main process."""
    return Gnn.get_worker_info()


utils = export(_namespace('Gnn.utils', "torch.utils's spellings."), 'utils')
utils.data = _namespace('Gnn.utils.data', "torch.utils.data's functions.")
for _f in (random_split, default_collate, get_worker_info):
    setattr(utils.data, _f.__name__, _f)


# --- torch.autograd ------------------------------------------------------------

def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """torch.autograd.backward: backward() of each tensor with its gradient."""
    if create_graph or inputs is not None:
        raise NotImplementedError('torch.autograd.backward(create_graph=, inputs=) is not '
                                  'supported by Gnn')
    if isinstance(tensors, Gnn.Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    if grad_tensors is None or isinstance(grad_tensors, Gnn.Tensor):
        grad_tensors = [grad_tensors] * len(tensors) if grad_tensors is None else [grad_tensors]
    for t, g in zip(tensors, grad_tensors):
        t.backward(g, retain_graph=bool(retain_graph))


def Variable(data, requires_grad=False, volatile=False):
    """torch's deprecated Variable(t): the tensor itself (requires_grad set)."""
    if requires_grad:
        data.requires_grad_(True)
    return data


autograd = export(_namespace('Gnn.autograd', "torch.autograd's spellings."), 'autograd')
autograd.backward = backward
autograd.Variable = Variable
for _name in ('no_grad', 'enable_grad', 'set_grad_enabled', 'inference_mode'):
    setattr(autograd, _name, EXPORTS[_name])


# --- torch.nn.utils.rnn: recurrent layers add their helpers here ---------------

EXPORTS['nn'].utils.rnn = _namespace('Gnn.nn.utils.rnn', "torch.nn.utils.rnn's helpers.")


# --- torchvision's essentials ----------------------------------------------------

vision = export(_namespace('Gnn.vision', "torchvision's essentials."), 'vision')
vision.datasets = _namespace('Gnn.vision.datasets', "torchvision.datasets.")
vision.transforms = _namespace('Gnn.vision.transforms', "torchvision.transforms.")
vision.utils = _namespace('Gnn.vision.utils', "torchvision.utils.")
vision.models = _namespace('Gnn.vision.models', "torchvision.models.")
