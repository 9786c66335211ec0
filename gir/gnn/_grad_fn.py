# _grad_fn.py: tensor.grad_fn as an object (torch's Node): its name(),
# printed as <MulBackward0 object at 0x...>, None for leaves.
#
# next_functions needs the C accessor of the graph's edges
# (Gnn.Tensor.get_grad_fn_next_functions, added with the autograd ops); until
# the typelib has it, reading it raises NotImplementedError saying so.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import Gnn
from ._tensor import Tensor


class GradFn(object):
    """The function that produced a tensor (torch's grad_fn node)."""

    __slots__ = ('_tensor', '_name')

    def __init__(self, tensor, name):
        self._tensor = tensor
        self._name = name

    def name(self):
        return self._name

    @property
    def next_functions(self):
        accessor = getattr(Gnn.Tensor, 'get_grad_fn_next_functions', None)
        if accessor is None:
            raise NotImplementedError("grad_fn.next_functions needs the library's graph "
                                      "accessor, which this build does not have")
        return tuple(accessor(self._tensor))

    @property
    def metadata(self):
        return {}

    def __eq__(self, other):
        return isinstance(other, GradFn) and other._tensor is self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __repr__(self):
        return '<%s object at %#x>' % (self._name, id(self._tensor))


def _grad_fn(self):
    """The node that produced this tensor, None for a leaf (torch's grad_fn)."""
    name = Gnn.Tensor.get_grad_fn_name(self)
    return GradFn(self, name) if name else None


Tensor.grad_fn = property(_grad_fn)
