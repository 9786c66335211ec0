# _checkpoint.py: torch.save's usual checkpoint — a dict of state dicts,
# tensors and plain values, nested, e.g. {'epoch': 3, 'model':
# model.state_dict(), 'optimizer': opt.state_dict(), 'loss': 0.12} — as one
# safetensors file: the tensors under dotted names ("model.fc.weight"), so
# any safetensors reader (PyTorch's too) sees them, and the layout (nesting,
# order, the plain values) as JSON in the metadata entry "gnn.checkpoint",
# from which Gnn.load rebuilds the same structure. Never pickle.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc as _abc
import json
import math

from ._gi import Gnn, np

LAYOUT_KEY = 'gnn.checkpoint'
_PLAIN = (bool, int, float, str, type(None))


def is_flat_state(obj):
    """A mapping of str to tensors only: saved as a plain state dict."""
    return isinstance(obj, Gnn.StateDict) or (
        isinstance(obj, _abc.Mapping) and
        all(isinstance(k, str) for k in obj) and
        all(isinstance(v, Gnn.Tensor) or (np is not None and isinstance(v, np.ndarray))
            for v in obj.values()))


def flatten(obj):
    """(tensors by dotted name, the layout as JSON) for a checkpoint."""
    tensors = {}

    def walk(value, name):
        is_array = np is not None and isinstance(value, np.ndarray)
        if isinstance(value, Gnn.Tensor) or is_array:
            if name in tensors:
                raise ValueError("Gnn.save(): two entries of the checkpoint are both named "
                                 "'%s' once joined with dots" % name)
            tensors[name] = value
            return {'ndarray' if is_array else 'tensor': name}
        if isinstance(value, (Gnn.StateDict, _abc.Mapping)):
            items = []
            for key in value:
                if not isinstance(key, str):
                    raise TypeError('Gnn.save(): checkpoint keys must be str, got %s (%r)'
                                    % (type(key).__name__, key))
                items.append([key, walk(value[key], name + '.' + key if name else key)])
            if not isinstance(value, Gnn.StateDict):
                return {'dict': items}
            # a state dict's metadata (an optimizer's param_groups) travels too
            meta = {k: value.get_metadata(k) for k in value.get_metadata_keys() or []}
            return {'state_dict': items, 'metadata': meta} if meta else {'state_dict': items}
        if isinstance(value, (list, tuple)):
            kind = 'list' if isinstance(value, list) else 'tuple'
            return {kind: [walk(v, '%s.%d' % (name, i) if name else str(i))
                           for i, v in enumerate(value)]}
        if np is not None and isinstance(value, np.generic):
            value = value.item()             # a numpy number: the Python number
        if isinstance(value, _PLAIN):
            if isinstance(value, float) and not math.isfinite(value):
                return {'float': repr(value)}   # JSON has no inf / nan
            return {'value': value}
        raise TypeError('Gnn.save() cannot save %s: a checkpoint holds tensors, numpy arrays, '
                        'state dicts, dicts, lists, tuples, numbers, strings and None (save a '
                        'module\'s or an optimizer\'s state_dict()); nothing is pickled'
                        % type(value).__name__)

    layout = walk(obj, '' if isinstance(obj, _abc.Mapping) else 'data')
    return tensors, json.dumps(layout, separators=(',', ':'))


def rebuild(state, layout_json, state_dict_type):
    """The checkpoint `layout_json` describes, its tensors taken from `state`."""
    def build(node):
        kind, body = next(iter(node.items()))
        if kind == 'tensor':
            return state[body]
        if kind == 'ndarray':                 # saved from a numpy array: one again
            return state[body].numpy()
        if kind == 'state_dict':
            result = state_dict_type()
            for key, child in body:
                result[key] = build(child)
            for key, value in node.get('metadata', {}).items():
                result.set_metadata(key, value)
            return result
        if kind == 'dict':
            return {key: build(child) for key, child in body}
        if kind in ('list', 'tuple'):
            items = [build(child) for child in body]
            return items if kind == 'list' else tuple(items)
        if kind == 'float':
            return float(body)
        return body
    try:
        return build(json.loads(layout_json))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError('Gnn.load(): the checkpoint layout of this file is damaged (%s)'
                         % exc) from None
