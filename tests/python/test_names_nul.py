#!/usr/bin/python3
# test_names_nul.py: a name with a NUL inside cannot cross into C whole (a C
# string ends there), so the override refuses it wherever a string enters
# the library — state-dict keys, Gnn.save, load_state_dict, register_*,
# attribute names, container keys, paths, prefixes, metadata, string
# properties — instead of cutting it ({'w\0x': a, 'w\0y': b} saved one
# tensor 'w'; a strict load_state_dict took 'weight\0junk' for 'weight').
# Lookups answer as for any absent key, as torch's do.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import tempfile
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


class Refused(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def assertRefused(self, fn, culprit):
        with self.assertRaises(GLib.Error) as caught:
            fn()
        self.assertEqual(caught.exception.code, int(Gnn.Error.NAME))
        self.assertIn("can't contain a NUL character", caught.exception.message)
        self.assertIn(repr(culprit), caught.exception.message)

    def test_save_keys(self):
        # the case: one tensor 'w' was saved
        a, b = Gnn.ones(2), Gnn.zeros(2)
        target = self.path('f.safetensors')
        self.assertRefused(lambda: Gnn.save({'w\0x': a, 'w\0y': b}, target), 'w\0x')
        self.assertFalse(os.path.exists(target))
        self.assertRefused(lambda: Gnn.save({'ckpt': {'w\0x': a}, 'epoch': 1}, target),
                           'ckpt.w\0x')

    def test_load_state_dict_keys(self):
        # the case: strict load_state_dict took 'weight\0junk' for 'weight'
        lin = Gnn.nn.Linear(2, 2)
        before = lin.weight.tolist()
        state = dict(lin.state_dict())
        state['weight\0junk'] = Gnn.zeros(2, 2)
        del state['weight']
        self.assertRefused(lambda: lin.load_state_dict(state), 'weight\0junk')
        self.assertEqual(lin.weight.tolist(), before)

    def test_state_dict_entries(self):
        sd = Gnn.StateDict()
        self.assertRefused(lambda: sd.__setitem__('a\0b', Gnn.ones(1)), 'a\0b')
        self.assertRefused(lambda: sd.insert('a\0b', Gnn.ones(1)), 'a\0b')
        self.assertRefused(lambda: sd.set_metadata('k\0x', 'v'), 'k\0x')
        self.assertRefused(lambda: sd.set_metadata('k', 'v\0x'), 'v\0x')
        self.assertEqual(list(sd), [])
        self.assertRefused(lambda: Gnn.save({'w': Gnn.ones(1)}, self.path('m.safetensors'),
                                            metadata={'k': 'v\0w'}), {'k': 'v\0w'})

    def test_registration_and_attributes(self):
        class Net(Gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = Gnn.nn.Linear(2, 2)
        net = Net()
        p = Gnn.nn.Parameter(Gnn.ones(1))
        self.assertRefused(lambda: net.register_parameter('p\0q', p), 'p\0q')
        self.assertRefused(lambda: net.register_buffer('b\0q', Gnn.ones(1)), 'b\0q')
        self.assertRefused(lambda: net.add_module('m\0q', Gnn.nn.ReLU()), 'm\0q')
        self.assertRefused(lambda: setattr(net, 'fc\0x', Gnn.nn.ReLU()), 'fc\0x')
        self.assertRefused(lambda: net.set_child('fc\0x', None), 'fc\0x')
        # looked up in Python, never cut: absent, as in torch
        self.assertRaises(AttributeError, net.get_submodule, 'fc\0x')
        self.assertRaises(AttributeError, net.get_parameter, 'fc.weight\0x')
        self.assertRefused(lambda: list(net.named_parameters(prefix='p\0q')), 'p\0q')
        self.assertRefused(lambda: net.state_dict(prefix='p\0q.'), 'p\0q.fc.weight')
        self.assertRefused(lambda: net.save(self.path('n\0o')), self.path('n\0o'))
        self.assertEqual([n for n, _ in net.named_parameters()], ['fc.weight', 'fc.bias'])

    def test_containers_and_properties(self):
        self.assertRefused(lambda: Gnn.nn.ModuleDict({'a\0b': Gnn.nn.ReLU()}), 'a\0b')
        self.assertRefused(lambda: Gnn.nn.ParameterDict({'a\0b': Gnn.nn.Parameter(Gnn.ones(1))}),
                           'a\0b')
        self.assertRefused(lambda: Gnn.nn.GELU(approximate='tanh\0x'), 'tanh\0x')
        self.assertRefused(lambda: Gnn.GELU.new('tanh\0x'), 'tanh\0x')
        self.assertRefused(lambda: Gnn.nn.GELU().set_property('approximate', 'tanh\0x'),
                           'tanh\0x')
        self.assertEqual(Gnn.GELU.new('tanh').get_property('approximate'), 'tanh')


@unittest.skipIf(torch is None, 'torch is not installed')
class LookupsLikeTorch(unittest.TestCase):
    def test_absent(self):
        def run(lib):
            lin = lib.nn.Linear(2, 2)
            sd = lin.state_dict()
            md = lib.nn.ModuleDict({'a': lib.nn.ReLU()})
            out = ['weight\0x' in sd, 'a\0b' in md, hasattr(lin, 'weight\0x')]
            for fn in (lambda: sd['weight\0x'], lambda: md['a\0b']):
                try:
                    fn()
                    out.append('found')
                except KeyError:
                    out.append('KeyError')
            try:
                delattr(lin, 'bias\0x')
            except AttributeError:
                out.append('AttributeError')
            out.append(lin.bias is not None)
            return out
        self.assertEqual(run(Gnn), run(torch))


if __name__ == '__main__':
    unittest.main(verbosity=2)
