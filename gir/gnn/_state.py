# _state.py: Gnn.StateDict as an ordered mapping, safetensors save/load, and
# torch.save / torch.load for state dicts (safetensors underneath, never pickle).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc as _abc
import os as _os

from ._dtype import check_device, tensor_from_numpy
from ._gi import OVERRIDE_MODULE, Gnn, export, np, override


_CStateDict = Gnn.StateDict


class StateDict(Gnn.StateDict):
    """A Gnn.StateDict that behaves as an ordered mapping of name to tensor
    (like the OrderedDict torch's state_dict() returns)."""

    __module__ = OVERRIDE_MODULE

    def __len__(self):
        return self.get_length()

    def __iter__(self):
        return iter(self.get_keys())

    def __contains__(self, key):
        return isinstance(key, str) and self.contains(key)

    def __getitem__(self, key):
        if not isinstance(key, str) or not self.contains(key):
            raise KeyError(key)
        return self.lookup(key)

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise TypeError('state dict keys must be str, not %s' % type(key).__name__)
        if not isinstance(value, Gnn.Tensor):
            raise TypeError("state dict values must be Gnn.Tensor, not %s"
                            % type(value).__name__)
        self.insert(key, value)

    def __delitem__(self, key):
        if not isinstance(key, str) or not self.remove(key):
            raise KeyError(key)

    def keys(self):
        return list(self.get_keys())

    def values(self):
        return [self.lookup(k) for k in self.get_keys()]

    def items(self):
        return [(k, self.lookup(k)) for k in self.get_keys()]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key, *default):
        if key in self:
            value = self.lookup(key)
            self.remove(key)
            return value
        if default:
            return default[0]
        raise KeyError(key)

    def update(self, other=(), **kwargs):
        pairs = other.items() if isinstance(other, _abc.Mapping) else other
        for key, value in pairs:
            self[key] = value
        for key, value in kwargs.items():
            self[key] = value

    def copy(self):
        """A new state dict with the same keys and tensors (not copied)."""
        result = StateDict()
        for key in self.get_keys():
            result.insert(key, self.lookup(key))
        return result

    __copy__ = copy

    def __deepcopy__(self, memo):
        # torch's best-model idiom: copy.deepcopy(model.state_dict())
        import copy
        result = StateDict()
        memo[id(self)] = result
        for key in self.get_keys():
            result.insert(key, copy.deepcopy(self.lookup(key), memo))
        for key in self.get_metadata_keys() or []:
            result.set_metadata(key, self.get_metadata(key))
        return result

    def __repr__(self):
        return 'StateDict([%s])' % ', '.join(repr(k) for k in self.get_keys())

    def save(self, path, metadata=None):
        """Writes the state dict as a safetensors file (temp file + rename);
        `metadata` is an optional dict of str -> str for `__metadata__`."""
        return _CStateDict.save(self, _os.fspath(path), dict(metadata) if metadata else None)

    @staticmethod
    def load(path, copy=False):
        """Loads a safetensors file: the tensors borrow a private mapping of
        the file (zero copy), or are copied out of it with copy=True."""
        flags = Gnn.LoadFlags.COPY if copy else Gnn.LoadFlags.NONE
        return _CStateDict.load_with_flags(_os.fspath(path), flags)


StateDict = override(StateDict)
_abc.MutableMapping.register(StateDict)


def as_state_dict(mapping):
    """A Gnn.StateDict from a StateDict or a mapping of name to tensor or
    numpy array."""
    if isinstance(mapping, _CStateDict):
        return mapping
    if not isinstance(mapping, _abc.Mapping):
        raise TypeError('Expected state_dict to be dict-like, got %s.' % type(mapping))
    converted = StateDict()
    for key, value in mapping.items():
        if not isinstance(value, Gnn.Tensor):
            if np is not None and isinstance(value, np.ndarray):
                value = tensor_from_numpy(value)
            else:
                raise TypeError("state_dict value for key '%s' must be a Gnn.Tensor, "
                                "got %s" % (key, type(value).__name__))
        converted[key] = value
    return converted


def _check_location(location):
    """A map_location target: the CPU; CUDA is torch's CPU-build error."""
    try:
        check_device(location)
    except AssertionError:
        raise RuntimeError("Attempting to deserialize object on a CUDA device but "
                           "torch.cuda.is_available() is False. If you are running on a "
                           "CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the "
                           "CPU.") from None


def _is_file(f):
    return hasattr(f, 'write') or hasattr(f, 'read')


def _save_to(f, write):
    """write(path) for a path; for a file object, into a temporary file whose
    bytes are then written to it."""
    if not _is_file(f):
        write(f)
        return
    import tempfile
    with tempfile.TemporaryDirectory(prefix='gnn-save-') as folder:
        path = _os.path.join(folder, 'checkpoint.safetensors')
        write(path)
        with open(path, 'rb') as saved:
            f.write(saved.read())


def _save_state(state, f, metadata):
    """state.save to a path, or its bytes written to a file object."""
    _save_to(f, lambda path: state.save(path, metadata))


def _load_state(f, copy):
    """A safetensors file or a torch.save zip (told by its first bytes), from
    a path or a binary file object."""
    from ._checkpoint import is_torch_file, load_torch
    if not _is_file(f):
        return load_torch(f, copy) if is_torch_file(f) else StateDict.load(f, copy=copy)
    from gi.repository import GLib
    data = f.read()
    if isinstance(data, str):
        raise TypeError('Gnn.load(): the file must be opened in binary mode')
    loader = _CStateDict.load_torch_from_bytes if bytes(data[:4]) == b'PK\x03\x04' else \
        _CStateDict.load_from_bytes
    return loader(GLib.Bytes.new(bytes(data)), Gnn.LoadFlags.COPY)


@export
def save(obj, f, pickle_module=None, pickle_protocol=None, metadata=None):
    """torch.save(obj, f) as a safetensors file (never pickle), to a path
    or a binary file object (BytesIO, open(..., 'wb')): a StateDict or a
    mapping of name to tensor as such, or a checkpoint — tensors, numpy
    arrays, state dicts, and dicts / lists / tuples nesting them with
    numbers, strings and None, say {'epoch': e, 'model':
    model.state_dict(), 'optimizer': opt.state_dict()} — whose tensors go
    under dotted names and whose layout Gnn.load rebuilds (see _checkpoint).
    A module is saved whole — architecture and weights, a model file Gnn.load
    and C's gnn_module_load_model rebuild — and so is a training checkpoint
    {'model': module, 'optimizer': opt, 'scheduler': sched, 'epoch': n}
    (C's GnnCheckpoint); an optimizer alone raises TypeError: save its
    state_dict()."""
    from ._checkpoint import (LAYOUT_KEY, flatten, is_flat_state, is_training_checkpoint,
                              save_model, save_training)
    if isinstance(obj, Gnn.Module):
        _save_to(f, lambda path: save_model(obj, path, metadata))   # a model file
        return
    if is_training_checkpoint(obj):
        _save_to(f, lambda path: save_training(obj, path, metadata))
        return
    if isinstance(obj, Gnn.Optimizer):
        raise TypeError('Gnn.save() saves tensors, state dicts and checkpoints of them '
                        '(safetensors, no pickle): use Gnn.save(optimizer.state_dict(), f)')
    if is_flat_state(obj) and obj:
        _save_state(as_state_dict(obj), f, metadata)
        return
    tensors, layout = flatten(obj)
    meta = dict(metadata) if metadata else {}
    meta[LAYOUT_KEY] = layout
    _save_state(as_state_dict(tensors), f, meta)


@export
def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         **pickle_load_args):
    """torch.load(f) for what Gnn.save writes (or any safetensors file),
    from a path or a binary file object: a state dict as a Gnn.StateDict,
    a checkpoint rebuilt (tensors, numpy arrays, containers, numbers,
    strings), the whole module of a model file or the model, optimizer and
    scheduler of a training checkpoint (classes defined in Python are
    imported only with weights_only=False); and PyTorch's own .pt/.pth
    files, read without Python's pickle (tensors and plain values only,
    whatever weights_only says). map_location takes torch's CPU spellings:
    a device, a {'cuda:0': 'cpu'} mapping (its targets must be the CPU), or
    a function (storage, location) applied to each tensor."""
    if isinstance(map_location, _abc.Mapping):
        for target in map_location.values():
            _check_location(target)
    elif not callable(map_location):
        _check_location(map_location)
    from ._checkpoint import MODEL_KEY, TRAINING_KEY, load_model, load_training
    state = _load_state(f, copy=not mmap)
    if state.get_metadata(MODEL_KEY) is not None:
        return load_model(state, weights_only)
    if state.get_metadata(TRAINING_KEY) is not None:
        return load_training(state, weights_only)
    if callable(map_location) and not isinstance(map_location, Gnn.Device):
        for key in state.get_keys():
            moved = map_location(state.lookup(key), 'cpu')
            if moved is not None and moved is not state.lookup(key):
                if not isinstance(moved, Gnn.Tensor):
                    raise TypeError('map_location must return a Gnn.Tensor, got %s'
                                    % type(moved).__name__)
                state.insert(key, moved)
    from ._checkpoint import LAYOUT_KEY, rebuild
    layout = state.get_metadata(LAYOUT_KEY)
    return state if layout is None else rebuild(state, layout, StateDict)
