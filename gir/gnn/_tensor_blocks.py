# _tensor_blocks.py: torch's kron, block_diag, diag_embed, rot90, take and
# masked_scatter as Tensor methods and torch.* functions over
# gnn-tensor-blocks.c. Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import Gnn, export
from ._tensor import Tensor
from ._tensor_math import _function, returns_self


def kron(self, other):
    return Gnn.Tensor.kron(self, other)


def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    return Gnn.Tensor.diag_embed(self, int(offset), int(dim1), int(dim2))


def rot90(self, k=1, dims=(0, 1)):
    return Gnn.Tensor.rot90(self, int(k), [int(d) for d in dims])


def take(self, index):
    return Gnn.Tensor.take(self, index)


def masked_scatter(self, mask, source):
    return Gnn.Tensor.masked_scatter(self, mask, source)


for _f in (kron, diag_embed, rot90, take, masked_scatter):
    setattr(Tensor, _f.__name__, _f)
Tensor.masked_scatter_ = returns_self(Gnn.Tensor.masked_scatter_, 'masked_scatter_')
for _name in ('kron', 'diag_embed', 'rot90', 'take', 'masked_scatter'):
    export(_function(_name), _name)


@export
def block_diag(*tensors):
    return Gnn.Tensor.block_diag(list(tensors))
