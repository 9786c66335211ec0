# _compat_torch_signatures.py: torch's constructor signatures, mapped onto
# Gnn's construct properties, from ONE table.
#
# Each entry: the torch signature (positional order, keywords, defaults) and
# how each torch argument becomes properties. A generated __init__ binds the
# call to the signature and constructs the object from properties; only the
# arguments the caller gave are passed (the properties' defaults are
# torch's). Keywords that are not torch's but name a property pass through,
# so GObject-style construction keeps working (Gnn.Linear(in_features=3,
# out_features=2, has_bias=False)). A call that leaves a required torch
# argument out is GObject construction (e.g. Gnn.SGD(lr=0.1), bare types).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import inspect
import numbers

from gi.repository import GLib

from . import _dtype
from ._gi import OVERRIDE_MODULE, Gnn, call_c, override

_REQUIRED = inspect.Parameter.empty


# --- argument converters: value -> {property: value} ----------------------------

def _axes(prefix, n):
    """An int-or-tuple size as one property per axis: <prefix> for one axis
    (kernel_size for the kernel), <prefix>-h / <prefix>-w for two,
    <prefix>-d / -h / -w for three."""
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


def _pair(prefix):
    return _axes(prefix, 2)


def _conv_padding(n):
    """A convolution's padding: ints, or torch's 'same' / 'valid'."""
    axes = _axes('padding', n)

    def convert(value):
        if isinstance(value, str):
            if value == 'same':
                return {'padding_same': True}
            if value == 'valid':
                return {}
            raise ValueError('Invalid padding string {!r}, should be one of {}'
                             .format(value, {'valid', 'same'}))
        return axes(value)
    return convert


_PADDING_MODES = ('zeros', 'reflect', 'replicate', 'circular')


def _padding_mode(value):
    if value not in _PADDING_MODES:
        raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'"
                         .format(set(_PADDING_MODES), value))
    return {'padding_mode': Gnn.PaddingMode(_PADDING_MODES.index(value))}


def _zeros_padding_mode(name):
    def convert(value):
        if value != 'zeros':
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(name))
        return {}
    return convert


def _pool_stride(value):
    return {} if value is None else _pair('stride')(value)


def _shape_variant(value):
    shape = [int(value)] if isinstance(value, numbers.Integral) else [int(v) for v in value]
    return {'normalized_shape': GLib.Variant('ax', shape)}


def _sides(n):
    """A padding layer's int-or-tuple padding as its padding-<side>
    properties, torch's order (left, right, top, bottom, front, back)."""
    names = ['padding_' + side for side in ('left', 'right', 'top', 'bottom', 'front', 'back')][:2 * n]

    def convert(value):
        values = [int(value)] * (2 * n) if isinstance(value, numbers.Integral) else [int(v) for v in value]
        if len(values) != 2 * n:
            raise ValueError('padding must be an int or a tuple of %d ints, got %r' % (2 * n, value))
        return dict(zip(names, values))
    return convert


def _output_size(n):
    """An adaptive pooling layer's int-or-tuple output_size (None: the
    input's size, -1) as its output-size properties."""
    names = ['output_size'] if n == 1 else ['output_size_' + axis for axis in 'dhw'[3 - n:]]

    def convert(value):
        values = [value] * n if value is None or isinstance(value, numbers.Integral) else list(value)
        if len(values) != n:
            raise ValueError('output_size must be an int, None or a tuple of %d, got %r' % (n, value))
        return dict(zip(names, [-1 if v is None else int(v) for v in values]))
    return convert


def _variant_list(name, signature, cast):
    """A number or a tuple of them as an array variant property."""
    def convert(value):
        if value is None:
            return {}
        values = [value] if isinstance(value, numbers.Number) else list(value)
        return {name: GLib.Variant(signature, [cast(v) for v in values])}
    return convert


_INTERPOLATE_MODES = ('nearest', 'linear', 'bilinear', 'bicubic', 'trilinear', 'area', 'nearest-exact')


def _interpolate_mode(value):
    if value not in _INTERPOLATE_MODES:
        raise NotImplementedError('Got unsupported mode %r (expected one of %s)'
                                  % (value, ', '.join(_INTERPOLATE_MODES)))
    return {'mode': Gnn.InterpolateMode(_INTERPOLATE_MODES.index(value))}


def _one_int(name):
    """An int or a 1-tuple (AvgPool1d's _single); None is the default."""
    def convert(value):
        if value is None:
            return {}
        return {name: int(value if isinstance(value, numbers.Integral) else value[0])}
    return convert


def _betas(value):
    beta1, beta2 = value
    return {'beta1': float(beta1), 'beta2': float(beta2)}


def _none_or(name):
    def convert(value):
        return {} if value is None else {name: value}
    return convert


def _from_default_group(name, getter):
    """torch's DistributedSampler: num_replicas/rank None -> the default
    process group's world size/rank (without one: 1 replica, rank 0)."""
    def convert(value):
        if value is None and Gnn.distributed_is_initialized():
            value = getattr(Gnn.get_default_process_group(), getter)()
        return {} if value is None else {name: value}
    convert.on_default = True    # also runs when the argument is left out
    return convert


def _only(expected, what):
    def convert(value):
        if value != expected:
            raise ValueError('%s=%r is not supported by Gnn (only %r)' % (what, value, expected))
        return {}
    return convert


def _ignore(value):
    return {}


# device='meta' is no property: construction runs under the meta default
# device instead (see torch_init).
_META = object()


def _device(value):
    if value is not None and str(value) == 'meta':
        return {_META: True}
    _dtype.check_device(value)
    return {}


# torch's start methods: fork -> forked processes; spawn and forkserver -> a
# fresh process rebuilding the dataset from its type and properties.
_START_METHODS = {'fork': 'processes', 'spawn': 'spawn', 'forkserver': 'spawn'}


def _worker_context(value):
    if value is None:
        return {}
    name = value if isinstance(value, str) else value.get_start_method()
    if name not in _START_METHODS:
        raise ValueError("multiprocessing_context option should specify a valid start method "
                         "in %r, but got multiprocessing_context=%r" % (list(_START_METHODS), value))
    return {'worker_mode': _START_METHODS[name]}


def _dataset(value):
    # torch takes any object with __getitem__/__len__ (a list of pairs), or
    # __iter__: wrapped in a Gnn dataset
    from ._data import as_dataset
    return {'dataset': as_dataset(value)}


def _sampler(name):
    def convert(value):
        from ._data import as_sampler
        return {} if value is None else {name: as_sampler(value)}
    return convert


def _generator_seed(value):
    # torch's loader generator: Gnn's loader draws from its own seeded
    # generator; a Gnn.Generator hands over its seed.
    return {} if value is None else {'seed': value.get_seed()}


# Post-construction steps: (obj, value) -> None.
class _Post(object):
    def __init__(self, func):
        self.func = func


def _to_dtype(module, value):
    if value is not None:
        module.to(value)


def _add_params(optimizer, params):
    from ._optim import add_param_groups
    add_param_groups(optimizer, params)


def _collate_fn(loader, func):
    if func is not None:
        from ._data import FunctionCollate
        loader.set_property('collate', func if hasattr(func, 'do_collate')
                            else FunctionCollate(func))


def _worker_init_fn(loader, func):
    if func is not None:
        from ._data import connect_worker_init
        connect_worker_init(loader, func)


_DEVICE_DTYPE = {'device': _device, 'dtype': _Post(_to_dtype)}
_BATCH_NORM = ('num_features, eps=1e-05, momentum=0.1, affine=True, '
               'track_running_stats=True, device=None, dtype=None', _DEVICE_DTYPE)
_LOSS = {'size_average': _only(None, 'size_average'), 'reduce': _only(None, 'reduce')}


def _conv(n):
    return ("in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, "
            "groups=1, bias=True, padding_mode='zeros', device=None, dtype=None",
            dict(_DEVICE_DTYPE, kernel_size=_axes('kernel', n), stride=_axes('stride', n),
                 padding=_conv_padding(n), dilation=_axes('dilation', n), bias='has_bias',
                 padding_mode=_padding_mode))


def _conv_transpose(n):
    return ("in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, "
            "groups=1, bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None",
            dict(_DEVICE_DTYPE, kernel_size=_axes('kernel', n), stride=_axes('stride', n),
                 padding=_axes('padding', n), output_padding=_axes('output_padding', n),
                 dilation=_axes('dilation', n), bias='has_bias',
                 padding_mode=_zeros_padding_mode('ConvTranspose%dd' % n)))

# torch class -> (torch signature, {torch argument: property name | converter | _Post}).
# Arguments not listed map to the property of the same name.
TABLE = {
    # nn
    'Linear': ('in_features, out_features, bias=True, device=None, dtype=None',
               {'bias': 'has_bias', 'device': _device}),
    'Conv1d': _conv(1),
    'Conv2d': _conv(2),
    'Conv3d': _conv(3),
    'ConvTranspose1d': _conv_transpose(1),
    'ConvTranspose2d': _conv_transpose(2),
    'ConvTranspose3d': _conv_transpose(3),
    'ConstantPad1d': ('padding, value', {'padding': _sides(1)}),
    'ConstantPad2d': ('padding, value', {'padding': _sides(2)}),
    'ConstantPad3d': ('padding, value', {'padding': _sides(3)}),
    'ZeroPad2d': ('padding', {'padding': _sides(2)}),
    'ReflectionPad1d': ('padding', {'padding': _sides(1)}),
    'ReflectionPad2d': ('padding', {'padding': _sides(2)}),
    'ReflectionPad3d': ('padding', {'padding': _sides(3)}),
    'ReplicationPad1d': ('padding', {'padding': _sides(1)}),
    'ReplicationPad2d': ('padding', {'padding': _sides(2)}),
    'ReplicationPad3d': ('padding', {'padding': _sides(3)}),
    'AdaptiveAvgPool1d': ('output_size', {'output_size': _output_size(1)}),
    'AdaptiveAvgPool2d': ('output_size', {'output_size': _output_size(2)}),
    'AdaptiveAvgPool3d': ('output_size', {'output_size': _output_size(3)}),
    'AdaptiveMaxPool1d': ('output_size, return_indices=False', {'output_size': _output_size(1)}),
    'AdaptiveMaxPool2d': ('output_size, return_indices=False', {'output_size': _output_size(2)}),
    'AdaptiveMaxPool3d': ('output_size, return_indices=False', {'output_size': _output_size(3)}),
    'Upsample': ("size=None, scale_factor=None, mode='nearest', align_corners=None, "
                 "recompute_scale_factor=None",
                 {'size': _variant_list('size', 'ax', int),
                  'scale_factor': _variant_list('scale_factor', 'ad', float),
                  'mode': _interpolate_mode, 'align_corners': _none_or('align_corners'),
                  'recompute_scale_factor': _none_or('recompute_scale_factor')}),
    'UpsamplingNearest2d': ('size=None, scale_factor=None',
                            {'size': _variant_list('size', 'ax', int),
                             'scale_factor': _variant_list('scale_factor', 'ad', float)}),
    'UpsamplingBilinear2d': ('size=None, scale_factor=None',
                             {'size': _variant_list('size', 'ax', int),
                              'scale_factor': _variant_list('scale_factor', 'ad', float)}),
    'MaxPool1d': ('kernel_size, stride=None, padding=0, dilation=1, return_indices=False, '
                  'ceil_mode=False',
                  {'stride': _none_or('stride'), 'return_indices': _only(False, 'return_indices')}),
    'AvgPool1d': ('kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True',
                  {'kernel_size': _one_int('kernel_size'), 'stride': _one_int('stride'),
                   'padding': _one_int('padding')}),
    'MaxPool2d': ('kernel_size, stride=None, padding=0, dilation=1, return_indices=False, '
                  'ceil_mode=False',
                  {'kernel_size': _pair('kernel'), 'stride': _pool_stride,
                   'padding': _pair('padding'), 'dilation': _pair('dilation'),
                   'return_indices': _only(False, 'return_indices')}),
    'AvgPool2d': ('kernel_size, stride=None, padding=0, ceil_mode=False, '
                  'count_include_pad=True, divisor_override=None',
                  {'kernel_size': _pair('kernel'), 'stride': _pool_stride,
                   'padding': _pair('padding'),
                   'divisor_override': _none_or('divisor_override')}),
    'BatchNorm1d': _BATCH_NORM,
    'BatchNorm2d': _BATCH_NORM,
    'Dropout': ('p=0.5, inplace=False', {}),
    'Embedding': ('num_embeddings, embedding_dim, padding_idx=None, max_norm=None, '
                  'norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None, '
                  'device=None, dtype=None',
                  dict(_DEVICE_DTYPE, padding_idx=_only(None, 'padding_idx'),
                       max_norm=_only(None, 'max_norm'), norm_type=_ignore,
                       scale_grad_by_freq=_only(False, 'scale_grad_by_freq'),
                       sparse=_only(False, 'sparse'), _weight=_only(None, '_weight'))),
    'LayerNorm': ('normalized_shape, eps=1e-05, elementwise_affine=True, device=None, '
                  'dtype=None', dict(_DEVICE_DTYPE, normalized_shape=_shape_variant)),
    'ReLU': ('inplace=False', {}),
    'GELU': ("approximate='none'", {}),
    'Softmax': ('dim=None', {'dim': _none_or('dim')}),
    'LogSoftmax': ('dim=None', {'dim': _none_or('dim')}),
    'Flatten': ('start_dim=1, end_dim=-1', {}),
    'CrossEntropyLoss': ("weight=None, size_average=None, ignore_index=-100, reduce=None, "
                         "reduction='mean', label_smoothing=0.0", _LOSS),
    'NLLLoss': ("weight=None, size_average=None, ignore_index=-100, reduce=None, "
                "reduction='mean'", _LOSS),
    'MSELoss': ("size_average=None, reduce=None, reduction='mean'", _LOSS),
    'BCEWithLogitsLoss': ("weight=None, size_average=None, reduce=None, reduction='mean', "
                          "pos_weight=None", _LOSS),
    # data
    'RandomSampler': ('data_source, replacement=False, num_samples=None, generator=None',
                      {'num_samples': _none_or('num_samples')}),
    'SequentialSampler': ('data_source', {}),
    'BatchSampler': ('sampler, batch_size, drop_last', {}),
    'DistributedSampler': ('dataset, num_replicas=None, rank=None, shuffle=True, seed=0, '
                           'drop_last=False',
                           {'num_replicas': _from_default_group('num_replicas', 'get_world_size'),
                            'rank': _from_default_group('rank', 'get_rank')}),
    'DataLoader': ('dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, '
                   'num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, '
                   'timeout=0, worker_init_fn=None, multiprocessing_context=None, '
                   'generator=None, *, prefetch_factor=2, persistent_workers=False, '
                   "pin_memory_device=''",
                   {'dataset': _dataset, 'sampler': _sampler('sampler'),
                    'shuffle': _none_or('shuffle'), 'collate_fn': _Post(_collate_fn),
                    'pin_memory': _ignore, 'pin_memory_device': _ignore,
                    'worker_init_fn': _Post(_worker_init_fn),
                    'multiprocessing_context': _worker_context,
                    'generator': _generator_seed, 'timeout': lambda v: {'timeout': float(v)}}),
    # optim
    'SGD': ('params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, '
            'maximize=False, foreach=None, differentiable=False',
            {'params': _Post(_add_params), 'foreach': _ignore,
             'differentiable': _only(False, 'differentiable')}),
    'Adam': ('params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, '
             'amsgrad=False, *, foreach=None, maximize=False, capturable=False, '
             'differentiable=False, fused=None',
             {'params': _Post(_add_params), 'betas': _betas, 'foreach': _ignore,
              'capturable': _ignore, 'fused': _ignore,
              'differentiable': _only(False, 'differentiable')}),
    'AdamW': ('params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, '
              'amsgrad=False, *, maximize=False, foreach=None, capturable=False, '
              'differentiable=False, fused=None',
              {'params': _Post(_add_params), 'betas': _betas, 'foreach': _ignore,
               'capturable': _ignore, 'fused': _ignore,
               'differentiable': _only(False, 'differentiable')}),
    'StepLR': ('optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False',
               {'last_epoch': _only(-1, 'last_epoch'), 'verbose': _ignore}),
    'CosineAnnealingLR': ('optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False',
                          {'T_max': 't_max', 'last_epoch': _only(-1, 'last_epoch'),
                           'verbose': _ignore}),
}


def _parse(text):
    """A signature string as an inspect.Signature."""
    namespace = {}
    exec('def f(%s): pass' % text, {}, namespace)   # the table's own literals only
    return inspect.signature(namespace['f'])


_SIGNATURES = {name: _parse(sig) for name, (sig, _) in TABLE.items()}


def _properties(name, args, kwargs):
    """(properties, post steps) for a torch-style call, or None when the
    call is GObject construction (a required torch argument left out)."""
    signature = _SIGNATURES[name]
    mapping = TABLE[name][1]
    extra = {k: kwargs.pop(k) for k in list(kwargs) if k not in signature.parameters}
    bound = signature.bind_partial(*args, **kwargs)
    missing = [p.name for p in signature.parameters.values()
               if p.default is _REQUIRED and p.name not in bound.arguments]
    if missing and not args:
        return None
    if missing:
        signature.bind(*args, **kwargs)      # raises torch's TypeError
    props, posts = {}, []
    for arg, value in bound.arguments.items():
        how = mapping.get(arg, arg)
        if isinstance(how, str):
            props[how] = value
        elif isinstance(how, _Post):
            posts.append((how.func, value))
        else:
            props.update(how(value))
    for arg, how in mapping.items():
        if getattr(how, 'on_default', False) and arg not in bound.arguments:
            props.update(how(None))
    props.update(extra)
    if isinstance(props.get('worker_mode'), str):
        from ._data import WORKER_MODES
        mode = props['worker_mode']
        if mode.lower() not in WORKER_MODES:
            raise ValueError("worker_mode should be 'threads', 'processes' or 'spawn', not %r" % mode)
        props['worker_mode'] = WORKER_MODES[mode.lower()]
    if name in _SEEDED and 'generator' not in props:
        # after Gnn.manual_seed, layers draw from the default generator
        from ._creation import seeded_generator
        if seeded_generator() is not None:
            props['generator'] = seeded_generator()
    return props, posts


_SEEDED = ('Linear', 'Conv1d', 'Conv2d', 'Conv3d', 'ConvTranspose1d', 'ConvTranspose2d',
           'ConvTranspose3d', 'Embedding', 'Dropout')


def torch_init(name, base):
    """The __init__ of a class whose torch counterpart is TABLE[name]."""
    signature = _SIGNATURES[name]

    def __init__(self, *args, **kwargs):
        parsed = _properties(name, args, dict(kwargs))
        if parsed is None:
            base.__init__(self, **kwargs)
            initable_init(self)
            return
        props, posts = parsed
        meta = props.pop(_META, False)
        _check_writable(base, props)
        previous = Gnn.set_default_device(Gnn.Device.META) if meta else None
        try:
            base.__init__(self, **props)
        finally:
            if meta:
                Gnn.set_default_device(previous)
        initable_init(self)
        for func, value in posts:
            func(self, value)
    __init__.__signature__ = signature
    __init__.__doc__ = 'torch: %s(%s)' % (name, TABLE[name][0])
    return __init__


def initable_init(obj):
    """PyGObject's constructor never calls GInitable.init: without this a
    construction the library refuses (Linear(2**40, 2**40)) would give an
    object with empty slots instead of raising the construction's error."""
    from gi.repository import Gio
    if isinstance(obj, Gio.Initable):
        # a Python callback (a dataset's __len__) may raise meanwhile: that
        # exception, not the C error it caused, is raised
        call_c(obj.init, None)


def _check_writable(base, props):
    """A property that cannot be set at construction is a TypeError naming
    it, not a GLib warning and an object left at its defaults."""
    from gi.repository import GObject
    for name in props:
        pspec = base.find_property(name.replace('_', '-'))
        if pspec is not None and not pspec.flags & GObject.ParamFlags.WRITABLE:
            raise TypeError("%s: property '%s' cannot be set at construction"
                            % (base.__gtype__.name, pspec.name))


def torch_factory_new(factory, signature):
    """The __new__ of a class built by a C constructor function (no
    properties yet): Gnn.TensorDataset(*tensors) etc."""
    sig = _parse(signature)

    def __new__(cls, *args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        return factory(**bound.arguments)
    __new__.__doc__ = 'torch: (%s)' % signature
    return staticmethod(__new__)


def _skip_init(self, *args, **kwargs):
    """The object was built by __new__."""


def torch_class(name, factory=None, signature=None, extra=None):
    """Overrides Gnn.<name> with torch's constructor: from TABLE, or from a
    C constructor function taking torch's `signature`; `extra`: more
    attributes of the class."""
    base = getattr(Gnn, name)
    if factory is not None:
        namespace = {'__new__': torch_factory_new(factory, signature), '__init__': _skip_init}
    else:
        namespace = {'__init__': torch_init(name, base)}
    namespace.update(extra or {})
    namespace['__module__'] = OVERRIDE_MODULE
    namespace['__doc__'] = base.__doc__
    return override(type(name, (base,), namespace))
