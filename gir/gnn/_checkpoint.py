# _checkpoint.py: what Gnn.save writes and Gnn.load reads, never pickle.
#
# - torch.save's usual checkpoint — a dict of state dicts, tensors and plain
#   values, nested, e.g. {'epoch': 3, 'model': model.state_dict(),
#   'optimizer': opt.state_dict(), 'loss': 0.12} — as one safetensors file:
#   the tensors under dotted names ("model.fc.weight"), so any safetensors
#   reader (PyTorch's too) sees them, and the layout (nesting, order, the
#   plain values) as JSON in the metadata entry "gnn.checkpoint", from which
#   Gnn.load rebuilds the same structure.
# - a whole module (torch.save(model)) as a model file: the C library writes
#   the architecture (gnn_module_save_model); classes defined in Python are
#   recorded by qualified name with their plain attributes ("gnn.python"),
#   and imported on load only with weights_only=False.
# - PyTorch's own .pt/.pth files (zip archives), read by the C library's
#   restricted unpickler into the same state dict + layout.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc as _abc
import base64
import contextlib
import importlib
import json
import math
import os

from ._gi import Gnn, gobject_created, np

LAYOUT_KEY = 'gnn.checkpoint'
MODEL_KEY = 'gnn.model'
PYTHON_KEY = 'gnn.python'
TRAINING_KEY = 'gnn.training'
_TRAINING_KEYS = ('model', 'optimizer', 'scheduler', 'lr_scheduler', 'epoch')
_ZIP_MAGIC = b'PK\x03\x04'
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
                # ints too: an optimizer's state is keyed by parameter index
                if not isinstance(key, (str, int)) or isinstance(key, bool) or \
                        (isinstance(key, int) and isinstance(value, Gnn.StateDict)):
                    raise TypeError('Gnn.save(): checkpoint keys must be str or int, got %s (%r)'
                                    % (type(key).__name__, key))
                items.append([key, walk(value[key], '%s.%s' % (name, key) if name else str(key))])
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
        if kind in ('list', 'tuple', 'set'):
            items = [build(child) for child in body]
            return items if kind == 'list' else tuple(items) if kind == 'tuple' else set(items)
        if kind == 'float':
            return float(body)
        if kind == 'bytes':
            return base64.b64decode(body)
        return body
    try:
        return build(json.loads(layout_json))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError('Gnn.load(): the checkpoint layout of this file is damaged (%s)'
                         % exc) from None


# -- files ----------------------------------------------------------------------


def is_torch_file(path):
    """Whether `path` starts like a zip archive (what torch.save writes)."""
    try:
        with open(path, 'rb') as f:
            return f.read(4) == _ZIP_MAGIC
    except OSError:
        return False   # the C loader reports it


def load_torch(path, copy):
    """A .pt/.pth file of torch.save, read without Python's pickle."""
    flags = Gnn.LoadFlags.COPY if copy else Gnn.LoadFlags.NONE
    return Gnn.StateDict.load_torch(os.fspath(path), flags)


# -- whole modules -------------------------------------------------------------


def _is_library_class(cls):
    name = cls.__gtype__.name
    return name.startswith('Gnn') and getattr(getattr(Gnn, name[3:], None), '__gtype__', None) \
        == cls.__gtype__


def _plain(value):
    """Whether `value` is JSON made of plain values (kept as is)."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def _python_info(module):
    """{'classes': {gtype name: 'module:qualname'}, 'attributes': {path:
    {name: value}}} for the modules of classes defined in Python."""
    classes, attributes = {}, {}
    for path, m in module.named_modules(remove_duplicate=True):
        cls = type(m)
        if _is_library_class(cls):
            continue
        if '<locals>' in cls.__qualname__:
            raise TypeError('Gnn.save(): %s is defined inside a function; a model file names '
                            'classes by module and qualified name' % cls.__qualname__)
        classes[cls.__gtype__.name] = '%s:%s' % (cls.__module__, cls.__qualname__)
        plain = {k: v for k, v in vars(m).items() if not k.startswith('_') and _plain(v)}
        if plain:
            attributes[path] = plain
    return {'classes': classes, 'attributes': attributes} if classes else None


def save_model(module, f, metadata):
    """torch.save(model, f): the architecture and weights (a model file)."""
    meta = dict(metadata) if metadata else {}
    info = _python_info(module)
    if info is not None:
        meta[PYTHON_KEY] = json.dumps(info, separators=(',', ':'))
    return Gnn.Module.save_model(module, os.fspath(f), meta)


def import_qualified(spec):
    """The object named 'package.module:Qual.name' (imported)."""
    module_name, _, qualname = spec.partition(':')
    obj = importlib.import_module(module_name)
    for part in qualname.split('.'):
        obj = getattr(obj, part)
    return obj


@contextlib.contextmanager
def _without_init(classes):
    """As unpickling does: the modules the C library builds from the file
    skip their class's __init__ (the file gives their children and
    attributes; __init__ may need arguments)."""
    saved = []
    for cls in classes:
        for klass in cls.__mro__:
            if _is_library_class(klass):
                break   # Gnn's own classes and everything above them
            if '__init__' not in vars(klass):
                continue
            original = vars(klass)['__init__']

            def skip(self, *args, _original=original, **kwargs):
                if args or kwargs or not gobject_created(self):
                    return _original(self, *args, **kwargs)
            saved.append((klass, original))
            klass.__init__ = skip
    try:
        yield
    finally:
        for klass, original in reversed(saved):
            klass.__init__ = original


def _rebuild_with_python(state, weights_only, build):
    """build(flags) under the rules for classes defined in Python: imported
    only when weights_only is False, their __init__ skipped, their plain
    attributes set afterwards on the model build() returns."""
    info = json.loads(state.get_metadata(PYTHON_KEY) or 'null') or {}
    flags = Gnn.LoadFlags.NONE
    classes = []
    if not weights_only:
        flags |= Gnn.LoadFlags.ALLOW_TYPES
        classes = [import_qualified(spec) for spec in info.get('classes', {}).values()]
    with _without_init(classes):
        result, module = build(flags)
    for path, attrs in info.get('attributes', {}).items() if not weights_only else ():
        target = module.get_submodule(path) if path else module
        for name, value in attrs.items():
            setattr(target, name, value)
    return result


def load_model(state, weights_only):
    """The module a model file's state describes (torch.load of a saved
    module). Classes defined in Python are imported only when
    weights_only is False."""
    def build(flags):
        module = Gnn.Module.new_from_state_dict(state, flags)
        return module, module
    return _rebuild_with_python(state, weights_only, build)


# -- training checkpoints ---------------------------------------------------------


def is_training_checkpoint(obj):
    """{'model': a module[, 'optimizer': ..., 'scheduler': ..., 'epoch': n]}"""
    return isinstance(obj, _abc.Mapping) and isinstance(obj.get('model'), Gnn.Module) and \
        all(k in _TRAINING_KEYS for k in obj)


def save_training(obj, f, metadata):
    """The model, optimizer, scheduler and epoch as one training checkpoint
    (C's GnnCheckpoint)."""
    scheduler = obj.get('scheduler', obj.get('lr_scheduler'))
    epoch = obj.get('epoch', 0)
    if not isinstance(epoch, int) or isinstance(epoch, bool):
        raise TypeError('Gnn.save(): a checkpoint\'s epoch must be an int, got %s'
                        % type(epoch).__name__)
    meta = dict(metadata) if metadata else {}
    info = _python_info(obj['model'])
    if info is not None:
        meta[PYTHON_KEY] = json.dumps(info, separators=(',', ':'))
    checkpoint = Gnn.Checkpoint.new(obj['model'], obj.get('optimizer'), scheduler, epoch)
    return checkpoint.save(os.fspath(f), meta)


def load_training(state, weights_only):
    """{'model', 'optimizer', 'scheduler', 'epoch'} of a training checkpoint."""
    def build(flags):
        checkpoint = Gnn.Checkpoint.new_from_state_dict(state, flags)
        result = {'model': checkpoint.get_model()}
        if checkpoint.get_optimizer() is not None:
            result['optimizer'] = checkpoint.get_optimizer()
        if checkpoint.get_scheduler() is not None:
            result['scheduler'] = checkpoint.get_scheduler()
        result['epoch'] = checkpoint.get_epoch()
        return result, result['model']
    return _rebuild_with_python(state, weights_only, build)
