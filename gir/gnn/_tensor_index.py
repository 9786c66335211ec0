# _tensor_index.py: torch's indexing spellings over the C view and gather
# operations: ints, slices (any step), None, ..., boolean masks and integer
# tensors/lists/arrays, for reading (t[k]) and writing (t[k] = v).
#
# Reading: ints and step-1 slices are views (select/narrow); other steps,
# integer indices and masks gather with index_select (a copy that autograd
# follows). Writing goes through a view when the key is basic, else through
# numpy on the elements and copy_ back.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from . import _dtype
from ._dtype import tensor_from_numpy
from ._gi import Gnn, np, require_numpy


def _is_int(k):
    return isinstance(k, numbers.Integral) and not isinstance(k, bool)


def _is_advanced(k):
    if isinstance(k, Gnn.Tensor) or isinstance(k, (list, bool, range)):
        return True
    return np is not None and isinstance(k, np.ndarray)


def _as_tensor(k):
    """An advanced index as a tensor (bool or int64)."""
    if isinstance(k, Gnn.Tensor):
        return k
    np_ = require_numpy()
    array = np_.asarray(k)
    if array.dtype.kind not in 'biu':
        raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
    if array.dtype.kind != 'b':
        array = array.astype(np_.int64)
    return tensor_from_numpy(np_.ascontiguousarray(array))


def _gather(t, dim, index):
    """t indexed along `dim` by an int or bool index tensor."""
    if index.get_dtype() == Gnn.DType.BOOL:
        shape, mshape = t.get_shape(), index.get_shape()
        for i, n in enumerate(mshape):
            if dim + i >= len(shape) or shape[dim + i] != n:
                raise IndexError('The shape of the mask [%s] at index %d does not match the '
                                 'shape of the indexed tensor [%s] at index %d'
                                 % (', '.join(map(str, mshape)), i,
                                    ', '.join(map(str, shape)), dim + i))
        flat = require_numpy().flatnonzero(index.numpy()).astype('int64')
        merged = list(shape[:dim]) + [-1] + list(shape[dim + len(mshape):])
        t = Gnn.Tensor.reshape(t, merged)
        return Gnn.Tensor.index_select(t, dim, tensor_from_numpy(flat))
    if index.get_dtype() not in (Gnn.DType.I64, Gnn.DType.I32, Gnn.DType.I16,
                                 Gnn.DType.I8, Gnn.DType.U8):
        raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
    ishape = index.get_shape()
    size = t.get_size(dim)
    flat = Gnn.Tensor.reshape(index, [-1]).numpy().astype('int64')
    if ((flat < -size) | (flat >= size)).any():
        bad = int(flat[(flat < -size) | (flat >= size)][0])
        raise IndexError('index %d is out of bounds for dimension %d with size %d'
                         % (bad, dim, size))
    flat = flat % max(size, 1)
    result = Gnn.Tensor.index_select(t, dim, tensor_from_numpy(flat))
    shape = t.get_shape()
    return Gnn.Tensor.reshape(result, list(shape[:dim]) + list(ishape) +
                              list(shape[dim + 1:]))


def _int_array(index, dim, size):
    """An int index tensor as int64 numpy values in [0, size), torch's checks."""
    if index.get_dtype() not in (Gnn.DType.I64, Gnn.DType.I32, Gnn.DType.I16,
                                 Gnn.DType.I8, Gnn.DType.U8):
        raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
    values = index.numpy().astype('int64')
    bad = (values < -size) | (values >= size)
    if bad.any():
        raise IndexError('index %d is out of bounds for dimension %d with size %d'
                         % (int(values[bad][0]), dim, size))
    return values % max(size, 1)


def _gather_many(t, entries):
    """t indexed by several integer index arrays at once, paired element by
    element (numpy's and torch's rule, not every combination): (dim, index
    tensor) pairs, a bool mask counting as its nonzero coordinates. The
    broadcast index shape replaces the indexed dims where they were adjacent,
    else it comes first. One gather of flat offsets, which autograd follows."""
    np_ = require_numpy()
    shape = t.get_shape()
    dims, arrays = [], []
    for dim, index in entries:
        if index.get_dtype() == Gnn.DType.BOOL:
            mshape = index.get_shape()
            if tuple(shape[dim:dim + len(mshape)]) != tuple(mshape):
                raise IndexError('The shape of the mask [%s] at index 0 does not match the '
                                 'shape of the indexed tensor [%s] at index %d'
                                 % (', '.join(map(str, mshape)),
                                    ', '.join(map(str, shape)), dim))
            for i, coords in enumerate(np_.nonzero(index.numpy())):
                dims.append(dim + i)
                arrays.append(coords.astype('int64'))
        else:
            dims.append(dim)
            arrays.append(_int_array(index, dim, shape[dim]))
    try:
        arrays = np_.broadcast_arrays(*arrays)
    except ValueError:
        raise IndexError('shape mismatch: indexing tensors could not be broadcast together '
                         'with shapes %s' % ', '.join('[%s]' % ', '.join(map(str, a.shape))
                                                     for a in arrays)) from None
    bshape = list(arrays[0].shape)
    linear = np_.zeros(bshape, dtype='int64')
    for dim, values in zip(dims, arrays):
        linear = linear * shape[dim] + values
    rest = [d for d in range(len(shape)) if d not in dims]
    moved = Gnn.Tensor.permute(t, dims + rest)
    flat = Gnn.Tensor.reshape(moved, [-1] + [shape[d] for d in rest])
    picked = Gnn.Tensor.index_select(flat, 0, tensor_from_numpy(
        np_.ascontiguousarray(linear.reshape(-1))))
    out = Gnn.Tensor.reshape(picked, bshape + [shape[d] for d in rest])
    if dims == list(range(dims[0], dims[0] + len(dims))) and dims[0] > 0:
        nb, before = len(bshape), dims[0]
        out = Gnn.Tensor.permute(out, list(range(nb, nb + before)) + list(range(nb)) +
                                 list(range(nb + before, nb + len(rest))))
    return out


def get(t, key):
    """t[key]."""
    if not isinstance(key, tuple):
        key = (key,)
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
            if step == 1:
                result = Gnn.Tensor.narrow(result, dim, start, max(0, stop - start))
            else:
                picked = require_numpy().arange(start, stop, step, dtype='int64')
                result = Gnn.Tensor.index_select(result, dim, tensor_from_numpy(picked))
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


def _numpy_key(key):
    if not isinstance(key, tuple):
        key = (key,)
    return tuple(k.numpy() if isinstance(k, Gnn.Tensor) else k for k in key)


def _is_basic(key):
    keys = key if isinstance(key, tuple) else (key,)
    return all(_is_int(k) or k is Ellipsis or
               (isinstance(k, slice) and k.step in (None, 1)) for k in keys)


def set(t, key, value):
    """t[key] = value (a tensor, a number or a numpy array)."""
    if _is_basic(key):
        view = get(t, key)
        if isinstance(value, Gnn.Tensor):
            if value.get_dtype() != view.get_dtype():
                value = value.to_dtype(view.get_dtype())
            Gnn.Tensor.copy_(view, Gnn.Tensor.expand(value, view.get_shape()))
        elif isinstance(value, numbers.Real):
            Gnn.Tensor.fill_(view, float(value))
        else:
            array = require_numpy().asarray(
                value, dtype=_dtype.DTYPE_TO_NUMPY[_dtype.of(view.get_dtype())])
            Gnn.Tensor.copy_(view, tensor_from_numpy(
                require_numpy().ascontiguousarray(
                    require_numpy().broadcast_to(array, view.get_shape()))))
        return
    array = t.detach().numpy().copy()
    array[_numpy_key(key)] = value.detach().numpy() if isinstance(value, Gnn.Tensor) else value
    Gnn.Tensor.copy_(t, tensor_from_numpy(array))
