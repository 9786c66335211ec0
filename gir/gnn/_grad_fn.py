# _grad_fn.py: tensor.grad_fn as torch shows it — an object whose type is
# named after the node (type(y.grad_fn).__name__ == 'MulBackward0'), with
# name(), next_functions ((node or None, input_nr), ...), AccumulateGrad's
# variable, printed <MulBackward0 object at 0x...>; None for leaves. The
# graph is the library's (Gnn.GradFn); this module only gives it torch's
# Python face.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import weakref

from ._gi import Gnn
from ._tensor import Tensor


class Node(object):
    """A node of the autograd graph (torch's grad_fn objects)."""

    __slots__ = ('_node', '__weakref__')

    def name(self):
        return self._node.get_name()

    @property
    def next_functions(self):
        functions = []
        for i in range(self._node.get_n_next_functions()):
            node, input_nr = self._node.get_next_function(i)
            functions.append((_wrap(node), input_nr))
        return tuple(functions)

    @property
    def metadata(self):
        return {}

    def __repr__(self):
        return '<%s object at %#x>' % (type(self).__name__, id(self))


class AccumulateGrad(Node):
    """The end of the graph at a leaf: accumulates into variable.grad."""

    __slots__ = ()

    def name(self):
        return 'torch::autograd::AccumulateGrad'    # torch's, verbatim

    @property
    def variable(self):
        return self._node.get_variable()


_classes = {'AccumulateGrad': AccumulateGrad}
_alive = weakref.WeakValueDictionary()    # id of the Gnn.GradFn -> its Node


def _class(name):
    cls = _classes.get(name)
    if cls is None:
        cls = _classes[name] = type(name, (Node,), {'__slots__': ()})
    return cls


def _wrap(node):
    """The Python object for a Gnn.GradFn: the same one while it is alive
    (torch's y.grad_fn is y.grad_fn)."""
    if node is None:
        return None
    obj = _alive.get(id(node))
    if obj is None or obj._node is not node:
        obj = object.__new__(_class(node.get_name()))
        obj._node = node
        _alive[id(node)] = obj
    return obj


def _grad_fn(self):
    """The node that produced this tensor, None for a leaf (torch's grad_fn)."""
    return _wrap(Gnn.Tensor.get_grad_fn(self))


def _detach_(self):
    """t.detach_(): t leaves the graph (a leaf without requires_grad)."""
    Gnn.Tensor.detach_(self)
    return self


Tensor.grad_fn = property(_grad_fn)
Tensor.detach_ = _detach_
Tensor.retain_grad = Gnn.Tensor.retain_grad
Tensor.retains_grad = property(Gnn.Tensor.get_retains_grad)


class _TensorHookHandle(object):
    """torch's RemovableHandle for Tensor.register_hook."""

    __slots__ = ('_tensor', '_id')

    def __init__(self, tensor, hook_id):
        self._tensor, self._id = weakref.ref(tensor), hook_id

    def remove(self):
        tensor = self._tensor()
        if tensor is not None and self._id:
            Gnn.Tensor.remove_hook(tensor, self._id)
        self._id = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _register_hook(self, hook):
    """t.register_hook(hook): hook(grad) during backward, its result (if not
    None) used instead of grad; returns a handle with remove()."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    return _TensorHookHandle(self, Gnn.Tensor.register_hook(self, hook))


Tensor.register_hook = _register_hook
