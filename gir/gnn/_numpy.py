# _numpy.py: t.numpy() and Gnn.from_numpy(a) share memory, as torch's do:
# writing through the array changes the tensor and the other way round.
#
# numpy -> tensor: the tensor is built over the array's memory
# (Gnn.Tensor.new_from_address) with an owner object that holds the array;
# the library keeps the owner, so the array lives as long as any tensor
# (views included) uses its memory. tensor -> numpy: the array is built from
# the tensor's address and strides through numpy's __array_interface__; its
# base holds a detached tensor sharing the storage, so the memory lives as
# long as the array does (even if the tensor gets other storage later).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from gi.repository import GObject

from . import _dtype
from ._gi import Gnn, gnn_error, require_numpy


class ArrayOwner(GObject.Object):
    """Holds a numpy array while the library uses its memory (the library
    references this object; PyGObject keeps its Python side, and so the
    array, alive meanwhile)."""

    __gtype_name__ = 'GnnPyArrayOwner'


class _ArrayInterface(object):
    """What numpy builds a view from; the array keeps it as its base."""

    def __init__(self, interface, keep):
        self.__array_interface__ = interface
        self.keep = keep


_TORCH_SUPPORTED = ('float64, float32, float16, complex64, complex128, int64, int32, int16, '
                    'int8, uint8, and bool')


def array_sharing(tensor):
    """tensor.numpy(): an ndarray over the tensor's memory. Unlike torch, a
    tensor that requires grad is not refused (its data is viewed, as
    t.detach().numpy() does)."""
    np = require_numpy()
    dtype = _dtype.of(tensor.get_dtype())
    name = _dtype.DTYPE_TO_NUMPY.get(dtype)
    if name is None:
        raise TypeError('Got unsupported ScalarType %s' % {
            'bfloat16': 'BFloat16'}.get(repr(dtype)[4:], repr(dtype)[4:]))
    if Gnn.Tensor.is_meta(tensor):
        raise gnn_error(Gnn.Error.NOT_SUPPORTED, 'numpy: tensor has no storage (meta)')
    np_dtype = np.dtype(name)
    shape = tuple(tensor.get_shape())
    strides = tuple(int(s) * np_dtype.itemsize for s in tensor.get_strides())
    interface = {'version': 3, 'shape': shape, 'typestr': np_dtype.str, 'strides': strides,
                 'data': (int(Gnn.Tensor.get_data_address(tensor)), False)}
    return np.asarray(_ArrayInterface(interface, Gnn.Tensor.detach(tensor)))


def tensor_sharing(array):
    """Gnn.from_numpy(array): a tensor over the array's memory, with torch's
    errors. A read-only array is copied instead (writing through a tensor
    into read-only memory could crash the process)."""
    np = require_numpy()
    if not isinstance(array, np.ndarray):
        raise TypeError('expected np.ndarray (got %s)' % type(array).__name__)
    dtype = _dtype.NUMPY_TO_DTYPE.get((array.dtype.kind, array.dtype.itemsize))
    if dtype is None:
        raise TypeError("can't convert np.ndarray of type numpy.%s. The only supported types "
                        "are: %s." % (array.dtype.type.__name__, _TORCH_SUPPORTED))
    if not array.dtype.isnative:
        raise ValueError('given numpy array has byte order different from the native byte '
                         'order. Conversion between byte orders is currently not supported.')
    itemsize = array.dtype.itemsize
    if any(s < 0 for s in array.strides):
        raise ValueError('At least one stride in the given numpy array is negative, and tensors '
                         'with negative strides are not currently supported. (You can probably '
                         'work around this by making a copy of your array  with array.copy().) ')
    if any(s % itemsize for s in array.strides):
        raise ValueError('given numpy array strides not a multiple of the element byte size. '
                         'Copy the numpy array to reallocate the memory.')
    if not array.flags.writeable:
        return _dtype.tensor_from_numpy(array)
    owner = ArrayOwner()
    owner.array = array
    return Gnn.Tensor.new_from_address(array.__array_interface__['data'][0], dtype,
                                       list(array.shape), [s // itemsize for s in array.strides],
                                       owner)
