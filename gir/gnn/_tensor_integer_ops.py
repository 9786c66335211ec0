# _tensor_integer_ops.py: the torch.* spellings of the integer, bitwise and
# logical ops (Gnn.floor_divide, Gnn.bitwise_and, ...); the Tensor methods
# and operators are in _tensor.py, the kernels in C.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import Gnn, export
from ._tensor import Tensor

Tensor.bitwise_not = Gnn.Tensor.bitwise_not
Tensor.bitwise_not_ = lambda self: (Gnn.Tensor.bitwise_not_(self), self)[1]
Tensor.logical_not = Gnn.Tensor.logical_not

for _name in ('floor_divide', 'remainder', 'fmod', 'bitwise_and', 'bitwise_or', 'bitwise_xor',
              'bitwise_not', 'logical_and', 'logical_or', 'logical_xor', 'logical_not', 'atan2',
              'maximum', 'minimum'):
    export(getattr(Tensor, _name), _name)
