#!/usr/bin/python3
# test_module_diamond.py: diamond inheritance `class C(A, B)` where A and B
# both subclass the module base and call its __init__ explicitly. In torch
# the second Module.__init__ re-creates the registry and silently drops the
# children registered by the first; in Gnn the registry is created once, by
# the GObject instance init, so every child survives.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

import torch  # noqa: E402


def gnn_param(n):
    return Gnn.Parameter.new(Gnn.Tensor.ones([n], Gnn.DType.F32), True)


class Leaf(Gnn.Module):
    def do_forward(self, x):
        return x


# --- Gnn -------------------------------------------------------------------

class GA(Gnn.Module):
    def __init__(self):
        Gnn.Module.__init__(self)
        self.wa = gnn_param(1)
        self.ma = Leaf()
        self.register_buffer('ba', Gnn.Tensor.zeros([1], Gnn.DType.F32))


class GB(Gnn.Module):
    def __init__(self):
        Gnn.Module.__init__(self)
        self.wb = gnn_param(2)
        self.mb = Leaf()


class GC(GA, GB):
    def __init__(self):
        GA.__init__(self)
        GB.__init__(self)
        self.wc = gnn_param(3)

    def do_forward(self, x):
        return x


# --- torch: the same pattern ---------------------------------------------------

class TA(torch.nn.Module):
    def __init__(self):
        torch.nn.Module.__init__(self)
        self.wa = torch.nn.Parameter(torch.ones(1))
        self.ma = torch.nn.Identity()
        self.register_buffer('ba', torch.zeros(1))


class TB(torch.nn.Module):
    def __init__(self):
        torch.nn.Module.__init__(self)
        self.wb = torch.nn.Parameter(torch.ones(2))
        self.mb = torch.nn.Identity()


class TC(TA, TB):
    def __init__(self):
        TA.__init__(self)
        TB.__init__(self)
        self.wc = torch.nn.Parameter(torch.ones(3))


class TestDiamond(unittest.TestCase):
    def test_torch_loses_children(self):
        c = TC()
        self.assertEqual([n for n, _ in c.named_parameters()], ['wb', 'wc'])
        self.assertEqual([n for n, _ in c.named_children()], ['mb'])
        self.assertEqual(list(c.state_dict()), ['wb', 'wc'])

    def test_gnn_keeps_every_child(self):
        c = GC()
        self.assertEqual([n for n, _ in c.named_parameters()], ['wa', 'wb', 'wc'])
        self.assertEqual([n for n, _ in c.named_children()], ['ma', 'mb'])
        self.assertEqual([n for n, _ in c.named_buffers()], ['ba'])
        self.assertEqual(list(c.state_dict()), ['wa', 'wb', 'wc', 'ba'])

    def test_gnn_mro_and_type(self):
        c = GC()
        self.assertIsInstance(c, GA)
        self.assertIsInstance(c, GB)
        self.assertEqual(c.get_name(), 'GC')
        self.assertEqual(repr(c), 'GC(\n  (ma): Leaf()\n  (mb): Leaf()\n)')

    def test_gnn_children_usable(self):
        c = GC()
        self.assertIsInstance(c.ma, Leaf)
        self.assertEqual(c.wb.get_shape(), [2])
        x = Gnn.Tensor.ones([1], Gnn.DType.F32)
        self.assertIs(c(x), x)

    def test_gnn_explicit_reinit_keeps_children(self):
        c = GC()
        Gnn.Module.__init__(c)
        GA.__init__(c)      # re-runs A's assignments: same names, new values
        self.assertEqual([n for n, _ in c.named_parameters()], ['wa', 'wb', 'wc'])
        self.assertEqual([n for n, _ in c.named_children()], ['ma', 'mb'])

    def test_cooperative_super_chain(self):
        # The cooperative spelling (super().__init__() everywhere) also keeps
        # everything, in both libraries.
        class A(Gnn.Module):
            def __init__(self):
                super().__init__()
                self.wa = gnn_param(1)

        class B(Gnn.Module):
            def __init__(self):
                super().__init__()
                self.wb = gnn_param(1)

        class C(A, B):
            pass
        self.assertEqual([n for n, _ in C().named_parameters()], ['wb', 'wa'])


if __name__ == '__main__':
    unittest.main()
