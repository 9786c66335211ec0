# _vision_transforms.py: torchvision.transforms over the C transforms —
# torchvision's constructor signatures mapped onto the properties, calling a
# transform on a PIL image, a numpy array, a Gnn image or tensor, the
# callables of Compose and Lambda, InterpolationMode, and
# transforms.functional over the C functions (gnn_vision_*).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import enum
import numbers

from gi.repository import Gio, GLib

from . import _namespaces  # noqa: F401  (creates EXPORTS['vision'])
from ._data import fields
from ._dtype import from_arg as _dtype_arg
from ._gi import EXPORTS, OVERRIDE_MODULE, Gnn, call_c, override, trampoline
from ._signature import torch_class, torch_signature
from ._vision_image import as_input

transforms = EXPORTS['vision'].transforms
functional = transforms.functional = type(transforms)('Gnn.vision.transforms.functional',
                                                       "torchvision.transforms.functional.")


class InterpolationMode(enum.Enum):
    """torchvision's InterpolationMode (NEAREST and BILINEAR are Gnn's)."""
    NEAREST = 'nearest'
    NEAREST_EXACT = 'nearest-exact'
    BILINEAR = 'bilinear'
    BICUBIC = 'bicubic'
    BOX = 'box'
    HAMMING = 'hamming'
    LANCZOS = 'lanczos'


# PIL's resampling codes, which torchvision still takes
_PIL_CODES = {0: 'nearest', 2: 'bilinear', 3: 'bicubic', 4: 'box', 5: 'hamming', 1: 'lanczos'}
_GNN_MODES = {'nearest': Gnn.InterpolationMode.NEAREST, 'bilinear': Gnn.InterpolationMode.BILINEAR}


def interpolation(value):
    """An interpolation argument (InterpolationMode, its string, a PIL code
    or a Gnn.InterpolationMode) as the Gnn enum."""
    if isinstance(value, Gnn.InterpolationMode):
        return value
    name = value.value if isinstance(value, enum.Enum) else value
    if isinstance(name, numbers.Integral) and not isinstance(name, bool):
        name = _PIL_CODES.get(int(name), name)
    if name not in _GNN_MODES:
        raise NotImplementedError('interpolation %r is not supported by Gnn (nearest, bilinear)'
                                  % (value,))
    return _GNN_MODES[name]


_PADDING_MODES = {'constant': Gnn.VisionPaddingMode.CONSTANT, 'edge': Gnn.VisionPaddingMode.EDGE,
                  'reflect': Gnn.VisionPaddingMode.REFLECT,
                  'symmetric': Gnn.VisionPaddingMode.SYMMETRIC}


def padding_mode(value):
    if isinstance(value, Gnn.VisionPaddingMode):
        return value
    if value not in _PADDING_MODES:
        raise ValueError('Padding mode should be either constant, edge, reflect or symmetric')
    return _PADDING_MODES[value]


_padding_mode = padding_mode


def _seq(value, kind):
    if isinstance(value, Gnn.Tensor):
        value = value.numpy().tolist()
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        return [kind(value)]
    return [kind(v) for v in value]


def int64s(value):
    return GLib.Variant('ax', _seq(value, int))


def doubles(value):
    return GLib.Variant('ad', _seq(value, float))


def _prop(name, convert):
    def to_props(value):
        return {} if value is None else {name: convert(value)}
    return to_props


def _pair(prefix, single=None):
    """A (min, max) range as <prefix>_min / <prefix>_max; a single number
    through `single` (torchvision's number forms)."""
    def to_props(value):
        if isinstance(value, numbers.Number) and not isinstance(value, bool):
            if single is None:
                raise TypeError('%s should be a sequence of length 2' % prefix)
            lo, hi = single(float(value))
        else:
            lo, hi = (float(v) for v in value)
        return {prefix + '_min': lo, prefix + '_max': hi}
    return to_props


def _degrees(d):
    if d < 0:
        raise ValueError('If degrees is a single number, it must be positive.')
    return -d, d


def _jitter(center, bound=(0, float('inf'))):
    def single(value):
        if value < 0:
            raise ValueError('If %s is a single number, it must be non negative.' % 'value')
        lo = max(center - value, bound[0]) if center else -value
        return lo, center + value
    return single


def _interpolation_props(value):
    return {'interpolation': interpolation(value)}


def _antialias(value):
    return {'antialias': bool(value)}


def _fill(value):
    if isinstance(value, str):
        raise TypeError('Got inappropriate fill arg')
    return {'fill': doubles(value)}


def _erasing_value(value):
    if isinstance(value, str):
        if value != 'random':
            raise ValueError("If value is str, it should be 'random'")
        return {'value_random': True}
    return {'value': doubles(value)}


# --- calling a transform ------------------------------------------------------------

def apply(transform, img):
    return call_c(Gnn.Transform.apply, transform, as_input(img))


class Transform(Gnn.Transform):
    """A torchvision transform: transform(img) on a PIL image, a numpy array,
    a Gnn image or tensor."""

    __module__ = OVERRIDE_MODULE

    def __call__(self, img):
        return apply(self, img)

    def __getattr__(self, name):
        # torchvision's attributes (t.p, t.size, t.mean) are the properties
        pspec = self.find_property(name.replace('_', '-')) if not name.startswith('_') else None
        if pspec is None:
            raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))
        value = self.get_property(pspec.name)
        if isinstance(value, GLib.Variant):
            value = value.unpack()
        return value

    def __repr__(self):
        props = []
        for pspec in self.list_properties():
            value = self.get_property(pspec.name)
            if isinstance(value, GLib.Variant):
                value = value.unpack()
            if value is None or isinstance(value, Gio.ListModel):
                continue
            if hasattr(value, 'value_nick'):
                value = value.value_nick
            props.append('%s=%r' % (pspec.name.replace('-', '_'), value))
        return '%s(%s)' % (type(self).__name__, ', '.join(props))


Transform = override(Transform)


def _as_transform(value):
    """A transform for C: a Gnn transform as it is, any other callable as
    a Lambda."""
    if isinstance(value, Gnn.Transform):
        return value
    if callable(value):
        wrapped = Lambda(value)
        wrapped._wrapped = True
        return wrapped
    raise TypeError('%r is not callable' % (value,))


def _store(items):
    store = Gio.ListStore.new(Gnn.Transform)
    for t in items:
        store.append(_as_transform(t))
    return store


@override
@torch_signature('transforms', {'transforms': lambda v: {'transforms': _store(v)}})
class Compose(Gnn.Compose):
    """torchvision's Compose: its transforms may be any callables."""

    __module__ = OVERRIDE_MODULE

    @property
    def transforms(self):
        model = self.get_transforms()
        items = [model.get_item(i) for i in range(model.get_n_items())] if model else []
        return [t._lambd if getattr(t, '_wrapped', False) else t for t in items]

    def __repr__(self):
        lines = [self.__class__.__name__ + '(']
        for t in self.transforms:
            lines.append('    {0}'.format(t))
        return '\n'.join(lines) + '\n)'


def _to_result(value):
    """What a Python callable returned, as the tensor C passes on."""
    if isinstance(value, Gnn.Tensor):
        return value
    try:
        return as_input(value)
    except TypeError:
        return fields(value, where='Lambda')[0]


class Lambda(Gnn.Lambda):
    """torchvision's Lambda(lambd): a transform that calls lambd — from C
    too (Compose, a dataset's transform, in the loader's workers). A Python
    class of its own GType (its apply is a Python vfunc); spawned workers
    unpickle it with its function, which must then be importable, as
    torch's spawn requires."""

    __gtype_name__ = 'GnnPyLambda'

    def __init__(self, lambd, **kwargs):
        if not callable(lambd):
            raise TypeError("Argument lambd should be callable, got %r" % type(lambd).__name__)
        Gnn.Lambda.__init__(self, **kwargs)
        self._lambd = lambd
        self._wrapped = False

    def __call__(self, img):
        return self._lambd(img)

    def _apply(self, input):
        return _to_result(self._lambd(input))

    # a vfunc called from C: its exceptions cross C as GLib.Errors
    do_apply = trampoline(_apply, 'Lambda')

    def __repr__(self):
        return 'Lambda()'


class TargetLambda(Lambda):
    """A target_transform given as a function: called with the label as a
    Python int, as torchvision's datasets call it."""

    __gtype_name__ = 'GnnPyTargetLambda'

    def _apply(self, input):
        label = input.item() if input.get_ndim() == 0 else input
        if isinstance(label, float) and input.get_dtype() not in (Gnn.DType.F32, Gnn.DType.F64):
            label = int(label)
        return _to_result(self._lambd(label))

    do_apply = trampoline(_apply, 'target_transform')
EXPORTS['Lambda'] = Lambda


SIZE = _prop('size', int64s)

torch_class('ToTensor', '')
torch_class('PILToTensor', '')
torch_class('Normalize', 'mean, std, inplace=False',
            {'mean': _prop('mean', doubles), 'std': _prop('std', doubles)})
torch_class('Resize', "size, interpolation='bilinear', max_size=None, antialias=None",
            {'size': SIZE, 'interpolation': _interpolation_props, 'antialias': _antialias,
             'max_size': _prop('max_size', int)})
torch_class('CenterCrop', 'size', {'size': SIZE})
torch_class('RandomCrop', "size, padding=None, pad_if_needed=False, fill=0, "
                          "padding_mode='constant'",
            {'size': SIZE, 'padding': _prop('padding', int64s), 'fill': _fill,
             'padding_mode': lambda v: {'padding_mode': padding_mode(v)}})
torch_class('RandomResizedCrop', "size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), "
                                 "interpolation='bilinear', antialias=None",
            {'size': SIZE, 'scale': _pair('scale'), 'ratio': _pair('ratio'),
             'interpolation': _interpolation_props, 'antialias': _antialias})
torch_class('RandomHorizontalFlip', 'p=0.5')
torch_class('RandomVerticalFlip', 'p=0.5')
torch_class('RandomRotation', "degrees, interpolation='nearest', expand=False, center=None, "
                              "fill=0, resample=None",
            {'degrees': _pair('degrees', _degrees), 'interpolation': _interpolation_props,
             'center': _prop('center', doubles), 'fill': _fill,
             'resample': lambda v: {} if v is None else _interpolation_props(v)})
torch_class('ColorJitter', 'brightness=0, contrast=0, saturation=0, hue=0',
            {'brightness': _pair('brightness', _jitter(1.0)),
             'contrast': _pair('contrast', _jitter(1.0)),
             'saturation': _pair('saturation', _jitter(1.0)),
             'hue': _pair('hue', _jitter(0.0))})
torch_class('Grayscale', 'num_output_channels=1')
torch_class('Pad', "padding, fill=0, padding_mode='constant'",
            {'padding': _prop('padding', int64s), 'fill': _fill,
             'padding_mode': lambda v: {'padding_mode': padding_mode(v)}})
torch_class('RandomErasing', 'p=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, '
                             'inplace=False',
            {'scale': _pair('scale'), 'ratio': _pair('ratio'), 'value': _erasing_value})
torch_class('ConvertImageDtype', 'dtype', {'dtype': lambda v: {'dtype': int(_dtype_arg(v))}})

for _name in ('Compose', 'ToTensor', 'PILToTensor', 'Normalize', 'Lambda', 'Resize',
              'CenterCrop', 'RandomCrop', 'RandomResizedCrop', 'RandomHorizontalFlip',
              'RandomVerticalFlip', 'RandomRotation', 'ColorJitter', 'Grayscale', 'Pad',
              'RandomErasing', 'ConvertImageDtype'):
    setattr(transforms, _name, EXPORTS[_name])
transforms.InterpolationMode = InterpolationMode


# --- transforms.functional -------------------------------------------------------------

def _size_list(size):
    return _seq(size, int)


def _fills(fill):
    return [] if fill is None else _seq(fill, float)


def _img(img):
    return as_input(img)


def to_tensor(pic):
    return call_c(Gnn.vision_to_tensor, _img(pic))


def pil_to_tensor(pic):
    return call_c(Gnn.vision_pil_to_tensor, _img(pic))


def to_pil_image(pic, mode=None):
    return call_c(Gnn.vision_to_image, _img(pic))


def normalize(tensor, mean, std, inplace=False):
    return call_c(Gnn.vision_normalize, _img(tensor), _seq(mean, float), _seq(std, float),
                  bool(inplace))


def convert_image_dtype(image, dtype=None):
    from ._dtype import float32
    return call_c(Gnn.vision_convert_image_dtype, _img(image),
                  _dtype_arg(float32 if dtype is None else dtype))


def resize(img, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=None):
    return call_c(Gnn.vision_resize, _img(img), _size_list(size), _interp(interpolation),
                  -1 if max_size is None else int(max_size), bool(antialias))


_interp = interpolation


def crop(img, top, left, height, width):
    return call_c(Gnn.vision_crop, _img(img), int(top), int(left), int(height), int(width))


def center_crop(img, output_size):
    return call_c(Gnn.vision_center_crop, _img(img), _size_list(output_size))


def resized_crop(img, top, left, height, width, size,
                 interpolation=InterpolationMode.BILINEAR, antialias=None):
    return call_c(Gnn.vision_resized_crop, _img(img), int(top), int(left), int(height),
                  int(width), _size_list(size), _interp(interpolation), bool(antialias))


def hflip(img):
    return call_c(Gnn.vision_hflip, _img(img))


def vflip(img):
    return call_c(Gnn.vision_vflip, _img(img))


def pad(img, padding, fill=0, padding_mode='constant'):
    return call_c(Gnn.vision_pad, _img(img), _seq(padding, int), _fills(fill),
                  _padding_mode(padding_mode))


def rotate(img, angle, interpolation=InterpolationMode.NEAREST, expand=False, center=None,
           fill=None, resample=None):
    return call_c(Gnn.vision_rotate, _img(img), float(angle), _interp(interpolation),
                  bool(expand), [] if center is None else _seq(center, float), _fills(fill))


def erase(img, i, j, h, w, v, inplace=False):
    return call_c(Gnn.vision_erase, _img(img), int(i), int(j), int(h), int(w), _img(v),
                  bool(inplace))


def rgb_to_grayscale(img, num_output_channels=1):
    return call_c(Gnn.vision_rgb_to_grayscale, _img(img), int(num_output_channels))


to_grayscale = rgb_to_grayscale


def adjust_brightness(img, brightness_factor):
    return call_c(Gnn.vision_adjust_brightness, _img(img), float(brightness_factor))


def adjust_contrast(img, contrast_factor):
    return call_c(Gnn.vision_adjust_contrast, _img(img), float(contrast_factor))


def adjust_saturation(img, saturation_factor):
    return call_c(Gnn.vision_adjust_saturation, _img(img), float(saturation_factor))


def adjust_hue(img, hue_factor):
    return call_c(Gnn.vision_adjust_hue, _img(img), float(hue_factor))


for _f in (to_tensor, pil_to_tensor, to_pil_image, normalize, convert_image_dtype, resize, crop,
           center_crop, resized_crop, hflip, vflip, pad, rotate, erase, rgb_to_grayscale,
           adjust_brightness, adjust_contrast, adjust_saturation, adjust_hue):
    setattr(functional, _f.__name__, _f)
functional.to_grayscale = to_grayscale
functional.InterpolationMode = InterpolationMode
