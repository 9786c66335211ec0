# Loss modules (CrossEntropyLoss, NLLLoss, MSELoss, BCEWithLogitsLoss) side by
# side with PyTorch 1.13: loss values and input gradients for each reduction
# and option, repr text, buffers in the state dict, and error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn as nn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

RNG = np.random.default_rng(7)


def tensor(a):
    return Gnn.Tensor.from_numpy(np.array(a, order="C"))


def leaf(a):
    t = tensor(a)
    t.set_requires_grad(True)
    return t


def state_keys(module):
    sd = module.state_dict()
    return list(sd.get_keys())


class LossVsTorch(unittest.TestCase):
    def compare(self, gnn_loss, torch_loss, x, target, gnn_target=None, tol=1e-5):
        gx = leaf(x)
        gt = gnn_target if gnn_target is not None else tensor(target)
        out = gnn_loss.compute(gx, gt)
        tx = torch.tensor(x, requires_grad=True)
        tout = torch_loss(tx, torch.tensor(target))
        np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=tol, atol=tol)
        grad = RNG.standard_normal(tout.shape).astype(x.dtype)
        out.backward(tensor(grad), False)
        tout.backward(torch.tensor(grad))
        np.testing.assert_allclose(gx.get_grad().numpy(), tx.grad.numpy(), rtol=tol, atol=tol)

    def test_called_like_torch(self):
        # criterion(x, t) as in torch; criterion(x) keeps torch's message.
        x = RNG.standard_normal((4, 3)).astype(np.float32)
        t = RNG.integers(0, 3, 4)
        g = Gnn.CrossEntropyLoss.new(None, -100, Gnn.Reduction.MEAN, 0.0)
        expected = nn.CrossEntropyLoss()(torch.tensor(x), torch.tensor(t))
        np.testing.assert_allclose(g(tensor(x), tensor(t)).numpy(), expected.numpy(), rtol=1e-6)
        with self.assertRaises(GLib.Error) as cm:
            g(tensor(x))
        self.assertIn("missing 1 required positional argument: 'target'", cm.exception.message)

    def test_cross_entropy(self):
        x = RNG.standard_normal((8, 5)).astype(np.float32)
        t = RNG.integers(0, 5, 8)
        t[3] = -100
        w = RNG.uniform(0.5, 2.0, 5).astype(np.float32)
        for reduction, red in (('mean', Gnn.Reduction.MEAN), ('sum', Gnn.Reduction.SUM),
                               ('none', Gnn.Reduction.NONE)):
            for weight in (None, w):
                for smoothing in (0.0, 0.2):
                    with self.subTest(reduction=reduction, weight=weight is not None, smoothing=smoothing):
                        g = Gnn.CrossEntropyLoss.new(None if weight is None else tensor(weight),
                                                     -100, red, smoothing)
                        tl = nn.CrossEntropyLoss(None if weight is None else torch.tensor(weight),
                                                 reduction=reduction, label_smoothing=smoothing)
                        self.compare(g, tl, x, t)

    def test_cross_entropy_spatial(self):
        x = RNG.standard_normal((2, 4, 3, 3)).astype(np.float64)
        t = RNG.integers(0, 4, (2, 3, 3))
        self.compare(Gnn.CrossEntropyLoss.new(None, -100, Gnn.Reduction.MEAN, 0.0),
                     nn.CrossEntropyLoss(), x, t, tol=1e-10)

    def test_nll(self):
        x = np.log(RNG.dirichlet(np.ones(6), 10)).astype(np.float32)
        t = RNG.integers(0, 6, 10)
        w = RNG.uniform(0.5, 2.0, 6).astype(np.float32)
        for reduction, red in (('mean', Gnn.Reduction.MEAN), ('sum', Gnn.Reduction.SUM),
                               ('none', Gnn.Reduction.NONE)):
            with self.subTest(reduction=reduction):
                self.compare(Gnn.NLLLoss.new(tensor(w), 2, red),
                             nn.NLLLoss(torch.tensor(w), ignore_index=2, reduction=reduction), x, t)

    def test_mse(self):
        x = RNG.standard_normal((4, 3)).astype(np.float32)
        y = RNG.standard_normal((4, 3)).astype(np.float32)
        for reduction, red in (('mean', Gnn.Reduction.MEAN), ('sum', Gnn.Reduction.SUM),
                               ('none', Gnn.Reduction.NONE)):
            with self.subTest(reduction=reduction):
                self.compare(Gnn.MSELoss.new(red), nn.MSELoss(reduction=reduction), x, y)

    def test_bce_with_logits(self):
        x = (3 * RNG.standard_normal((5, 4))).astype(np.float32)
        y = RNG.uniform(0, 1, (5, 4)).astype(np.float32)
        w = RNG.uniform(0.5, 2.0, (5, 4)).astype(np.float32)
        pw = RNG.uniform(0.5, 3.0, 4).astype(np.float32)
        for reduction, red in (('mean', Gnn.Reduction.MEAN), ('sum', Gnn.Reduction.SUM),
                               ('none', Gnn.Reduction.NONE)):
            for weight in (None, w):
                for pos_weight in (None, pw):
                    with self.subTest(reduction=reduction):
                        g = Gnn.BCEWithLogitsLoss.new(None if weight is None else tensor(weight),
                                                      None if pos_weight is None else tensor(pos_weight),
                                                      red)
                        tl = nn.BCEWithLogitsLoss(
                            None if weight is None else torch.tensor(weight), reduction=reduction,
                            pos_weight=None if pos_weight is None else torch.tensor(pos_weight))
                        self.compare(g, tl, x, y)

    def test_properties_like_torch_arguments(self):
        g = Gnn.CrossEntropyLoss(reduction='sum', ignore_index=3, label_smoothing=0.1)
        self.assertEqual(g.props.reduction, 'sum')
        self.assertEqual(g.props.ignore_index, 3)
        self.assertAlmostEqual(g.props.label_smoothing, 0.1)
        x = RNG.standard_normal((6, 4)).astype(np.float32)
        t = RNG.integers(0, 4, 6)
        self.compare(g, nn.CrossEntropyLoss(reduction='sum', ignore_index=3, label_smoothing=0.1), x, t)

    def test_repr(self):
        for gnn_cls, torch_cls in ((Gnn.CrossEntropyLoss, nn.CrossEntropyLoss), (Gnn.NLLLoss, nn.NLLLoss),
                                   (Gnn.MSELoss, nn.MSELoss), (Gnn.BCEWithLogitsLoss, nn.BCEWithLogitsLoss)):
            self.assertEqual(gnn_cls().to_string(), repr(torch_cls()))

    def test_weight_buffers_in_state_dict(self):
        w = np.ones(3, dtype=np.float32)
        cases = ((Gnn.CrossEntropyLoss(), nn.CrossEntropyLoss()),
                 (Gnn.CrossEntropyLoss.new(tensor(w), -100, Gnn.Reduction.MEAN, 0.0),
                  nn.CrossEntropyLoss(torch.tensor(w))),
                 (Gnn.BCEWithLogitsLoss.new(None, tensor(w), Gnn.Reduction.MEAN),
                  nn.BCEWithLogitsLoss(pos_weight=torch.tensor(w))),
                 (Gnn.BCEWithLogitsLoss.new(tensor(w), tensor(w), Gnn.Reduction.MEAN),
                  nn.BCEWithLogitsLoss(torch.tensor(w), pos_weight=torch.tensor(w))))
        for g, t in cases:
            self.assertEqual(state_keys(g), list(t.state_dict().keys()))

    def test_bad_reduction_message(self):
        g = Gnn.MSELoss(reduction='foo')
        x = tensor(np.zeros(3, dtype=np.float32))
        with self.assertRaises(GLib.Error) as cm:
            g.compute(x, x)
        with self.assertRaises(ValueError) as tm:
            nn.MSELoss(reduction='foo')(torch.zeros(3), torch.zeros(3))
        self.assertEqual(cm.exception.message, str(tm.exception))

    def test_forward_needs_target(self):
        g = Gnn.NLLLoss()
        with self.assertRaises(GLib.Error) as cm:
            g.forward(tensor(np.zeros((2, 3), dtype=np.float32)))
        with self.assertRaises(TypeError) as tm:
            nn.NLLLoss()(torch.zeros(2, 3))
        self.assertTrue(cm.exception.message.startswith(str(tm.exception)))


if __name__ == '__main__':
    unittest.main()
