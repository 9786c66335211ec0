# _functional_layers.py: torch.nn.functional's convolutions, padding,
# pooling, resampling and normalization spellings (Gnn.functional.conv1d,
# Gnn.functional.pad ...), each mapping torch's arguments onto one C op.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numbers

from ._gi import EXPORTS, Gnn

_MODES = {'constant': Gnn.PaddingMode.CONSTANT, 'reflect': Gnn.PaddingMode.REFLECT,
          'replicate': Gnn.PaddingMode.REPLICATE, 'circular': Gnn.PaddingMode.CIRCULAR}


def _ints(value, n=None):
    """An int or a sequence of ints as a list (an int repeated n times)."""
    if isinstance(value, numbers.Integral):
        return [int(value)] * (n or 1)
    return [int(v) for v in value]


def pad(input, pad, mode='constant', value=None):
    if mode not in _MODES:
        raise NotImplementedError('Unrecognised padding mode ' + str(mode))
    return Gnn.Tensor.pad(input, _ints(pad), _MODES[mode], 0.0 if value is None else float(value))


def _same_padding(input, weight, dilation, n):
    """padding='same': the total dilation (k - 1) split per axis, the odd
    one on the right (torch's _convolution_mode); an uneven split pads the
    input first."""
    kernel = list(weight.shape)[2:]
    dilation = _ints(dilation, n)
    left = [d * (k - 1) // 2 for d, k in zip(dilation, kernel)]
    extra = [d * (k - 1) - 2 * lo for d, k, lo in zip(dilation, kernel, left)]
    if any(extra):
        pads = []
        for e in reversed(extra):
            pads += [0, e]
        input = Gnn.Tensor.pad(input, pads, Gnn.PaddingMode.CONSTANT, 0.0)
    return input, left


def _convolution(n, input, weight, bias, stride, padding, dilation, groups, transposed=False,
                 output_padding=0):
    if isinstance(padding, str):
        if padding == 'valid':
            padding = 0
        elif padding != 'same' or transposed:
            raise RuntimeError("Invalid padding string: '%s'" % padding)
        elif any(s != 1 for s in _ints(stride, n)):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        else:
            input, padding = _same_padding(input, weight, dilation, n)
    return Gnn.Tensor.convolution(input, weight, bias, _ints(stride), _ints(padding),
                                  _ints(dilation), transposed, _ints(output_padding), int(groups))


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution(3, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _convolution(1, input, weight, bias, stride, padding, dilation, groups, True,
                        output_padding)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _convolution(2, input, weight, bias, stride, padding, dilation, groups, True,
                        output_padding)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _convolution(3, input, weight, bias, stride, padding, dilation, groups, True,
                        output_padding)


_INTERPOLATE_MODES = ('nearest', 'linear', 'bilinear', 'bicubic', 'trilinear', 'area', 'nearest-exact')


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode not in _INTERPOLATE_MODES:
        raise NotImplementedError(
            'Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: '
            'nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)'
            % (len(input.shape), mode))
    if antialias:
        raise NotImplementedError('antialias=True is not supported by Gnn')
    if align_corners is not None and mode in ('nearest', 'area', 'nearest-exact'):
        raise ValueError('align_corners option can only be set with the interpolating modes: '
                         'linear | bilinear | bicubic | trilinear')
    sizes = [] if size is None else _ints(size)
    scales = ([] if scale_factor is None else
              [float(scale_factor)] if not hasattr(scale_factor, '__len__') else
              [float(v) for v in scale_factor])
    return Gnn.Tensor.interpolate(input, sizes, scales,
                                  Gnn.InterpolateMode(_INTERPOLATE_MODES.index(mode)),
                                  bool(align_corners), bool(recompute_scale_factor))


def upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode='nearest')


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)


def _output_size(input, output_size, n):
    """torch's adaptive output_size: an int or a tuple, None keeping the
    input's size."""
    sizes = [output_size] * n if output_size is None or isinstance(output_size, numbers.Integral) \
        else list(output_size)
    if len(sizes) != n:
        raise RuntimeError("adaptive pooling's output_size should contain %d ints (got %d)"
                           % (n, len(sizes)))
    shape = list(input.shape)
    return [shape[len(shape) - n + i] if v is None else int(v) for i, v in enumerate(sizes)]


def _adaptive(n, maximum):
    def pool(input, output_size, return_indices=False):
        sizes = _output_size(input, output_size, n)
        if not maximum:
            return Gnn.Tensor.adaptive_avg_pool(input, sizes)
        out, indices = Gnn.Tensor.adaptive_max_pool(input, sizes)
        return (out, indices) if return_indices else out
    pool.__name__ = 'adaptive_%s_pool%dd' % ('max' if maximum else 'avg', n)
    if not maximum:
        def avg(input, output_size):
            return pool(input, output_size)
        avg.__name__ = pool.__name__
        return avg
    return pool


_POOLS = [_adaptive(n, m) for m in (False, True) for n in (1, 2, 3)]


def _pool_stride(stride):
    """torch's stride=None (or an empty list): the kernel size, 0 in C."""
    return 0 if stride is None or (hasattr(stride, '__len__') and len(stride) == 0) else stride


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    args = (input, _ints(kernel_size)[0], _ints(_pool_stride(stride))[0], _ints(padding)[0],
            _ints(dilation)[0], bool(ceil_mode))
    if return_indices:
        return tuple(Gnn.Tensor.max_pool1d_with_indices(*args))
    return Gnn.Tensor.max_pool1d(*args)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    kernel = _ints(kernel_size, 2)
    stride = _pool_stride(stride)
    args = ((input,) + tuple(kernel) + tuple(_ints(stride, 2)) + tuple(_ints(padding, 2)) +
            tuple(_ints(dilation, 2)) + (bool(ceil_mode),))
    if return_indices:
        return tuple(Gnn.Tensor.max_pool2d_with_indices(*args))
    return Gnn.Tensor.max_pool2d(*args)


def max_pool1d_with_indices(*args, **kwargs):
    return max_pool1d(*args, **dict(kwargs, return_indices=True))


def max_pool2d_with_indices(*args, **kwargs):
    return max_pool2d(*args, **dict(kwargs, return_indices=True))


def _max_unpool(n):
    def unpool(input, indices, kernel_size, stride=None, padding=0, output_size=None):
        kernel = _ints(kernel_size, n)
        strides = kernel if stride is None else _ints(stride, n)
        size = None if output_size is None else [int(v) for v in output_size]
        return Gnn.Tensor.max_unpool_with_geometry(input, indices, kernel, strides, _ints(padding, n), size)
    unpool.__name__ = 'max_unpool%dd' % n
    return unpool


def _fractional_max_pool(n, with_indices):
    def pool(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
             _random_samples=None):
        size = None if output_size is None else _ints(output_size, n)
        ratio = None
        if output_ratio is not None:
            ratio = ([float(output_ratio)] * n if isinstance(output_ratio, numbers.Real)
                     else [float(v) for v in output_ratio][:n])
        out, indices = getattr(Gnn.Tensor, 'fractional_max_pool%dd' % n)(
            input, _ints(kernel_size, n), size, ratio, _random_samples)
        return (out, indices) if return_indices or with_indices else out
    pool.__name__ = 'fractional_max_pool%dd%s' % (n, '_with_indices' if with_indices else '')
    return pool


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    out, indices = Gnn.Tensor.max_pool3d(input, _ints(kernel_size, 3), _ints(_pool_stride(stride), 3),
                                         _ints(padding, 3), _ints(dilation, 3), bool(ceil_mode))
    return (out, indices) if return_indices else out


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return Gnn.Tensor.avg_pool3d(input, _ints(kernel_size, 3), _ints(_pool_stride(stride), 3),
                                 _ints(padding, 3), bool(ceil_mode), bool(count_include_pad),
                                 0 if divisor_override is None else int(divisor_override))


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return Gnn.Tensor.avg_pool2d(input, *_ints(kernel_size, 2), *_ints(_pool_stride(stride), 2),
                                 *_ints(padding, 2), bool(ceil_mode), bool(count_include_pad),
                                 0 if divisor_override is None else int(divisor_override))


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return Gnn.Tensor.lp_pool1d(input, float(norm_type), _ints(kernel_size)[0],
                                _ints(_pool_stride(stride))[0], bool(ceil_mode))


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return Gnn.Tensor.lp_pool2d(input, float(norm_type), *_ints(kernel_size, 2),
                                *_ints(_pool_stride(stride), 2), bool(ceil_mode))


def channel_shuffle(input, groups):
    return Gnn.Tensor.channel_shuffle(input, int(groups))


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    if stride is not None and _ints(stride)[0] == 0:
        raise RuntimeError('stride should not be zero')
    stride = 0 if stride is None or (hasattr(stride, '__len__') and len(stride) == 0) else stride
    return Gnn.Tensor.avg_pool1d(input, _ints(kernel_size)[0], _ints(stride)[0], _ints(padding)[0],
                                 bool(ceil_mode), bool(count_include_pad))


_POOLS += [max_pool1d, avg_pool1d, max_pool2d, avg_pool2d, max_pool1d_with_indices, max_pool2d_with_indices,
           max_pool3d, avg_pool3d, lp_pool1d, lp_pool2d, channel_shuffle] + [_max_unpool(n) for n in (1, 2, 3)]
_POOLS += [_fractional_max_pool(n, w) for n in (2, 3) for w in (False, True)]


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    return Gnn.Tensor.group_norm(input, int(num_groups), weight, bias, float(eps))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-05):
    return Gnn.Tensor.instance_norm(input, running_mean, running_var, weight, bias,
                                    bool(use_input_stats), float(momentum), float(eps))


def local_response_norm(input, size, alpha=0.0001, beta=0.75, k=1.0):
    return Gnn.Tensor.local_response_norm(input, int(size), float(alpha), float(beta), float(k))


_POOLS += [group_norm, instance_norm, local_response_norm]


def _channel_dropout(name):
    def drop(input, p=0.5, training=True, inplace=False):
        layer = getattr(Gnn, name)(p, inplace)     # checks p, as torch's
        return layer(input) if training else input
    drop.__name__ = name.lower()
    return drop


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    return Gnn.Tensor.alpha_dropout(input, float(p), bool(training), bool(inplace), None)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    return Gnn.Tensor.feature_dropout(input, float(p), bool(training), True, bool(inplace), None)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if sparse:
        raise NotImplementedError('sparse=True is not supported by Gnn')
    if max_norm is not None:
        Gnn.Tensor.embedding_renorm_(weight, input, float(max_norm), float(norm_type))
    return Gnn.Tensor.embedding_full(weight, input, padding_idx is not None,
                                     0 if padding_idx is None else int(padding_idx),
                                     bool(scale_grad_by_freq))


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode='mean', sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    if sparse:
        raise NotImplementedError('sparse=True is not supported by Gnn')
    return Gnn.Tensor.embedding_bag(input, weight, offsets, float('inf') if max_norm is None else float(max_norm),
                                    float(norm_type), bool(scale_grad_by_freq), mode, per_sample_weights,
                                    bool(include_last_offset), padding_idx is not None,
                                    0 if padding_idx is None else int(padding_idx))


_POOLS += [embedding, embedding_bag]


def _pair(value):
    return _ints(value, 2)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    return Gnn.Tensor.im2col(input, *(_pair(kernel_size) + _pair(dilation) + _pair(padding) + _pair(stride)))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    return Gnn.Tensor.col2im(input, *(_pair(output_size) + _pair(kernel_size) + _pair(dilation) +
                                      _pair(padding) + _pair(stride)))


def pixel_shuffle(input, upscale_factor):
    return Gnn.Tensor.pixel_shuffle(input, int(upscale_factor))


def pixel_unshuffle(input, downscale_factor):
    return Gnn.Tensor.pixel_unshuffle(input, int(downscale_factor))


_POOLS += [unfold, fold, pixel_shuffle, pixel_unshuffle]
_POOLS += [_channel_dropout('Dropout1d'), _channel_dropout('Dropout2d'), _channel_dropout('Dropout3d'),
           alpha_dropout, feature_alpha_dropout]

for _f in [pad, conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d,
           interpolate, upsample, upsample_nearest, upsample_bilinear] + _POOLS:
    setattr(EXPORTS['functional'], _f.__name__, _f)
