#!/usr/bin/python3
# test_trainer_vs_torch.py: Gnn.Trainer from Python side by side with
# torch 1.13's hand-written loop (the same weights after an epoch), the
# async epoch from a GLib main loop with its progress signal and a
# cancellation, a loss called like a module, and the in-place scalar ops
# against torch's (values, version counter, errors).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gio, GLib, Gnn  # noqa: E402
import gnn  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402


def data(n=48):
    g = torch.Generator().manual_seed(3)
    return torch.randn(n, 5, generator=g), torch.randn(n, 3, generator=g)


def gnn_setup(model, num_workers=0):
    x, y = data()
    ds = Gnn.TensorDataset.new([gnn.tensor(x.numpy()), gnn.tensor(y.numpy())])
    loader = Gnn.DataLoader(dataset=ds, batch_size=8, num_workers=num_workers)
    opt = gnn.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return Gnn.Trainer.new(model, gnn.nn.MSELoss(), opt, loader)


def torch_epoch(linear):
    x, y = data()
    opt = torch.optim.SGD(linear.parameters(), lr=0.05, momentum=0.9)
    loss_fn = torch.nn.MSELoss()
    for i in range(0, len(x), 8):
        opt.zero_grad()
        loss_fn(linear(x[i:i + 8]), y[i:i + 8]).backward()
        opt.step()


def twins():
    t = torch.nn.Linear(5, 3)
    g = gnn.nn.Linear(5, 3)
    with Gnn.no_grad():
        g.weight.copy_(gnn.tensor(t.weight.detach().numpy()))
        g.bias.copy_(gnn.tensor(t.bias.detach().numpy()))
    return t, g


def run_async(start):
    loop = GLib.MainLoop()
    box = []

    def done(source, result):
        box.append(result)
        loop.quit()

    start(done)
    loop.run()
    return box[0]


class TrainerTest(unittest.TestCase):

    def assert_same(self, t, g):
        np.testing.assert_allclose(np.array(g.weight.tolist()), t.weight.detach().numpy(),
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np.array(g.bias.tolist()), t.bias.detach().numpy(),
                                   rtol=1e-5, atol=1e-6)

    def test_epoch_is_torchs_loop(self):
        t, g = twins()
        trainer = gnn_setup(g)
        reports = []
        trainer.connect('progress', lambda tr, *args: reports.append(args))
        ok, mean = trainer.train_epoch(None)
        self.assertTrue(ok)
        torch_epoch(t)
        self.assert_same(t, g)
        self.assertEqual([r[0] for r in reports], list(range(1, 7)))
        batches, total, samples, rate, eta, loss = reports[-1]
        self.assertEqual((batches, total, samples, eta), (6, 6, 48, 0.0))
        self.assertAlmostEqual(loss, mean)

    def test_async_epoch_and_cancel(self):
        t, g = twins()
        trainer = gnn_setup(g, num_workers=2)
        result = run_async(lambda cb: trainer.train_epoch_async(None, cb))
        ok, mean = trainer.train_epoch_finish(result)
        self.assertTrue(ok)
        torch_epoch(t)
        self.assert_same(t, g)

        cancellable = Gio.Cancellable()
        seen = []

        def progress(tr, batches, *rest):
            seen.append(batches)
            if batches == 2:
                cancellable.cancel()
        trainer.connect('progress', progress)
        result = run_async(lambda cb: trainer.train_epoch_async(cancellable, cb))
        if len(seen) < 6:
            with self.assertRaises(GLib.Error) as ctx:
                trainer.train_epoch_finish(result)
            self.assertTrue(ctx.exception.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED))

    def test_loss_called_like_a_module(self):
        pred = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        y = torch.tensor([[0.0, 2.0], [1.0, 1.0]])
        want = torch.nn.MSELoss()(pred, y).item()
        loss = gnn.nn.MSELoss()
        a, b = gnn.tensor(pred.numpy()), gnn.tensor(y.numpy())
        self.assertAlmostEqual(loss.call2(a, b).item(), want, places=6)
        self.assertAlmostEqual(loss.call_tensors([a, b]).item(), want, places=6)

    def test_scalar_inplace_vs_torch(self):
        for method, value in (('add', 2.0), ('sub', 0.5), ('mul', -3.0), ('div', 4.0)):
            t = torch.tensor([1.0, 2.0, 3.0])
            g = gnn.tensor([1.0, 2.0, 3.0])
            getattr(t, method + '_')(value)
            self.assertTrue(getattr(g, method + '_scalar_')(value))
            self.assertEqual(g.tolist(), t.tolist(), method)
            self.assertEqual(g._version, t._version, method)
        ti = torch.tensor([1, 2, 3])
        with self.assertRaises(RuntimeError) as want:
            ti.div_(2)
        with self.assertRaises(GLib.Error) as got:
            gnn.tensor([1, 2, 3]).div_scalar_(2)
        self.assertEqual(str(want.exception), got.exception.message)


if __name__ == '__main__':
    unittest.main()
