# _tensor_data.py: Python data as a tensor (torch.tensor's conversion) —
# nested lists and tuples of numbers or one-element tensors, their shape
# and torch's inferred dtype (bools: bool, ints: int64, any float: the
# default float32), built by the library from the flattened values. numpy
# arrays cross over through _numpy; no numpy here.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from . import _dtype
from ._gi import Gnn

_BOOL, _INT, _FLOAT = 0, 1, 2


def _scalar_kind(value):
    if isinstance(value, bool) or _dtype.is_numpy_bool(value):
        return _BOOL
    if isinstance(value, numbers.Integral):
        return _INT
    if isinstance(value, numbers.Real):
        return _FLOAT
    return None


def _flatten(data, depth, shape, flat, kinds):
    """Walks nested sequences, checking every level has one length (torch's
    ValueError otherwise), collecting the leaves."""
    if isinstance(data, Gnn.Tensor):
        if data.get_numel() != 1:
            raise ValueError('only one element tensors can be converted to Python scalars')
        data = data.item()
    kind = _scalar_kind(data)
    if kind is not None:
        if depth < len(shape):
            raise ValueError('expected sequence of length %d at dim %d (got a number)'
                             % (shape[depth], depth))
        flat.append(data)
        kinds.add(kind)
        return
    if not isinstance(data, (list, tuple)):
        raise TypeError('Gnn.tensor(): could not infer dtype of %s' % type(data).__name__)
    if depth == len(shape):
        if flat:
            raise ValueError('expected a number at dim %d (got a sequence)' % depth)
        shape.append(len(data))
    elif shape[depth] != len(data):
        raise ValueError('expected sequence of length %d at dim %d (got %d)'
                         % (shape[depth], depth, len(data)))
    for item in data:
        _flatten(item, depth + 1, shape, flat, kinds)


def from_data(data, dtype=None):
    """A new tensor with torch.tensor's dtype for `data`, or `dtype` (a
    Gnn.DType) converted from the Python values directly (0.1 as float64 is
    the double 0.1, not float32's)."""
    if _dtype.is_ndarray(data):
        t = _dtype.tensor_from_numpy(data)
        return t if dtype is None or dtype == t.get_dtype() else t.to_dtype(dtype)
    shape, flat, kinds = [], [], set()
    _flatten(data, 0, shape, flat, kinds)
    kind = max(kinds) if kinds else _FLOAT
    if dtype is None:
        dtype = (Gnn.DType.F32 if kind == _FLOAT else
                 Gnn.DType.BOOL if kind == _BOOL else Gnn.DType.I64)
    if kind == _FLOAT or _dtype.is_floating(dtype):
        t = Gnn.Tensor.new_from_doubles([float(v) for v in flat], shape)
    else:
        try:
            t = Gnn.Tensor.new_from_int64s([int(v) for v in flat], shape)
        except OverflowError:
            raise RuntimeError('Overflow when unpacking long') from None
    return t if t.get_dtype() == dtype else t.to_dtype(dtype)
