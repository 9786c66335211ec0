# RNN, LSTM, GRU, their cells and torch.nn.utils.rnn side by side with
# torch 1.13: on random configurations (layers, directions, batch-first,
# batch 1, unbatched, projections, no bias, packed sequences sorted and
# not) the outputs and every gradient (input, initial states, weights) agree
# within 1e-5 relative in float32 and far closer in float64, with torch's
# weights copied through safetensors state files (and Gnn's back into
# torch); state_dict keys, repr and construction errors are torch's; bad
# calls give torch's messages and change nothing.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import random
import tempfile
import unittest

import numpy as np
import torch
import torch.nn.utils.rnn as trnn

import gnn
import gnn.nn
import gnn.nn.utils.rnn as grnn
from gi.repository import GLib, Gnn

from test_io_interop import read_safetensors_to_torch, write_torch_safetensors

KINDS = ('RNN', 'RNN_RELU', 'LSTM', 'GRU')


def G(t):
    """A Gnn copy of a torch tensor."""
    return gnn.from_numpy(t.detach().numpy().copy())


def N(t):
    return t.detach().numpy()


def flat(value):
    """The tensors of an output, in order (PackedSequence: its data)."""
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flat(v)]
    if isinstance(value, (trnn.PackedSequence, Gnn.PackedSequence)):
        return [value.data]
    return [value]


def relative_error(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    scale = max(np.abs(a).max(initial=0.0), 1e-30)
    return np.abs(a - b).max(initial=0.0) / scale


def pair(kind, input_size, hidden_size, dtype, **kwargs):
    """(torch module, Gnn module with torch's weights through a state file)."""
    name, extra = (kind, {})
    if kind == 'RNN_RELU':
        name, extra = 'RNN', {'nonlinearity': 'relu'}
    t = getattr(torch.nn, name)(input_size, hidden_size, **dict(kwargs, **extra)).to(dtype)
    g = getattr(gnn.nn, name)(input_size, hidden_size, **dict(kwargs, **extra))
    if dtype == torch.float64:
        g.double()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'torch.safetensors')
        write_torch_safetensors(path, t.state_dict())
        g.load_state_dict(Gnn.StateDict.load(path))
    return t, g


class Recurrent(unittest.TestCase):
    def check_grads(self, tm, gm, pairs, tol):
        """Backward of sum(output · w) for one random w per output; compares
        the gradients of the leaves in `pairs` and of every parameter."""
        tout, gout, leaves = pairs
        tt, gt = flat(tout), flat(gout)
        self.assertEqual(len(tt), len(gt))
        loss, gloss = 0, None
        rng = np.random.default_rng(len(tt))
        for a, b in zip(tt, gt):
            self.assertEqual(tuple(a.shape), tuple(b.shape))
            self.assertLess(relative_error(N(a), N(b)), tol)
            w = rng.standard_normal(tuple(a.shape))
            loss = loss + (a * torch.from_numpy(w).to(a.dtype)).sum()
            term = (b * G(torch.from_numpy(w).to(a.dtype))).sum()
            gloss = term if gloss is None else gloss + term
        loss.backward()
        gloss.backward()
        for a, b in leaves:
            self.assertLess(relative_error(N(a.grad), N(b.grad)), tol)
        params = dict(gm.named_parameters())
        for name, p in tm.named_parameters():
            self.assertIsNotNone(params[name].grad, name)
            self.assertLess(relative_error(N(p.grad), N(params[name].grad)), tol, name)

    def leaf(self, shape, dtype):
        t = torch.randn(*shape, dtype=dtype, requires_grad=True)
        g = G(t)
        g.requires_grad_(True)
        return t, g

    def run_config(self, kind, rng, dtype):
        I, H = rng.randint(1, 7), rng.randint(2, 8)
        L, bidir = rng.randint(1, 3), rng.random() < 0.5
        bf, bias = rng.random() < 0.5, rng.random() < 0.8
        proj = rng.randint(1, H - 1) if kind == 'LSTM' and rng.random() < 0.4 else 0
        T, B = rng.randint(1, 6), rng.choice([1, 1, 2, 3, 5])
        unbatched = rng.random() < 0.2
        kwargs = dict(num_layers=L, bidirectional=bidir, batch_first=bf, bias=bias)
        if proj:
            kwargs['proj_size'] = proj
        tm, gm = pair(kind, I, H, dtype, **kwargs)
        D, P = 2 if bidir else 1, proj or H
        x_shape = (T, I) if unbatched else ((B, T, I) if bf else (T, B, I))
        x, gx = self.leaf(x_shape, dtype)
        leaves = [(x, gx)]
        if rng.random() < 0.3:
            tout, gout = tm(x), gm(gx)
        else:
            lead = (L * D,) if unbatched else (L * D, B)
            h0, gh0 = self.leaf(lead + (P,), dtype)
            leaves.append((h0, gh0))
            if kind == 'LSTM':
                c0, gc0 = self.leaf(lead + (H,), dtype)
                leaves.append((c0, gc0))
                tout, gout = tm(x, (h0, c0)), gm(gx, (gh0, gc0))
            else:
                tout, gout = tm(x, h0), gm(gx, gh0)
        self.assertIsInstance(gout, tuple)
        tol = 1e-5 if dtype == torch.float32 else 1e-10
        with self.subTest(kind=kind, config=kwargs, T=T, B=B, unbatched=unbatched, dtype=dtype):
            self.check_grads(tm, gm, (tout, gout, leaves), tol)

    def test_random_configurations(self):
        rng = random.Random(2025)
        torch.manual_seed(7)
        for kind in KINDS:
            for i in range(12):
                self.run_config(kind, rng, torch.float64 if i % 3 else torch.float32)

    def test_language_model_sizes_float32(self):
        # the benchmark's shapes, scaled down: 2 layers, batch 20
        torch.manual_seed(3)
        tm, gm = pair('LSTM', 64, 96, torch.float32, num_layers=2)
        x, gx = self.leaf((35, 20, 64), torch.float32)
        self.check_grads(tm, gm, (tm(x), gm(gx), [(x, gx)]), 1e-5)

    def test_packed_sequences(self):
        torch.manual_seed(11)
        rng = random.Random(5)
        for kind in KINDS:
            for enforce_sorted in (True, False):
                for bidir in (False, True):
                    I, H, B, T = 3, 5, rng.randint(1, 5), 6
                    lengths = sorted((rng.randint(1, T) for _ in range(B)), reverse=True)
                    lengths[0] = T
                    if not enforce_sorted:
                        rng.shuffle(lengths)
                    bf = rng.random() < 0.5
                    tm, gm = pair(kind, I, H, torch.float64, num_layers=2, bidirectional=bidir,
                                  batch_first=bf)
                    x, gx = self.leaf((B, T, I) if bf else (T, B, I), torch.float64)
                    tp = trnn.pack_padded_sequence(x, lengths, bf, enforce_sorted)
                    gp = grnn.pack_padded_sequence(gx, lengths, bf, enforce_sorted)
                    self.assertEqual(N(tp.batch_sizes).tolist(), N(gp.batch_sizes).tolist())
                    for a, b in zip(tp[2:], gp[2:]):
                        self.assertEqual(a is None, b is None)
                        if a is not None:
                            self.assertEqual(N(a).tolist(), N(b).tolist())
                    D = 2 if bidir else 1
                    h0, gh0 = self.leaf((2 * D, B, H), torch.float64)
                    leaves = [(x, gx), (h0, gh0)]
                    if kind == 'LSTM':
                        c0, gc0 = self.leaf((2 * D, B, H), torch.float64)
                        leaves.append((c0, gc0))
                        tout, gout = tm(tp, (h0, c0)), gm(gp, (gh0, gc0))
                    else:
                        tout, gout = tm(tp, h0), gm(gp, gh0)
                    self.assertIsInstance(gout[0], Gnn.PackedSequence)
                    tpad, tlen = trnn.pad_packed_sequence(tout[0], bf, -1.0, T + 1)
                    gpad, glen = grnn.pad_packed_sequence(gout[0], bf, -1.0, T + 1)
                    self.assertEqual(N(tlen).tolist(), N(glen).tolist())
                    with self.subTest(kind=kind, sorted=enforce_sorted, bidir=bidir, lengths=lengths):
                        self.check_grads(tm, gm, ((tpad,) + tuple(tout[1:]),
                                                  (gpad,) + tuple(gout[1:]), leaves), 1e-10)


class Cells(unittest.TestCase):
    def test_cells(self):
        torch.manual_seed(2)
        for name, extra in (('RNNCell', {}), ('RNNCell', {'nonlinearity': 'relu'}),
                            ('LSTMCell', {}), ('GRUCell', {}), ('GRUCell', {'bias': False})):
            for batched in (True, False):
                for given in (True, False):
                    for dtype, tol in ((torch.float64, 1e-10), (torch.float32, 1e-5)):
                        tm = getattr(torch.nn, name)(4, 6, **extra).to(dtype)
                        gm = getattr(gnn.nn, name)(4, 6, **extra)
                        if dtype == torch.float64:
                            gm.double()
                        gm.load_state_dict({k: G(v) for k, v in tm.state_dict().items()})
                        lead = (3,) if batched else ()
                        x = torch.randn(*lead, 4, dtype=dtype, requires_grad=True)
                        h = torch.randn(*lead, 6, dtype=dtype, requires_grad=True)
                        c = torch.randn(*lead, 6, dtype=dtype, requires_grad=True)
                        gx, gh, gc = G(x), G(h), G(c)
                        for t in (gx, gh, gc):
                            t.requires_grad_(True)
                        if not given:
                            tout, gout, leaves = tm(x), gm(gx), [(x, gx)]
                        elif name == 'LSTMCell':
                            tout, gout = tm(x, (h, c)), gm(gx, (gh, gc))
                            leaves = [(x, gx), (h, gh), (c, gc)]
                        else:
                            tout, gout, leaves = tm(x, h), gm(gx, gh), [(x, gx), (h, gh)]
                        with self.subTest(cell=name, extra=extra, batched=batched, given=given,
                                          dtype=dtype):
                            Recurrent.check_grads(self, tm, gm, (tout, gout, leaves), tol)

    def test_sine_wave_predictor_step(self):
        # LSTMCell(1, 51) over a sequence, the shape of PyTorch's time
        # sequence prediction example, batch 1
        torch.manual_seed(4)
        tm = torch.nn.LSTMCell(1, 51).double()
        gm = gnn.nn.LSTMCell(1, 51)
        gm.double()
        gm.load_state_dict({k: G(v) for k, v in tm.state_dict().items()})
        x = torch.sin(torch.arange(0, 10, dtype=torch.float64)).view(10, 1, 1)
        h = c = torch.zeros(1, 51, dtype=torch.float64)
        gh = gc = G(h)
        outs, gouts = [], []
        for t in range(10):
            h, c = tm(x[t], (h, c))
            gh, gc = gm(G(x[t]), (gh, gc))
            outs.append(h)
            gouts.append(gh)
        self.assertLess(relative_error(N(torch.stack(outs)), N(gnn.stack(gouts))), 1e-12)


class Utilities(unittest.TestCase):
    def test_pack_pad_functions(self):
        torch.manual_seed(9)
        seqs = [torch.randn(n, 2, dtype=torch.float64, requires_grad=True) for n in (3, 5, 1, 5)]
        gseqs = [G(s) for s in seqs]
        for g in gseqs:
            g.requires_grad_(True)
        for bf in (False, True):
            for value in (0.0, -2.5):
                self.assertTrue(np.array_equal(N(trnn.pad_sequence(seqs, bf, value)),
                                               N(grnn.pad_sequence(gseqs, bf, value))))
        tp = trnn.pack_sequence(seqs, enforce_sorted=False)
        gp = grnn.pack_sequence(gseqs, enforce_sorted=False)
        self.assertTrue(np.array_equal(N(tp.data), N(gp.data)))
        self.assertEqual([N(t).tolist() for t in tp[1:]], [N(t).tolist() for t in gp[1:]])
        # the namedtuple protocol
        data, batch_sizes, sorted_indices, unsorted_indices = gp
        self.assertIs(data, gp.data)
        self.assertEqual(len(gp), 4)
        self.assertEqual(gp._fields, tp._fields)
        self.assertEqual(N(gp[1]).tolist(), N(batch_sizes).tolist())
        self.assertTrue(repr(gp).startswith('PackedSequence(data=tensor('))
        # unpacking and gradients through pack and pad
        for a, b in zip(trnn.unpack_sequence(tp), grnn.unpack_sequence(gp)):
            self.assertTrue(np.array_equal(N(a), N(b)))
        padded = trnn.pad_packed_sequence(tp, True, 0.5, 7)[0]
        gpadded = grnn.pad_packed_sequence(gp, True, 0.5, 7)[0]
        self.assertTrue(np.array_equal(N(padded), N(gpadded)))
        (padded * padded).sum().backward()
        (gpadded * gpadded).sum().backward()
        for s, g in zip(seqs, gseqs):
            self.assertTrue(np.allclose(N(s.grad), N(g.grad), rtol=0, atol=1e-14))
        lengths = torch.tensor([3, 5, 1, 5])
        for a, b in zip(trnn.unpad_sequence(trnn.pad_sequence(seqs), lengths),
                        grnn.unpad_sequence(grnn.pad_sequence(gseqs), G(lengths))):
            self.assertTrue(np.array_equal(N(a), N(b)))
        # a PackedSequence built by hand, as torch's
        manual = grnn.PackedSequence(G(torch.arange(3.0)), G(torch.tensor([2, 1])))
        self.assertEqual(repr(manual), repr(trnn.PackedSequence(torch.arange(3.0),
                                                                torch.tensor([2, 1]))))

    def test_errors(self):
        x = torch.randn(4, 3, 2)
        cases = [
            lambda m: m.pack_padded_sequence(x if m is trnn else G(x), [4, 2, 3]),
            lambda m: m.pack_padded_sequence(x if m is trnn else G(x), [4, 3, 0]),
            lambda m: m.pack_padded_sequence(x if m is trnn else G(x), [4, 3]),
            lambda m: m.pack_padded_sequence(x if m is trnn else G(x), [4, 3, 2], batch_first=True),
            lambda m: m.pack_padded_sequence(
                torch.randn(0, 3, 2) if m is trnn else G(torch.randn(0, 3, 2)), [1, 1, 1]),
            lambda m: m.pad_packed_sequence(
                m.pack_padded_sequence(x if m is trnn else G(x), [4, 2, 1]), total_length=3),
            lambda m: m.pad_sequence([]),
            lambda m: m.pad_sequence([torch.randn(3, 2), torch.randn(2, 3)] if m is trnn
                                     else [G(torch.randn(3, 2)), G(torch.randn(2, 3))]),
        ]
        for case in cases:
            with self.assertRaises(Exception) as theirs:
                case(trnn)
            with self.assertRaises(GLib.Error) as ours:
                case(grnn)
            self.assertEqual(ours.exception.message, str(theirs.exception))


class ModuleProtocol(unittest.TestCase):
    def test_repr_keys_and_init(self):
        for kind, kwargs in (('LSTM', dict(num_layers=2, batch_first=True, dropout=0.5,
                                           bidirectional=True, proj_size=5, bias=False)),
                             ('LSTM', dict(num_layers=3, dropout=0.25)),
                             ('GRU', dict(bidirectional=True)), ('RNN', dict(nonlinearity='relu')),
                             ('RNN', dict(num_layers=2, bias=False))):
            t = getattr(torch.nn, kind)(10, 20, **kwargs)
            g = getattr(gnn.nn, kind)(10, 20, **kwargs)
            self.assertEqual(repr(g), repr(t))
            self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
            self.assertEqual([tuple(p.shape) for p in g.parameters()],
                             [tuple(p.shape) for p in t.parameters()])
            self.assertEqual(g._flat_weights_names, t._flat_weights_names)
            self.assertEqual(g.mode, t.mode)
            for p in g.parameters():      # U(-1/sqrt(20), 1/sqrt(20))
                values = N(p)
                self.assertLessEqual(np.abs(values).max(), 20 ** -0.5)
                self.assertGreater(values.std(), 0.05)
        for kind, kwargs in (('RNNCell', dict(nonlinearity='relu', bias=False)), ('LSTMCell', {}),
                             ('GRUCell', dict(bias=False))):
            t = getattr(torch.nn, kind)(3, 4, **kwargs)
            g = getattr(gnn.nn, kind)(3, 4, **kwargs)
            self.assertEqual(repr(g), repr(t))
            self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))

    def test_state_files_both_ways(self):
        torch.manual_seed(1)
        g = gnn.nn.LSTM(4, 6, num_layers=2, bidirectional=True, proj_size=3)
        t = torch.nn.LSTM(4, 6, num_layers=2, bidirectional=True, proj_size=3)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'gnn.safetensors')
            g.state_dict().save(path, None)
            loaded, _, _ = read_safetensors_to_torch(path)
            t.load_state_dict(loaded)
        x = torch.randn(5, 2, 4)
        out, (h, c) = t(x)
        gout, (gh, gc) = g(G(x))
        for a, b in ((out, gout), (h, gh), (c, gc)):
            self.assertLess(relative_error(N(a), N(b)), 1e-5)

    def test_construction_errors(self):
        cases = [('RNN', dict(nonlinearity='foo')), ('LSTM', dict(proj_size=20)),
                 ('LSTM', dict(proj_size=-1)), ('LSTM', dict(dropout=1.5)),
                 ('GRU', dict(dropout=-0.1))]
        for kind, kwargs in cases:
            with self.assertRaises(ValueError) as theirs:
                getattr(torch.nn, kind)(10, 20, **kwargs)
            with self.assertRaises(GLib.Error) as ours:
                getattr(gnn.nn, kind)(10, 20, **kwargs)
            self.assertEqual(ours.exception.message, str(theirs.exception))
        with self.assertRaises(RuntimeError) as theirs:
            torch.nn.LSTM(-1, 10)
        with self.assertRaises(GLib.Error) as ours:
            gnn.nn.LSTM(-1, 10)
        self.assertEqual(ours.exception.message, str(theirs.exception))
        with self.assertRaises(GLib.Error) as ours:
            gnn.nn.LSTM(10, 20, num_layers=0)
        self.assertEqual(ours.exception.message, 'num_layers must be greater than zero')

    def test_bad_calls(self):
        torch.manual_seed(0)
        lstm_t, lstm_g = pair('LSTM', 10, 20, torch.float32, num_layers=2)
        gru_t, gru_g = pair('GRU', 10, 20, torch.float32)
        cell_t, cell_g = torch.nn.LSTMCell(10, 20), gnn.nn.LSTMCell(10, 20)
        gcell_t, gcell_g = torch.nn.GRUCell(10, 20), gnn.nn.GRUCell(10, 20)
        r = torch.randn
        cases = [
            (lstm_t, lstm_g, lambda: (r(5, 3, 5),)),
            (lstm_t, lstm_g, lambda: (r(5, 3, 10), (r(1, 3, 20), r(2, 3, 20)))),
            (lstm_t, lstm_g, lambda: (r(5, 3, 10), (r(2, 3, 20), r(2, 3, 21)))),
            (lstm_t, lstm_g, lambda: (r(5, 3, 10), (r(2, 20), r(2, 3, 20)))),
            (lstm_t, lstm_g, lambda: (r(5, 3, 10, 1),)),
            (lstm_t, lstm_g, lambda: (r(10),)),
            (lstm_t, lstm_g, lambda: (r(5, 3, 10).double(),)),
            (lstm_t, lstm_g, lambda: (r(5, 3, 10), (r(2, 3, 20).double(), r(2, 3, 20)))),
            (lstm_t, lstm_g, lambda: (r(5, 3, 10).long(),)),
            (gru_t, gru_g, lambda: (r(5, 3, 10), r(2, 3, 20))),
            (gru_t, gru_g, lambda: (r(5, 3, 10), r(3, 20))),
            (gru_t, gru_g, lambda: (r(5, 10), r(1, 3, 20))),
            (gru_t, gru_g, lambda: (r(0, 3, 10),)),
            (cell_t, cell_g, lambda: (r(3, 5),)),
            (cell_t, cell_g, lambda: (r(3, 10), (r(2, 20), r(3, 20)))),
            (cell_t, cell_g, lambda: (r(3, 10), (r(3, 21), r(3, 20)))),
            (cell_t, cell_g, lambda: (r(3, 10), (r(3, 20), r(3, 21)))),
            (cell_t, cell_g, lambda: (r(3, 10, 2),)),
            (cell_t, cell_g, lambda: (r(3, 10).double(),)),
            (cell_t, cell_g, lambda: (r(10), (r(1, 20), r(1, 20)))),
            (gcell_t, gcell_g, lambda: (r(3, 5),)),
            (gcell_t, gcell_g, lambda: (r(3, 10), r(2, 20))),
        ]

        def convert(args):
            return tuple(convert(a) if isinstance(a, tuple) else G(a) for a in args)

        for tm, gm, make in cases:
            args = make()
            before = {k: N(v).copy() for k, v in gm.state_dict().items()}
            with self.assertRaises((RuntimeError, AssertionError)) as theirs:
                tm(*args)
            with self.assertRaises(GLib.Error) as ours:
                gm(*convert(args))
            with self.subTest(module=repr(tm), shapes=[getattr(a, 'shape', None) for a in args]):
                self.assertEqual(ours.exception.message, str(theirs.exception))
                for k, v in gm.state_dict().items():
                    self.assertTrue(np.array_equal(before[k], N(v)), k)

    def test_dropout_between_layers(self):
        g = gnn.nn.LSTM(4, 8, num_layers=3, dropout=0.5)
        x = gnn.randn(6, 2, 4)
        g.eval()
        a, _ = g(x)
        b, _ = g(x)
        self.assertTrue(np.array_equal(N(a), N(b)))
        g.train()
        gnn.manual_seed(3)
        c, _ = g(x)
        gnn.manual_seed(3)
        d, _ = g(x)
        e, _ = g(x)
        self.assertTrue(np.array_equal(N(c), N(d)))       # the default generator decides
        self.assertFalse(np.array_equal(N(c), N(e)))
        self.assertFalse(np.array_equal(N(a), N(c)))

    def test_hooks_see_torchs_tuples(self):
        g = gnn.nn.LSTM(3, 4)
        seen = []
        g.register_forward_hook(lambda m, args, out: seen.append((len(args), type(out),
                                                                  type(out[1]))))
        g(gnn.randn(2, 1, 3))
        self.assertEqual(seen, [(1, tuple, tuple)])
        seq = gnn.nn.Sequential(gnn.nn.GRU(3, 4))
        out, h = seq(gnn.randn(2, 1, 3))
        self.assertEqual(tuple(h.shape), (1, 1, 4))


if __name__ == '__main__':
    unittest.main(verbosity=2)
