# _tensor_sample.py: torch's sampling ops over the C ones
# (gnn-tensor-sample.c) — multinomial, bernoulli/bernoulli_, and
# torch.normal with number arguments. Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from ._gi import Gnn, export
from ._tensor import Tensor, shape_arg
from ._tensor_math import with_out


def multinomial(self, num_samples, replacement=False, *, generator=None):
    return Gnn.Tensor.multinomial(self, int(num_samples), bool(replacement), generator)


def bernoulli(self, p=None, *, generator=None):
    """t.bernoulli(): 1 with each element's probability; with a number p,
    a tensor of t's shape and dtype drawn at p."""
    if p is None:
        return Gnn.Tensor.bernoulli(self, generator)
    out = Gnn.Tensor.zeros(list(self.get_shape()), self.get_dtype())
    Gnn.Tensor.bernoulli_(out, float(p), generator)
    return out


def bernoulli_(self, p=0.5, *, generator=None):
    if isinstance(p, Gnn.Tensor):
        Gnn.Tensor.bernoulli_tensor_(self, p, generator)
    else:
        Gnn.Tensor.bernoulli_(self, float(p), generator)
    return self


Tensor.multinomial, Tensor.bernoulli, Tensor.bernoulli_ = multinomial, bernoulli, bernoulli_


@export
@with_out
def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: F811
    return Tensor.multinomial(input, num_samples, replacement, generator=generator)


@export
@with_out
def bernoulli(input, p=None, *, generator=None):  # noqa: F811
    return Tensor.bernoulli(input, p, generator=generator)


@export
@with_out
def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False):
    """torch.normal(mean, std, size): numbers drawn from N(mean, std²)."""
    from ._creation import _finish
    from ._dtype import float32, from_arg
    if not isinstance(mean, numbers.Real) or not isinstance(std, numbers.Real):
        raise NotImplementedError('torch.normal with tensor mean or std is not supported by Gnn '
                                  '(numbers with size= are)')
    if size is None:
        raise TypeError('normal() received an invalid combination of arguments - got (float, '
                        'float), but expected (float mean, float std, tuple of ints size, *, '
                        'Generator generator, Tensor out, torch.dtype dtype)')
    t = Gnn.Tensor.empty(shape_arg((size,)), from_arg(dtype) if dtype is not None else float32)
    Gnn.Tensor.normal_(t, float(mean), float(std), generator)
    return _finish(t, None, requires_grad, device)
