#!/usr/bin/python3
# test_containers_protocol.py: the torch.nn container protocol that the
# Python override (gir/overrides/Gnn.py, "containers") adds to Sequential,
# ModuleList, ModuleDict, ParameterList and ParameterDict: constructors
# taking the children, len(), [] with negative indices and slices, item
# assignment and deletion, iteration, the dict methods, append/extend/
# insert/pop, and torch's exception types and messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

import numpy as np  # noqa: E402
import torch.nn as nn  # noqa: E402


def linear(i, o):
    return Gnn.Linear.new(i, o, True, Gnn.Generator.new(0))


def keys(module):
    return [name for name, _ in module.named_children()]


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e).strip("'")
    return None


class TestSequential(unittest.TestCase):
    def setUp(self):
        self.a, self.b, self.c = linear(2, 3), Gnn.ReLU.new(False), linear(3, 1)
        self.seq = Gnn.Sequential(self.a, self.b, self.c)

    def test_constructor_and_len(self):
        self.assertEqual(len(self.seq), 3)
        self.assertEqual(keys(self.seq), ['0', '1', '2'])
        self.assertEqual(len(Gnn.Sequential()), 0)

    def test_constructor_ordered_dict(self):
        seq = Gnn.Sequential(collections.OrderedDict([('fc', self.a), ('act', self.b)]))
        self.assertEqual(keys(seq), ['fc', 'act'])
        self.assertIs(seq[1], self.b)

    def test_index(self):
        self.assertIs(self.seq[0], self.a)
        self.assertIs(self.seq[-1], self.c)

    def test_index_errors_like_torch(self):
        t = nn.Sequential(nn.ReLU(), nn.ReLU(), nn.ReLU())
        self.assertEqual(error_of(lambda: self.seq[5]), error_of(lambda: t[5]))
        self.assertEqual(error_of(lambda: self.seq[-4]), error_of(lambda: t[-4]))
        self.assertEqual(error_of(lambda: self.seq['a']), error_of(lambda: t['a']))

    def test_slice_keeps_keys(self):
        tail = self.seq[1:]
        self.assertIsInstance(tail, Gnn.Sequential)
        self.assertEqual(keys(tail), ['1', '2'])
        self.assertEqual(keys(self.seq[::-1]), ['2', '1', '0'])
        self.assertEqual(keys(self.seq[::2]), ['0', '2'])
        self.assertEqual(len(self.seq[3:]), 0)

    def test_iteration_and_call(self):
        self.assertEqual(list(self.seq), [self.a, self.b, self.c])
        y = self.seq(Gnn.Tensor.ones([4, 2], Gnn.DType.F32))
        self.assertEqual(y.shape, (4, 1))

    def test_setitem_keeps_key(self):
        tanh = Gnn.Tanh.new()
        self.seq[1] = tanh
        self.assertIs(self.seq[1], tanh)
        self.assertEqual(keys(self.seq), ['0', '1', '2'])
        with self.assertRaises(IndexError):
            self.seq[3] = tanh

    def test_delitem_renumbers(self):
        del self.seq[0]
        self.assertEqual(keys(self.seq), ['0', '1'])
        self.assertIs(self.seq[0], self.b)
        seq = Gnn.Sequential(*[Gnn.ReLU.new(False) for _ in range(5)])
        del seq[1:4]
        self.assertEqual(len(seq), 2)
        self.assertEqual(keys(seq), ['0', '1'])

    def test_append_extend_insert_pop(self):
        tanh, sig = Gnn.Tanh.new(), Gnn.Sigmoid.new()
        self.assertIs(self.seq.append(tanh), self.seq)
        self.assertIs(self.seq.extend([sig]), self.seq)
        self.assertEqual(list(self.seq)[-2:], [tanh, sig])
        self.assertIs(self.seq.insert(0, sig), self.seq)
        self.assertIs(self.seq[0], sig)
        self.assertIs(self.seq.pop(0), sig)
        self.assertIs(self.seq.pop(), sig)
        self.assertEqual(len(self.seq), 4)
        with self.assertRaises(IndexError):
            self.seq.pop(10)

    def test_new_constructor_still_works(self):
        seq = Gnn.Sequential.new([self.a])
        self.assertIsInstance(seq, Gnn.Sequential)
        self.assertEqual(len(seq), 1)


class TestModuleList(unittest.TestCase):
    def test_protocol(self):
        a, b = Gnn.ReLU.new(False), Gnn.Tanh.new()
        ml = Gnn.ModuleList([a, b])
        self.assertEqual(len(ml), 2)
        self.assertIs(ml[-1], b)
        self.assertEqual(list(ml), [a, b])
        ml += [a]
        self.assertEqual(len(ml), 3)
        self.assertIsNone(ml.insert(0, b))
        self.assertEqual(list(ml), [b, a, b, a])

    def test_slice_renumbers(self):
        ml = Gnn.ModuleList([Gnn.ReLU.new(False), Gnn.Tanh.new(), Gnn.Sigmoid.new()])
        tail = ml[1:]
        self.assertIsInstance(tail, Gnn.ModuleList)
        self.assertEqual(keys(tail), ['0', '1'])

    def test_errors(self):
        ml = Gnn.ModuleList([])
        self.assertEqual(error_of(lambda: ml[0]), error_of(lambda: nn.ModuleList()[0]))

    def test_same_module_twice_iterates_twice(self):
        a = Gnn.ReLU.new(False)
        ml = Gnn.ModuleList([a, a])
        self.assertEqual(list(ml), [a, a])


class TestModuleDict(unittest.TestCase):
    def test_mapping(self):
        relu, tanh = Gnn.ReLU.new(False), Gnn.Tanh.new()
        md = Gnn.ModuleDict({'act': relu})
        md['out'] = tanh
        self.assertEqual(len(md), 2)
        self.assertEqual(list(md), ['act', 'out'])
        self.assertEqual(md.keys(), ['act', 'out'])
        self.assertEqual(md.values(), [relu, tanh])
        self.assertEqual(md.items(), [('act', relu), ('out', tanh)])
        self.assertIn('act', md)
        self.assertNotIn('nope', md)
        self.assertNotIn(3, md)
        self.assertIs(md['out'], tanh)

    def test_missing_key(self):
        md = Gnn.ModuleDict()
        with self.assertRaises(KeyError):
            md['x']
        with self.assertRaises(KeyError):
            del md['x']
        with self.assertRaises(KeyError):
            md.pop('x')

    def test_pop_update_clear(self):
        md = Gnn.ModuleDict([('a', Gnn.ReLU.new(False)), ('b', Gnn.Tanh.new())])
        b = md.pop('b')
        self.assertIsInstance(b, Gnn.Tanh)
        md.update({'c': b})
        del md['a']
        self.assertEqual(md.keys(), ['c'])
        md.clear()
        self.assertEqual(len(md), 0)

    def test_bad_name_is_library_error(self):
        md = Gnn.ModuleDict()
        with self.assertRaises(GLib.Error) as cm:
            md['a.b'] = Gnn.ReLU.new(False)
        self.assertIn('can\'t contain "."', cm.exception.message)


class TestParameterList(unittest.TestCase):
    def test_protocol(self):
        pl = Gnn.ParameterList([Gnn.Tensor.ones([2], Gnn.DType.F32)])
        self.assertIs(pl.append(np.zeros(3, dtype=np.float32)), pl)
        self.assertEqual(len(pl), 2)
        self.assertIsInstance(pl[0], Gnn.Parameter)
        self.assertEqual(pl[-1].shape, (3,))
        self.assertEqual([p.shape for p in pl], [(2,), (3,)])
        self.assertEqual([n for n, _ in pl.named_parameters()], ['0', '1'])
        pl[0] = np.full(4, 2, dtype=np.float32)
        self.assertEqual(pl[0].numpy().tolist(), [2, 2, 2, 2])
        self.assertEqual(len(pl[1:]), 1)
        self.assertIsInstance(pl[1:], Gnn.ParameterList)

    def test_errors(self):
        pl = Gnn.ParameterList()
        with self.assertRaises(IndexError):
            pl[0]
        with self.assertRaises(TypeError):
            pl.append('weights')


class TestParameterDict(unittest.TestCase):
    def test_mapping(self):
        pd = Gnn.ParameterDict({'w': np.ones(2, dtype=np.float32)})
        pd['b'] = Gnn.Tensor.zeros([1], Gnn.DType.F32)
        self.assertEqual(list(pd), ['w', 'b'])
        self.assertIsInstance(pd['w'], Gnn.Parameter)
        self.assertIn('b', pd)
        self.assertEqual([n for n, _ in pd.named_parameters()], ['w', 'b'])
        self.assertEqual(pd.pop('w').shape, (2,))
        self.assertEqual(pd.keys(), ['b'])
        with self.assertRaises(KeyError):
            pd['w']


if __name__ == '__main__':
    unittest.main()
