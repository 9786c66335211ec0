# _vision_models.py: torchvision.models — the constructors of the C
# networks with torchvision's signatures (ResNet, its blocks, resnet18/34/50).
# No weights are downloaded: a torchvision checkpoint converted to
# safetensors (or a state dict copied tensor by tensor) loads into them.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from gi.repository import GLib

from . import _namespaces  # noqa: F401  (creates EXPORTS['vision'])
from ._gi import EXPORTS, Gnn
from ._signature import only, torch_class

models = EXPORTS['vision'].models


def _downsample(value):
    """torchvision passes the downsampling module itself; the block builds
    torchvision's own (a strided 1x1 conv and a batch norm) when given one."""
    return {'has_downsample': value is not None}


_BLOCK = ('inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1, '
          'norm_layer=None')
_BLOCK_MAPPING = {'downsample': _downsample,
                  'groups': only(1, 'groups'), 'base_width': only(64, 'base_width'),
                  'dilation': only(1, 'dilation'), 'norm_layer': only(None, 'norm_layer')}
BasicBlock = torch_class('BasicBlock', _BLOCK, _BLOCK_MAPPING, {'expansion': 1})
Bottleneck = torch_class('Bottleneck', _BLOCK, _BLOCK_MAPPING, {'expansion': 4})


def _block(value):
    name = value if isinstance(value, str) else getattr(value, '__name__', None)
    if name == 'BasicBlock':
        return {'block': Gnn.ResNetBlock.BASIC}
    if name == 'Bottleneck':
        return {'block': Gnn.ResNetBlock.BOTTLENECK}
    if isinstance(value, Gnn.ResNetBlock):
        return {'block': value}
    raise TypeError('ResNet: block must be BasicBlock or Bottleneck, got %r' % (value,))


def _layers(value):
    return {'layers': GLib.Variant('ax', [int(v) for v in value])}


ResNet = torch_class(
    'ResNet', 'block, layers, num_classes=1000, zero_init_residual=False, groups=1, '
    'width_per_group=64, replace_stride_with_dilation=None, norm_layer=None',
    {'block': _block, 'layers': _layers, 'groups': only(1, 'groups'),
     'width_per_group': only(64, 'width_per_group'),
     'replace_stride_with_dilation': only(None, 'replace_stride_with_dilation'),
     'norm_layer': only(None, 'norm_layer')})


def _no_weights(name, weights, progress):
    if weights is not None:
        raise ValueError('%s(weights=%r): gnn.vision downloads no weights; build %s() and '
                         'load_state_dict() a torchvision checkpoint converted to safetensors'
                         % (name, weights, name))


def _resnet(name, block, layers):
    def make(*, weights=None, progress=True, **kwargs):
        _no_weights(name, weights, progress)
        return ResNet(block, layers, **kwargs)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = ('torchvision.models.%s(*, weights=None, progress=True, **kwargs): '
                    'ResNet(%s, %r, **kwargs) with torchvision\'s state_dict keys.'
                    % (name, block.__name__, layers))
    return make


resnet18 = _resnet('resnet18', BasicBlock, [2, 2, 2, 2])
resnet34 = _resnet('resnet34', BasicBlock, [3, 4, 6, 3])
resnet50 = _resnet('resnet50', Bottleneck, [3, 4, 6, 3])

for _obj in (ResNet, BasicBlock, Bottleneck, resnet18, resnet34, resnet50):
    setattr(models, _obj.__name__, _obj)
