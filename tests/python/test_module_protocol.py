#!/usr/bin/python3
# test_module_protocol.py: the PyTorch nn.Module protocol that the Python
# override (gir/overrides/Gnn.py) adds to Gnn.Module and Gnn.StateDict:
# attribute registration, lookup and deletion, traversal lists, model(x),
# repr, train/eval, state_dict as a mapping, load_state_dict, hooks, and the
# error messages (GLib.Error with the library's text).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


def ones(*shape):
    return Gnn.Tensor.ones(list(shape), Gnn.DType.F32)


def param(*shape):
    return Gnn.Parameter.new(ones(*shape), True)


def scalar(v):
    return Gnn.Tensor.new_scalar(v, Gnn.DType.F32)


class Leaf(Gnn.Module):
    def __init__(self, n=2):
        super().__init__()
        self.weight = param(n)
        self.register_buffer('running', Gnn.Tensor.zeros([n], Gnn.DType.F32))

    def do_forward(self, x):
        return x.mul_scalar(2.0)


class TorchStyle(Gnn.Module):
    """forward / extra_repr spelled as in torch."""

    def __init__(self):
        super().__init__()
        self.leaf = Leaf()

    def forward(self, x):
        return self.leaf(x).add_scalar(1.0)

    def extra_repr(self):
        return 'torch_style=True'


class Net(Gnn.Module):
    def __init__(self):
        super().__init__()
        self.a = Leaf()
        self.b = Leaf(3)
        self.bias = param(1)
        self.scale = 4.0

    def do_forward(self, x):
        return self.b(self.a(x)).mul_scalar(self.scale)


class Raises(Gnn.Module):
    def do_forward(self, x):
        raise ValueError('bad input %d' % x.get_ndim())


class Identity(Gnn.Module):
    def do_forward(self, x):
        return x


class TestAttributes(unittest.TestCase):
    def test_parameter_assignment_registers(self):
        net = Net()
        self.assertEqual([n for n, _ in net.named_parameters(recurse=False)], ['bias'])
        self.assertNotIn('bias', net.__dict__)
        self.assertIs(net.bias, net.get_child('bias'))

    def test_module_assignment_registers(self):
        net = Net()
        self.assertEqual([n for n, _ in net.named_children()], ['a', 'b'])
        self.assertIsInstance(net.a, Leaf)
        self.assertNotIn('a', net.__dict__)

    def test_plain_values_go_to_dict(self):
        net = Net()
        self.assertEqual(net.__dict__['scale'], 4.0)
        t = ones(2)
        net.extra = t           # a plain tensor to a new name: not a buffer
        self.assertIs(net.__dict__['extra'], t)
        self.assertEqual(list(net.named_buffers(recurse=False)), [])
        net.nothing = None      # None to a new name: an ordinary attribute
        self.assertIsNone(net.__dict__['nothing'])
        self.assertFalse(net.has_child('nothing'))

    def test_tensor_into_buffer_keeps_buffer(self):
        leaf = Leaf()
        t = ones(2)
        leaf.running = t
        self.assertEqual(list(leaf.named_buffers()), [('running', t)])
        self.assertNotIn('running', leaf.__dict__)

    def test_parameter_replaces_dict_attribute(self):
        net = Net()
        net.scale = param(1)    # torch: removed from __dict__, registered
        self.assertNotIn('scale', net.__dict__)
        self.assertIn('scale', [n for n, _ in net.named_parameters(recurse=False)])

    def test_none_keeps_slot(self):
        net = Net()
        net.bias = None
        self.assertIsNone(net.bias)
        self.assertTrue(net.has_child('bias'))
        self.assertEqual(list(net.named_parameters(recurse=False)), [])
        net.a = None
        self.assertIsNone(net.a)
        self.assertEqual([n for n, _ in net.named_children()], ['b'])
        self.assertIn('(a): None', repr(net))

    def test_kind_change_moves_name(self):
        net = Net()
        net.a = param(2)        # a module name receives a parameter
        self.assertEqual([n for n, _ in net.named_children()], ['b'])
        self.assertEqual([n for n, _ in net.named_parameters(recurse=False)], ['bias', 'a'])

    def test_wrong_type_into_parameter(self):
        net = Net()
        with self.assertRaises(GLib.Error) as cm:
            net.bias = ones(1)
        self.assertEqual(cm.exception.message,
                         "cannot assign 'GnnTensor' as parameter 'bias' "
                         "(GnnParameter or NULL expected)")
        self.assertEqual(cm.exception.code, Gnn.Error.TYPE)
        with self.assertRaises(GLib.Error) as cm:
            net.bias = 3
        self.assertEqual(cm.exception.message,
                         "cannot assign 'int' as parameter 'bias' (GnnParameter or NULL expected)")

    def test_wrong_type_into_module(self):
        net = Net()
        with self.assertRaises(GLib.Error) as cm:
            net.a = 'x'
        self.assertEqual(cm.exception.message,
                         "cannot assign 'str' as child module 'a' (GnnModule or NULL expected)")
        with self.assertRaises(GLib.Error) as cm:
            net.a = ones(1)
        self.assertEqual(cm.exception.message,
                         "cannot assign 'GnnTensor' as child module 'a' "
                         "(GnnModule or NULL expected)")
        self.assertIsInstance(net.a, Leaf)     # unchanged

    def test_wrong_type_into_buffer(self):
        leaf = Leaf()
        with self.assertRaises(GLib.Error) as cm:
            leaf.running = [1, 2]
        self.assertEqual(cm.exception.message,
                         "cannot assign 'list' as buffer 'running' (GnnTensor or NULL expected)")

    def test_getattr_missing(self):
        net = Net()
        with self.assertRaises(AttributeError) as cm:
            net.missing
        self.assertEqual(str(cm.exception), "'Net' object has no attribute 'missing'")
        self.assertFalse(hasattr(net, 'missing'))
        self.assertEqual(getattr(net, 'missing', 7), 7)

    def test_delattr(self):
        net = Net()
        del net.a
        self.assertFalse(net.has_child('a'))
        with self.assertRaises(AttributeError):
            net.a
        del net.bias
        self.assertEqual(list(net.named_parameters(recurse=False)), [])
        del net.scale
        self.assertNotIn('scale', net.__dict__)
        with self.assertRaises(AttributeError):
            del net.scale

    def test_dir_lists_children(self):
        names = dir(Net())
        for n in ('a', 'b', 'bias', 'scale', 'forward'):
            self.assertIn(n, names)

    def test_training_attribute(self):
        net = Net()
        self.assertIs(net.training, True)
        net.training = False
        self.assertIs(net.training, False)
        self.assertFalse(net.props.training)
        self.assertTrue(net.a.training)     # only this module
        self.assertNotIn('training', net.__dict__)

    def test_assign_before_init_parameter(self):
        class Early(Gnn.Module):
            def __init__(self):
                self.w = param(1)
                super().__init__()
        with self.assertRaises(AttributeError) as cm:
            Early()
        self.assertEqual(str(cm.exception),
                         'cannot assign parameters before Module.__init__() call')

    def test_assign_before_init_module(self):
        class Early(Gnn.Module):
            def __init__(self):
                self.m = Leaf()
                super().__init__()
        with self.assertRaises(AttributeError) as cm:
            Early()
        self.assertEqual(str(cm.exception), 'cannot assign module before Module.__init__() call')

    def test_plain_attribute_before_init(self):
        class Early(Gnn.Module):
            def __init__(self):
                self.k = 3              # allowed, as in torch
                super().__init__()
                self.w = param(1)
        e = Early()
        self.assertEqual(e.k, 3)
        self.assertEqual([n for n, _ in e.named_parameters()], ['w'])

    def test_dict_survives_wrapper_loss(self):
        # Python attributes of a child held only by its (C) parent survive
        # the loss of every Python reference to the child's wrapper.
        net = Net()
        net.a.tag = 'kept'
        import gc
        gc.collect()
        self.assertEqual(net.a.tag, 'kept')


class TestRegistration(unittest.TestCase):
    def test_name_with_nul_is_refused(self):
        # C names end at NUL: 'a\x00b' must not silently become 'a'.
        net = Gnn.Sequential()
        lin = Gnn.Linear(2, 2)
        for register in (lambda: net.register_module('a\x00b', lin),
                         lambda: net.add_module('a\x00b', lin),
                         lambda: setattr(net, 'a\x00b', lin),
                         lambda: net.register_buffer('a\x00b', Gnn.zeros(2)),
                         lambda: net.register_parameter('a\x00b', lin.weight)):
            with self.assertRaises(GLib.Error) as caught:
                register()
            self.assertIn('NUL', caught.exception.message)
        self.assertEqual([n for n, _ in net.named_children()], [])

    def test_register_buffer_default_persistent(self):
        leaf = Leaf()
        leaf.register_buffer('extra', ones(1))
        self.assertIn('extra', leaf.state_dict())

    def test_register_buffer_non_persistent(self):
        leaf = Leaf()
        leaf.register_buffer('tmp', ones(1), persistent=False)
        self.assertEqual([n for n, _ in leaf.named_buffers()], ['running', 'tmp'])
        self.assertNotIn('tmp', leaf.state_dict())

    def test_register_buffer_errors(self):
        leaf = Leaf()
        cases = [
            ('a.b', 'buffer name can\'t contain "."'),
            ('', 'buffer name can\'t be empty string ""'),
            ('weight', "attribute 'weight' already exists"),
            ('forward', "attribute 'forward' already exists"),     # class attribute
        ]
        for name, message in cases:
            with self.assertRaises(GLib.Error) as cm:
                leaf.register_buffer(name, ones(1))
            self.assertEqual(cm.exception.message, message)
        leaf.note = 1
        with self.assertRaises(GLib.Error) as cm:
            leaf.register_buffer('note', ones(1))                 # instance attribute
        self.assertEqual(cm.exception.message, "attribute 'note' already exists")
        with self.assertRaises(GLib.Error) as cm:
            leaf.register_buffer('x', 5)
        self.assertEqual(cm.exception.message,
                         "cannot assign 'int' object to buffer 'x' (GnnTensor or NULL required)")
        with self.assertRaises(TypeError) as cm:
            leaf.register_buffer(1, ones(1))
        self.assertEqual(str(cm.exception), 'buffer name should be a string. Got int')

    def test_register_parameter_errors(self):
        leaf = Leaf()
        with self.assertRaises(GLib.Error) as cm:
            leaf.register_parameter('running', param(1))
        self.assertEqual(cm.exception.message, "attribute 'running' already exists")
        with self.assertRaises(GLib.Error) as cm:
            leaf.register_parameter('p', ones(1))
        self.assertEqual(cm.exception.message,
                         "cannot assign 'GnnTensor' object to parameter 'p' "
                         "(GnnParameter or NULL required)")
        leaf.register_parameter('p', None)
        self.assertTrue(leaf.has_child('p'))

    def test_add_module(self):
        net = Net()
        net.add_module('c', Leaf())
        self.assertEqual([n for n, _ in net.named_children()], ['a', 'b', 'c'])
        net.register_module('d', Leaf())
        self.assertEqual([n for n, _ in net.named_children()], ['a', 'b', 'c', 'd'])

    def test_add_module_errors(self):
        net = Net()
        cases = [
            (('x', ones(1)), 'GnnTensor is not a Module subclass'),
            (('x', 3), 'int is not a Module subclass'),
            (('bias', Leaf()), "attribute 'bias' already exists"),
            (('scale', Leaf()), "attribute 'scale' already exists"),
            (('a.b', Leaf()), 'module name can\'t contain ".", got: a.b'),
            (('', Leaf()), 'module name can\'t be empty string ""'),
        ]
        for args, message in cases:
            with self.assertRaises(GLib.Error) as cm:
                net.add_module(*args)
            self.assertEqual(cm.exception.message, message)


class TestTraversal(unittest.TestCase):
    def test_named_parameters(self):
        net = Net()
        # generators, as torch's (next(model.parameters()) works)
        self.assertIs(next(net.parameters()), net.bias)
        named = list(net.named_parameters())
        self.assertEqual([n for n, _ in named], ['bias', 'a.weight', 'b.weight'])
        self.assertIs(named[1][1], net.a.weight)
        self.assertEqual([n for n, _ in net.named_parameters(prefix='m')],
                         ['m.bias', 'm.a.weight', 'm.b.weight'])
        self.assertEqual(list(net.parameters()), [p for _, p in named])

    def test_named_buffers(self):
        net = Net()
        self.assertEqual([n for n, _ in net.named_buffers()], ['a.running', 'b.running'])
        self.assertEqual(list(net.named_buffers(recurse=False)), [])
        self.assertEqual(len(list(net.buffers())), 2)

    def test_named_modules(self):
        net = Net()
        named = list(net.named_modules())
        self.assertEqual([n for n, _ in named], ['', 'a', 'b'])
        self.assertIs(named[0][1], net)
        self.assertEqual([n for n, _ in net.named_modules(prefix='root')],
                         ['root', 'root.a', 'root.b'])
        self.assertEqual(list(net.modules()), [m for _, m in named])

    def test_named_modules_duplicates(self):
        net = Net()
        net.b.inner = net.a     # shared under a second parent
        self.assertEqual([n for n, _ in net.named_modules()], ['', 'a', 'b'])
        self.assertEqual([n for n, _ in net.named_modules(remove_duplicate=False)],
                         ['', 'a', 'b', 'b.inner'])

    def test_named_children(self):
        net = Net()
        self.assertEqual([(n, type(m).__name__) for n, m in net.named_children()],
                         [('a', 'Leaf'), ('b', 'Leaf')])
        self.assertEqual(list(net.children()), [net.a, net.b])

    def test_apply_returns_self(self):
        net = Net()
        seen = []
        self.assertIs(net.apply(lambda m: seen.append(type(m).__name__)), net)
        self.assertEqual(seen, ['Leaf', 'Leaf', 'Net'])

    def test_train_eval_return_self(self):
        net = Net()
        self.assertIs(net.eval(), net)
        self.assertEqual([m.training for m in net.modules()], [False] * 3)
        self.assertIs(net.train(), net)
        self.assertEqual([m.training for m in net.modules()], [True] * 3)
        self.assertIs(net.train(False), net)
        self.assertFalse(net.b.training)
        with self.assertRaises(ValueError) as cm:
            net.train('yes')
        self.assertEqual(str(cm.exception), 'training mode is expected to be boolean')

    def test_requires_grad_returns_self(self):
        net = Net()
        self.assertIs(net.requires_grad_(False), net)
        self.assertFalse(any(p.get_requires_grad() for p in net.parameters()))


class TestCall(unittest.TestCase):
    def test_call_and_forward(self):
        net = Net()
        self.assertEqual(net(scalar(1.0)).item(), 16.0)
        self.assertEqual(net.forward(scalar(1.0)).item(), 16.0)

    def test_torch_style_forward_and_extra_repr(self):
        m = TorchStyle()
        self.assertEqual(m(scalar(2.0)).item(), 5.0)
        self.assertEqual(m.call(scalar(2.0)).item(), 5.0)     # C path uses forward too
        self.assertEqual(repr(m), 'TorchStyle(\n  torch_style=True\n  (leaf): Leaf()\n)')

    def test_python_exception_propagates(self):
        with self.assertRaises(ValueError) as cm:
            Raises()(ones(2))
        self.assertEqual(str(cm.exception), 'bad input 1')
        with self.assertRaises(ValueError):
            Raises().forward(ones(2))

    def test_nested_python_exception_propagates(self):
        class Outer(Gnn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Raises()

            def forward(self, x):
                return self.inner(x)
        with self.assertRaises(ValueError) as cm:
            Outer()(ones(1))
        self.assertEqual(str(cm.exception), 'bad input 1')

    def test_python_exception_through_c_call(self):
        # Gnn.Module.call (the C entry point) reports it as a GLib.Error.
        with self.assertRaises(GLib.Error) as cm:
            Raises().call(ones(2))
        self.assertTrue(cm.exception.message.startswith(
            'forward of Raises failed: ValueError: bad input 1'), cm.exception.message)

    def test_missing_forward(self):
        class NoForward(Gnn.Module):
            pass
        with self.assertRaises(GLib.Error) as cm:
            NoForward()(ones(1))
        self.assertEqual(cm.exception.message,
                         'Module [NoForward] is missing the required "forward" function')

    def test_repr(self):
        net = Net()
        self.assertEqual(repr(net), 'Net(\n  (a): Leaf()\n  (b): Leaf()\n)')
        self.assertEqual(str(net), repr(net))
        self.assertEqual(repr(Identity()), 'Identity()')


class TestHooks(unittest.TestCase):
    def test_pre_hook_sees_tuple_and_replaces_input(self):
        m = Identity()
        seen = []

        def hook(module, inp):
            seen.append((module, type(inp), len(inp)))
            return inp[0].mul_scalar(10.0)
        handle = m.register_forward_pre_hook(hook)
        self.assertIsInstance(handle, Gnn.HookHandle)
        self.assertEqual(m(scalar(1.0)).item(), 10.0)
        self.assertEqual(seen, [(m, tuple, 1)])
        handle.remove()
        self.assertEqual(m(scalar(1.0)).item(), 1.0)

    def test_pre_hook_returning_tuple_or_none(self):
        m = Identity()
        h1 = m.register_forward_pre_hook(lambda mod, inp: (inp[0].add_scalar(1.0),))
        h2 = m.register_forward_pre_hook(lambda mod, inp: None)
        self.assertEqual(m(scalar(1.0)).item(), 2.0)
        h1.remove()
        h2.remove()

    def test_forward_hook_replaces_output(self):
        m = Leaf()
        seen = []

        def hook(module, inp, out):
            seen.append((inp[0].item(), out.item()))
            return out.neg()
        handle = m.register_forward_hook(hook)
        self.assertEqual(m(scalar(3.0)).item(), -6.0)
        self.assertEqual(seen, [(3.0, 6.0)])
        handle.remove()
        self.assertFalse(handle.is_active())
        self.assertEqual(m(scalar(3.0)).item(), 6.0)

    def test_prepend(self):
        m = Identity()
        order = []
        m.register_forward_hook(lambda mod, i, o: order.append('first'))
        m.register_forward_hook(lambda mod, i, o: order.append('prepended'), prepend=True)
        m.register_forward_pre_hook(lambda mod, i: order.append('pre'))
        m.register_forward_pre_hook(lambda mod, i: order.append('pre-prepended'), prepend=True)
        m(scalar(0.0))
        self.assertEqual(order, ['pre-prepended', 'pre', 'prepended', 'first'])

    def test_always_call(self):
        m = Raises()
        seen = []
        m.register_forward_hook(lambda mod, i, o: seen.append(('always', o)), always_call=True)
        m.register_forward_hook(lambda mod, i, o: seen.append(('normal', o)))
        with self.assertRaises(ValueError):
            m(ones(1))
        self.assertEqual(seen, [('always', None)])

    def test_hook_exception_propagates(self):
        m = Identity()

        def hook(module, inp):
            raise KeyError('from hook')
        m.register_forward_pre_hook(hook)
        with self.assertRaises(KeyError):
            m(scalar(1.0))

    def test_hook_glib_error_propagates(self):
        m = Identity()

        def hook(module, inp, out):
            raise GLib.Error('refused', 'gnn-error-quark', int(Gnn.Error.INVALID_ARGUMENT))
        m.register_forward_hook(hook)
        with self.assertRaises(GLib.Error) as cm:
            m(scalar(1.0))
        self.assertEqual(cm.exception.message, 'refused')


class TestStateDict(unittest.TestCase):
    def test_mapping_protocol(self):
        net = Net()
        sd = net.state_dict(keep_vars=True)   # the module's own tensors
        self.assertIsInstance(sd, Gnn.StateDict)
        self.assertIsInstance(sd, collections.abc.MutableMapping)
        keys = ['bias', 'a.weight', 'a.running', 'b.weight', 'b.running']
        self.assertEqual(len(sd), 5)
        self.assertEqual(list(sd), keys)
        self.assertEqual(sd.keys(), keys)
        self.assertIn('a.weight', sd)
        self.assertNotIn('nope', sd)
        self.assertNotIn(3, sd)
        self.assertIs(sd['a.weight'], net.a.weight)
        self.assertEqual([k for k, _ in sd.items()], keys)
        self.assertIs(sd.values()[0], net.bias)
        self.assertIsNone(sd.get('nope'))
        with self.assertRaises(KeyError):
            sd['nope']

    def test_mutation(self):
        sd = Gnn.StateDict()
        self.assertEqual(len(sd), 0)
        self.assertFalse(sd)
        t = ones(2)
        sd['x'] = t
        sd['y'] = ones(1)
        self.assertIs(sd['x'], t)
        sd['x'] = ones(3)       # replacing keeps the position
        self.assertEqual(list(sd), ['x', 'y'])
        del sd['x']
        self.assertEqual(list(sd), ['y'])
        with self.assertRaises(KeyError):
            del sd['x']
        with self.assertRaises(TypeError):
            sd['z'] = 1.0
        self.assertEqual(repr(sd), "StateDict(['y'])")

    def test_prefix(self):
        sd = Leaf().state_dict(prefix='enc.')
        self.assertEqual(list(sd), ['enc.weight', 'enc.running'])

    def test_load_round_trip(self):
        a, b = Net(), Net()
        a.a.weight.fill_(5.0)
        result = b.load_state_dict(a.state_dict())
        self.assertEqual(result, ([], []))
        self.assertEqual(repr(result), '<All keys matched successfully>')
        self.assertEqual(b.a.weight.to_floats(), [5.0, 5.0])

    def test_load_python_dict(self):
        leaf = Leaf()
        leaf.load_state_dict({'weight': Gnn.Tensor.full([2], 7.0, Gnn.DType.F32)
                              if hasattr(Gnn.Tensor, 'full') else ones(2).mul_scalar(7.0),
                              'running': ones(2)})
        self.assertEqual(leaf.weight.to_floats(), [7.0, 7.0])
        self.assertEqual(leaf.running.to_floats(), [1.0, 1.0])

    def test_load_not_strict(self):
        leaf = Leaf()
        result = leaf.load_state_dict({'weight': ones(2), 'other': ones(1)}, strict=False)
        self.assertEqual(result.missing_keys, ['running'])
        self.assertEqual(result.unexpected_keys, ['other'])
        self.assertEqual(repr(result),
                         "_IncompatibleKeys(missing_keys=['running'], unexpected_keys=['other'])")

    def test_load_strict_error(self):
        leaf = Leaf()
        with self.assertRaises(GLib.Error) as cm:
            leaf.load_state_dict({'weight': ones(2), 'other': ones(1)})
        self.assertEqual(cm.exception.message,
                         'Error(s) in loading state_dict for Leaf:\n'
                         '\tMissing key(s) in state_dict: "running". \n'
                         '\tUnexpected key(s) in state_dict: "other". ')
        self.assertEqual(cm.exception.code, Gnn.Error.KEY)

    def test_load_size_mismatch_is_atomic(self):
        leaf = Leaf()
        with self.assertRaises(GLib.Error) as cm:
            leaf.load_state_dict({'weight': ones(3), 'running': ones(2)}, strict=False)
        self.assertEqual(cm.exception.message,
                         'Error(s) in loading state_dict for Leaf:\n'
                         '\tsize mismatch for weight: copying a param with shape [3] from '
                         'checkpoint, the shape in current model is [2].')
        self.assertEqual(leaf.running.to_floats(), [0.0, 0.0])   # nothing applied

    def test_load_not_a_mapping(self):
        with self.assertRaises(TypeError) as cm:
            Leaf().load_state_dict([('weight', ones(2))])
        self.assertEqual(str(cm.exception), "Expected state_dict to be dict-like, got <class 'list'>.")



class ToDtype(unittest.TestCase):
    # torch's module.to(dtype) converts in place (_apply sets param.data):
    # an optimizer keeps updating the model, tied weights stay tied, grads
    # convert too.
    def test_parameters_keep_their_identity(self):
        model = Gnn.nn.Sequential(Gnn.nn.Linear(3, 2), Gnn.nn.Linear(2, 2))
        weight = model[0].weight
        opt = Gnn.optim.SGD(model.parameters(), lr=0.5)
        model(Gnn.randn(4, 3)).sum().backward()
        self.assertIs(model.double(), model)
        self.assertIs(model[0].weight, weight)
        self.assertEqual(weight.dtype, Gnn.float64)
        self.assertEqual(weight.grad.dtype, Gnn.float64)
        before = weight.detach().clone()
        opt.step()
        self.assertFalse(bool((model[0].weight == before).numpy().all()))

    def test_tied_weight_stays_tied(self):
        a, b = Gnn.nn.Linear(4, 4), Gnn.nn.Linear(4, 4)
        b.weight = a.weight
        model = Gnn.nn.Sequential(a, b)
        model.double()
        self.assertIs(model[0].weight, model[1].weight)
        self.assertEqual(model[1].weight.dtype, Gnn.float64)

    def test_integer_dtype_refused_like_torch(self):
        with self.assertRaisesRegex(TypeError, 'nn.Module.to only accepts floating point or '
                                               'complex dtypes, but got desired dtype='):
            Gnn.nn.Linear(2, 2).to(Gnn.int64)



class TorchDefaults(unittest.TestCase):
    def test_state_dict_tensors_are_detached_unless_keep_vars(self):
        # torch: param.detach() (an EMA's in-place update works), the same memory
        model = Gnn.nn.Linear(3, 2)
        sd = model.state_dict()
        self.assertFalse(sd['weight'].requires_grad)
        sd['weight'].mul_(0.5)     # no "leaf Variable ... in-place" error
        self.assertEqual(model.weight.numpy().tolist(), sd['weight'].numpy().tolist())
        kept = model.state_dict(keep_vars=True)
        self.assertIs(kept['weight'], model.weight)

    def test_set_grad_enabled_as_a_statement(self):
        self.assertTrue(Gnn.is_grad_enabled())
        try:
            Gnn.set_grad_enabled(False)
            self.assertFalse(Gnn.is_grad_enabled())
        finally:
            Gnn.set_grad_enabled(True)
        with Gnn.set_grad_enabled(False):
            self.assertFalse(Gnn.is_grad_enabled())
        self.assertTrue(Gnn.is_grad_enabled())

    def test_apply_raises_the_functions_exception(self):
        model = Gnn.nn.Sequential(Gnn.nn.Linear(2, 2), Gnn.nn.ReLU(), Gnn.nn.Linear(2, 1))
        seen = []

        def fn(module):
            seen.append(type(module).__name__)
            if len(seen) == 2:
                raise exc
        for exc in (ValueError('bad init'), KeyboardInterrupt(), SystemExit(3)):
            seen.clear()
            with self.assertRaises(type(exc)) as cm:
                model.apply(fn)
            self.assertIs(cm.exception, exc)
            self.assertEqual(len(seen), 2)     # the walk stopped there

    def test_hook_bound_to_the_parent_does_not_keep_it_alive(self):
        # torch's hooks live in Python dicts the collector sees; Gnn's live
        # in C, so a module's own method is held weakly there
        import gc
        import weakref

        class Outer(Gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.child = Gnn.nn.Linear(2, 2)
                self.seen = 0
                self.child.register_forward_hook(self.save)
                self.child.register_forward_pre_hook(lambda m, i: None)

            def save(self, module, input, output):
                self.seen += 1

            def forward(self, x):
                return self.child(x)
        outer = Outer()
        outer(Gnn.ones(1, 2))
        self.assertEqual(outer.seen, 1)
        ref = weakref.ref(outer)
        del outer
        gc.collect()
        self.assertIsNone(ref())

    def test_optimizer_zero_grad_keeps_zeroed_gradients(self):
        # torch 1.13: set_to_none defaults to False
        model = Gnn.nn.Linear(2, 1)
        opt = Gnn.optim.SGD(model.parameters(), lr=0.1)
        model(Gnn.randn(3, 2)).sum().backward()
        opt.zero_grad()
        self.assertIsNotNone(model.weight.grad)
        self.assertEqual(model.weight.grad.numpy().tolist(), [[0.0, 0.0]])
        opt.zero_grad(set_to_none=True)
        self.assertIsNone(model.weight.grad)


if __name__ == '__main__':
    unittest.main()
