# _tensor_index.py: torch's indexing spellings over the C view and gather
# operations: ints, slices (any step), None, ..., boolean masks and integer
# tensors/lists/arrays, for reading (t[k]) and writing (t[k] = v).
#
# Reading: ints and slices are views (select/slice); integer indices and
# masks gather with index_select (a copy that autograd follows). Writing goes through a view when the key is basic; otherwise
# the key is applied to the element positions (an arange of t's shape) and
# the values are copied to those positions with index_copy_. Every check
# and position is computed by the library's ops.
#
# Keys are first read as torch 1.13 reads them: a short list (or 2-d numpy
# array) holding lists, tensors, slices, None or ... is a tuple of indices
# (x[[[0, 1], [1, 2]]] is x[[0, 1], [1, 2]]), and a uint8 index is a mask,
# with torch's deprecation warning.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc
import numbers
import warnings

from . import _dtype
from ._gi import Gnn
from ._tensor_data import from_data

_INT_DTYPES = (Gnn.DType.I64, Gnn.DType.I32, Gnn.DType.I16, Gnn.DType.I8, Gnn.DType.U8)


def _is_int(k):
    return isinstance(k, numbers.Integral) and not isinstance(k, bool)


def _is_advanced(k):
    return isinstance(k, (Gnn.Tensor, list, bool, range)) or _dtype.is_ndarray(k)


_UINT8_INDEX = ('indexing with dtype torch.uint8 is now deprecated, please use a dtype '
                'torch.bool instead.')
# torch's t[mask] = scalar is masked_fill_, which words it so
_UINT8_MASKED_FILL = ('masked_fill_ received a mask with dtype torch.uint8, this behavior is now '
                      'deprecated,please use a mask with dtype torch.bool instead.')


def _as_tensor(k, uint8_warning=_UINT8_INDEX):
    """An advanced index as a tensor (bool or int64; uint8 is a mask)."""
    if not isinstance(k, Gnn.Tensor):
        if isinstance(k, range):
            k = list(k)
        if isinstance(k, list) and not k:
            return Gnn.Tensor.zeros([0], Gnn.DType.I64)
        k = from_data(k)
        if _dtype.is_floating(k.get_dtype()):
            raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
    if k.get_dtype() == Gnn.DType.U8:
        warnings.warn(uint8_warning, UserWarning, stacklevel=5)
        return Gnn.Tensor.to_dtype(k, Gnn.DType.BOOL)
    if isinstance(k, Gnn.Tensor):
        return k
    return k


def _number(value):
    return Gnn.Tensor.new_wrapped_int(value)


def _checked_positions(index, dim, size):
    """An int index tensor as int64 positions in [0, size) (negative ones
    counted from the end), with torch's IndexError for the first bad one."""
    if index.get_dtype() not in _INT_DTYPES:
        raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
    index = index.to_dtype(Gnn.DType.I64)
    bad = Gnn.Tensor.logical_or(Gnn.Tensor.lt(index, _number(-size)),
                                Gnn.Tensor.ge(index, _number(size)))
    if Gnn.Tensor.any(bad, [], False).item():
        first = Gnn.Tensor.masked_select(index, bad)
        raise IndexError('index %d is out of bounds for dimension %d with size %d'
                         % (int(Gnn.Tensor.select(first, 0, 0).item()), dim, size))
    return Gnn.Tensor.remainder(index, _number(max(size, 1)))


def _mask_positions(mask):
    """The flat positions of a mask's true elements (int64, row-major)."""
    flat = Gnn.Tensor.reshape(mask, [-1])
    return Gnn.Tensor.reshape(Gnn.Tensor.nonzero(flat), [-1])


def _check_mask(mshape, shape, dim, offset=0):
    for i, n in enumerate(mshape):
        if dim + i >= len(shape) or shape[dim + i] != n:
            raise IndexError('The shape of the mask [%s] at index %d does not match the '
                             'shape of the indexed tensor [%s] at index %d'
                             % (', '.join(map(str, mshape)), i + offset,
                                ', '.join(map(str, shape)), dim + i))


def _is_sequence(k):
    return (isinstance(k, collections.abc.Sequence) and not isinstance(k, (str, bytes))) or \
        (_dtype.is_ndarray(k) and k.ndim > 0)


def _sequence_is_tuple(key):
    """torch's treatSequenceAsTuple (NumPy's old heuristic): a non-tuple
    sequence shorter than 32 that holds a sequence, a tensor, a slice, None
    or ... is a tuple of indices, not one index."""
    if not _is_sequence(key) or isinstance(key, Gnn.Tensor) or len(key) >= 32:
        return False
    return any(_is_sequence(k) or isinstance(k, (Gnn.Tensor, slice)) or k is None or
               k is Ellipsis for k in key)


def _is_int_tensor_scalar(k):
    return isinstance(k, Gnn.Tensor) and k.get_ndim() == 0 and \
        k.get_dtype() not in (Gnn.DType.BOOL, Gnn.DType.U8)


def _normalize(key, uint8_warning=_UINT8_INDEX):
    """The key as a tuple, advanced indices (lists, arrays, bools, uint8
    tensors) turned into bool or integer tensors."""
    if not isinstance(key, tuple):
        key = tuple(key) if _sequence_is_tuple(key) else (key,)
    return tuple(_as_tensor(k, uint8_warning) if _is_advanced(k) and not _is_int_tensor_scalar(k)
                 else k for k in key)


def _gather(t, dim, index):
    """t indexed along `dim` by an int or bool index tensor."""
    shape = list(t.get_shape())
    if index.get_dtype() == Gnn.DType.BOOL:
        mshape = list(index.get_shape())
        _check_mask(mshape, shape, dim)
        merged = shape[:dim] + [-1] + shape[dim + len(mshape):]
        return Gnn.Tensor.index_select(Gnn.Tensor.reshape(t, merged), dim,
                                       _mask_positions(index))
    positions = _checked_positions(index, dim, t.get_size(dim))
    result = Gnn.Tensor.index_select(t, dim, Gnn.Tensor.reshape(positions, [-1]))
    return Gnn.Tensor.reshape(result, shape[:dim] + list(index.get_shape()) + shape[dim + 1:])


def _broadcast_shape(shapes):
    """numpy's and torch's broadcast of the index shapes, or torch's
    IndexError naming them."""
    ndim = max(len(s) for s in shapes)
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(s):
            j = ndim - len(s) + i
            if n != 1 and out[j] != 1 and out[j] != n:
                raise IndexError('shape mismatch: indexing tensors could not be broadcast '
                                 'together with shapes %s'
                                 % ', '.join('[%s]' % ', '.join(map(str, x)) for x in shapes))
            if n != 1:
                out[j] = n
    return out


def _gather_many(t, entries):
    """t indexed by several integer index arrays at once, paired element by
    element (numpy's and torch's rule, not every combination): (dim, index
    tensor) pairs, a bool mask counting as its nonzero coordinates. The
    broadcast index shape replaces the indexed dims where they were adjacent,
    else it comes first. One gather of flat offsets, which autograd follows."""
    shape = list(t.get_shape())
    dims, indices = [], []
    for dim, index in entries:
        if index.get_dtype() == Gnn.DType.BOOL:
            _check_mask(list(index.get_shape()), shape, dim)
            coords = Gnn.Tensor.unbind(Gnn.Tensor.nonzero(index), 1)
            for i, c in enumerate(coords):
                dims.append(dim + i)
                indices.append(c)
        else:
            dims.append(dim)
            indices.append(_checked_positions(index, dim, shape[dim]))
    bshape = _broadcast_shape([list(i.get_shape()) for i in indices])
    linear = Gnn.Tensor.zeros(bshape, Gnn.DType.I64)
    for dim, positions in zip(dims, indices):
        linear = Gnn.Tensor.add(Gnn.Tensor.mul(linear, _number(shape[dim])), positions)
    rest = [d for d in range(len(shape)) if d not in dims]
    moved = Gnn.Tensor.permute(t, dims + rest)
    flat = Gnn.Tensor.reshape(moved, [-1] + [shape[d] for d in rest])
    picked = Gnn.Tensor.index_select(flat, 0, Gnn.Tensor.reshape(linear, [-1]))
    out = Gnn.Tensor.reshape(picked, bshape + [shape[d] for d in rest])
    if dims == list(range(dims[0], dims[0] + len(dims))) and dims[0] > 0:
        nb, before = len(bshape), dims[0]
        out = Gnn.Tensor.permute(out, list(range(nb, nb + before)) + list(range(nb)) +
                                 list(range(nb + before, nb + len(rest))))
    return out


def get(t, key):
    """t[key]."""
    key = _normalize(key)
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError('an index can only have a single ellipsis')
    consumed = 0
    for k in key:
        if k is None or k is Ellipsis:
            continue
        if isinstance(k, Gnn.Tensor) and k.get_dtype() == Gnn.DType.BOOL:
            consumed += k.get_ndim()
        else:
            consumed += 1
    ndim = t.get_ndim()
    if consumed > ndim:
        raise IndexError('too many indices for tensor of dimension %d' % ndim)
    result = t
    dim = 0
    source_dim = 0    # the dimension of t a key indexes (torch's messages name it)
    advanced = []     # (dim, index tensor), gathered after the basic indices
    for k in key:
        if k is Ellipsis:
            dim += ndim - consumed
            source_dim += ndim - consumed
        elif k is None:
            result = Gnn.Tensor.unsqueeze(result, dim)
            dim += 1
        elif _is_int(k) or (isinstance(k, Gnn.Tensor) and k.get_ndim() == 0 and
                            k.get_dtype() != Gnn.DType.BOOL):
            size = result.get_size(dim)
            if not -size <= int(k) < size:     # torch's IndexError, not the C error
                raise IndexError('index %d is out of bounds for dimension %d with size %d'
                                 % (int(k), source_dim, size))
            result = Gnn.Tensor.select(result, dim, int(k))     # removes the dimension
            source_dim += 1
        elif isinstance(k, slice):
            size = result.get_size(dim)
            start, stop, step = k.indices(size)
            if step <= 0:
                raise ValueError('step must be greater than zero')
            result = Gnn.Tensor.slice(result, dim, start, max(start, stop), step)
            dim += 1
            source_dim += 1
        elif _is_advanced(k):
            # Later steps only touch later dims, so @dim stays this index's.
            index = _as_tensor(k)
            advanced.append((dim, index))
            dim += index.get_ndim() if index.get_dtype() == Gnn.DType.BOOL else 1
            source_dim += index.get_ndim() if index.get_dtype() == Gnn.DType.BOOL else 1
        else:
            raise TypeError('Gnn.Tensor indices must be integers, slices, None, ..., '
                            'bool or integer tensors, not %s' % type(k).__name__)
    if len(advanced) == 1:
        return _gather(result, advanced[0][0], advanced[0][1])
    if advanced:
        return _gather_many(result, advanced)
    return result


def fill(t, value):
    """t.fill_(value) with torch's scalar rules: a Python int must fit in
    int64 ("Overflow when unpacking long") and is written exactly
    (fill_int_); a value t's dtype cannot hold is refused by the library
    ("value cannot be converted to type int64_t without overflow")."""
    if isinstance(value, Gnn.Tensor):
        if value.get_ndim() != 0:
            raise RuntimeError('fill_ only supports 0-dimension value tensor but got tensor '
                               'with %d dimensions.' % value.get_ndim())
        value = value.item()
    if isinstance(value, numbers.Integral):
        value = int(value)
        if not -2**63 <= value < 2**63:
            raise RuntimeError('Overflow when unpacking long')
        Gnn.Tensor.fill_int_(t, value)
    else:
        Gnn.Tensor.fill_(t, float(value))


def _is_basic(key):
    return all(_is_int(k) or k is Ellipsis or isinstance(k, slice) for k in key)


def _values(value, dtype):
    """What t[key] = value writes: a tensor, a number (checked as fill_
    checks it) or array data."""
    if isinstance(value, Gnn.Tensor):
        return value if value.get_dtype() == dtype else value.to_dtype(dtype)
    if isinstance(value, numbers.Number):
        cell = Gnn.Tensor.zeros([], dtype)
        fill(cell, value)
        return cell
    return from_data(value).to_dtype(dtype)


def set(t, key, value):
    """t[key] = value (a tensor, a number, a list or a numpy array)."""
    one_value = isinstance(value, numbers.Number) or \
        (isinstance(value, Gnn.Tensor) and value.get_numel() == 1)
    one_index = not isinstance(key, tuple) and not _sequence_is_tuple(key)
    key = _normalize(key, _UINT8_MASKED_FILL if one_value and one_index else _UINT8_INDEX)
    if _is_basic(key):
        view = get(t, key)
        if isinstance(value, numbers.Number):
            fill(view, value)
            return
        values = _values(value, view.get_dtype())
        Gnn.Tensor.copy_(view, Gnn.Tensor.expand(values, view.get_shape()))
        return
    # the key applied to the positions of t's elements picks where to write
    shape = list(t.get_shape())
    positions = get(Gnn.Tensor.reshape(Gnn.Tensor.arange(0, max(t.get_numel(), 0), 1,
                                                         Gnn.DType.I64), shape), key)
    values = Gnn.Tensor.expand(_values(value, t.get_dtype()), list(positions.get_shape()))
    flat_positions = Gnn.Tensor.reshape(positions, [-1])
    flat_values = Gnn.Tensor.reshape(Gnn.Tensor.contiguous(values), [-1])
    if not Gnn.Tensor.is_contiguous(t):
        # out of place, then copied in
        updated = Gnn.Tensor.index_copy(Gnn.Tensor.reshape(t, [-1]), 0, flat_positions,
                                        flat_values)
        Gnn.Tensor.copy_(t, Gnn.Tensor.reshape(updated, shape))
        return
    # into the flat view of t (autograd rebases t's history, as for any
    # in-place op on a view; a leaf that requires grad is refused by copy_
    # with torch's message for it, not the view's)
    if Gnn.is_grad_enabled() and t.get_requires_grad() and Gnn.Tensor.is_leaf(t):
        Gnn.Tensor.copy_(t, t)
    Gnn.Tensor.index_copy_(Gnn.Tensor.reshape(t, [-1]), 0, flat_positions, flat_values)
