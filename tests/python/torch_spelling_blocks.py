# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cases of test_torch_spellings.py for gnn-tensor-blocks.c: kron,
block_diag, diag_embed, rot90, take, masked_scatter — values, gradients,
node names and torch's messages."""

import numpy as np

from torch_spelling_composite import e
from torch_spelling_ops import A, grad, v

MASK = np.array([[True, False, True], [False, True, True]])


def gv(name, fn, *arrays):
    """A gradient case whose node name torch takes from its composition
    (kron's UnsafeViewBackward0): values and gradients only."""
    return ('grad ' + name, lambda s: grad(s, fn, *arrays, names=False), None)


def g(name, fn, *arrays):
    return ('grad ' + name, lambda s: grad(s, fn, *arrays), None)


CASES = [
    gv('kron', lambda T, x, y: T.kron(x, y), A(2, 3), A(2, 2, seed=1)),
    gv('kron ranks', lambda T, x, y: x.kron(y), A(3), A(2, 2, seed=1)),
    v('kron int', lambda s: s.T.kron(s.T.tensor([[1, 2], [3, 4]]), s.T.tensor([[0, 1], [1, 0]]))),
    g('block_diag', lambda T, x, y, z: T.block_diag(x, y, z), A(2, 3), A(2, seed=1),
      np.array(1.5, dtype='float32')),
    v('block_diag promoted', lambda s: s.T.block_diag(s.T.tensor([[1, 2]]), s.T.tensor([0.5]))),
    v('block_diag empty', lambda s: s.T.block_diag(s.T.ones(0, 2), s.T.ones(1, 1))),
    e('block_diag 3-d', lambda T: T.block_diag(T.ones(2, 2, 2))),
    g('diag_embed', lambda T, x: T.diag_embed(x), A(2, 3)),
    g('diag_embed offset dims', lambda T, x: x.diag_embed(-1, 0, 2), A(2, 3)),
    v('diag_embed offset', lambda s: s.T.diag_embed(s.T.arange(3.), 1)),
    e('diag_embed same dims', lambda T: T.diag_embed(T.ones(2, 3), 0, 1, 1)),
    g('rot90', lambda T, x: T.rot90(x), A(2, 3)),
    g('rot90 k=2', lambda T, x: x.rot90(2, [0, 1]), A(2, 3)),
    g('rot90 k=-1 dims', lambda T, x: x.rot90(-1, [2, 0]), A(2, 3, 4)),
    v('rot90 k=4', lambda s: s.T.rot90(s.T.tensor([[1, 2], [3, 4]]), 4)),
    e('rot90 one dim', lambda T: T.rot90(T.ones(2, 3), 1, [0])),
    e('rot90 same dims', lambda T: T.rot90(T.ones(2, 3), 1, [0, 0])),
    e('rot90 1-d', lambda T: T.rot90(T.ones(3), 1, [0, 1])),
    e('rot90 dim range', lambda T: T.rot90(T.ones(2, 3), 1, [0, 5])),
    g('take', lambda T, x: T.take(x, T.tensor([[0, 5], [-1, 0]])), A(2, 3)),
    v('take int', lambda s: s.T.tensor([[4, 5], [6, 7]]).take(s.T.tensor([3, 0]))),
    e('take range', lambda T: T.take(T.ones(2, 3), T.tensor([6]))),
    e('take float index', lambda T: T.take(T.ones(2, 3), T.tensor([1.]))),
    g('masked_scatter', lambda T, x, src: x.masked_scatter(T.tensor(MASK), src), A(2, 3),
      A(2, 3, seed=4)),
    g('masked_scatter broadcast', lambda T, x, src: T.masked_scatter(x, T.tensor([True, False, True]),
                                                                      src), A(2, 3), A(6, seed=2)),
    v('masked_scatter_', lambda s: (lambda t: (t.masked_scatter_(s.T.tensor(MASK), s.T.arange(6.)), t)[1])(
        s.T.zeros(2, 3))),
    e('masked_scatter short source', lambda T: T.ones(3).masked_scatter(T.tensor([True, False, True]),
                                                                        T.arange(1.))),
    e('masked_scatter dtypes', lambda T: T.ones(3).masked_scatter(T.tensor([True, False, True]),
                                                                  T.arange(3., dtype=T.float64))),
]
