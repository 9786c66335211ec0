# nn.TransformerEncoderLayer and nn.TransformerEncoder against torch 1.13:
# same weights (loaded through state_dict), same outputs and gradients of
# the input and every parameter (post- and pre-norm, relu/gelu/a module
# activation, batch_first, unbatched, attention and padding masks), state
# dict keys both ways, repr and torch's error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch
import torch.nn as tnn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib  # noqa: E402
import gnn  # noqa: E402

RTOL, ATOL = 1e-5, 1e-5


def to_gnn(t, requires_grad=False):
    if t is None:
        return None
    g = gnn.from_numpy(np.array(t.detach().numpy()))
    if requires_grad:
        g.requires_grad_(True)
    return g


def close(test, got, expect, what=''):
    got = got.detach().numpy() if hasattr(got, 'detach') else got.numpy()
    expect = expect.detach().numpy()
    test.assertEqual(got.shape, expect.shape, what)
    np.testing.assert_allclose(got, expect, rtol=RTOL, atol=ATOL, err_msg=what)


def load(gmod, tmod):
    gmod.load_state_dict({k: to_gnn(v) for k, v in tmod.state_dict().items()})


class TestTransformerEncoderVsTorch(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def run_pair(self, gmod, tmod, x, **kw):
        self.assertEqual(repr(gmod), repr(tmod))
        self.assertEqual(list(gmod.state_dict()), list(tmod.state_dict()))
        load(gmod, tmod)
        x = x.clone().requires_grad_(True)
        tout = tmod(x, **kw)
        gx = to_gnn(x, True)
        gout = gmod(gx, **{n: to_gnn(v) for n, v in kw.items()})
        close(self, gout, tout, 'output')
        w = torch.randn(tout.shape)
        tout.backward(w)
        (gout * to_gnn(w)).sum().backward()
        close(self, gx.grad, x.grad, 'grad input')
        gparams = dict(gmod.named_parameters())
        for name, p in tmod.named_parameters():
            close(self, gparams[name].grad, p.grad, 'grad ' + name)

    def layer_pair(self, *args, **kw):
        torch.manual_seed(3)
        return gnn.nn.TransformerEncoderLayer(*args, **kw), tnn.TransformerEncoderLayer(*args, **kw)

    def test_layer_options(self):
        for kw in (dict(), dict(norm_first=True), dict(activation='gelu'),
                   dict(activation='gelu', norm_first=True, layer_norm_eps=1e-3)):
            with self.subTest(**kw):
                g, t = self.layer_pair(16, 4, 32, 0.0, **kw)
                self.run_pair(g, t, torch.randn(5, 3, 16))

    def test_layer_function_and_module_activation(self):
        torch.manual_seed(3)
        t = tnn.TransformerEncoderLayer(8, 2, 16, 0.0, torch.nn.functional.gelu)
        g = gnn.nn.TransformerEncoderLayer(8, 2, 16, 0.0, gnn.nn.functional.gelu)
        self.run_pair(g, t, torch.randn(4, 2, 8))
        torch.manual_seed(3)
        t = tnn.TransformerEncoderLayer(8, 2, 16, 0.0, activation=tnn.GELU())
        g = gnn.nn.TransformerEncoderLayer(8, 2, 16, 0.0, activation=gnn.nn.GELU())
        self.run_pair(g, t, torch.randn(4, 2, 8))

    def test_layer_batch_first_unbatched_batch_one(self):
        g, t = self.layer_pair(8, 2, 16, 0.0, batch_first=True)
        self.run_pair(g, t, torch.randn(3, 5, 8))
        self.run_pair(g, t, torch.randn(1, 5, 8))
        g, t = self.layer_pair(8, 2, 16, 0.0)
        self.run_pair(g, t, torch.randn(5, 8))

    def test_layer_masks(self):
        S, N = 6, 3
        g, t = self.layer_pair(8, 2, 16, 0.0)
        causal = tnn.Transformer.generate_square_subsequent_mask(S)
        padding = torch.zeros(N, S, dtype=torch.bool)
        padding[1, 4:] = True
        self.run_pair(g, t, torch.randn(S, N, 8), src_mask=causal)
        self.run_pair(g, t, torch.randn(S, N, 8), src_mask=causal.isinf())
        self.run_pair(g, t, torch.randn(S, N, 8), src_key_padding_mask=padding)
        self.run_pair(g, t, torch.randn(S, N, 8), src_mask=causal, src_key_padding_mask=padding)

    def test_encoder(self):
        for norm in (False, True):
            with self.subTest(norm=norm):
                g, t = self.layer_pair(8, 2, 16, 0.0, norm_first=norm)
                te = tnn.TransformerEncoder(t, 3, norm=tnn.LayerNorm(8) if norm else None)
                ge = gnn.nn.TransformerEncoder(g, 3, norm=gnn.nn.LayerNorm(8) if norm else None)
                mask = tnn.Transformer.generate_square_subsequent_mask(5)
                self.run_pair(ge, te, torch.randn(5, 2, 8), mask=mask)

    def test_encoder_copies_the_layer(self):
        g = gnn.nn.TransformerEncoderLayer(8, 2, 16)
        ge = gnn.nn.TransformerEncoder(g, 2)
        w0 = ge.layers[0].linear1.weight
        np.testing.assert_array_equal(w0.detach().numpy(), g.linear1.weight.detach().numpy())
        with gnn.no_grad():
            w0.fill_(0.0)
        self.assertFalse((g.linear1.weight.detach().numpy() == 0).all())
        self.assertEqual(ge.num_layers, 2)

    def test_dropout_in_training_and_eval(self):
        g = gnn.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)
        x = to_gnn(torch.randn(4, 2, 8))
        self.assertFalse(np.allclose(g(x).detach().numpy(), g(x).detach().numpy()))
        g.eval()
        np.testing.assert_array_equal(g(x).detach().numpy(), g(x).detach().numpy())

    def test_errors(self):
        for args, kw in (((10, 3), {}), ((8, 2), dict(activation='tanh')),
                         ((8, 2), dict(dropout=1.5))):
            with self.subTest(args=args, kw=kw):
                with self.assertRaises(Exception) as want:
                    tnn.TransformerEncoderLayer(*args, **kw)(torch.randn(3, 2, 8))
                with self.assertRaises(GLib.Error) as got:
                    gnn.nn.TransformerEncoderLayer(*args, **kw)
                self.assertEqual(got.exception.message, str(want.exception))
        g, t = self.layer_pair(8, 2, 16, 0.0)
        x = torch.randn(3, 2, 8)
        for kw in (dict(src_key_padding_mask=torch.zeros(2, 3, dtype=torch.int64)),
                   dict(src_mask=torch.zeros(2, 2))):
            with self.subTest(kw=list(kw)):
                with self.assertRaises(Exception) as want:
                    t(x, **kw)
                with self.assertRaises(GLib.Error) as got:
                    g(to_gnn(x), **{n: to_gnn(v) for n, v in kw.items()})
                self.assertEqual(got.exception.message, str(want.exception))


class TestTransformerDecoderVsTorch(unittest.TestCase):
    """The decoder side and the whole Transformer: every tensor input gets a
    gradient, compared with torch's."""

    def run_pair(self, gmod, tmod, inputs, **kw):
        self.assertEqual(repr(gmod), repr(tmod))
        self.assertEqual(list(gmod.state_dict()), list(tmod.state_dict()))
        load(gmod, tmod)
        inputs = [x.clone().requires_grad_(True) for x in inputs]
        tout = tmod(*inputs, **kw)
        ginputs = [to_gnn(x, True) for x in inputs]
        gout = gmod(*ginputs, **{n: to_gnn(v) for n, v in kw.items()})
        close(self, gout, tout, 'output')
        w = torch.randn(tout.shape)
        tout.backward(w)
        (gout * to_gnn(w)).sum().backward()
        for i, (g, t) in enumerate(zip(ginputs, inputs)):
            close(self, g.grad, t.grad, 'grad input %d' % i)
        gparams = dict(gmod.named_parameters())
        for name, p in tmod.named_parameters():
            close(self, gparams[name].grad, p.grad, 'grad ' + name)

    def test_decoder_layer(self):
        T, S, N = 4, 6, 3
        causal = tnn.Transformer.generate_square_subsequent_mask(T)
        padding = torch.zeros(N, S, dtype=torch.bool)
        padding[2, 3:] = True
        for kw in (dict(), dict(norm_first=True, activation='gelu'), dict(batch_first=True)):
            with self.subTest(**kw):
                torch.manual_seed(5)
                g = gnn.nn.TransformerDecoderLayer(8, 2, 16, 0.0, **kw)
                t = tnn.TransformerDecoderLayer(8, 2, 16, 0.0, **kw)
                shape = (lambda L: (N, L, 8)) if kw.get('batch_first') else (lambda L: (L, N, 8))
                self.run_pair(g, t, [torch.randn(*shape(T)), torch.randn(*shape(S))],
                              tgt_mask=causal, memory_key_padding_mask=padding)
        self.run_pair(g, t, [torch.randn(1, T, 8), torch.randn(1, S, 8)])

    def test_decoder_stack(self):
        torch.manual_seed(5)
        g = gnn.nn.TransformerDecoderLayer(8, 2, 16, 0.0)
        t = tnn.TransformerDecoderLayer(8, 2, 16, 0.0)
        gd = gnn.nn.TransformerDecoder(g, 2, norm=gnn.nn.LayerNorm(8))
        td = tnn.TransformerDecoder(t, 2, norm=tnn.LayerNorm(8))
        self.run_pair(gd, td, [torch.randn(4, 2, 8), torch.randn(5, 2, 8)],
                      tgt_mask=tnn.Transformer.generate_square_subsequent_mask(4),
                      memory_mask=torch.randn(4, 5))

    def test_transformer(self):
        for kw in (dict(), dict(norm_first=True, batch_first=True)):
            with self.subTest(**kw):
                torch.manual_seed(7)
                g = gnn.nn.Transformer(8, 2, 2, 2, 16, 0.0, **kw)
                t = tnn.Transformer(8, 2, 2, 2, 16, 0.0, **kw)
                bf = kw.get('batch_first', False)
                src = torch.randn(3, 5, 8) if bf else torch.randn(5, 3, 8)
                tgt = torch.randn(3, 4, 8) if bf else torch.randn(4, 3, 8)
                padding = torch.zeros(3, 5, dtype=torch.bool)
                padding[0, 3:] = True
                self.run_pair(g, t, [src, tgt],
                              tgt_mask=tnn.Transformer.generate_square_subsequent_mask(4),
                              src_key_padding_mask=padding, memory_key_padding_mask=padding)

    def test_transformer_init_mask_and_errors(self):
        g = gnn.nn.Transformer(16, 4, 1, 1, 32)
        w = g.encoder.layers[0].linear1.weight.detach().numpy()     # xavier_uniform_ (32, 16)
        self.assertLessEqual(np.abs(w).max(), np.sqrt(6 / 48))
        self.assertGreater(np.abs(w).max(), 0.9 * np.sqrt(6 / 48))
        np.testing.assert_array_equal(gnn.nn.Transformer.generate_square_subsequent_mask(5).numpy(),
                                      tnn.Transformer.generate_square_subsequent_mask(5).numpy())
        t = tnn.Transformer(16, 4, 1, 1, 32)
        for src, tgt in (((5, 2, 16), (4, 3, 16)), ((5, 2, 16), (4, 2, 8))):
            with self.subTest(src=src, tgt=tgt):
                a, b = torch.randn(*src), torch.randn(*tgt)
                with self.assertRaises(RuntimeError) as want:
                    t(a, b)
                with self.assertRaises(GLib.Error) as got:
                    g(to_gnn(a), to_gnn(b))
                self.assertEqual(got.exception.message, str(want.exception))


if __name__ == '__main__':
    unittest.main()
