# _tensor_index_put.py: torch's index_put_ / index_put (accumulate=) over
# gnn-tensor-index-put.c. Argument mapping only: the indices tuple (tensors,
# or lists and arrays made tensors) and the values, as torch takes them.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import Gnn, export
from ._tensor import Tensor
from ._tensor_data import from_data


def _indices(indices):
    if isinstance(indices, Gnn.Tensor):
        raise TypeError('index_put_(): argument \'indices\' (position 1) must be tuple of Tensors, '
                        'not Tensor')
    return [k if isinstance(k, Gnn.Tensor) else from_data(k) for k in indices]


def index_put_(self, indices, values, accumulate=False):
    Gnn.Tensor.index_put_(self, _indices(indices), values, bool(accumulate))
    return self


def index_put(self, indices, values, accumulate=False):
    return Gnn.Tensor.index_put(self, _indices(indices), values, bool(accumulate))


Tensor.index_put_ = index_put_
Tensor.index_put = index_put
export(index_put)
