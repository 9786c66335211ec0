# _vision_classifiers.py: torchvision.models beyond ResNet — VGG, AlexNet,
# SqueezeNet, MobileNetV2 and DenseNet, the C networks with torchvision's
# constructor signatures. No weights are downloaded: a torchvision
# checkpoint (a .pth file or converted to safetensors) loads into them.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from gi.repository import GLib

from . import _namespaces  # noqa: F401  (creates EXPORTS['vision'])
from ._gi import EXPORTS, Gnn
from ._signature import only, torch_class

models = EXPORTS['vision'].models


def _ints(prop):
    return lambda value: {prop: GLib.Variant('ax', [int(v) for v in value])}


def _no_weights(name, weights):
    if weights is not None:
        raise ValueError('%s(weights=%r): gnn.vision downloads no weights; build %s() and '
                         'load_state_dict() a torchvision checkpoint converted to safetensors'
                         % (name, weights, name))


AlexNet = torch_class('AlexNet', 'num_classes=1000, dropout=0.5', {})
SqueezeNet = torch_class('SqueezeNet', "version='1_0', num_classes=1000, dropout=0.5", {})
Fire = torch_class('Fire', 'inplanes, squeeze_planes, expand1x1_planes, expand3x3_planes', {})
MobileNetV2 = torch_class(
    'MobileNetV2', 'num_classes=1000, width_mult=1.0, inverted_residual_setting=None, '
    'round_nearest=8, block=None, norm_layer=None, dropout=0.2',
    {'inverted_residual_setting': only(None, 'inverted_residual_setting'),
     'block': only(None, 'block'), 'norm_layer': only(None, 'norm_layer')})
InvertedResidual = torch_class('InvertedResidual', 'inp, oup, stride, expand_ratio, '
                               'norm_layer=None', {'norm_layer': only(None, 'norm_layer')})
DenseNet = torch_class(
    'DenseNet', 'growth_rate=32, block_config=(6, 12, 24, 16), num_init_features=64, '
    'bn_size=4, drop_rate=0, num_classes=1000, memory_efficient=False',
    {'block_config': _ints('block_config'),
     'memory_efficient': only(False, 'memory_efficient')})
# torchvision's private _DenseLayer / _DenseBlock, with their signatures
DenseLayer = torch_class('DenseLayer', 'num_input_features, growth_rate, bn_size, drop_rate, '
                         'memory_efficient=False',
                         {'memory_efficient': only(False, 'memory_efficient')})
DenseBlock = torch_class('DenseBlock', 'num_layers, num_input_features, bn_size, growth_rate, '
                         'drop_rate, memory_efficient=False',
                         {'memory_efficient': only(False, 'memory_efficient')})
VGG = torch_class('VGG', 'cfg, batch_norm=False, num_classes=1000, init_weights=True, '
                  'dropout=0.5', {'cfg': lambda value: {'cfg': GLib.Variant(
                      'ax', [-1 if v == 'M' else int(v) for v in value])}})

# torchvision's cfgs, "M" a max pooling
cfgs = {
    'A': [64, 'M', 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
    'B': [64, 64, 'M', 128, 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
    'D': [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 'M', 512, 512, 512, 'M', 512, 512, 512,
          'M'],
    'E': [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 256, 'M', 512, 512, 512, 512, 'M', 512,
          512, 512, 512, 'M'],
}


def _factory(name, build, doc):
    def make(*, weights=None, progress=True, **kwargs):
        _no_weights(name, weights)
        return build(**kwargs)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = 'torchvision.models.%s(*, weights=None, progress=True, **kwargs): %s' % (
        name, doc)
    return make


def _vgg(name, cfg, batch_norm):
    return _factory(name, lambda **kw: VGG(cfgs[cfg], batch_norm=batch_norm, **kw),
                    'VGG(cfgs[%r], batch_norm=%r, **kwargs)' % (cfg, batch_norm))


def _densenet(name, growth_rate, block_config, num_init_features):
    return _factory(name, lambda **kw: DenseNet(growth_rate, block_config, num_init_features,
                                                **kw),
                    'DenseNet(%d, %r, %d, **kwargs)' % (growth_rate, block_config,
                                                        num_init_features))


vgg11, vgg11_bn = _vgg('vgg11', 'A', False), _vgg('vgg11_bn', 'A', True)
vgg13, vgg13_bn = _vgg('vgg13', 'B', False), _vgg('vgg13_bn', 'B', True)
vgg16, vgg16_bn = _vgg('vgg16', 'D', False), _vgg('vgg16_bn', 'D', True)
vgg19, vgg19_bn = _vgg('vgg19', 'E', False), _vgg('vgg19_bn', 'E', True)
alexnet = _factory('alexnet', AlexNet, 'AlexNet(**kwargs)')
squeezenet1_0 = _factory('squeezenet1_0', lambda **kw: SqueezeNet('1_0', **kw),
                         "SqueezeNet('1_0', **kwargs)")
squeezenet1_1 = _factory('squeezenet1_1', lambda **kw: SqueezeNet('1_1', **kw),
                         "SqueezeNet('1_1', **kwargs)")
mobilenet_v2 = _factory('mobilenet_v2', MobileNetV2, 'MobileNetV2(**kwargs)')
densenet121 = _densenet('densenet121', 32, (6, 12, 24, 16), 64)
densenet161 = _densenet('densenet161', 48, (6, 12, 36, 24), 96)
densenet169 = _densenet('densenet169', 32, (6, 12, 32, 32), 64)
densenet201 = _densenet('densenet201', 32, (6, 12, 48, 32), 64)

for _obj in (AlexNet, SqueezeNet, Fire, MobileNetV2, InvertedResidual, DenseNet, VGG,
             vgg11, vgg11_bn, vgg13, vgg13_bn, vgg16, vgg16_bn, vgg19, vgg19_bn, alexnet,
             squeezenet1_0, squeezenet1_1, mobilenet_v2, densenet121, densenet161, densenet169,
             densenet201):
    setattr(models, _obj.__name__, _obj)
