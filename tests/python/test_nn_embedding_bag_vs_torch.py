# EmbeddingBag and F.embedding_bag against torch 1.13: modes sum/mean/max,
# 2-D inputs and 1-D inputs with offsets (include_last_offset, empty bags),
# per_sample_weights, padding_idx, max_norm, scale_grad_by_freq; outputs,
# the weight's and the sample weights' gradients, state dicts both ways,
# repr, grad_fn and torch's messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import random
import unittest

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as TF

from layer_parity import Gnn, assert_close, check_same_error, load_torch_into_gnn, to_gnn

F = Gnn.functional


class TestEmbeddingBag(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.rng = random.Random(3)

    def case(self):
        rng = self.rng
        mode = rng.choice(['sum', 'mean', 'max'])
        kwargs = dict(mode=mode, include_last_offset=rng.random() < 0.3)
        if rng.random() < 0.4:
            kwargs['padding_idx'] = rng.choice([0, 3, -1])
        if mode != 'max' and rng.random() < 0.3:
            kwargs['scale_grad_by_freq'] = True
        if rng.random() < 0.2:
            kwargs['max_norm'] = 1.5
        return kwargs

    def inputs(self, kwargs, vocab):
        rng = self.rng
        # (torch 1.13 reads out of bounds for a 2-D input with include_last_offset)
        if rng.random() < 0.4 and not kwargs['include_last_offset']:
            x = torch.randint(0, vocab, (rng.randint(1, 4), rng.randint(1, 5)))
            offsets = None
        else:
            # (torch 1.13 crashes on an empty input with include_last_offset)
            n = rng.randint(0 if not kwargs['include_last_offset'] else 1, 12)
            x = torch.randint(0, vocab, (n,))
            cuts = sorted(rng.randint(0, n) for _ in range(rng.randint(0, 4)))
            offsets = torch.tensor([0] + cuts + ([n] if kwargs['include_last_offset'] else []))
        psw = None
        if kwargs['mode'] == 'sum' and rng.random() < 0.5:
            psw = torch.randn(*x.shape, requires_grad=True)
        return x, offsets, psw

    @staticmethod
    def expected_weight_grad(t, kwargs, x, offsets, args, grad):
        """torch's weight gradient; with scale_grad_by_freq torch 1.13 divides
        every row by the lookups of one index (of the smallest), where
        Embedding (and the documentation) divide each row by its own: Gnn
        does the latter, the unscaled gradient over each row's lookups."""
        if not kwargs.get('scale_grad_by_freq'):
            return t.weight.grad
        plain = tnn.EmbeddingBag(*t.weight.shape, **dict(kwargs, scale_grad_by_freq=False)).to(t.weight.dtype)
        plain.load_state_dict(t.state_dict())
        plain(x, offsets, **{k: v.detach() for k, v in args.items()}).backward(grad)
        flat = x.reshape(-1)
        if t.padding_idx is not None:
            flat = flat[flat != t.padding_idx]
        freq = torch.bincount(flat, minlength=t.weight.shape[0]).clamp(min=1).to(t.weight.dtype)
        return plain.weight.grad / freq[:, None]

    def test_random_against_torch(self):
        for trial in range(60):
            kwargs = self.case()
            vocab, dim = self.rng.randint(5, 9), self.rng.randint(1, 4)
            dtype = self.rng.choice([torch.float32, torch.float64])
            with self.subTest(trial=trial, kwargs=kwargs):
                t = tnn.EmbeddingBag(vocab, dim, **kwargs).to(dtype)
                g = Gnn.EmbeddingBag(vocab, dim, **kwargs)
                self.assertEqual(repr(g), repr(t))
                self.assertEqual(list(g.state_dict().get_keys()), list(t.state_dict()))
                if dtype == torch.float64:
                    g.double()
                load_torch_into_gnn(g, t)
                x, offsets, psw = self.inputs(kwargs, vocab)
                args = {} if psw is None else {'per_sample_weights': psw.to(dtype)}
                want = t(x, offsets, **args)
                gargs = {} if psw is None else {'per_sample_weights': to_gnn(psw.to(dtype), requires_grad=True)}
                got = g(to_gnn(x), None if offsets is None else to_gnn(offsets), **gargs)
                assert_close(self, got, want, 'output')
                # max_norm renormalized the same rows in place
                assert_close(self, g.state_dict()['weight'], t.weight, 'renormalized weight')
                if want.numel() == 0:
                    continue
                self.assertEqual(got.grad_fn.name(), want.grad_fn.name())
                grad = torch.randn_like(want)
                want.backward(grad)
                got.backward(to_gnn(grad), False)
                assert_close(self, dict(g.named_parameters())['weight'].grad, self.expected_weight_grad(
                    t, kwargs, x, offsets, args, grad), 'weight grad')
                if psw is not None:
                    assert_close(self, gargs['per_sample_weights'].grad, psw.grad, 'psw grad')

    def test_functional(self):
        w = torch.randn(10, 3, requires_grad=True)
        x = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
        offsets = torch.tensor([0, 4, 4])
        for mode in ('sum', 'mean', 'max'):
            gw = to_gnn(w, requires_grad=True)
            got = F.embedding_bag(to_gnn(x), gw, to_gnn(offsets), mode=mode)
            want = TF.embedding_bag(x, w, offsets, mode=mode)
            assert_close(self, got, want, mode)
            want.sum().backward()
            got.sum().backward()
            assert_close(self, gw.grad, w.grad, mode + ' grad')
            w.grad = None

    def test_module_defaults_and_init(self):
        g = Gnn.EmbeddingBag(10, 3)
        self.assertEqual(repr(g), repr(tnn.EmbeddingBag(10, 3)))
        self.assertEqual(g.get_property('mode'), 'mean')
        w = g.state_dict()['weight'].numpy()
        self.assertEqual(w.shape, (10, 3))
        p = Gnn.EmbeddingBag(10, 3, padding_idx=-2)
        self.assertEqual(p.get_property('padding-idx'), 8)
        np.testing.assert_array_equal(p.state_dict()['weight'].numpy()[8], np.zeros(3))

    def test_errors(self):
        w = torch.randn(10, 3)
        cases = [
            (torch.tensor([[1, 2], [3, 4]]), dict(offsets=torch.tensor([0]))),
            (torch.tensor([1, 2, 3]), {}),
            (torch.tensor([[[1]]]), {}),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([[0]]))),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([0]), mode='foo')),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([0]), mode='mean',
                                           per_sample_weights=torch.ones(3))),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([0]), mode='sum',
                                           per_sample_weights=torch.ones(2))),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([1]))),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([0, 5]))),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([0, 2]), padding_idx=20)),
            (torch.tensor([1, 2, 3]), dict(offsets=torch.tensor([0]), mode='max', scale_grad_by_freq=True)),
        ]
        for i, (x, kwargs) in enumerate(cases):
            gk = {k: to_gnn(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
            with self.subTest(case=i):
                check_same_error(self, lambda: F.embedding_bag(to_gnn(x), to_gnn(w), **gk),
                                 lambda: TF.embedding_bag(x, w, **kwargs))
        check_same_error(self, lambda: F.embedding_bag(to_gnn(torch.tensor([1, 2, 30])), to_gnn(w),
                                                       to_gnn(torch.tensor([0]))),
                         lambda: TF.embedding_bag(torch.tensor([1, 2, 30]), w, torch.tensor([0])),
                         contains='Index 2 is out of bounds: 30, range 0 to 10')


if __name__ == '__main__':
    unittest.main()
