# _tensor_as.py: torch's `*_as` spellings — t.view_as(other),
# reshape_as, expand_as, type_as — each the plain method with other's
# shape or dtype (so they need nothing of their own from the library).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._tensor import Tensor


def view_as(self, other):
    return self.view(other.shape)


def reshape_as(self, other):
    return self.reshape(other.shape)


def expand_as(self, other):
    return self.expand(*other.shape)


def type_as(self, other):
    return self.to(other.dtype)


for _f in (view_as, reshape_as, expand_as, type_as):
    if _f.__name__ not in Tensor.__dict__:      # a method of the library's wins
        setattr(Tensor, _f.__name__, _f)
