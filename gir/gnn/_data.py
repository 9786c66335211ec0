# _data.py: torch.utils.data's protocol over the data classes.
#
# len(dataset), dataset[i] (a tuple, negative indices wrap); a Python
# dataset written torch's way (__len__ / __getitem__) or Gnn's
# (do_get_length / do_get_item); items of tensors, numbers, numpy arrays, or
# tuples / dicts of them (converted like torch's default_collate: int ->
# int64, float -> float64, bool -> bool 0-d tensors; a dict's values in key
# order, batches rebuilt as dicts); Python exceptions in callbacks crossing
# the C library as GLib.Error with the exception and its traceback in the
# message (the C side adds the worker id and sample index), raised by next()
# as torch re-raises them ("Caught KeyError in DataLoader worker process 0
# (sample index 5). Original Traceback ...", of the same type), while
# SystemExit / KeyboardInterrupt reach the caller as themselves; samplers
# iterable with len(); DataLoader with torch's signature (declared below)
# and os.fork() as the fork of worker processes (spawned workers: _spawn).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import numbers
import os
import pickle

from gi.repository import GLib, GObject

from ._gi import (OVERRIDE_MODULE, Gnn, call_c, gobject_created, np, override, park_pending,
                  take_data_exception, trampoline)
from ._signature import (Post, ignore, initable_init, none_or, torch_class, torch_factory,
                         torch_signature)
from ._dtype import tensor_from_numpy
from ._spawn import reduce_gobject, snapshot_classes


def _field(value, where, position):
    """One field of an item or batch as a Gnn.Tensor."""
    if isinstance(value, Gnn.Tensor):
        return value
    is_np_scalar = np is not None and isinstance(value, np.generic)
    if isinstance(value, bool) or (np is not None and isinstance(value, np.bool_)):
        return Gnn.Tensor.new_scalar(float(value), Gnn.DType.BOOL)
    if isinstance(value, numbers.Integral) and not is_np_scalar:
        if -(1 << 53) <= value <= (1 << 53):
            return Gnn.Tensor.new_scalar(float(value), Gnn.DType.I64)
        return Gnn.Tensor.new_from_int64s([value], [])
    if isinstance(value, numbers.Real) and not is_np_scalar:
        return Gnn.Tensor.new_scalar(float(value), Gnn.DType.F64)
    if np is not None and isinstance(value, (np.ndarray, np.generic)):
        return tensor_from_numpy(np.asarray(value))   # a copy, any byte order
    raise TypeError('%s: field %d is a %s; expected a Gnn.Tensor, a number or a numpy array'
                    % (where, position, type(value).__name__))


# A dict item or batch crosses C (and worker processes) as its values plus
# one last field naming the keys: a uint8 tensor of a marker and the keys —
# as JSON when they are all strings, else pickled (torch keeps any key:
# {1: a, 2: b} stays a dict). The default collation stacks the items' tags
# into rows, so a batch of dict items carries it too, whatever the worker
# mode.
_KEY_TAG = b'\x00gnn-dict-keys\x00'
_PICKLED_KEY_TAG = b'\x00gnn-dict-pkeys\x00'


def _key_tag(keys):
    if all(isinstance(k, str) for k in keys):
        data = _KEY_TAG + json.dumps(list(keys)).encode('utf-8')
    else:
        data = _PICKLED_KEY_TAG + pickle.dumps(list(keys), pickle.HIGHEST_PROTOCOL)
    return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(data), Gnn.DType.U8, [len(data)])


def key_tag_keys(t):
    """The keys a tag field (1-d, or rows of one after stacking) names, or None."""
    if not isinstance(t, Gnn.Tensor) or t.get_dtype() != Gnn.DType.U8 or \
            t.get_ndim() not in (1, 2) or t.get_numel() <= len(_KEY_TAG):
        return None
    row = t if t.get_ndim() == 1 else Gnn.Tensor.select(t, 0, 0)
    data = bytes(Gnn.Tensor.get_bytes(row).get_data() or b'')
    if data.startswith(_KEY_TAG):
        return json.loads(data[len(_KEY_TAG):].decode('utf-8'))
    if data.startswith(_PICKLED_KEY_TAG):
        return pickle.loads(data[len(_PICKLED_KEY_TAG):])
    return None


# A bare item (a tensor or a number, not a tuple): one field and a tag of
# its own, so that a batch of them comes back as one tensor, as torch's
# default_collate gives it, not as a 1-list.
_BARE = '<bare>'
_bare_tag_tensor = None


def _bare_tag():
    global _bare_tag_tensor
    if _bare_tag_tensor is None:   # read-only: one for all items
        data = _KEY_TAG + json.dumps(_BARE).encode('utf-8')
        _bare_tag_tensor = Gnn.Tensor.new_from_bytes(GLib.Bytes.new(data), Gnn.DType.U8,
                                                     [len(data)])
    return _bare_tag_tensor


def as_dict(values):
    """`values` (a list of tensors) rebuilt as what the item or batch was:
    a dict if its last field is a key tag, the one value of a bare item,
    else the list itself."""
    keys = key_tag_keys(values[-1]) if values else None
    if keys == _BARE and len(values) == 2:
        return values[0]
    if not isinstance(keys, list) or len(keys) != len(values) - 1:
        return values
    return dict(zip(keys, values[:-1]))


def rebuilt(values):
    """as_dict(values) when it rebuilt something (a dict, a bare value), else None."""
    value = as_dict(values)
    return None if value is values else value


def fields(value, where):
    """An item or batch as a list of tensors; a dict gets a last field
    naming its keys, in its order (see _KEY_TAG)."""
    if isinstance(value, dict):
        keys = list(value)
        return [_field(value[k], where, i) for i, k in enumerate(keys)] + [_key_tag(keys)]
    if isinstance(value, (list, tuple)):
        return [_field(v, where, i) for i, v in enumerate(value)]
    return [_field(value, where, 0), _bare_tag()]


def batch_of(value, where):
    """An item or batch as a Gnn.Batch: a dict with string keys names its
    fields (other keys travel as the key tag of a tuple, see _KEY_TAG), a
    tensor or number is a bare batch, a tuple or list positional fields."""
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        keys = list(value)
        return Gnn.Batch.new_dict(keys, [_field(value[k], where, i) for i, k in enumerate(keys)])
    if isinstance(value, (dict, list, tuple)):
        return Gnn.Batch.new_tuple(fields(value, where))
    return Gnn.Batch.new_bare(_field(value, where, 0))


def from_batch(batch):
    """A Gnn.Batch as torch gives the value: a dict, one tensor, or a list
    of tensors (a dict again when it carries a key tag)."""
    kind = batch.get_kind()
    tensors = list(batch.get_tensors())
    if kind == Gnn.BatchKind.DICT:
        return dict(zip(batch.dup_names(), tensors))
    if kind == Gnn.BatchKind.BARE:
        return tensors[0]
    return as_dict(tensors)


def _guard_vfunc(cls, name, convert, where):
    func = cls.__dict__.get(name)
    if func is not None and not getattr(func, '_gnn_guarded', False):
        setattr(cls, name, trampoline(func, where, convert, control_flow_only=True))


def _get_length_vfunc(func):
    """do_get_length cannot return a GError: an exception is parked and
    raised by the Python call that reached C (len(), iter(), next())."""
    def do_get_length(self):
        try:
            n = func(self)
        except BaseException as exc:
            park_pending(exc)
            return 0
        if isinstance(n, bool) or not isinstance(n, numbers.Integral):
            park_pending(TypeError("'%s' object cannot be interpreted as an integer"
                                   % type(n).__name__))
            return 0
        if n < 0:   # what len() raises, as torch's loader reaches it
            park_pending(ValueError('__len__() should return >= 0'))
            return 0
        return int(n)
    do_get_length.__wrapped__ = func
    do_get_length._gnn_guarded = True
    return do_get_length


def _torch_init(cls):
    """torch's Dataset and Sampler subclasses need not call
    super().__init__() (its tutorials' datasets do not): the __init__ of a
    subclass (its own or a mixin's) that did not create the GObject gets it
    created after it ran (before would make a super().__init__() inside
    create a second one)."""
    owner = next(k for k in cls.__mro__ if '__init__' in k.__dict__)
    if owner is not cls and issubclass(owner, GObject.Object):
        return   # Gnn's own, or a subclass's already wrapped
    init = owner.__dict__['__init__']
    if getattr(init, '_gnn_torch_init', False):
        return

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if not gobject_created(self):
            GObject.Object.__init__(self)
    __init__.__name__, __init__.__qualname__ = init.__name__, init.__qualname__
    __init__.__doc__, __init__.__wrapped__ = init.__doc__, init
    __init__._gnn_torch_init = True
    cls.__init__ = __init__


def _protocol_owner(cls, name, vfunc):
    """The class that gives `cls` torch's `name` (its own body or a plain
    Python base, a mixin) when nothing nearer defines the vfunc, or None."""
    owner = next((k for k in cls.__mro__ if name in k.__dict__ or vfunc in k.__dict__), None)
    if (owner is not None and name in owner.__dict__ and vfunc not in owner.__dict__ and
            (owner is cls or not issubclass(owner, GObject.Object))):
        return owner
    return None


class Dataset(Gnn.Dataset):
    """A Gnn.Dataset with torch's Dataset protocol: len(ds), ds[i] -> tuple.

    Subclasses implement __len__ and __getitem__ (as in torch) or
    do_get_length(self) and do_get_item(self, index); an item may be a
    tensor, number or numpy array, or a tuple/list/dict of them, and may
    raise: the exception text and traceback reach the caller (through
    worker threads or processes)."""

    __module__ = OVERRIDE_MODULE

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _torch_init(cls)
        for name, vfunc in (('__len__', 'do_get_length'), ('__getitem__', 'do_get_item')):
            # torch's protocol, from the class body or a mixin: C calls the vfunc
            owner = _protocol_owner(cls, name, vfunc)
            if owner is not None:
                setattr(cls, vfunc, owner.__dict__[name])
                setattr(cls, name, getattr(Dataset, name))
        length = cls.__dict__.get('do_get_length')
        if length is not None and not getattr(length, '_gnn_guarded', False):
            cls.do_get_length = _get_length_vfunc(length)
        _guard_vfunc(cls, 'do_get_item',
                     lambda value, self, index: fields(value, where=None),
                     lambda self, index: None)
        # the same item with its keys and kind, what the loader collates
        get_item = cls.__dict__.get('do_get_item')
        if get_item is not None and 'do_get_item_batch' not in cls.__dict__:
            cls.do_get_item_batch = trampoline(
                getattr(get_item, '__wrapped__', get_item), lambda self, index: None,
                lambda value, self, index: batch_of(value, None), control_flow_only=True)
        _guard_vfunc(cls, 'do_get_item_batch',
                     lambda value, self, index: (value if isinstance(value, Gnn.Batch)
                                                 else batch_of(value, None)),
                     lambda self, index: None)
        snapshot_classes(cls)   # class attributes as the class statement left them

    def __reduce_ex__(self, protocol):
        # pickle (spawned workers): properties + __dict__, no __init__ call;
        # the class by name, so a script's classes resolve through
        # __main__ (aliased to __mp_main__ in a worker)
        return reduce_gobject(self)

    def __len__(self):
        return call_c(Gnn.Dataset.get_length, self)

    def __getitem__(self, index):
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):
            raise TypeError('dataset indices must be integers, not %s' % type(index).__name__)
        n = len(self)
        i = int(index) + n if index < 0 else int(index)
        if not 0 <= i < n:
            raise IndexError('index %d is out of range for dataset of length %d' % (index, n))
        get_item = getattr(getattr(type(self), 'do_get_item', None), '__wrapped__', None)
        if get_item is not None:
            # a Python subclass read directly: its own exception, of its own
            # type (a KeyError stays one), as torch's ds[i] gives it
            item = tuple(fields(get_item(self, i), where=None))
        else:
            item = tuple(call_c(Gnn.Dataset.get_item, self, i))
        value = rebuilt(list(item))
        return value if value is not None else item


Dataset = override(Dataset)


class Collate(Gnn.Collate):
    """A Gnn.Collate whose do_collate(self, items, n_fields) may return
    tensors, numbers or numpy arrays, and may raise. Items of a dataset that
    returns dicts arrive flat with one more field last, the uint8 key tag
    (see _KEY_TAG): as_dict(fields) rebuilds one; collate_fn functions
    (FunctionCollate) get the dicts themselves."""

    __module__ = OVERRIDE_MODULE

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _guard_vfunc(cls, 'do_collate',
                     lambda value, self, items, n_fields: fields(value, None), None)
        _guard_vfunc(cls, 'do_collate_batch',
                     lambda value, self, items: (value if isinstance(value, Gnn.Batch)
                                                 else batch_of(value, None)), None)

    def __reduce_ex__(self, protocol):
        return reduce_gobject(self)


Collate = override(Collate)


class FunctionCollate(Collate):
    """torch's collate_fn: any callable taking the list of items (tuples of
    tensors, as ds[i] gives them) and returning the batch."""

    __gtype_name__ = 'GnnPyFunctionCollate'

    def __init__(self, func):
        super().__init__()
        self.func = func

    def do_collate(self, items, n_fields):
        n_fields = max(int(n_fields), 1)
        grouped = [tuple(items[i:i + n_fields]) for i in range(0, len(items), n_fields)]
        # dict items reach collate_fn as dicts, bare ones as themselves, as torch gives them
        grouped = [as_dict(list(item)) if rebuilt(list(item)) is not None else item
                   for item in grouped]
        batch = self.func(grouped)
        if isinstance(batch, (list, tuple, dict)):
            return batch
        # One value: tagged with an empty uint8 tensor, so next() gives the
        # value back however the batch crossed (threads or processes).
        return [batch, Gnn.Tensor.empty([0], Gnn.DType.U8)]

    def do_collate_batch(self, items):
        # items as torch gives them: dicts, bare values, tuples
        grouped = [from_batch(item) for item in items]
        grouped = [tuple(item) if isinstance(item, list) else item for item in grouped]
        return batch_of(self.func(grouped), None)

    @staticmethod
    def unpack(batch):
        if len(batch) == 2 and batch[1].get_dtype() == Gnn.DType.U8 and \
                batch[1].get_shape() == [0]:
            return batch[0]
        return as_dict(batch)


class ItemIterator(Gnn.ItemIterator):
    """A Gnn.ItemIterator whose do_next(self) returns an item (tensors,
    numbers, numpy arrays) or None at the end, and may raise."""

    __module__ = OVERRIDE_MODULE

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _guard_vfunc(cls, 'do_next',
                     lambda value, self: None if value is None else fields(value, None), None)
        # the same item with its keys and kind, what the loader collates
        nxt = cls.__dict__.get('do_next')
        if nxt is not None and 'do_next_batch' not in cls.__dict__:
            cls.do_next_batch = trampoline(
                getattr(nxt, '__wrapped__', nxt), None,
                lambda value, self: None if value is None else batch_of(value, None),
                control_flow_only=True)

    def __iter__(self):
        return self

    def __next__(self):
        ok, item = call_c(Gnn.ItemIterator.next, self)
        if not ok:
            raise StopIteration
        value = rebuilt(list(item))   # a dict or a bare item as it was
        return value if value is not None else tuple(item)


ItemIterator = override(ItemIterator)


class WorkerInfo(Gnn.WorkerInfo):
    """torch's WorkerInfo attributes: id, num_workers, seed, dataset (the
    worker's copy), as the IterableDataset sharding recipe reads them."""

    __module__ = OVERRIDE_MODULE

    id = property(lambda self: self.get_id())
    num_workers = property(lambda self: self.get_num_workers())
    seed = property(lambda self: self.get_seed())
    dataset = property(lambda self: self.get_dataset())

    def __repr__(self):
        return 'WorkerInfo(id=%d, num_workers=%d, seed=%d, dataset=%r)' % (
            self.id, self.num_workers, self.seed, self.dataset)


WorkerInfo = override(WorkerInfo)


class PythonIterator(ItemIterator):
    """The items of a Python iterator (what a torch-style
    IterableDataset.__iter__ returns, a generator most often)."""

    __gtype_name__ = 'GnnPyIterator'

    def __init__(self, iterator):
        super().__init__()
        self.iterator = iterator

    def do_next(self):
        return next(self.iterator, None)


class IterableDataset(Gnn.IterableDataset):
    """torch's protocol: a subclass defines __iter__ (a generator, say),
    which the loader calls in each worker (Gnn.get_worker_info() tells
    which); or Gnn's do_create_iterator returning a Gnn.ItemIterator."""

    __module__ = OVERRIDE_MODULE

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        owner = _protocol_owner(cls, '__iter__', 'do_create_iterator')
        if owner is not None:
            make = owner.__dict__['__iter__']
            cls.do_create_iterator = lambda self: PythonIterator(iter(make(self)))
            cls.__iter__ = IterableDataset.__iter__
        _guard_vfunc(cls, 'do_create_iterator', None, None)

    def __iter__(self):
        return iter(call_c(Gnn.IterableDataset.create_iterator, self))


IterableDataset = override(IterableDataset)


class Sampler(Gnn.Sampler):
    """Samplers are iterable (indices as ints) and have len(). A subclass
    may follow torch's protocol: __iter__ yields the epoch's indices,
    __len__ gives their number, and __init__ need not call
    super().__init__() (torch 1.13's takes the data source and ignores it)."""

    __module__ = OVERRIDE_MODULE

    def __init__(self, *data_source, **properties):
        # torch 1.13: Sampler.__init__(self, data_source), which it ignores
        if not gobject_created(self):
            super().__init__(**properties)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _torch_init(cls)
        owner = _protocol_owner(cls, '__iter__', 'do_sample')
        if owner is not None:
            indices = owner.__dict__['__iter__']
            cls.do_sample = lambda self: [int(i) for i in indices(self)]
            cls.__iter__ = Sampler.__iter__
        owner = _protocol_owner(cls, '__len__', 'do_get_length')
        if owner is not None:
            cls.do_get_length = owner.__dict__['__len__']
            cls.__len__ = Sampler.__len__
        length = cls.__dict__.get('do_get_length')
        if length is not None and not getattr(length, '_gnn_guarded', False):
            cls.do_get_length = _get_length_vfunc(length)   # its exception reaches len()
        _guard_vfunc(cls, 'do_sample', None, None)

    def __len__(self):
        # the length may come from a Python dataset's __len__, which raises
        return call_c(Gnn.Sampler.get_length, self)

    def __iter__(self):
        # one epoch's indices (a new draw for random samplers)
        return iter([int(i) for i in call_c(Gnn.Sampler.sample, self)])


Sampler = override(Sampler)


@torch_signature('sampler, batch_size, drop_last')
class BatchSampler(Gnn.BatchSampler):
    """Iterable: yields lists of ints, as torch's BatchSampler."""

    __module__ = OVERRIDE_MODULE

    def __iter__(self):
        indices = list(self.get_property('sampler'))
        size = self.get_property('batch-size')
        drop = self.get_property('drop-last')
        for i in range(0, len(indices), size):
            batch = indices[i:i + size]
            if len(batch) == size or not drop:
                yield batch

    def __len__(self):
        n = len(self.get_property('sampler'))
        size = self.get_property('batch-size')
        return n // size if self.get_property('drop-last') else -(-n // size)


BatchSampler = override(BatchSampler)

WORKER_MODES = {
    'threads': Gnn.WorkerMode.THREADS,
    'processes': Gnn.WorkerMode.PROCESSES,
    'spawn': Gnn.WorkerMode.SPAWN,
}


def stop_workers(obj):
    """Stops the workers of a loader or pass in a C call, which releases
    the GIL, so a worker thread running Python code (get_item, collate,
    worker_init) can finish; dropping the last reference instead would join
    them with the GIL held."""
    try:
        if obj.__grefcount__ == 1:
            obj.run_dispose()
    except TypeError:      # not constructed
        pass


class SequenceDataset(Dataset):
    """Any object with __getitem__ and __len__ (a list of (x, y) pairs, a
    numpy array), as torch's DataLoader takes it."""

    __gtype_name__ = 'GnnPySequenceDataset'

    def __init__(self, data):
        super().__init__()
        self.data = data

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return self.data[index]


class IteratorDataset(IterableDataset):
    """Any iterable without __getitem__ (a generator function's object with
    __iter__), as torch's DataLoader takes it: iterated in each worker."""

    __gtype_name__ = 'GnnPyIteratorDataset'

    def __init__(self, data):
        super().__init__()
        self.data = data

    def __iter__(self):
        return iter(self.data)


class SequenceSampler(Sampler):
    """Any iterable of indices (a list, a range, an object with __iter__
    and __len__) as a sampler, as torch's DataLoader takes it."""

    __gtype_name__ = 'GnnPySequenceSampler'

    def __init__(self, indices):
        super().__init__()
        self.indices = indices

    def __iter__(self):
        return iter(self.indices)

    def __len__(self):
        return len(self.indices)


def as_dataset(value):
    if value is None or isinstance(value, Gnn.Dataset):
        return value
    if hasattr(value, '__getitem__') and hasattr(value, '__len__'):
        return SequenceDataset(value)
    if hasattr(value, '__iter__'):
        return IteratorDataset(value)
    raise TypeError('DataLoader: dataset must be a Gnn.Dataset or have __getitem__ and __len__ '
                    '(or __iter__), not %s' % type(value).__name__)


def as_sampler(value):
    if isinstance(value, Gnn.Sampler):
        return value
    if hasattr(value, '__iter__'):
        return SequenceSampler(value)
    raise TypeError('DataLoader: sampler must be a Gnn.Sampler or an iterable of indices, not %s'
                    % type(value).__name__)


# --- DataLoader's arguments ---------------------------------------------------

def _from_default_group(name, getter):
    """torch's DistributedSampler: num_replicas/rank None -> the default
    process group's world size/rank (without one: 1 replica, rank 0)."""
    def convert(value):
        if value is None and Gnn.distributed_is_initialized():
            value = getattr(Gnn.get_default_process_group(), getter)()
        return {} if value is None else {name: value}
    convert.on_default = True    # also runs when the argument is left out
    return convert


# torch's start methods: fork -> forked processes; spawn and forkserver -> a
# fresh process rebuilding the dataset from its type and properties.
_START_METHODS = {'fork': 'processes', 'spawn': 'spawn', 'forkserver': 'spawn'}


def _worker_context(value):
    if value is None:
        return {}
    name = value if isinstance(value, str) else value.get_start_method()
    if name not in _START_METHODS:
        raise ValueError("multiprocessing_context option should specify a valid start method "
                         "in %r, but got multiprocessing_context=%r"
                         % (list(_START_METHODS), value))
    return _worker_mode(_START_METHODS[name])


def _worker_mode(value):
    """Gnn's own keyword: 'threads', 'processes', 'spawn' or a Gnn.WorkerMode."""
    if isinstance(value, str):
        if value.lower() not in WORKER_MODES:
            raise ValueError("worker_mode should be 'threads', 'processes' or 'spawn', not %r"
                             % value)
        value = WORKER_MODES[value.lower()]
    return {'worker_mode': value}


def _dataset(value):
    # torch takes any object with __getitem__/__len__ (a list of pairs), or
    # __iter__: wrapped in a Gnn dataset
    return {'dataset': as_dataset(value)}


def _sampler(value):
    return {} if value is None else {'sampler': as_sampler(value)}


def _generator_seed(value):
    # torch's loader generator: Gnn's loader draws from its own seeded
    # generator; a Gnn.Generator hands over its seed. Without one, torch
    # draws from its default generator: the loader's seed is drawn from
    # Gnn's (so manual_seed decides the shuffles), unless seed= is given.
    if value is None:
        return {'seed': Gnn.draw_seed(None)}
    return {'seed': value.get_seed()}


_generator_seed.on_default = True


def _collate_fn(loader, func):
    if func is not None:
        loader.set_property('collate', func if hasattr(func, 'do_collate')
                            else FunctionCollate(func))


def _worker_init_fn(loader, func):
    if func is not None:
        connect_worker_init(loader, func)


@torch_signature(
    'dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0, '
    'collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None, '
    'multiprocessing_context=None, generator=None, *, prefetch_factor=2, '
    "persistent_workers=False, pin_memory_device=''",
    {'dataset': _dataset, 'sampler': _sampler, 'shuffle': none_or('shuffle'),
     'collate_fn': Post(_collate_fn), 'pin_memory': ignore, 'pin_memory_device': ignore,
     'worker_init_fn': Post(_worker_init_fn), 'multiprocessing_context': _worker_context,
     'generator': _generator_seed, 'timeout': lambda v: {'timeout': float(v)},
     'worker_mode': _worker_mode})
class DataLoader(Gnn.DataLoader):
    """torch.utils.data.DataLoader's constructor and protocol:

        loader = Gnn.DataLoader(ds, batch_size=64, shuffle=True, num_workers=2)
        len(loader)
        for images, labels in loader: ...

    torch's positional order and keywords, plus every property as a
    keyword; worker_mode also takes 'threads' / 'processes' / 'spawn'. A
    batch is a list of tensors (a dict for dict items)."""

    __module__ = OVERRIDE_MODULE

    def __init__(self, *args, **kwargs):
        # torch checks the settings as it builds the loader, with ValueError
        self._torch_init(*args, **kwargs)
        try:
            call_c(self.validate)
        except GLib.Error as error:
            if error.matches(Gnn.Error.quark(), Gnn.Error.INVALID_ARGUMENT):
                raise ValueError(error.message) from None
            raise

    def __len__(self):
        call_c(self.validate)   # raises PyTorch's argument errors
        return call_c(self.get_length)

    def __iter__(self):
        slot = getattr(self, '_gnn_worker_error', None)
        if slot is not None:
            slot.take()     # an earlier pass's worker_init_fn exception
        it = call_c(self.iter)
        it._gnn_loader = self
        return it

    __del__ = stop_workers

    @property
    def dataset(self):
        return self.get_property('dataset')

    @property
    def batch_size(self):
        return None if self.get_property('batch-sampler') else self.get_property('batch-size')

    @property
    def sampler(self):
        return self.get_property('sampler')

    @property
    def batch_sampler(self):
        return self.get_property('batch-sampler')

    @property
    def num_workers(self):
        return self.get_property('num-workers')

    @property
    def drop_last(self):
        return self.get_property('drop-last')

    # torchdata's StatefulDataLoader names
    def state_dict(self):
        """Where the latest pass stands: batches handed to the caller and the
        generator states, so load_state_dict() + iter() resumes exactly."""
        return call_c(self.get_state)

    def load_state_dict(self, state):
        """The next iter() resumes from @state (from state_dict(), or its print)."""
        if isinstance(state, str):
            state = GLib.Variant.parse(None, state, None, None)
        call_c(self.load_state, state)

    @property
    def collate_fn(self):
        collate = self.get_property('collate')
        return getattr(collate, 'func', collate)


DataLoader = override(DataLoader)


def connect_worker_init(loader, func):
    """torch's worker_init_fn(worker_id) as the worker-init signal. An
    exception is kept for the next next(); in a forked worker the worker
    exits (the parent reports it)."""
    parent = os.getpid()
    error = ErrorSlot()

    def handler(_loader, info):
        try:
            func(info.get_id())
        except BaseException as exc:
            if os.getpid() != parent:
                import traceback
                traceback.print_exc()
                os._exit(1)
            error.set(exc)
    # The handler must not reference the loader (a cycle only the garbage
    # collector frees, joining the workers with the GIL held).
    loader._gnn_worker_error = error
    loader._gnn_worker_init_fn = func   # spawned workers get it pickled (_spawn)
    loader.connect('worker-init', handler)


class ErrorSlot(object):
    """The first exception of a worker_init_fn, for next() to raise."""

    def __init__(self):
        self.exc = None

    def set(self, exc):
        self.exc = self.exc or exc

    def take(self):
        exc, self.exc = self.exc, None
        return exc


_WAIT_SLICE_USEC = 100000   # Ctrl-C is seen within this (0.1 s)


class DataLoaderIter(Gnn.DataLoaderIter):
    """One pass: an iterator of batches (lists of tensors)."""

    __module__ = OVERRIDE_MODULE

    def __iter__(self):
        return self

    def __next__(self):
        loader = getattr(self, '_gnn_loader', None)
        slot = getattr(loader, '_gnn_worker_error', None)
        try:
            ok, batch = self._next_batch()
        except BaseException as exc:
            # a worker_init_fn's exception came first: it is the one raised
            # (and never left for a later pass)
            error = slot.take() if slot is not None else None
            if error is None and isinstance(exc, KeyboardInterrupt):
                # Ctrl-C while waiting for workers: the pass goes on if called
                # again (without workers, a KeyboardInterrupt raised inside
                # the dataset failed its batch and C stopped the pass)
                raise
            self._stop()
            if error is not None:
                raise error from None
            data_exc = take_data_exception(exc) if isinstance(exc, GLib.Error) else None
            if data_exc is not None:
                raise data_exc.with_traceback(data_exc.__traceback__) from None
            raise
        error = slot.take() if slot is not None else None
        if error is not None:
            self._stop()
            raise error
        if not ok:
            raise StopIteration
        if loader is None:
            return list(batch.get_tensors())
        value = from_batch(batch)
        if not isinstance(value, list):
            return value   # named (a dict) or bare
        collate = loader.get_property('collate')
        if isinstance(collate, FunctionCollate):
            return collate.unpack(value)
        return value

    def _next_batch(self):
        # The wait runs in slices: between two, Python runs its signal
        # handlers, so Ctrl-C raises KeyboardInterrupt here (a C wait would
        # retry EINTR forever) and the batch awaited is still delivered by
        # the next call. (Not a GError for 'not yet': PyGObject turns one
        # converted while a signal is pending into a RuntimeError.)
        while True:
            ok, timed_out, batch = call_c(self.next_batch_timeout, _WAIT_SLICE_USEC)
            if not timed_out:
                return ok, batch

    def _stop(self):
        stop_workers(self)

    __del__ = _stop

    def __len__(self):
        n = self.get_length()
        if n < 0:
            raise TypeError('the length of a pass over an IterableDataset is unknown')
        return n


DataLoaderIter = override(DataLoaderIter)


def _worker_fork(*_args):
    # os.fork() runs CPython's before/after-fork hooks (GIL, import lock,
    # threading state), which a fork() from C skips. The child returns 0 into
    # the library's worker loop and never comes back here.
    try:
        return os.fork()
    except OSError:
        return -1


Gnn.set_worker_fork_func(_worker_fork)


def _data_source(value):
    # torch's samplers take any sized object (range(n), a list)
    return {'data_source': as_dataset(value)}


torch_class('RandomSampler', 'data_source, replacement=False, num_samples=None, generator=None',
            {'num_samples': none_or('num_samples'), 'data_source': _data_source})
torch_class('SequentialSampler', 'data_source', {'data_source': _data_source})
torch_class('DistributedSampler', 'dataset, num_replicas=None, rank=None, shuffle=True, seed=0, '
            'drop_last=False',
            {'num_replicas': _from_default_group('num_replicas', 'get_world_size'),
             'rank': _from_default_group('rank', 'get_rank')})


def _tensor_dataset(tensors):
    return Gnn.TensorDataset.new(list(tensors))


def _subset(dataset, indices):
    return Gnn.Subset.new(dataset, [int(i) for i in indices])


def _concat(datasets):
    return Gnn.ConcatDataset.new(list(datasets))


def _subset_random_sampler(indices, generator=None):
    return Gnn.SubsetRandomSampler.new([int(i) for i in indices], generator)


def _weighted_random_sampler(weights, num_samples, replacement=True, generator=None):
    return Gnn.WeightedRandomSampler.new([float(w) for w in weights], int(num_samples),
                                         replacement, generator)


def _tensor_dataset_getitem(self, index):
    """ds[i] as any dataset's; any other index (a slice, a range, a list,
    an index tensor) picks from every tensor, as torch's TensorDataset:
    ds[0:64] is a tuple of 64-row tensors."""
    if isinstance(index, numbers.Integral) and not isinstance(index, bool):
        return Dataset.__getitem__(self, index)
    return tuple(t[index] for t in self.get_tensors())


def _subset_getitem(self, index):
    """torch's Subset: a list of positions picks from the dataset at once."""
    if isinstance(index, list):
        indices = self.indices
        return self.dataset[[indices[i] for i in index]]
    return Dataset.__getitem__(self, index)


# set after the class statement: in its body, Dataset.__init_subclass__
# would take __getitem__ for a Python dataset's and override the C vfunc
_cls = torch_factory('TensorDataset', _tensor_dataset, '*tensors')
_cls.__getitem__ = _tensor_dataset_getitem
_cls.tensors = property(lambda self: tuple(self.get_tensors()), doc='torch: the tensors')
_cls = torch_factory('Subset', _subset, 'dataset, indices')
_cls.__getitem__ = _subset_getitem
_cls.dataset = property(lambda self: self.get_dataset(), doc='torch: the dataset')
_cls.indices = property(lambda self: [int(i) for i in self.get_indices()],
                        doc='torch: the positions in the dataset')
torch_factory('ConcatDataset', _concat, 'datasets')
torch_factory('SubsetRandomSampler', _subset_random_sampler, 'indices, generator=None')
torch_factory('WeightedRandomSampler', _weighted_random_sampler,
              'weights, num_samples, replacement=True, generator=None')


class IdxDataset(Gnn.IdxDataset):
    """Gnn.IdxDataset(images_path=..., labels_path=...) or (images=...,
    labels=...): the files are read (or the tensors checked) at
    construction, and a bad input raises (PyGObject alone never runs
    GInitable.init, which would leave an empty dataset)."""

    __module__ = OVERRIDE_MODULE

    def __init__(self, **kwargs):
        Gnn.IdxDataset.__init__(self, **kwargs)
        initable_init(self)


IdxDataset = override(IdxDataset)
