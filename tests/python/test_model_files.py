# Whole models in one file (torch.save(model) / torch.load without pickle):
# Gnn.save(module, f) writes a model file and Gnn.load(f) rebuilds it —
# built-in layers by default, classes defined in Python only with
# weights_only=False (imported by qualified name, their __init__ skipped as
# unpickling skips it, their plain attributes restored); outputs, training
# flags, frozen parameters and dtypes survive, and a trained model goes on
# training the same way.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import sys
import tempfile
import unittest

import numpy as np

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


class Block(Gnn.Module):
    """A residual block whose __init__ needs arguments."""

    def __init__(self, width, scale):
        super().__init__()
        self.scale = scale
        self.names = ['a', 'b']
        self.fc = Gnn.Linear(width, width)
        self.act = Gnn.ReLU()

    def forward(self, x):
        return self.act(self.fc(x)) * self.scale + x


class Stack(Gnn.Sequential):
    """A built-in container subclassed in Python, as torch programs subclass
    nn.Sequential (Gnn's layers are final types; the containers and the
    module base are derivable)."""

    def __init__(self, width, depth):
        super().__init__(*[Gnn.Linear(width, width) for _ in range(depth)])
        self.width = width


class Net(Gnn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = Gnn.Sequential(Block(4, 0.5), Block(4, 2.0))
        self.head = Gnn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.blocks(x))


def x_batch(seed=0):
    return Gnn.Tensor.from_numpy(np.random.default_rng(seed).standard_normal((3, 4))
                                 .astype(np.float32))


class ModelFiles(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix='.safetensors')
        os.close(fd)

    def tearDown(self):
        os.unlink(self.path)

    def test_built_in_layers(self):
        model = Gnn.Sequential(Gnn.Linear(4, 8), Gnn.BatchNorm1d(8), Gnn.ReLU(),
                               Gnn.Dropout(0.2), Gnn.Linear(8, 2), Gnn.LogSoftmax(dim=1))
        model.eval()
        model[0].bias.requires_grad_(False)
        Gnn.save(model, self.path)
        loaded = Gnn.load(self.path)
        self.assertIsInstance(loaded, Gnn.Sequential)
        self.assertEqual(repr(loaded), repr(model))
        self.assertFalse(loaded.training)
        self.assertFalse(loaded[0].bias.requires_grad)
        self.assertTrue(loaded[0].weight.requires_grad)
        np.testing.assert_array_equal(loaded(x_batch()).numpy(), model(x_batch()).numpy())
        # the file is a plain state-dict file too
        state = Gnn.StateDict.load(self.path)
        self.assertEqual(list(state.keys()), list(model.state_dict().keys()))
        self.assertEqual(json.loads(state.get_metadata('gnn.model'))['format'], 'gnn.model')

    def test_python_classes_need_weights_only_false(self):
        model = Net()
        Gnn.save(model, self.path)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.load(self.path)
        self.assertIn('which is not one of Gnn\'s own types', cm.exception.message)
        self.assertIn('weights_only=False', cm.exception.message)
        loaded = Gnn.load(self.path, weights_only=False)
        self.assertIs(type(loaded), Net)
        self.assertIs(type(loaded.blocks[1]), Block)
        self.assertEqual(loaded.blocks[0].scale, 0.5)
        self.assertEqual(loaded.blocks[1].scale, 2.0)
        self.assertEqual(loaded.blocks[1].names, ['a', 'b'])
        self.assertEqual(repr(loaded), repr(model))
        np.testing.assert_array_equal(loaded(x_batch()).numpy(), model(x_batch()).numpy())
        # __init__ runs normally again afterwards
        self.assertEqual(Block(3, 1.5).scale, 1.5)

    def test_python_subclass_of_a_built_in(self):
        model = Gnn.Sequential(Stack(4, 3), Gnn.Tanh())
        Gnn.save(model, self.path)
        loaded = Gnn.load(self.path, weights_only=False)
        self.assertIs(type(loaded[0]), Stack)
        self.assertEqual(loaded[0].width, 4)
        self.assertEqual(len(loaded[0]), 3)
        self.assertEqual(repr(loaded), repr(model))
        np.testing.assert_array_equal(loaded(x_batch()).numpy(), model(x_batch()).numpy())

    def test_training_goes_on_the_same_way(self):
        def train(model, steps):
            opt = Gnn.optim.SGD(model.parameters(), lr=0.05) if hasattr(Gnn, 'optim') else \
                Gnn.SGD.new(model.parameters(), 0.05, 0.0, 0.0, 0.0, False, False)
            for i in range(steps):
                opt.zero_grad()
                loss = (model(x_batch(i)) ** 2).mean()
                loss.backward()
                opt.step()
            return model
        a = train(Gnn.Sequential(Gnn.Linear(4, 4), Gnn.Tanh(), Gnn.Linear(4, 2)), 3)
        Gnn.save(a, self.path)
        b = Gnn.load(self.path)
        train(a, 2)
        train(b, 2)
        for (name, pa), (_, pb) in zip(a.named_parameters(), b.named_parameters()):
            np.testing.assert_allclose(pa.numpy(), pb.numpy(), rtol=1e-6, err_msg=name)

    def test_loads_in_c_without_python(self):
        """A model file of built-in layers is all C needs: here through the
        C entry point, without the Python override's help."""
        model = Gnn.Sequential(Gnn.Conv2d(1, 2, 3), Gnn.ReLU(), Gnn.MaxPool2d(2), Gnn.Flatten(),
                               Gnn.Linear(2 * 3 * 3, 3))
        Gnn.save(model, self.path)
        loaded = Gnn.Module.load_model(self.path, Gnn.LoadFlags.COPY)
        x = Gnn.Tensor.from_numpy(np.arange(64, dtype=np.float32).reshape(1, 1, 8, 8) / 64)
        np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())

    def test_training_checkpoint(self):
        model = Net()
        opt = Gnn.optim.Adam(model.parameters(), lr=0.01)
        sched = Gnn.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        for i in range(3):
            opt.zero_grad()
            (model(x_batch(i)) ** 2).mean().backward()
            opt.step()
            sched.step()
        Gnn.save({'model': model, 'optimizer': opt, 'scheduler': sched, 'epoch': 3}, self.path)
        with self.assertRaises(GLib.Error):   # Net is a Python class
            Gnn.load(self.path)
        ckpt = Gnn.load(self.path, weights_only=False)
        self.assertEqual(sorted(ckpt), ['epoch', 'model', 'optimizer', 'scheduler'])
        self.assertEqual(ckpt['epoch'], 3)
        self.assertIs(type(ckpt['model']), Net)
        self.assertEqual(ckpt['optimizer'].get_lr(), opt.get_lr())
        self.assertIs(ckpt['scheduler'].get_optimizer(), ckpt['optimizer'])
        for (name, pa), (_, pb) in zip(model.named_parameters(),
                                       ckpt['model'].named_parameters()):
            np.testing.assert_array_equal(pa.numpy(), pb.numpy(), err_msg=name)

    def test_hostile_metadata(self):
        model = Gnn.Sequential(Gnn.Linear(2, 2))
        Gnn.save(model, self.path)
        state = Gnn.StateDict.load(self.path)
        for text, needle in (('{"format": "gnn.model", "version": 1, "modules": '
                              '[{"type": "GnnNope"}]}', '"GnnNope", which is not a Gnn type'),
                             ('{"format": "gnn.model", "version": 1, "modules": '
                              '[{"type": "GnnSequential"}, {"parent": 0, "name": "0", '
                              '"type": "GnnLinear", "properties": {"in-features": "x"}}]}',
                              'must be an integer'),
                             ('[', 'not a JSON object')):
            state.set_metadata('gnn.model', text)
            state.save(self.path)
            with self.assertRaises(GLib.Error) as cm:
                Gnn.load(self.path)
            self.assertIn(needle, cm.exception.message)


if __name__ == '__main__':
    unittest.main()
