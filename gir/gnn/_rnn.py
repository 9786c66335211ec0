# _rnn.py: the recurrent layers' torch constructors and attributes,
# PackedSequence as torch's namedtuple, and torch.nn.utils.rnn's functions
# (Gnn.nn.utils.rnn) over the C functions.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from . import _namespaces  # noqa: F401  (creates Gnn.nn.utils.rnn)
from ._gi import EXPORTS, OVERRIDE_MODULE, Gnn, call_c, export, override
from ._creation import tensor
from ._signature import DEVICE_DTYPE, torch_class

# --- the layers -----------------------------------------------------------------

_RNN_ARGS = ('input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, '
             'bidirectional=False')
_CELL_ARGS = 'input_size, hidden_size, bias=True'


class _RNNAttributes(object):
    """torch's attributes of RNNBase that are not properties."""

    @property
    def bias(self):
        return self.get_property('has-bias')

    @property
    def _flat_weights_names(self):
        return [name for name, _ in self.named_parameters(recurse=False)]

    @property
    def _flat_weights(self):
        return [p for _, p in self.named_parameters(recurse=False)]

    @property
    def all_weights(self):
        """[[weight_ih_lk, weight_hh_lk, ...] per layer and direction]."""
        names = self._flat_weights_names
        per_layer = len(names) // (self.num_layers * (2 if self.bidirectional else 1))
        return [[getattr(self, n) for n in names[i:i + per_layer]]
                for i in range(0, len(names), per_layer)]

    def flatten_parameters(self):
        """torch's: a no-op on the CPU."""


for _name, _signature in (
        # torch 1.13 takes RNNBase's positional arguments; nonlinearity is a keyword
        ('RNN', _RNN_ARGS + ", proj_size=0, device=None, dtype=None, *, nonlinearity='tanh'"),
        ('LSTM', _RNN_ARGS + ', proj_size=0, device=None, dtype=None'),
        ('GRU', _RNN_ARGS + ', proj_size=0, device=None, dtype=None')):
    torch_class(_name, _signature, dict(DEVICE_DTYPE, bias='has_bias'),
                extra=dict((k, v) for k, v in vars(_RNNAttributes).items()
                           if not k.startswith('__')))

torch_class('RNNCell', _CELL_ARGS + ", nonlinearity='tanh', device=None, dtype=None",
            dict(DEVICE_DTYPE, bias='has_bias'))
torch_class('LSTMCell', _CELL_ARGS + ', device=None, dtype=None', dict(DEVICE_DTYPE, bias='has_bias'))
torch_class('GRUCell', _CELL_ARGS + ', device=None, dtype=None', dict(DEVICE_DTYPE, bias='has_bias'))


# --- PackedSequence ---------------------------------------------------------------

def _packed_sequence(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    if batch_sizes is None:
        # torch: PackedSequence((data, batch_sizes))
        if not (isinstance(data, (list, tuple)) and len(data) == 2):
            raise AssertionError()
        data, batch_sizes = data
    return call_c(Gnn.PackedSequence.new, data, batch_sizes, sorted_indices, unsorted_indices)


@override
class PackedSequence(Gnn.PackedSequence):
    """torch.nn.utils.rnn.PackedSequence: its four fields as attributes and
    as a namedtuple's items (`data, batch_sizes, sorted_indices,
    unsorted_indices = packed`)."""

    __module__ = OVERRIDE_MODULE
    _fields = ('data', 'batch_sizes', 'sorted_indices', 'unsorted_indices')

    def __new__(cls, *args, **kwargs):
        return _packed_sequence(*args, **kwargs)

    def __init__(self, data=None, batch_sizes=None, sorted_indices=None,
                 unsorted_indices=None):
        """torch: PackedSequence(data, batch_sizes=None, sorted_indices=None,
        unsorted_indices=None) (built by __new__)."""

    data = property(lambda self: self.get_data())
    batch_sizes = property(lambda self: self.get_batch_sizes())
    sorted_indices = property(lambda self: self.get_sorted_indices())
    unsorted_indices = property(lambda self: self.get_unsorted_indices())

    def __iter__(self):
        return iter((self.data, self.batch_sizes, self.sorted_indices, self.unsorted_indices))

    def __len__(self):
        return 4

    def __getitem__(self, index):
        return tuple(self)[index]

    def __eq__(self, other):
        return tuple(self) == tuple(other) if isinstance(other, (tuple, PackedSequence)) else False

    __hash__ = object.__hash__

    def _asdict(self):
        return dict(zip(self._fields, self))

    def _replace(self, **fields):
        values = dict(self._asdict(), **fields)
        return PackedSequence(**values)

    def __repr__(self):
        return 'PackedSequence(%s)' % ', '.join('%s=%r' % kv for kv in zip(self._fields, self))

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False

    def to(self, *args, **kwargs):
        """torch's: the data converted, the same sequence when nothing changes."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return PackedSequence(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self, *args, **kwargs):
        return self.to(*args, **kwargs)

    def pin_memory(self):
        return self

    def double(self):
        return self.to(dtype=Gnn.DType.F64)

    def float(self):
        return self.to(dtype=Gnn.DType.F32)

    def long(self):
        return self.to(dtype=Gnn.DType.I64)

    def int(self):
        return self.to(dtype=Gnn.DType.I32)


export(PackedSequence, 'PackedSequence')


# --- torch.nn.utils.rnn -------------------------------------------------------------

def _lengths_tensor(lengths):
    if isinstance(lengths, Gnn.Tensor):
        return lengths if lengths.dtype == Gnn.DType.I64 and lengths.dim() == 1 \
            else lengths.to(Gnn.DType.I64)
    return tensor([int(n) for n in lengths], dtype=Gnn.DType.I64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """torch's: packs a padded batch (`lengths` a list or an int64 tensor)."""
    if isinstance(lengths, Gnn.Tensor) and lengths.dim() != 1:
        return call_c(Gnn.pack_padded_sequence, input, lengths, bool(batch_first),
                      bool(enforce_sorted))
    return call_c(Gnn.pack_padded_sequence, input, _lengths_tensor(lengths), bool(batch_first),
                  bool(enforce_sorted))


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """torch's: (padded batch, lengths)."""
    return tuple(call_c(Gnn.PackedSequence.pad, sequence, bool(batch_first),
                        float(padding_value), -1 if total_length is None else int(total_length)))


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """torch's: sequences [L_i, *] stacked into one padded tensor."""
    if isinstance(sequences, Gnn.Tensor):
        sequences = [sequences[i] for i in range(sequences.shape[0])]
    return call_c(Gnn.Tensor.pad_sequence, list(sequences), bool(batch_first), float(padding_value))


def pack_sequence(sequences, enforce_sorted=True):
    """torch's: pad_sequence then pack_padded_sequence."""
    return call_c(Gnn.pack_sequence, list(sequences), bool(enforce_sorted))


def unpack_sequence(packed_sequences):
    """torch's: the sequences of a packed batch, in its original order."""
    return list(call_c(Gnn.unpack_sequence, packed_sequences))


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """torch's: the sequences of a padded batch, each cut to its length."""
    return list(call_c(Gnn.unpad_sequence, padded_sequences, _lengths_tensor(lengths),
                       bool(batch_first)))


_rnn = EXPORTS['nn'].utils.rnn
for _f in (pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence,
           unpack_sequence, unpad_sequence):
    setattr(_rnn, _f.__name__, _f)
_rnn.PackedSequence = PackedSequence
