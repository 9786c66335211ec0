# SPDX-License-Identifier: LGPL-2.1-or-later
"""The sampling cases of test_torch_spellings.py (gnn-tensor-sample.c:
multinomial, bernoulli/bernoulli_, torch.normal with numbers). Gnn's random
streams are not torch's, so the cases compare what does not depend on the
stream — shapes, dtypes, draws forced by the weights, seeded repeatability,
statistics within a tolerance, nodes and zero gradients — and torch's
messages."""

from torch_spelling_composite import e
from torch_spelling_ops import v


def _seeded_twice(T, draw):
    T.manual_seed(5)
    a = draw(T).tolist()
    T.manual_seed(5)
    return a == draw(T).tolist()


def _zero_grad(T, make):
    x = T.full((4,), 0.5, requires_grad=True)
    y = make(T, x)
    (y * 2).sum().backward()
    return [type(y.grad_fn).__name__, x.grad]


def _bernoulli_inplace(T, x):
    y = x * 1
    return y.bernoulli_(0.25)


CASES = [
    v('multinomial shape', lambda s: (lambda r: [list(r.shape), r.dtype])(
        s.T.multinomial(s.T.ones(3, 5), 4))),
    v('multinomial vector shape', lambda s: list(s.T.ones(7).multinomial(2, True).shape)),
    v('multinomial without replacement', lambda s: sorted(
        s.T.multinomial(s.T.tensor([1., 2, 3, 4, 5, 6]), 6).tolist())),
    v('multinomial zero weights', lambda s: sorted(set(
        s.T.multinomial(s.T.tensor([0., 1, 0, 2]), 200, replacement=True).tolist()))),
    v('multinomial one-hot rows', lambda s: s.T.multinomial(
        s.T.tensor([[0., 0, 1], [3, 0, 0]]), 3, True)),
    v('multinomial zeros last', lambda s: s.T.multinomial(s.T.tensor([0., 5, 0]), 1)),
    v('multinomial frequencies', lambda s: (lambda r: abs((r == 1).float().mean().item() - 0.75)
                                            < 0.03)(
        s.T.multinomial(s.T.tensor([1., 3]), 4000, True))),
    v('multinomial seeded', lambda s: _seeded_twice(
        s.T, lambda T: T.multinomial(T.ones(10), 5))),
    v('multinomial out', lambda s: (lambda o: (s.T.multinomial(s.T.tensor([0., 1]), 2, True,
                                                               out=o), o)[1])(
        s.T.empty(0, dtype=s.T.int64))),
    v('bernoulli', lambda s: s.T.bernoulli(s.T.tensor([0., 1, 1, 0]))),
    v('bernoulli float64', lambda s: s.T.tensor([1., 0], dtype=s.T.float64).bernoulli()),
    v('bernoulli p', lambda s: s.T.bernoulli(s.T.ones(2, 3), 1.0)),
    v('bernoulli mean', lambda s: abs(s.T.bernoulli(s.T.full((20000,), 0.3)).mean().item() - 0.3)
      < 0.02),
    v('bernoulli seeded', lambda s: _seeded_twice(
        s.T, lambda T: T.bernoulli(T.full((16,), 0.5)))),
    v('bernoulli_', lambda s: s.T.zeros(2, 2).bernoulli_(1.0)),
    v('bernoulli_ int', lambda s: s.T.zeros(3, dtype=s.T.int64).bernoulli_(1)),
    v('bernoulli_ mean', lambda s: abs(s.T.empty(20000).bernoulli_(0.8).mean().item() - 0.8)
      < 0.02),
    v('bernoulli grad', lambda s: _zero_grad(s.T, lambda T, x: T.bernoulli(x))),
    v('bernoulli_ grad', lambda s: _zero_grad(s.T, _bernoulli_inplace)),
    v('normal numbers', lambda s: s.T.normal(2.0, 0.0, size=(2, 3))),
    v('normal shape', lambda s: (lambda r: [list(r.shape), r.dtype])(s.T.normal(0, 1, (4,)))),
    v('normal mean', lambda s: abs(s.T.normal(3.0, 2.0, (20000,)).mean().item() - 3.0) < 0.1),
    e('multinomial 3-d', lambda T: T.multinomial(T.ones(2, 2, 2), 1)),
    e('multinomial int', lambda T: T.multinomial(T.tensor([1, 2]), 1)),
    e('multinomial 0 samples', lambda T: T.multinomial(T.ones(2), 0)),
    e('multinomial too many', lambda T: T.multinomial(T.ones(2), 3)),
    e('multinomial negative', lambda T: T.multinomial(T.tensor([-1., 1]), 1)),
    e('multinomial nan', lambda T: T.multinomial(T.tensor([float('nan'), 1.]), 1)),
    e('multinomial zero sum', lambda T: T.multinomial(T.zeros(2), 1, True)),
    e('bernoulli p range', lambda T: T.bernoulli(T.tensor([1.5]))),
    e('bernoulli int', lambda T: T.bernoulli(T.tensor([1, 0]))),
    e('bernoulli_ p range', lambda T: T.ones(2).bernoulli_(2.)),
    v('bernoulli_ tensor p forced', lambda s: s.T.zeros(2, 3).bernoulli_(
        s.T.tensor([0.0, 1.0, 1.0]))),
    v('bernoulli_ tensor p seeded', lambda s: _seeded_twice(s.T, lambda T: T.zeros(50).bernoulli_(
        T.full((50,), 0.5)))),
    v('bernoulli_ tensor p grad', lambda s: _zero_grad(s.T, lambda T, x: (x * 1).bernoulli_(
        T.tensor([0.2, 0.4, 0.6, 0.8])))),
]
