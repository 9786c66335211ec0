# Meta construction and loading by assignment, side by side with torch 1.13
# where torch defines the behaviour (meta repr, shapes, parameter names,
# to_empty); assign=True follows torch 2.x (1.13 has no assign), checked
# against Gnn's own copy load.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import tempfile
import unittest

import torch
import torch.nn as tnn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


class MetaConstruction(unittest.TestCase):
    def test_linear_device_meta_like_torch(self):
        g = Gnn.Linear(4, 8, device='meta')
        t = tnn.Linear(4, 8, device='meta')
        self.assertEqual(repr(g), repr(t))
        self.assertEqual([n for n, _ in g.named_parameters()],
                         [n for n, _ in t.named_parameters()])
        for (_, gp), (_, tp) in zip(g.named_parameters(), t.named_parameters()):
            self.assertEqual(tuple(gp.shape), tuple(tp.shape))
            self.assertEqual(str(gp), str(tp))
            self.assertTrue(gp.is_meta and tp.is_meta)
            self.assertEqual(str(gp.device), str(tp.device))
            self.assertEqual(gp.requires_grad, tp.requires_grad)
        self.assertEqual(Gnn.get_default_device(), Gnn.Device.CPU)

    def test_repr_of_meta_tensors_like_torch(self):
        with Gnn.device('meta'):
            cases = [(Gnn.empty(8, 4), torch.empty(8, 4, device='meta')),
                     (Gnn.zeros(3, dtype=Gnn.float64),
                      torch.zeros(3, device='meta', dtype=torch.float64)),
                     (Gnn.ones(2, 3, dtype=Gnn.int64),
                      torch.ones(2, 3, device='meta', dtype=torch.int64))]
        for g, t in cases:
            self.assertEqual(str(g), str(t))
        self.assertFalse(Gnn.zeros(2).is_meta)
        for g, t in [(Gnn.empty(2, 3, device='meta'), torch.empty(2, 3, device='meta')),
                     (Gnn.full((4,), 2.0, device='meta'), torch.full((4,), 2.0, device='meta')),
                     (Gnn.randn(5, device='meta'), torch.randn(5, device='meta'))]:
            self.assertEqual(str(g), str(t))
            self.assertEqual(str(g.device), 'meta')
        with self.assertRaises(RuntimeError):
            Gnn.tensor([1.0], device='meta')   # only the factories build meta tensors

    def test_device_scope_builds_a_tree_without_draws(self):
        Gnn.manual_seed(5)
        with Gnn.device('meta'):
            model = Gnn.Sequential(Gnn.Linear(3, 4), Gnn.ReLU(), Gnn.Linear(4, 2),
                                   Gnn.LayerNorm(2), Gnn.Conv2d(1, 2, 3), Gnn.Embedding(5, 2))
        self.assertTrue(all(p.is_meta for p in model.parameters()))
        after_meta = Gnn.Linear(2, 2).weight.numpy()
        Gnn.manual_seed(5)
        fresh = Gnn.Linear(2, 2).weight.numpy()
        self.assertEqual(after_meta.tolist(), fresh.tolist())   # nothing was drawn

    def test_use_raises(self):
        m = Gnn.Linear(4, 8, device='meta')
        with self.assertRaises(GLib.Error) as cm:
            m(Gnn.ones(1, 4))
        self.assertIn('has no storage (meta)', cm.exception.message)
        with self.assertRaises(GLib.Error):
            m.weight.numpy()
        with self.assertRaises(GLib.Error):
            m.weight.sum()
        with self.assertRaises(GLib.Error):
            m.weight.tolist()

    def test_to_empty_like_torch(self):
        g = Gnn.Sequential(Gnn.Linear(4, 8, device='meta'))
        t = tnn.Sequential(tnn.Linear(4, 8, device='meta'))
        w = g[0].weight
        self.assertIs(g.to_empty(device='cpu'), g)
        t.to_empty(device='cpu')
        self.assertFalse(g[0].weight.is_meta)
        self.assertIs(g[0].weight, w)
        self.assertEqual(tuple(g[0].weight.shape), tuple(t[0].weight.shape))
        self.assertEqual(g(Gnn.ones(2, 4)).shape, (2, 8))

    def test_reset_parameters(self):
        g = Gnn.Sequential(Gnn.Linear(4, 8, device='meta'), Gnn.LayerNorm(8, device='meta'))
        self.assertTrue(g.reset_parameters())
        self.assertFalse(any(p.is_meta for p in g.parameters()))
        self.assertEqual(g[1].weight.tolist(), [1.0] * 8)
        self.assertTrue(abs(g[0].weight.numpy()).max() <= 0.5)


class AssignLoad(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, 'm.safetensors')
        Gnn.manual_seed(1)
        self.src = Gnn.Sequential(Gnn.Linear(4, 8), Gnn.Linear(8, 2))
        self.src.save(self.path)

    def tearDown(self):
        self.dir.cleanup()

    def test_meta_module_from_mapped_file(self):
        m = Gnn.Sequential(Gnn.Linear(4, 8, device='meta'), Gnn.Linear(8, 2, device='meta'))
        w = m[0].weight
        sd = Gnn.load(self.path, mmap=True)
        result = m.load_state_dict(sd, assign=True)
        self.assertEqual((result.missing_keys, result.unexpected_keys), ([], []))
        self.assertIs(m[0].weight, w)
        self.assertTrue(m[0].weight.requires_grad)
        self.assertTrue(m[0].weight.shares_storage(sd['0.weight']))
        x = Gnn.ones(3, 4)
        self.assertEqual(m(x).tolist(), self.src(x).tolist())

    def test_module_load_assign(self):
        m = Gnn.Sequential(Gnn.Linear(4, 8), Gnn.Linear(8, 2))
        m.load(self.path, assign=True)
        x = Gnn.ones(3, 4)
        self.assertEqual(m(x).tolist(), self.src(x).tolist())

    def test_strict_and_atomic(self):
        m = Gnn.Sequential(Gnn.Linear(4, 8, device='meta'), Gnn.Linear(8, 3, device='meta'))
        t = tnn.Sequential(tnn.Linear(4, 8), tnn.Linear(8, 3))
        sd = Gnn.load(self.path, mmap=True)
        with self.assertRaises(GLib.Error) as cm:
            m.load_state_dict(sd, assign=True)
        tsd = {k: torch.from_numpy(v.numpy()) for k, v in sd.items()}
        with self.assertRaises(RuntimeError) as tcm:
            t.load_state_dict(tsd)
        self.assertEqual(cm.exception.message.replace('GnnSequential', 'Sequential'),
                         str(tcm.exception).replace('torch.Size(', '').replace('])', ']'))
        self.assertTrue(m[0].weight.is_meta)   # nothing assigned
        del sd['1.bias']
        with self.assertRaises(GLib.Error) as cm:
            m.load_state_dict(sd, assign=True)
        self.assertIn('Missing key(s) in state_dict: "1.bias"', cm.exception.message)
        self.assertTrue(m[0].weight.is_meta)

    def test_copy_into_meta_refused(self):
        m = Gnn.Linear(4, 8, device='meta')
        sd = Gnn.Linear(4, 8).state_dict()
        with self.assertRaises(GLib.Error) as cm:
            m.load_state_dict(sd)
        self.assertIn('load with assign', cm.exception.message)


if __name__ == '__main__':
    unittest.main()
