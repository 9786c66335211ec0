# _vision_image.py: Gnn.Image with PIL's image protocol (size, mode, width,
# height, convert, save, np.asarray), and the conversion of the inputs
# torchvision's callables take (PIL images, numpy arrays) to Gnn's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

from ._gi import OVERRIDE_MODULE, Gnn, call_c, np, override
from ._dtype import tensor_from_numpy

_MODES = {'L': Gnn.ImageMode.L, 'LA': Gnn.ImageMode.LA, 'RGB': Gnn.ImageMode.RGB,
          'RGBA': Gnn.ImageMode.RGBA}
_MODE_NAMES = {int(v): k for k, v in _MODES.items()}


class Image(Gnn.Image):
    """A decoded image: a uint8 tensor [H, W, C] that behaves as a PIL
    image where torchvision's programs use one (size, mode, width, height,
    convert, save, np.asarray)."""

    __module__ = OVERRIDE_MODULE

    @property
    def size(self):
        """(width, height), as PIL's."""
        return (int(self.get_width()), int(self.get_height()))

    @property
    def width(self):
        return int(self.get_width())

    @property
    def height(self):
        return int(self.get_height())

    @property
    def mode(self):
        return _MODE_NAMES[int(self.get_mode())]

    def getbands(self):
        return tuple(self.mode)

    def convert(self, mode):
        """PIL's image.convert(mode) for L, LA, RGB and RGBA."""
        if mode not in _MODES:
            raise ValueError('conversion to mode %r is not supported' % (mode,))
        return call_c(Gnn.Image.convert, self, _MODES[mode])

    def save(self, fp, format=None):
        """PIL's image.save(fp, format): PNG or JPEG, to a path or a file."""
        if isinstance(fp, (str, bytes, os.PathLike)):
            call_c(Gnn.Image.save, self, os.fsdecode(fp), format)
            return
        data = call_c(Gnn.Image.save_to_bytes, self, format or 'png')
        fp.write(data.get_data())

    def __array__(self, dtype=None):
        a = self.numpy()
        if self.get_mode() == Gnn.ImageMode.L:
            a = a[:, :, 0]    # PIL's L images are [H, W] arrays
        return a if dtype is None else a.astype(dtype)

    def __repr__(self):
        return '<gnn.vision Image mode=%s size=%dx%d at 0x%x>' % (
            self.mode, self.width, self.height, id(self))

    __str__ = __repr__


Image = override(Image)


def open_image(path):
    """An image decoded from a file (PIL's Image.open)."""
    return call_c(Gnn.Image.new_from_file, os.fsdecode(path))


def _is_pil(value):
    return type(value).__module__.startswith('PIL.') and hasattr(value, 'getbands')


def as_input(value):
    """What torchvision's callables take, as Gnn takes it: a Gnn tensor or
    image as it is; a PIL image as a Gnn image (its values copied); a numpy
    array as a tensor (torchvision's tensor path)."""
    if isinstance(value, Gnn.Tensor):
        return value
    if _is_pil(value):
        mode = value.mode
        if mode not in _MODES:
            value = value.convert('RGB')
        return image_from_array(np.asarray(value))
    if np is not None and isinstance(value, np.ndarray):
        return tensor_from_numpy(value)
    raise TypeError('img should be a Gnn Image, a PIL Image or a Tensor. Got %s'
                    % type(value).__name__)


def image_from_array(array):
    """A uint8 array [H, W] or [H, W, C] (C of 1 to 4) as an image."""
    array = np.ascontiguousarray(array, dtype=np.uint8)
    return call_c(Gnn.Image.new_from_tensor, tensor_from_numpy(array))
