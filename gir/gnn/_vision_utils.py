# _vision_utils.py: torchvision.utils — make_grid and save_image over the C
# functions (a list of tensors stacked first, file objects written from the
# image C makes).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

from . import _namespaces  # noqa: F401  (creates EXPORTS['vision'])
from ._gi import EXPORTS, Gnn, call_c
from ._vision_image import as_input

utils = EXPORTS['vision'].utils


def _batch(tensor):
    if isinstance(tensor, (list, tuple)):
        for t in tensor:
            if not isinstance(t, Gnn.Tensor):
                raise TypeError('tensor or list of tensors expected, got a list containing %s'
                                % type(t).__name__)
        return call_c(Gnn.Tensor.stack, list(tensor), 0)
    if not isinstance(tensor, Gnn.Tensor):
        raise TypeError('tensor or list of tensors expected, got %s' % type(tensor).__name__)
    return as_input(tensor)


def _grid_args(nrow=8, padding=2, normalize=False, value_range=None, scale_each=False,
               pad_value=0.0, range=None):
    value_range = value_range if value_range is not None else range
    if value_range is not None and not isinstance(value_range, tuple):
        raise TypeError('value_range has to be a tuple (min, max) if specified. min and max are '
                        'numbers')
    return (int(nrow), int(padding), bool(normalize),
            [] if value_range is None else [float(v) for v in value_range], bool(scale_each),
            float(pad_value))


def make_grid(tensor, nrow=8, padding=2, normalize=False, value_range=None, scale_each=False,
              pad_value=0.0, **kwargs):
    """torchvision.utils.make_grid."""
    return call_c(Gnn.vision_make_grid, _batch(tensor),
                  *_grid_args(nrow, padding, normalize, value_range, scale_each, pad_value,
                              **kwargs))


def save_image(tensor, fp, format=None, **kwargs):
    """torchvision.utils.save_image: the grid as a PNG (or JPEG) file, to a
    path or a binary file object."""
    image = call_c(Gnn.vision_grid_image, _batch(tensor), *_grid_args(**kwargs))
    image.save(fp if not isinstance(fp, (bytes, os.PathLike)) else os.fsdecode(fp),
               format=format.lower() if isinstance(format, str) else format)


utils.make_grid = make_grid
utils.save_image = save_image
