# Declared child slots are GObject properties backed by the registry: Python
# reads and writes them through `props`, they are listed like any property,
# notify fires, and nothing of the child lives on the Python wrapper.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, GObject, Gnn  # noqa: E402


def param(*shape):
    return Gnn.Parameter.new(Gnn.Tensor.zeros(list(shape), Gnn.DType.F32), True)


class DeclaredSlots(unittest.TestCase):
    def test_slots_are_listed_properties(self):
        names = [p.name for p in GObject.list_properties(Gnn.Linear)]
        self.assertIn('weight', names)
        self.assertIn('bias', names)

    def test_props_read_the_registry(self):
        lin = Gnn.Linear.new(4, 8, True, None)
        self.assertIsInstance(lin.props.weight, Gnn.Parameter)
        self.assertIs(lin.props.weight, lin.get_child('weight'))
        self.assertEqual(list(lin.props.weight.shape), [8, 4])

    def test_props_write_registers_and_notifies(self):
        lin = Gnn.Linear.new(4, 8, True, None)
        seen = []
        lin.connect('notify::weight', lambda obj, pspec: seen.append(pspec.name))
        new = param(8, 4)
        lin.props.weight = new
        self.assertIs(lin.get_child('weight'), new)
        self.assertEqual([n for n, _ in lin.named_parameters()], ['weight', 'bias'])
        self.assertEqual(seen, ['weight'])

    def test_registry_change_notifies_slot(self):
        lin = Gnn.Linear.new(4, 8, True, None)
        seen = []
        lin.connect('notify::bias', lambda obj, pspec: seen.append(pspec.name))
        lin.set_child('bias', None)
        self.assertIsNone(lin.props.bias)
        self.assertEqual(seen, ['bias'])
        self.assertEqual([n for n, _ in lin.named_parameters()], ['weight'])

    def test_wrong_kind_into_slot_changes_nothing(self):
        lin = Gnn.Linear.new(4, 8, True, None)
        before = lin.get_child('weight')
        with self.assertRaises(GLib.Error) as cm:
            lin.set_child('weight', Gnn.Tensor.zeros([8, 4], Gnn.DType.F32))
        self.assertIn("cannot assign 'GnnTensor' as parameter 'weight'", cm.exception.message)
        self.assertIs(lin.get_child('weight'), before)


class Wrapper(Gnn.Module):
    """Like DistributedDataParallel: the wrapped model is `self.module`."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def do_forward(self, x):
        return self.module(x)


class WrappedChild(unittest.TestCase):
    def test_module_attribute_is_registry_only(self):
        inner = Gnn.Linear.new(2, 3, True, None)
        w = Wrapper(inner)
        self.assertIs(w.module, inner)
        self.assertNotIn('module', w.__dict__)
        self.assertEqual([n for n, _ in w.named_parameters()], ['module.weight', 'module.bias'])
        self.assertEqual(list(w.state_dict().keys()), ['module.weight', 'module.bias'])


if __name__ == '__main__':
    unittest.main()
