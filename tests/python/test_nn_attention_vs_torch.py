# F.scaled_dot_product_attention, F.multi_head_attention_forward and
# nn.MultiheadAttention against torch 1.13: same weights (loaded through
# state_dict), same outputs, attention weights and gradients (inputs and
# every parameter), state_dict keys both ways, repr, init and torch's error
# messages. torch 1.13 has no public F.scaled_dot_product_attention (2.0
# has): it is checked against its definition in torch ops.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import itertools
import math
import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402
import gnn  # noqa: E402
import gnn.nn.functional as GF  # noqa: E402

RTOL, ATOL = 1e-5, 2e-6


def to_gnn(t, requires_grad=False):
    if t is None:
        return None
    g = gnn.from_numpy(np.array(t.detach().numpy()))   # a copy
    if requires_grad:
        g.requires_grad_(True)
    return g


def close(test, got, expect, what='', atol=ATOL):
    got = got.detach().numpy() if hasattr(got, 'detach') else got.numpy()
    expect = expect.detach().numpy()
    test.assertEqual(got.shape, expect.shape, what)
    np.testing.assert_allclose(got, expect, rtol=RTOL, atol=atol, err_msg=what)


def load_torch_weights(gmod, tmod):
    gmod.load_state_dict({k: to_gnn(v) for k, v in tmod.state_dict().items()})


def sdpa_reference(q, k, v, mask=None, is_causal=False):
    """torch 2.0's documented math of F.scaled_dot_product_attention."""
    L, S = q.shape[-2], k.shape[-2]
    bias = torch.zeros(L, S)
    if is_causal:
        bias = bias.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float('-inf'))
    if mask is not None:
        bias = bias + (torch.zeros(mask.shape).masked_fill(~mask, float('-inf'))
                       if mask.dtype == torch.bool else mask)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]) + bias
    return torch.softmax(scores, -1) @ v


class TestScaledDotProductAttention(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def check(self, qshape, kshape, vshape, mask=None, is_causal=False):
        q, k, v = (torch.randn(*s, requires_grad=True) for s in (qshape, kshape, vshape))
        if mask is not None and mask.dtype != torch.bool:
            mask.requires_grad_(True)
        expect = sdpa_reference(q, k, v, mask, is_causal)
        gq, gk, gv = (to_gnn(t, True) for t in (q, k, v))
        gmask = to_gnn(mask, mask is not None and mask.dtype != torch.bool)
        got = GF.scaled_dot_product_attention(gq, gk, gv, attn_mask=gmask, is_causal=is_causal)
        close(self, got, expect, 'output')
        w = torch.randn(expect.shape)
        expect.backward(w)
        (got * to_gnn(w)).sum().backward()
        for name, g, t in (('q', gq, q), ('k', gk, k), ('v', gv, v)):
            close(self, g.grad, t.grad, 'grad ' + name)
        if gmask is not None and mask.dtype != torch.bool:
            close(self, gmask.grad, mask.grad, 'grad mask')

    def test_shapes(self):
        self.check((2, 3, 5, 8), (2, 3, 7, 8), (2, 3, 7, 4))
        self.check((1, 1, 1, 8), (1, 1, 1, 8), (1, 1, 1, 8))
        self.check((4, 6, 16), (4, 9, 16), (4, 9, 16))

    def test_masks(self):
        self.check((2, 3, 5, 8), (2, 3, 7, 8), (2, 3, 7, 8), mask=torch.rand(5, 7) > 0.3)
        self.check((2, 3, 5, 8), (2, 3, 7, 8), (2, 3, 7, 8), mask=torch.randn(2, 3, 5, 7))
        self.check((2, 3, 5, 8), (2, 3, 7, 8), (2, 3, 7, 8), mask=torch.randn(5, 7))
        self.check((2, 3, 6, 8), (2, 3, 6, 8), (2, 3, 6, 8), is_causal=True)

    def test_attention_weights_sum_to_one_under_dropout_off(self):
        q = torch.randn(2, 4, 8)
        got = GF.scaled_dot_product_attention(to_gnn(q), to_gnn(q), to_gnn(torch.ones(2, 4, 3)))
        np.testing.assert_allclose(got.numpy(), np.ones((2, 4, 3)), rtol=1e-6)

    def test_errors(self):
        q = to_gnn(torch.randn(2, 5, 8))
        with self.assertRaises(GLib.Error):
            GF.scaled_dot_product_attention(q, to_gnn(torch.randn(2, 5, 7)), q)
        with self.assertRaises(GLib.Error):
            GF.scaled_dot_product_attention(q, q, q, attn_mask=to_gnn(torch.randn(4, 4)))


def mha_pair(**options):
    torch.manual_seed(1)
    tmod = tnn.MultiheadAttention(**options)
    gmod = gnn.nn.MultiheadAttention(**options)
    load_torch_weights(gmod, tmod)
    return gmod, tmod


class TestMultiheadAttention(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def run_pair(self, gmod, tmod, q, k, v, **kw):
        q, k, v = (t.clone().requires_grad_(True) for t in (q, k, v))
        tout, tw = tmod(q, k, v, **kw)
        gq, gk, gv = (to_gnn(t, True) for t in (q, k, v))
        gkw = {n: (to_gnn(x) if isinstance(x, torch.Tensor) else x) for n, x in kw.items()}
        gout, gw = gmod(gq, gk, gv, **gkw)
        close(self, gout, tout, 'output')
        if tw is None:
            self.assertIsNone(gw)
        else:
            close(self, gw, tw, 'weights')
        w = torch.randn(tout.shape)
        tout.backward(w)
        (gout * to_gnn(w)).sum().backward()
        for name, g, t in (('query', gq, q), ('key', gk, k), ('value', gv, v)):
            close(self, g.grad, t.grad, 'grad ' + name, atol=1e-5)
        gparams = dict(gmod.named_parameters())
        tparams = dict(tmod.named_parameters())
        self.assertEqual(list(gparams), list(tparams))
        for name, t in tparams.items():
            close(self, gparams[name].grad, t.grad, 'grad ' + name, atol=1e-5)

    def test_options(self):
        E, H = 12, 3
        for batch_first, bias, bias_kv, zero_attn in itertools.product((False, True), repeat=4):
            with self.subTest(batch_first=batch_first, bias=bias, add_bias_kv=bias_kv,
                              add_zero_attn=zero_attn):
                gmod, tmod = mha_pair(embed_dim=E, num_heads=H, bias=bias, add_bias_kv=bias_kv,
                                      add_zero_attn=zero_attn, batch_first=batch_first)
                shape = (lambda s: (2, s, E)) if batch_first else (lambda s: (s, 2, E))
                q, k = torch.randn(*shape(5)), torch.randn(*shape(7))
                self.run_pair(gmod, tmod, q, k, torch.randn(*shape(7)))

    def test_self_attention_and_batch_one(self):
        gmod, tmod = mha_pair(embed_dim=16, num_heads=4)
        x = torch.randn(6, 1, 16)
        self.run_pair(gmod, tmod, x, x, x)
        x = torch.randn(6, 3, 16)
        self.run_pair(gmod, tmod, x, x, x, average_attn_weights=False)

    def test_kdim_vdim(self):
        gmod, tmod = mha_pair(embed_dim=8, num_heads=2, kdim=5, vdim=3)
        self.assertEqual(gmod.kdim, 5)
        self.run_pair(gmod, tmod, torch.randn(4, 2, 8), torch.randn(6, 2, 5), torch.randn(6, 2, 3))

    def test_unbatched(self):
        gmod, tmod = mha_pair(embed_dim=8, num_heads=2)
        self.run_pair(gmod, tmod, torch.randn(4, 8), torch.randn(6, 8), torch.randn(6, 8),
                      key_padding_mask=torch.tensor([False, True, False, False, True, False]))

    def test_masks(self):
        L, S, N, E, H = 5, 6, 3, 8, 2
        gmod, tmod = mha_pair(embed_dim=E, num_heads=H)
        q, k, v = torch.randn(L, N, E), torch.randn(S, N, E), torch.randn(S, N, E)
        causal = torch.triu(torch.ones(L, S, dtype=torch.bool), 1)
        padding = torch.zeros(N, S, dtype=torch.bool)
        padding[0, 4:] = True
        padding[2, 0] = True
        for kw in (dict(attn_mask=causal), dict(attn_mask=torch.randn(L, S)),
                   dict(attn_mask=torch.rand(N * H, L, S) > 0.7),
                   dict(attn_mask=torch.randn(N * H, L, S)),
                   dict(key_padding_mask=padding),
                   dict(key_padding_mask=torch.randn(N, S)),
                   dict(key_padding_mask=padding, attn_mask=causal),
                   dict(key_padding_mask=padding, attn_mask=torch.randn(L, S)),
                   dict(key_padding_mask=padding, need_weights=False),
                   dict(attn_mask=causal, average_attn_weights=False)):
            with self.subTest(kw=sorted(kw)):
                self.run_pair(gmod, tmod, q, k, v, **kw)

    def test_eval_and_dropout(self):
        gmod, tmod = mha_pair(embed_dim=8, num_heads=2, dropout=0.5)
        gmod.eval()
        tmod.eval()
        x = torch.randn(4, 2, 8)
        self.run_pair(gmod, tmod, x, x, x)
        gmod.train()
        g1, _ = gmod(to_gnn(x), to_gnn(x), to_gnn(x))
        g2, _ = gmod(to_gnn(x), to_gnn(x), to_gnn(x))
        self.assertFalse(np.allclose(g1.detach().numpy(), g2.detach().numpy()))
        # p=1 drops every weight: the output is out_proj's bias
        gmod, tmod = mha_pair(embed_dim=8, num_heads=2, dropout=1.0)
        tout, _ = tmod(x, x, x)
        gout, _ = gmod(to_gnn(x), to_gnn(x), to_gnn(x))
        close(self, gout, tout)

    def test_state_dict_both_ways_and_repr(self):
        for options in (dict(embed_dim=8, num_heads=2),
                        dict(embed_dim=8, num_heads=2, kdim=4, vdim=6, add_bias_kv=True),
                        dict(embed_dim=8, num_heads=4, bias=False)):
            torch.manual_seed(0)
            tmod = tnn.MultiheadAttention(**options)
            gmod = gnn.nn.MultiheadAttention(**options)
            self.assertEqual(list(gmod.state_dict()), list(tmod.state_dict()))
            for (name, g), t in zip(gmod.state_dict().items(), tmod.state_dict().values()):
                self.assertEqual(tuple(g.shape), tuple(t.shape), name)
            self.assertEqual(repr(gmod), repr(tmod))
            tmod.load_state_dict({k: torch.from_numpy(np.array(v.numpy()))
                                  for k, v in gmod.state_dict().items()})
            x = torch.randn(3, 2, 8)
            k = torch.randn(5, 2, options.get('kdim', 8))
            v = torch.randn(5, 2, options.get('vdim', 8))
            self.run_pair(gmod, tmod, x, k, v)

    def test_init(self):
        gmod = gnn.nn.MultiheadAttention(64, 4, add_bias_kv=True)
        w = gmod.in_proj_weight.detach().numpy()
        bound = math.sqrt(6.0 / (64 + 3 * 64))            # xavier_uniform_ of (192, 64)
        self.assertLessEqual(np.abs(w).max(), bound)
        self.assertGreater(np.abs(w).max(), 0.9 * bound)
        self.assertTrue((gmod.in_proj_bias.detach().numpy() == 0).all())
        self.assertTrue((gmod.out_proj.bias.detach().numpy() == 0).all())
        bk = gmod.bias_k.detach().numpy()
        self.assertGreater(np.abs(bk).std(), 0.05)        # xavier_normal_, std sqrt(2/(64+64))

    def test_functional(self):
        gmod, tmod = mha_pair(embed_dim=8, num_heads=2, add_bias_kv=True)
        q, k = torch.randn(4, 2, 8), torch.randn(5, 2, 8)
        args = lambda conv, m, q, k: (conv(q), conv(k), conv(k), 8, 2, conv(m.in_proj_weight),  # noqa
                                      conv(m.in_proj_bias), conv(m.bias_k), conv(m.bias_v), True,
                                      0.0, conv(m.out_proj.weight), conv(m.out_proj.bias))
        tout, tw = TF.multi_head_attention_forward(*args(lambda t: t, tmod, q, k),
                                                   average_attn_weights=False)
        gout, gw = GF.multi_head_attention_forward(*args(to_gnn, tmod, q, k),
                                                   average_attn_weights=False)
        close(self, gout, tout)
        close(self, gw, tw)

    def assert_same_error(self, gcall, tcall):
        with self.assertRaises(Exception) as want:
            tcall()
        with self.assertRaises(GLib.Error) as got:
            gcall()
        self.assertEqual(got.exception.message, str(want.exception))

    def test_errors(self):
        self.assert_same_error(lambda: gnn.nn.MultiheadAttention(10, 3),
                               lambda: tnn.MultiheadAttention(10, 3))
        gmod, tmod = mha_pair(embed_dim=8, num_heads=2)
        q, k = torch.randn(4, 2, 8), torch.randn(5, 2, 8)
        before = {n: p.detach().numpy().copy() for n, p in gmod.state_dict().items()}
        for kw in (dict(attn_mask=torch.zeros(4, 4, dtype=torch.bool)),
                   dict(attn_mask=torch.zeros(3, 4, 5)),
                   dict(attn_mask=torch.zeros(1, 1, 4, 5)),
                   dict(key_padding_mask=torch.zeros(2, 5, dtype=torch.int32))):
            with self.subTest(kw=kw):
                gkw = {n: to_gnn(x) for n, x in kw.items()}
                self.assert_same_error(lambda: gmod(to_gnn(q), to_gnn(k), to_gnn(k), **gkw),
                                       lambda: tmod(q, k, k, **kw))
        self.assert_same_error(lambda: gmod(to_gnn(q), to_gnn(k[:, :1]), to_gnn(k[:, :1])),
                               lambda: tmod(q, k[:, :1], k[:, :1]))
        self.assert_same_error(lambda: gmod(to_gnn(q[None]), to_gnn(k), to_gnn(k)),
                               lambda: tmod(q[None], k, k))
        for n, p in gmod.state_dict().items():
            np.testing.assert_array_equal(p.numpy(), before[n])


if __name__ == '__main__':
    unittest.main()
