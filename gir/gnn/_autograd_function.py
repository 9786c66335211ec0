# _autograd_function.py: torch.autograd.Function — custom ops written in
# Python that join the library's graph. The class protocol is torch's
# (staticmethod forward(ctx, *args) / backward(ctx, *grad_outputs), apply,
# ctx.save_for_backward / saved_tensors / needs_input_grad / mark_dirty /
# mark_non_differentiable / set_materialize_grads, attributes on ctx); the
# graph node, the saving of tensors, the marks and the materialized zero
# gradients are the library's Gnn.AutogradFunction and Gnn.AutogradContext,
# which C and JavaScript subclass the same way. This module maps torch's
# argument lists (any Python values) to the library's lists of tensors.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import functools

from ._gi import EXPORTS, Gnn, call_c, trampoline
from . import _namespaces  # noqa: F401  (torch.autograd's namespace first)


class FunctionCtx(object):
    """The ctx forward and backward share (torch's FunctionCtx)."""

    def __init__(self, context, args):
        object.__setattr__(self, '_context', context)
        object.__setattr__(self, '_positions',
                           [i for i, a in enumerate(args) if isinstance(a, Gnn.Tensor)])
        object.__setattr__(self, '_n_args', len(args))
        object.__setattr__(self, 'materialize_grads', True)

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, Gnn.Tensor):
                raise TypeError('save_for_backward can only save variables, but argument %d '
                                'is not a variable' % tensors.index(t))
        self._context.save_for_backward(list(tensors))

    @property
    def saved_tensors(self):
        return tuple(self._context.get_saved_tensors())

    @property
    def needs_input_grad(self):
        needs = [False] * self._n_args
        for k, i in enumerate(self._positions):
            needs[i] = self._context.needs_input_grad(k)
        return tuple(needs)

    def mark_dirty(self, *tensors):
        self._context.mark_dirty(list(tensors))

    def mark_non_differentiable(self, *tensors):
        self._context.mark_non_differentiable(list(tensors))

    def set_materialize_grads(self, value):
        object.__setattr__(self, 'materialize_grads', bool(value))
        self._context.set_materialize_grads(bool(value))


class _Apply(Gnn.AutogradFunction):
    """One application of a Python Function: the library calls do_forward
    and do_backward, which call the class's static methods with torch's
    argument lists."""

    def __init__(self, cls, args, kwargs):
        super().__init__(name=cls.__name__)
        self.cls = cls
        self.args = args
        self.kwargs = kwargs
        self.ctx = None
        self.outputs = None       # forward's result, non-tensors included
        self.tensor_outputs = []  # positions of the tensors in it

    def _forward(self, context, inputs):
        self.ctx = FunctionCtx(context, self.args)
        result = self.cls.forward(self.ctx, *self.args, **self.kwargs)
        self.outputs = result
        values = result if isinstance(result, tuple) else (result,)
        self.tensor_outputs = [i for i, v in enumerate(values) if isinstance(v, Gnn.Tensor)]
        return [values[i] for i in self.tensor_outputs]

    def _backward(self, context, grad_outputs):
        n = len(self.outputs) if isinstance(self.outputs, tuple) else 1
        grads = [None] * n
        for k, i in enumerate(self.tensor_outputs):
            grads[i] = grad_outputs[k]
        result = self.cls.backward(self.ctx, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        name = self.cls.__name__ + 'Backward'
        n_args = len(self.args)
        if len(result) > n_args and all(r is None for r in result[n_args:]):
            result = result[:n_args]
        if len(result) != n_args:
            raise RuntimeError('function %s returned an incorrect number of gradients '
                               '(expected %d, got %d)' % (name, n_args, len(result)))
        for i, (arg, grad) in enumerate(zip(self.args, result)):
            if grad is not None and not isinstance(arg, Gnn.Tensor):
                raise RuntimeError('function %s returned a gradient different than None at '
                                   'position %d, but the corresponding forward input was not '
                                   'a Variable' % (name, i + 1))
            if grad is not None and not isinstance(grad, Gnn.Tensor):
                raise TypeError('function %s returned a gradient of type %s at position %d; '
                                'expected a Tensor or None'
                                % (name, type(grad).__name__, i + 1))
        return [result[i] for i in self.ctx._positions]

    do_forward = trampoline(_forward, lambda self, *a: self.cls.__name__ + '.forward')
    do_backward = trampoline(_backward, lambda self, *a: self.cls.__name__ + '.backward')


class Function(object):
    """torch.autograd.Function: subclass it with static forward(ctx, *args)
    and backward(ctx, *grad_outputs); call MyFunction.apply(*args)."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError('You must implement the forward function for custom '
                                  'autograd.Function.')

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError('You must implement either the backward or vjp method for '
                                  'your custom autograd.Function to use it with backward '
                                  'mode AD.')

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        application = _Apply(cls, args, kwargs)
        tensors = [a for a in args if isinstance(a, Gnn.Tensor)]
        produced = call_c(Gnn.AutogradFunction.apply, application, tensors)
        outputs = application.outputs
        if not isinstance(outputs, tuple):
            return produced[0] if produced else outputs
        values = list(outputs)
        for k, i in enumerate(application.tensor_outputs):
            values[i] = produced[k]
        return tuple(values)


def once_differentiable(backward):
    """torch.autograd.function.once_differentiable: backward runs without
    recording (as every backward here does unless create_graph)."""
    @functools.wraps(backward)
    def wrapper(ctx, *grad_outputs):
        with EXPORTS['no_grad']():
            return backward(ctx, *grad_outputs)
    return wrapper


_autograd = EXPORTS['autograd']
_autograd.Function = Function
_autograd.function = type(_autograd)('Gnn.autograd.function', "torch.autograd.function.")
for _obj in (Function, FunctionCtx, once_differentiable):
    setattr(_autograd.function, _obj.__name__, _obj)
