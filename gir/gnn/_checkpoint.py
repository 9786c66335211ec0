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
# The library's own metadata entries live under this prefix: a user's entry
# there could be taken for one of them (a 'gnn.checkpoint' of the user's
# made Gnn.load return its value instead of the tensors).
RESERVED_PREFIX = 'gnn.'
_PLAIN = (bool, int, float, str, type(None))


def user_metadata(metadata):
    """`metadata` (None or a mapping of str to str) as a dict, refusing
    the names Gnn keeps for itself."""
    if not metadata:
        return {}
    result = dict(metadata)
    for key in result:
        if isinstance(key, str) and key.startswith(RESERVED_PREFIX):
            raise ValueError("metadata key %r: names starting with %r are reserved for Gnn's "
                             "own entries" % (key, RESERVED_PREFIX))
    return result


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

    def walk(value, name, depth=0):
        if depth > _MAX_DEPTH:
            raise ValueError('Gnn.save(): the checkpoint is nested more than %d deep (or holds '
                             'itself)' % _MAX_DEPTH)
        if isinstance(value, Gnn.Tensor) or (np is not None and isinstance(value, np.ndarray)):
            if name in tensors:
                raise ValueError("Gnn.save(): two entries of the checkpoint are both named "
                                 "'%s' once joined with dots" % name)
            tensors[name] = value
            return {'tensor': name}
        if isinstance(value, (Gnn.StateDict, _abc.Mapping)):
            items = []
            for key in value:
                if not isinstance(key, str):
                    raise TypeError('Gnn.save(): checkpoint keys must be str, got %s (%r)'
                                    % (type(key).__name__, key))
                items.append([key, walk(value[key], name + '.' + key if name else key,
                                        depth + 1)])
            if not isinstance(value, Gnn.StateDict):
                return {'dict': items}
            # a state dict's metadata (an optimizer's param_groups) travels too
            meta = {k: value.get_metadata(k) for k in value.get_metadata_keys() or []}
            return {'state_dict': items, 'metadata': meta} if meta else {'state_dict': items}
        if isinstance(value, (list, tuple)):
            kind = 'list' if isinstance(value, list) else 'tuple'
            return {kind: [walk(v, '%s.%d' % (name, i) if name else str(i), depth + 1)
                           for i, v in enumerate(value)]}
        if isinstance(value, _PLAIN):
            if isinstance(value, float) and not math.isfinite(value):
                return {'float': repr(value)}   # JSON has no inf / nan
            return {'value': value}
        raise TypeError('Gnn.save() cannot save %s: a checkpoint holds tensors, state dicts, '
                        'dicts, lists, tuples, numbers, strings and None (save a module\'s or '
                        'an optimizer\'s state_dict())' % type(value).__name__)

    layout = walk(obj, '' if isinstance(obj, _abc.Mapping) else 'data')
    return tensors, json.dumps(layout, separators=(',', ':'))


class _Damaged(Exception):
    pass


_MAX_DEPTH = 200
_KINDS = ('tensor', 'state_dict', 'dict', 'list', 'tuple', 'value', 'float')


def _pairs(body, what):
    """[[key, node], ...] with str keys."""
    if not isinstance(body, list) or not all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in body):
        raise _Damaged('%s entries are not [name, value] pairs' % what)
    return body


def rebuild(state, layout_json, state_dict_type):
    """The checkpoint `layout_json` describes, its tensors taken from
    `state`. Every layout that is not one Gnn.save writes is a ValueError
    naming what is wrong (never an exception of the parser's own, such as
    a StopIteration that would end a caller's loop)."""
    def build(node, depth):
        if depth > _MAX_DEPTH:
            raise _Damaged('nested more than %d deep' % _MAX_DEPTH)
        if not isinstance(node, dict):
            raise _Damaged('an entry is %s, not an object' % type(node).__name__)
        kinds = [k for k in node if k in _KINDS]
        extra = [k for k in node if k not in _KINDS and not (k == 'metadata' and
                                                             'state_dict' in node)]
        if len(kinds) != 1 or extra:
            raise _Damaged('an entry has the keys %s, not one of %s' % (sorted(node), _KINDS))
        kind, body = kinds[0], node[kinds[0]]
        if kind == 'tensor':
            if not isinstance(body, str) or body not in state:
                raise _Damaged('it names a tensor %r that the file does not hold' % (body,))
            return state[body]
        if kind == 'state_dict':
            result = state_dict_type()
            for key, child in _pairs(body, 'state dict'):
                value = build(child, depth + 1)
                if not isinstance(value, Gnn.Tensor):
                    raise _Damaged('state dict entry %r is not a tensor' % key)
                result[key] = value
            metadata = node.get('metadata', {})
            if not isinstance(metadata, dict) or not all(
                    isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
                raise _Damaged('a state dict\'s metadata is not an object of strings')
            for key, value in metadata.items():
                result.set_metadata(key, value)
            return result
        if kind == 'dict':
            return {key: build(child, depth + 1) for key, child in _pairs(body, 'dict')}
        if kind in ('list', 'tuple'):
            if not isinstance(body, list):
                raise _Damaged('a %s is %s' % (kind, type(body).__name__))
            items = [build(child, depth + 1) for child in body]
            return items if kind == 'list' else tuple(items)
        if kind == 'float':
            if body not in ('inf', '-inf', 'nan'):
                raise _Damaged('a float entry is %r, not inf, -inf or nan' % (body,))
            return float(body)
        if not isinstance(body, _PLAIN):
            raise _Damaged('a value entry is %s' % type(body).__name__)
        return body
    try:
        return build(json.loads(layout_json), 0)
    except (_Damaged, ValueError, RecursionError) as exc:
        raise ValueError('Gnn.load(): the checkpoint layout of this file (metadata %r) is '
                         'damaged: %s' % (LAYOUT_KEY, exc)) from None
