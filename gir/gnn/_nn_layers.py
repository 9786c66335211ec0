# _nn_layers.py: torch's constructor signatures of the convolution,
# padding, pooling, resampling and normalization layers (Conv1d/2d/3d,
# ConvTranspose*, *Pad*, Adaptive*Pool*, MaxPool1d, AvgPool1d, Upsample*,
# ...), declared per class (see _signature.py), with the converters they
# share: int-or-tuple sizes as per-axis properties, padding strings and
# modes, None as -1, numbers as variants.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from gi.repository import GLib

from ._gi import Gnn
from ._signature import DEVICE_DTYPE, none_or, pair, torch_class


# --- converters: value -> {property: value} -----------------------------------

def axes(prefix, n):
    """An int-or-tuple size as one property per axis: <prefix> for one axis
    (kernel_size for the kernel), <prefix>_h / _w for two, _d / _h / _w for
    three."""
    if n == 1:
        names = ['kernel_size' if prefix == 'kernel' else prefix]
    else:
        names = [prefix + '_' + axis for axis in 'dhw'[3 - n:]]

    def convert(value):
        if isinstance(value, numbers.Integral):
            values = [int(value)] * n
        else:
            values = [int(v) for v in value]
            if len(values) != n:
                raise ValueError('%s must be an int or a tuple of %d ints, got %r'
                                 % (names[0].split('_')[0], n, value))
        return dict(zip(names, values))
    return convert


def conv_padding(n):
    """A convolution's padding: ints, or torch's 'same' / 'valid'."""
    per_axis = axes('padding', n)

    def convert(value):
        if isinstance(value, str):
            if value == 'same':
                return {'padding_same': True}
            if value == 'valid':
                return {}
            raise ValueError('Invalid padding string {!r}, should be one of {}'
                             .format(value, {'valid', 'same'}))
        return per_axis(value)
    return convert


_PADDING_MODES = ('zeros', 'reflect', 'replicate', 'circular')


def padding_mode(value):
    if value not in _PADDING_MODES:
        raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'"
                         .format(set(_PADDING_MODES), value))
    return {'padding_mode': Gnn.PaddingMode(_PADDING_MODES.index(value))}


def zeros_padding_mode(name):
    def convert(value):
        if value != 'zeros':
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(name))
        return {}
    return convert


def sides(n):
    """A padding layer's int-or-tuple padding as its padding-<side>
    properties, torch's order (left, right, top, bottom, front, back)."""
    names = ['padding_' + side for side in ('left', 'right', 'top', 'bottom', 'front', 'back')][:2 * n]

    def convert(value):
        values = [int(value)] * (2 * n) if isinstance(value, numbers.Integral) else [int(v) for v in value]
        if len(values) != 2 * n:
            raise ValueError('padding must be an int or a tuple of %d ints, got %r' % (2 * n, value))
        return dict(zip(names, values))
    return convert


def output_size(n):
    """An adaptive pooling layer's int-or-tuple output_size (None: the
    input's size, -1) as its output-size properties."""
    names = ['output_size'] if n == 1 else ['output_size_' + axis for axis in 'dhw'[3 - n:]]

    def convert(value):
        values = [value] * n if value is None or isinstance(value, numbers.Integral) else list(value)
        if len(values) != n:
            raise ValueError('output_size must be an int, None or a tuple of %d, got %r' % (n, value))
        return dict(zip(names, [-1 if v is None else int(v) for v in values]))
    return convert


def variant_list(name, signature, cast):
    """A number or a tuple of them as an array variant property."""
    def convert(value):
        if value is None:
            return {}
        values = [value] if isinstance(value, numbers.Number) else list(value)
        return {name: GLib.Variant(signature, [cast(v) for v in values])}
    return convert


INTERPOLATE_MODES = ('nearest', 'linear', 'bilinear', 'bicubic', 'trilinear', 'area', 'nearest-exact')


def interpolate_mode(value):
    if value not in INTERPOLATE_MODES:
        raise NotImplementedError('Got unsupported mode %r (expected one of %s)'
                                  % (value, ', '.join(INTERPOLATE_MODES)))
    return {'mode': Gnn.InterpolateMode(INTERPOLATE_MODES.index(value))}


def one_int(name):
    """An int or a 1-tuple (AvgPool1d's _single); None is the default."""
    def convert(value):
        if value is None:
            return {}
        return {name: int(value if isinstance(value, numbers.Integral) else value[0])}
    return convert


def _sizes(value):
    """Unflatten's unflattened_size: a tuple (or list) of ints, as torch
    checks it."""
    if not isinstance(value, (tuple, list)):
        raise TypeError('unflattened_size must be tuple or list, but found type {}'
                        .format(type(value).__name__))
    for i, v in enumerate(value):
        if not isinstance(v, numbers.Integral):
            raise TypeError('unflattened_size must be tuple of ints, but found element of type {} at pos {}'
                            .format(type(v).__name__, i))
    return [int(v) for v in value]


# --- convolutions ----------------------------------------------------------------

for _n in (1, 2, 3):
    torch_class('Conv%dd' % _n,
                "in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, "
                "bias=True, padding_mode='zeros', device=None, dtype=None",
                dict(DEVICE_DTYPE, kernel_size=axes('kernel', _n), stride=axes('stride', _n),
                     padding=conv_padding(_n), dilation=axes('dilation', _n), bias='has_bias',
                     padding_mode=padding_mode))
    torch_class('ConvTranspose%dd' % _n,
                "in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, "
                "groups=1, bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None",
                dict(DEVICE_DTYPE, kernel_size=axes('kernel', _n), stride=axes('stride', _n),
                     padding=axes('padding', _n), output_padding=axes('output_padding', _n),
                     dilation=axes('dilation', _n), bias='has_bias',
                     padding_mode=zeros_padding_mode('ConvTranspose%dd' % _n)))

# --- padding ----------------------------------------------------------------------

for _n in (1, 2, 3):
    torch_class('ConstantPad%dd' % _n, 'padding, value', {'padding': sides(_n)})
    torch_class('ReflectionPad%dd' % _n, 'padding', {'padding': sides(_n)})
    torch_class('ReplicationPad%dd' % _n, 'padding', {'padding': sides(_n)})
torch_class('ZeroPad2d', 'padding', {'padding': sides(2)})

# --- pooling ----------------------------------------------------------------------

for _n in (1, 2, 3):
    torch_class('AdaptiveAvgPool%dd' % _n, 'output_size', {'output_size': output_size(_n)})
    torch_class('AdaptiveMaxPool%dd' % _n, 'output_size, return_indices=False',
                {'output_size': output_size(_n)})
torch_class('MaxPool1d', 'kernel_size, stride=None, padding=0, dilation=1, return_indices=False, '
            'ceil_mode=False', {'stride': none_or('stride')})
for _n in (1, 2, 3):
    torch_class('MaxUnpool%dd' % _n, 'kernel_size, stride=None, padding=0',
                {'kernel_size': axes('kernel', _n), 'padding': axes('padding', _n),
                 'stride': lambda value, _n=_n: {} if value is None else axes('stride', _n)(value)})
def output_ratios(n):
    """FractionalMaxPool's output_ratio: a number or a tuple as per-axis
    float properties (torch reads the first n)."""
    names = ['output_ratio_' + axis for axis in 'dhw'[3 - n:]]

    def convert(value):
        if value is None:
            return {}
        values = [float(value)] * n if isinstance(value, numbers.Real) else [float(v) for v in value]
        return dict(zip(names, values))
    return convert


for _n in (2, 3):
    torch_class('FractionalMaxPool%dd' % _n,
                'kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None',
                {'kernel_size': axes('kernel', _n), 'output_ratio': output_ratios(_n),
                 'output_size': lambda value, _n=_n: {} if value is None else axes('output', _n)(value),
                 '_random_samples': none_or('random_samples')})

torch_class('LPPool1d', 'norm_type, kernel_size, stride=None, ceil_mode=False',
            {'norm_type': lambda value: {'norm_type': float(value)}, 'stride': none_or('stride')})
torch_class('LPPool2d', 'norm_type, kernel_size, stride=None, ceil_mode=False',
            {'norm_type': lambda value: {'norm_type': float(value)}, 'kernel_size': axes('kernel', 2),
             'stride': lambda value: {} if value is None else axes('stride', 2)(value)})
torch_class('ChannelShuffle', 'groups')
torch_class('MaxPool3d', 'kernel_size, stride=None, padding=0, dilation=1, return_indices=False, '
            'ceil_mode=False',
            {'kernel_size': axes('kernel', 3), 'padding': axes('padding', 3), 'dilation': axes('dilation', 3),
             'stride': lambda value: {} if value is None else axes('stride', 3)(value)})
torch_class('AvgPool3d', 'kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, '
            'divisor_override=None',
            {'kernel_size': axes('kernel', 3), 'padding': axes('padding', 3),
             'stride': lambda value: {} if value is None else axes('stride', 3)(value),
             'divisor_override': none_or('divisor_override')})
torch_class('AvgPool1d', 'kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True',
            {'kernel_size': one_int('kernel_size'), 'stride': one_int('stride'),
             'padding': one_int('padding')})

# --- resampling -------------------------------------------------------------------

_SIZE_OR_SCALE = {'size': variant_list('size', 'ax', int),
                  'scale_factor': variant_list('scale_factor', 'ad', float)}
torch_class('Upsample', "size=None, scale_factor=None, mode='nearest', align_corners=None, "
            "recompute_scale_factor=None",
            dict(_SIZE_OR_SCALE, mode=interpolate_mode, align_corners=none_or('align_corners'),
                 recompute_scale_factor=none_or('recompute_scale_factor')))
torch_class('UpsamplingNearest2d', 'size=None, scale_factor=None', _SIZE_OR_SCALE)
torch_class('UpsamplingBilinear2d', 'size=None, scale_factor=None', _SIZE_OR_SCALE)

# --- normalization ----------------------------------------------------------------

torch_class('GroupNorm', 'num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None',
            DEVICE_DTYPE)
for _n in (1, 2, 3):
    torch_class('InstanceNorm%dd' % _n, 'num_features, eps=1e-05, momentum=0.1, affine=False, '
                'track_running_stats=False, device=None, dtype=None', DEVICE_DTYPE)
torch_class('LocalResponseNorm', 'size, alpha=0.0001, beta=0.75, k=1.0')

# --- dropout ----------------------------------------------------------------------

for _name in ('Dropout1d', 'Dropout2d', 'Dropout3d', 'AlphaDropout', 'FeatureAlphaDropout'):
    torch_class(_name, 'p=0.5, inplace=False')

# --- reshaping and blocks ---------------------------------------------------------

torch_class('PixelShuffle', 'upscale_factor')
torch_class('PixelUnshuffle', 'downscale_factor')
torch_class('Unflatten', 'dim, unflattened_size',
            {'unflattened_size': lambda v: {'unflattened_size': GLib.Variant('ax', _sizes(v))}})
torch_class('Unfold', 'kernel_size, dilation=1, padding=0, stride=1',
            {'kernel_size': pair('kernel'), 'dilation': pair('dilation'), 'padding': pair('padding'),
             'stride': pair('stride')})
torch_class('Fold', 'output_size, kernel_size, dilation=1, padding=0, stride=1',
            {'output_size': pair('output'), 'kernel_size': pair('kernel'), 'dilation': pair('dilation'),
             'padding': pair('padding'), 'stride': pair('stride')})
