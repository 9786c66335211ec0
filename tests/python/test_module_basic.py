# GnnModule through plain PyGObject (no override features): subclassing,
# do_forward, registration, errors, re-running __init__.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, GObject, Gnn  # noqa: E402


def ones(n):
    return Gnn.Tensor.ones([n], Gnn.DType.F32)


class Net(Gnn.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.register_parameter('w', Gnn.Parameter.new(ones(2), True))
        self.register_buffer('stats', ones(3), True)

    def do_forward(self, x):
        return x.mul_scalar(3.0)

    def do_extra_repr(self):
        return 'k=3'


class Failing(Gnn.Module):
    def do_forward(self, x):
        raise GLib.Error('forward failed on purpose')


class Raising(Gnn.Module):
    def do_forward(self, x):
        raise ValueError('not a GLib.Error')


class TestModuleBasic(unittest.TestCase):
    def test_registration(self):
        net = Net()
        params = list(net.named_parameters())
        self.assertEqual([n for n, _ in params], ['w'])
        self.assertIsInstance(params[0][1], Gnn.Parameter)
        self.assertEqual([n for n, _ in net.named_buffers()], ['stats'])

    def test_type_name(self):
        net = Net()
        self.assertEqual(GObject.type_name(type(net)), '__main__+Net')
        self.assertEqual(net.get_name(), 'Net')

    def test_call_runs_do_forward(self):
        net = Net()
        y = net.call(Gnn.Tensor.new_scalar(2.0, Gnn.DType.F32))
        self.assertEqual(y.item(), 6.0)

    def test_forward_glib_error_propagates(self):
        with self.assertRaises(GLib.Error) as cm:
            Failing().call(Gnn.Tensor.new_scalar(1.0, Gnn.DType.F32))
        self.assertIn('forward failed on purpose', cm.exception.message)

    def test_forward_other_exception_becomes_error(self):
        # PyGObject prints the ValueError and returns NULL without a GError;
        # Gnn turns that into an error instead of crashing.
        with self.assertRaises(GLib.Error) as cm:
            Raising().call(Gnn.Tensor.new_scalar(1.0, Gnn.DType.F32))
        self.assertIn('Raising', cm.exception.message)

    def test_error_messages(self):
        net = Net()
        with self.assertRaises(GLib.Error) as cm:
            net.register_parameter('a.b', None)
        self.assertEqual(cm.exception.message, 'parameter name can\'t contain "."')
        with self.assertRaises(GLib.Error) as cm:
            net.get_child('nope')
        self.assertEqual(cm.exception.message, "'Net' object has no attribute 'nope'")

    def test_reinit_keeps_children(self):
        net = Net()
        w = net.get_child('w')
        # PyGObject's GObject.Object.__init__ on an already constructed
        # object does nothing (3.42 even ignores property kwargs there); the
        # GObject instance init, which owns the registry, never runs twice.
        Gnn.Module.__init__(net)
        self.assertIs(net.get_child('w'), w)
        self.assertEqual([n for n, _ in net.named_parameters()], ['w'])

    def test_set_child_and_children(self):
        net = Net()
        inner = Net()
        net.set_child('inner', inner)
        self.assertEqual([n for n, _ in net.named_modules()], ['', 'inner'])
        self.assertEqual(net.count_parameters(False), 4)

    def test_to_string(self):
        net = Net()
        net.set_child('inner', Net())
        self.assertEqual(net.to_string(), 'Net(\n  k=3\n  (inner): Net(k=3)\n)')

    def test_state_dict_round_trip(self):
        a, b = Net(), Net()
        a.get_child('w').fill_(5.0)
        sd = a.state_dict()
        self.assertEqual(sd.get_keys(), ['w', 'stats'])
        missing, unexpected = b.load_state_dict(sd)
        self.assertEqual((missing, unexpected), ([], []))
        self.assertEqual(b.get_child('w').to_floats(), [5.0, 5.0])

    def test_forward_hook(self):
        net = Net()
        seen = []

        def hook(module, inp, out):
            seen.append(out.item())
            return out.mul_scalar(-1.0)

        handle = net.register_forward_hook(hook)
        y = net.call(Gnn.Tensor.new_scalar(1.0, Gnn.DType.F32))
        self.assertEqual((seen, y.item()), ([3.0], -3.0))
        handle.remove()
        self.assertFalse(handle.is_active())
        y = net.call(Gnn.Tensor.new_scalar(1.0, Gnn.DType.F32))
        self.assertEqual(y.item(), 3.0)


if __name__ == '__main__':
    unittest.main()
