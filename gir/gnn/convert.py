# convert.py: torch modules → Gnn model files (python3 -m gnn.convert).
#
# from_torch(module) walks a torch module and builds the Gnn module of the
# same layers, one table entry per torch class (CONVERTERS: the class name →
# a function returning the Gnn module and the children left to convert), so
# that the state dict keys are torch's; then copies the weights with a
# strict load_state_dict and, given an example input, checks that both give
# the same output. The CLI writes the result as a model file, which C
# programs load with gnn_module_load_model without any description of the
# architecture.
#
#   python3 -m gnn.convert MODEL.pt -o OUT.safetensors [--input-shape 1,3,224,224]
#   python3 -m gnn.convert --module torchvision.models:resnet18 [--weights W.pth] -o OUT ...
#   python3 -m gnn.convert --arch ARCH --weights W.pth -o OUT    (no torch needed)
#
# A .pt of a whole module is unpickled by torch.load(weights_only=False),
# which runs the file's code as torch.load does: convert only files you
# trust (or use --module with the code that builds the model, and --weights).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import collections
import importlib
import os
import re
import sys

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

from ._checkpoint import import_qualified  # noqa: E402

CONVERTERS = {}


def converts(*names):
    """Registers a converter for the torch classes named `names`."""
    def register(func):
        for name in names:
            CONVERTERS[name] = func
        return func
    return register


class Context:
    """What converters may need beyond the module: the input shapes seen by
    each torch module in one forward pass of the example input."""

    def __init__(self):
        self.input_shapes = {}


# -- layers -----------------------------------------------------------------------

@converts('Linear')
def _linear(m, ctx):
    return Gnn.Linear(m.in_features, m.out_features, bias=m.bias is not None), []


@converts('Conv2d')
def _conv2d(m, ctx):
    if isinstance(m.padding, str):
        raise NotImplementedError("Conv2d(padding='%s') has no Gnn equivalent yet" % m.padding)
    return Gnn.Conv2d(m.in_channels, m.out_channels, m.kernel_size, stride=m.stride,
                      padding=m.padding, dilation=m.dilation, groups=m.groups,
                      bias=m.bias is not None, padding_mode=m.padding_mode), []


@converts('BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d')
def _batch_norm(m, ctx):
    cls = getattr(Gnn, type(m).__name__)
    return cls(m.num_features, eps=m.eps, momentum=m.momentum, affine=m.affine,
               track_running_stats=m.track_running_stats), []


@converts('LayerNorm')
def _layer_norm(m, ctx):
    return Gnn.LayerNorm(list(m.normalized_shape), eps=m.eps,
                         elementwise_affine=m.elementwise_affine), []


@converts('Embedding')
def _embedding(m, ctx):
    return Gnn.Embedding(m.num_embeddings, m.embedding_dim, padding_idx=m.padding_idx), []


@converts('ReLU')
def _relu(m, ctx):
    return Gnn.ReLU(inplace=m.inplace), []


@converts('GELU')
def _gelu(m, ctx):
    return Gnn.GELU(approximate=m.approximate), []


@converts('Tanh', 'Sigmoid', 'Identity')
def _plain(m, ctx):
    return getattr(Gnn, type(m).__name__)(), []


@converts('Softmax', 'LogSoftmax')
def _softmax(m, ctx):
    return getattr(Gnn, type(m).__name__)(dim=m.dim), []


@converts('Dropout')
def _dropout(m, ctx):
    return Gnn.Dropout(m.p, inplace=m.inplace), []


@converts('Flatten')
def _flatten(m, ctx):
    return Gnn.Flatten(m.start_dim, m.end_dim), []


@converts('MaxPool2d')
def _max_pool(m, ctx):
    return Gnn.MaxPool2d(m.kernel_size, stride=m.stride, padding=m.padding, dilation=m.dilation,
                         ceil_mode=m.ceil_mode), []


@converts('AvgPool2d')
def _avg_pool(m, ctx):
    return Gnn.AvgPool2d(m.kernel_size, stride=m.stride, padding=m.padding,
                         ceil_mode=m.ceil_mode, count_include_pad=m.count_include_pad,
                         divisor_override=m.divisor_override), []


def _same_sizes(text):
    """A repr with every tuple of equal sizes as one number: Gnn keeps a
    size per dimension and prints (1, 1) as 1, as torch prints the 1 it
    was given."""
    return re.sub(r'\((-?\d+)(?:, \1)*,?\)', r'\1', text)


def _by_signature(m, ctx):
    """A torch.nn layer without an entry whose Gnn class declares torch's
    signature: each argument is read from the torch attribute of the same
    name (torch's layers keep their configuration so; `bias` is whether the
    parameter exists), and the result's repr must be torch's, so that no
    option is silently lost."""
    name = type(m).__name__
    cls = getattr(Gnn, name, None)
    declaration = getattr(cls, '__torch_signature__', None)
    if declaration is None or not type(m).__module__.startswith('torch.nn.'):
        return None
    kwargs = {}
    for param in declaration.signature.parameters.values():
        if param.name in ('device', 'dtype') or param.name.startswith('_') or \
                param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.name == 'bias' and param.default is True:
            kwargs['bias'] = getattr(m, 'bias', None) is not None
        elif hasattr(m, param.name):
            kwargs[param.name] = getattr(m, param.name)
        elif param.default is param.empty:
            return None
    gnn_module = cls(**kwargs)
    if _same_sizes(repr(gnn_module)) != _same_sizes(repr(m)):
        raise NotImplementedError('%s: Gnn builds %r for torch\'s %r' % (name, gnn_module, m))
    return gnn_module, []


# -- transformer layers ----------------------------------------------------------------

def _activation_of(m):
    """torch keeps a transformer layer's activation as the function F.relu /
    F.gelu or a module; Gnn's property is the name ('relu', 'gelu')."""
    act = m.activation
    name = getattr(act, '__name__', None) or type(act).__name__.lower()
    if name in ('relu', 'gelu') and getattr(act, 'approximate', 'none') == 'none':
        return name
    raise NotImplementedError('%s with activation %r' % (type(m).__name__, act))


def _checked(gnn_module, m):
    """The built module's repr must be torch's (no option silently lost);
    its training flags follow torch's."""
    if _same_sizes(repr(gnn_module)) != _same_sizes(repr(m)):
        raise NotImplementedError('%s: Gnn builds %r for torch\'s %r'
                                  % (type(m).__name__, gnn_module, m))
    gnn_module.train(m.training)
    return gnn_module


@converts('TransformerEncoderLayer', 'TransformerDecoderLayer')
def _transformer_layer(m, ctx):
    """The layer builds its children (self_attn, linear1, ..., norm2)."""
    cls = getattr(Gnn, type(m).__name__)
    layer = cls(d_model=m.self_attn.embed_dim, nhead=m.self_attn.num_heads,
                dim_feedforward=m.linear1.out_features, dropout=m.dropout.p,
                activation=_activation_of(m), layer_norm_eps=m.norm1.eps,
                batch_first=m.self_attn.batch_first, norm_first=m.norm_first)
    return _checked(layer, m), []


@converts('TransformerEncoder', 'TransformerDecoder')
def _transformer_stack(m, ctx):
    """A stack of copies of its first layer (torch deep-copies it too; the
    weights of each copy come with the state dict) and an optional norm."""
    if len(m.layers) == 0:
        raise NotImplementedError('%s without layers' % type(m).__name__)
    layer, _ = _transformer_layer(m.layers[0], ctx)
    norm = _layer_norm(m.norm, ctx)[0] if m.norm is not None else None
    cls = getattr(Gnn, type(m).__name__)
    return _checked(cls(layer, len(m.layers), norm=norm), m), []


# -- containers and models ----------------------------------------------------------

@converts('Sequential')
def _sequential(m, ctx):
    return Gnn.Sequential(), list(m.named_children())


@converts('ModuleList')
def _module_list(m, ctx):
    return Gnn.ModuleList(), list(m.named_children())


@converts('ModuleDict')
def _module_dict(m, ctx):
    return Gnn.ModuleDict(), list(m.named_children())


@converts('BasicBlock')
def _basic_block(m, ctx):
    """torchvision.models.resnet.BasicBlock: the block builds its children."""
    if m.conv1.groups != 1 or m.conv1.dilation != (1, 1):
        raise NotImplementedError('BasicBlock with groups or dilation')
    return Gnn.BasicBlock(inplanes=m.conv1.in_channels, planes=m.conv1.out_channels,
                          stride=m.stride, has_downsample=m.downsample is not None), []


@converts('ResNet')
def _resnet(m, ctx):
    """torchvision's ResNet: its forward is its children in order with a
    flatten before fc — a Sequential of the same names (the state dict keys
    stay torchvision's; flatten has no parameters)."""
    names = ['conv1', 'bn1', 'relu', 'maxpool', 'layer1', 'layer2', 'layer3', 'layer4',
             'avgpool', 'fc']
    if [n for n, _ in m.named_children()] != names:
        raise NotImplementedError('a ResNet whose children are not torchvision\'s')
    children = [(n, getattr(m, n)) for n in names[:-1]]
    children.append(('flatten', Gnn.Flatten(1)))
    children.append(('fc', m.fc))
    return Gnn.Sequential(), children


# -- the walk -------------------------------------------------------------------------

def _convert_tree(module, ctx):
    """The Gnn module of torch module `module` and its children, and the
    (Gnn module, training flag) pairs to restore."""
    flags = []

    def convert(m, path):
        if isinstance(m, Gnn.Module):
            return m   # made by a converter
        name = type(m).__name__
        converted = CONVERTERS[name](m, ctx) if name in CONVERTERS else _by_signature(m, ctx)
        if converted is None:
            raise NotImplementedError('%s (%s): no converter for torch\'s %s.%s; add an entry to '
                                      'gnn.convert.CONVERTERS' % (path or 'the model', name,
                                                                  type(m).__module__, name))
        gnn_module, children = converted
        for child_name, child in children:
            child_path = path + '.' + child_name if path else child_name
            gnn_module.register_module(child_name, convert(child, child_path))
        flags.append((gnn_module, m.training))
        return gnn_module
    return convert(module, ''), flags


def _record_input_shapes(module, example, ctx):
    import torch
    def record(mod, args):
        ctx.input_shapes.setdefault(mod, tuple(args[0].shape))   # returns None: same input
    handles = [m.register_forward_pre_hook(record) for m in module.modules()]
    try:
        with torch.no_grad():
            output = module(example)
    finally:
        for h in handles:
            h.remove()
    return output


def _to_gnn_tensor(t):
    import torch
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        return Gnn.Tensor.from_numpy(t.float().numpy()).to_dtype(Gnn.DType.BF16)
    return Gnn.Tensor.from_numpy(t.contiguous().numpy())


def from_torch(module, example_input=None, atol=1e-5):
    """The Gnn module of torch module `module`, with its weights, buffers,
    training flags and frozen parameters. With `example_input` (a torch
    tensor) both are run on it in eval mode and must agree within `atol`.
    Returns (gnn_module, largest difference or None)."""
    ctx = Context()
    torch_flags = [(m, m.training) for m in module.modules()]
    torch_output = None
    if example_input is not None:
        module.eval()
        torch_output = _record_input_shapes(module, example_input, ctx)
        for m, training in torch_flags:
            m.training = training
    result, flags = _convert_tree(module, ctx)
    state = collections.OrderedDict((k, _to_gnn_tensor(v)) for k, v in module.state_dict().items())
    result.load_state_dict(state, strict=True)
    gnn_params = dict(result.named_parameters())
    for name, p in module.named_parameters():
        gnn_params[name].requires_grad_(p.requires_grad)
    diff = None
    if torch_output is not None:
        result.eval()
        gnn_output = result(_to_gnn_tensor(example_input))
        diff = float(abs(gnn_output.numpy() - torch_output.detach().numpy()).max())
        if diff > atol:
            raise ValueError('the converted model differs from the torch model by %g (> %g) on '
                             'the example input' % (diff, atol))
    for gnn_module, training in flags:
        gnn_module.set_property('training', training)
    return result, diff


# -- the command line ------------------------------------------------------------------

def _from_arch(arch, weights, output, key):
    """The C path: an architecture (model file or JSON) + weights."""
    try:
        state = Gnn.StateDict.load(arch)
        text = state.get_metadata('gnn.model')
    except Exception:
        with open(arch, encoding='utf-8') as f:
            text = f.read()
    if text is None:
        raise SystemExit('gnn.convert: %s has no architecture' % arch)
    loaded = Gnn.load(weights, mmap=True)
    if not isinstance(loaded, Gnn.StateDict):
        raise SystemExit('gnn.convert: %s is not a state dict (a checkpoint? pass --key)' % weights)
    if key:
        selected = Gnn.StateDict()
        for k in loaded.keys():
            if k.startswith(key):
                selected[k[len(key):]] = loaded[k]
        loaded = selected
    loaded.set_metadata('gnn.model', text)
    model = Gnn.Module.new_from_state_dict(loaded, Gnn.LoadFlags.NONE)
    Gnn.save(model, output)
    return model


def main(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m gnn.convert',
                                 description='Converts a torch module to a Gnn model file.')
    ap.add_argument('source', nargs='?', help='a .pt/.pth of torch.save(model) (trusted files '
                    'only: it is unpickled by torch)')
    ap.add_argument('--module', help='pkg.module:factory that builds the torch module '
                    '(torchvision.models:resnet18)')
    ap.add_argument('--weights', help='a state dict for --module or --arch (torch.save or '
                    'safetensors)')
    ap.add_argument('--arch', help='a Gnn model file or architecture JSON (with --weights: no '
                    'torch needed)')
    ap.add_argument('--key', help='with --arch: take the weights under this prefix (model.)')
    ap.add_argument('--input-shape', help='an example input shape: checks the outputs agree')
    ap.add_argument('--atol', type=float, default=1e-5)
    ap.add_argument('-o', '--output', required=True)
    args = ap.parse_args(argv)

    if args.arch:
        if not args.weights:
            ap.error('--arch needs --weights')
        model = _from_arch(args.arch, args.weights, args.output, args.key)
        print(model)
        print('written to %s' % args.output)
        return 0

    import torch
    if args.module:
        torch_module = import_qualified(args.module)()
        if args.weights:
            torch_module.load_state_dict(torch.load(args.weights, map_location='cpu'))
    elif args.source:
        torch_module = torch.load(args.source, map_location='cpu', weights_only=False)
    else:
        ap.error('give a .pt file, --module or --arch')
    example = None
    if args.input_shape:
        torch.manual_seed(0)
        example = torch.randn(*[int(s) for s in args.input_shape.split(',')])
    model, diff = from_torch(torch_module, example, args.atol)
    Gnn.save(model, args.output)
    print(model)
    print('written to %s (%d parameters)%s' % (
        args.output, sum(p.numel() for p in torch_module.parameters()),
        '' if diff is None else '; largest output difference %.3g' % diff))
    return 0


if __name__ == '__main__':
    sys.exit(main())
