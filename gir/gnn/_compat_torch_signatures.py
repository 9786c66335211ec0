# _compat_torch_signatures.py: the former central table of torch's
# constructor signatures, kept empty for branches that still add rows to it.
#
# Signatures are now declared next to each class (see _signature.py and
# docs/python.md). A row added here on an older branch keeps working after
# a merge: torch_class('X') without a signature reads TABLE['X'], and the
# converter names the old rows use are still defined below. To move a row,
# delete it here and write, in the module that overrides X,
#
#     'X': ('signature', {mapping}),        (a row of TABLE)
#  -> torch_class('X', 'signature', {mapping})
#
# with the converters imported from ._signature (pair, only, ignore, Post,
# DEVICE_DTYPE, ...) instead of their underscored names here.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._signature import (DEVICE_DTYPE as _DEVICE_DTYPE, META as _META, Post as _Post,  # noqa: F401
                         DTYPE as _DTYPE, betas as _betas, device as _device, ignore as _ignore,
                         initable_init, none_or as _none_or, only as _only, pair as _pair,
                         pool_stride as _pool_stride, shape_variant as _shape_variant,
                         torch_class, torch_factory, TorchSignature)

_LOSS = {'size_average': _only(None, 'size_average'), 'reduce': _only(None, 'reduce')}
_BATCH_NORM = ('num_features, eps=1e-05, momentum=0.1, affine=True, '
               'track_running_stats=True, device=None, dtype=None', _DEVICE_DTYPE)


_to_dtype = _DTYPE.func


def _add_params(optimizer, params):
    from ._optim import add_param_groups
    add_param_groups(optimizer, params)


# torch class -> (torch signature, {torch argument: property | converter | _Post});
# empty on main: see the comment above.
TABLE = {
}


def torch_init(name, base):
    """The __init__ of a class whose torch counterpart is TABLE[name]."""
    signature, mapping = TABLE[name]
    return TorchSignature(name, signature, mapping).init(base)


def torch_factory_new(factory, signature):
    from ._signature import _factory_new
    return _factory_new(factory, signature)
