# _nn_activations.py: torch.nn's activation modules (ReLU6, LeakyReLU,
# PReLU, ELU, ...: C classes, here their torch signatures) and
# torch.nn.functional's activations (leaky_relu, elu, selu, celu, silu,
# mish, hardtanh, relu6, hardswish, hardsigmoid, softplus, softsign,
# tanhshrink, threshold, gelu, glu, logsigmoid, softmin, prelu, hardshrink,
# softshrink, rrelu) with torch's
# signatures, each a call of the C tensor function (Gnn.Tensor.leaky_relu)
# or, for inplace=True, of its in-place form (Gnn.Tensor.leaky_relu_), which
# returns the input as torch's does.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ._gi import EXPORTS, Gnn
from ._signature import DEVICE_DTYPE, none_or, torch_class

# torch's constructors of the activation modules
for _name, _text in (('ReLU6', 'inplace=False'), ('LeakyReLU', 'negative_slope=0.01, inplace=False'),
                     ('ELU', 'alpha=1.0, inplace=False'), ('SELU', 'inplace=False'),
                     ('CELU', 'alpha=1.0, inplace=False'), ('SiLU', 'inplace=False'),
                     ('Mish', 'inplace=False'), ('Hardswish', 'inplace=False'),
                     ('Hardsigmoid', 'inplace=False'), ('Softplus', 'beta=1, threshold=20'),
                     ('Softsign', ''), ('Tanhshrink', ''),
                     ('Threshold', 'threshold, value, inplace=False'), ('GLU', 'dim=-1'),
                     ('LogSigmoid', ''), ('Softmax2d', ''), ('Hardshrink', 'lambd=0.5'),
                     ('Softshrink', 'lambd=0.5'),
                     ('RReLU', 'lower=0.125, upper=0.3333333333333333, inplace=False')):
    setattr(EXPORTS['nn'], _name, torch_class(_name, _text))
for _name, _text, _mapping in (
        ('PReLU', 'num_parameters=1, init=0.25, device=None, dtype=None', DEVICE_DTYPE),
        ('Hardtanh', 'min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None',
         {'min_value': none_or('min_val'), 'max_value': none_or('max_val')}),
        ('Softmin', 'dim=None', {'dim': none_or('dim')})):
    setattr(EXPORTS['nn'], _name, torch_class(_name, _text, _mapping))


def _apply(name, input, inplace, *args):
    if inplace:
        getattr(Gnn.Tensor, name + '_')(input, *args)
        return input
    return getattr(Gnn.Tensor, name)(input, *args)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _apply('leaky_relu', input, inplace, float(negative_slope))


def elu(input, alpha=1.0, inplace=False):
    return _apply('elu', input, inplace, float(alpha))


def selu(input, inplace=False):
    return _apply('selu', input, inplace)


def celu(input, alpha=1.0, inplace=False):
    return _apply('celu', input, inplace, float(alpha))


def silu(input, inplace=False):
    return _apply('silu', input, inplace)


def mish(input, inplace=False):
    return _apply('mish', input, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _apply('hardtanh', input, inplace, float(min_val), float(max_val))


def relu6(input, inplace=False):
    return _apply('relu6', input, inplace)


def hardswish(input, inplace=False):
    return _apply('hardswish', input, inplace)


def hardsigmoid(input, inplace=False):
    return _apply('hardsigmoid', input, inplace)


def threshold(input, threshold, value, inplace=False):
    return _apply('threshold', input, inplace, float(threshold), float(value))


def softplus(input, beta=1, threshold=20):
    return Gnn.Tensor.softplus(input, float(beta), float(threshold))


def gelu(input, approximate='none'):
    return Gnn.Tensor.gelu_approximate(input, approximate)


def glu(input, dim=-1):
    return Gnn.Tensor.glu(input, dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:    # torch's implicit choice (_get_softmax_dim)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return Gnn.Tensor.softmin(input, dim)


def hardshrink(input, lambd=0.5):
    return Gnn.Tensor.hardshrink(input, float(lambd))


def softshrink(input, lambd=0.5):
    return Gnn.Tensor.softshrink(input, float(lambd))


def prelu(input, weight):
    return Gnn.Tensor.prelu(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    return _apply('rrelu', input, inplace, float(lower), float(upper), bool(training), None)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _apply('rrelu', input, True, float(lower), float(upper), bool(training), None)


def _inplace(name):
    def f(input, *args):
        return _apply(name, input, True, *(float(a) for a in args))
    f.__name__ = name + '_'
    return f


functional = EXPORTS['functional']
for _f in (leaky_relu, elu, selu, celu, silu, mish, hardtanh, relu6, hardswish, hardsigmoid,
           threshold, softplus, gelu, glu, softmin, prelu, hardshrink, softshrink, rrelu, rrelu_):
    setattr(functional, _f.__name__, _f)
for _name in ('leaky_relu', 'elu', 'celu', 'selu', 'hardtanh', 'threshold'):
    setattr(functional, _name + '_', _inplace(_name))
functional.softsign = Gnn.Tensor.softsign
functional.tanhshrink = Gnn.Tensor.tanhshrink
functional.logsigmoid = Gnn.Tensor.log_sigmoid
