# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cases of test_torch_spellings.py for the scans and searches
(gnn-tensor-cumulative.c, gnn-tensor-search.c, mode in gnn-tensor-order.c):
cummax, cummin, logcumsumexp, mode, searchsorted, bucketize, isin,
unique_consecutive — values, positions, gradients, node names and torch's
messages."""

import numpy as np

from torch_spelling_composite import e
from torch_spelling_ops import A, I, g, v

TIES = np.array([[1.0, 3.0, 3.0, 2.0, 3.0], [5.0, 4.0, 4.0, 6.0, 1.0]], dtype='float32')
NAN_ROW = np.array([1.0, np.nan, 2.0, 0.5], dtype='float32')
SEQ = np.array([1.0, 3.0, 5.0, 7.0, 9.0], dtype='float32')

CASES = [
    g('cummax', lambda T, x: x.cummax(1)[0], A(3, 5)),
    g('cummin', lambda T, x: T.cummin(x, 0).values, A(4, 3)),
    g('cummax ties', lambda T, x: x.cummax(-1).values, TIES),
    v('cummax indices ties', lambda s: s.T.tensor(TIES).cummax(1)),
    v('cummin indices ties', lambda s: s.T.cummin(s.T.tensor(TIES), dim=1)),
    v('cummax nan', lambda s: s.T.tensor(NAN_ROW).cummax(0)),
    v('cummin nan', lambda s: s.T.tensor(NAN_ROW).cummin(0)),
    v('cummax int', lambda s: s.T.tensor([[3, 1, 4], [1, 5, 9]]).cummax(1)),
    v('cummax 0-d', lambda s: s.T.tensor(2.5).cummax(0)),
    v('cummin out', lambda s: (lambda o: s.T.cummin(s.T.tensor([3., 1, 2]), 0, out=o))(
        (s.T.empty(0), s.T.empty(0, dtype=s.T.long)))),
    e('cummax dim', lambda T: T.ones(3).cummax(1)),
    g('logcumsumexp', lambda T, x: x.logcumsumexp(1), A(3, 5)),
    g('logcumsumexp dim 0', lambda T, x: T.logcumsumexp(x, 0), A(4, 2) * 30),
    v('logcumsumexp large', lambda s: s.T.tensor([1000.0, 1000.0, -1000.0]).logcumsumexp(0)),
    v('logcumsumexp -inf', lambda s: s.T.tensor([-float('inf'), 0.0, -float('inf')]).logcumsumexp(0)),
    v('logcumsumexp float64', lambda s: s.T.logcumsumexp(s.T.tensor(A(6), dtype=s.T.float64), 0)),
    e('logcumsumexp int', lambda T: T.logcumsumexp(T.tensor([1, 2]), 0)),
    g('mode', lambda T, x: x.mode(1)[0], np.array([[3., 1, 3, 1, 2], [5, 5, 4, 4, 4]], 'float32')),
    v('mode indices', lambda s: s.T.tensor([[3., 1, 3, 1, 2], [5, 5, 4, 4, 4]]).mode()),
    v('mode int', lambda s: s.T.mode(s.T.tensor([1, 2, 2, 1, 3]))),
    v('mode keepdim dim 0', lambda s: s.T.tensor(I(6, 3, high=3)).mode(0, keepdim=True)),
    v('searchsorted', lambda s: s.T.searchsorted(s.T.tensor(SEQ), s.T.tensor([[3.0, 6.0], [0.0, 10.0]]))),
    v('searchsorted right', lambda s: s.T.searchsorted(s.T.tensor(SEQ), s.T.tensor([3.0, 9.0]),
                                                         right=True)),
    v('searchsorted side', lambda s: s.T.searchsorted(s.T.tensor(SEQ), s.T.tensor([3.0, 9.0]),
                                                        side='right')),
    v('searchsorted rows', lambda s: s.T.searchsorted(s.T.tensor([[1., 2, 3], [4, 5, 6]]),
                                                        s.T.tensor([[2.5, 0.0], [5.0, 7.0]]))),
    v('searchsorted scalar', lambda s: s.T.searchsorted(s.T.tensor(SEQ), 4.0)),
    v('searchsorted int32', lambda s: s.T.searchsorted(s.T.tensor([1, 3, 5]), s.T.tensor([4]),
                                                         out_int32=True)),
    v('searchsorted sorter', lambda s: s.T.searchsorted(s.T.tensor([3., 1, 2]), s.T.tensor([1.5, 2.5]),
                                                          sorter=s.T.tensor([1, 2, 0]))),
    v('searchsorted nan', lambda s: s.T.searchsorted(s.T.tensor([1., float('nan')]),
                                                       s.T.tensor([float('nan'), 5.0]))),
    e('searchsorted shapes', lambda T: T.searchsorted(T.tensor([[1., 2], [3, 4]]),
                                                      T.tensor([[1.], [2], [3]]))),
    e('searchsorted 0-d', lambda T: T.searchsorted(T.tensor(1.), T.tensor([1.]))),
    e('searchsorted side opposite', lambda T: T.searchsorted(T.tensor([1., 2]), T.tensor([1.]),
                                                             side='left', right=True)),
    e('searchsorted side name', lambda T: T.searchsorted(T.tensor([1., 2]), T.tensor([1.]),
                                                         side='middle')),
    v('bucketize', lambda s: s.T.bucketize(s.T.tensor([[3.0, 6.0], [9.0, 0.5]]), s.T.tensor(SEQ))),
    v('bucketize right', lambda s: s.T.bucketize(s.T.tensor([3, 6, 9]), s.T.tensor([1, 3, 5, 7]),
                                                   right=True)),
    v('bucketize scalar', lambda s: s.T.bucketize(2.5, s.T.tensor([1.0, 2.0, 3.0]))),
    e('bucketize 2-d', lambda T: T.bucketize(T.tensor([1]), T.tensor([[1, 2]]))),
    v('isin', lambda s: s.T.isin(s.T.tensor([[1, 2], [3, 4]]), s.T.tensor([2, 3, 7]))),
    v('isin invert', lambda s: s.T.isin(s.T.tensor([1., 2, 3]), s.T.tensor([2, 5]), invert=True)),
    v('isin scalar test', lambda s: s.T.isin(s.T.tensor([1, 2, 3]), 2)),
    v('isin scalar element', lambda s: s.T.isin(2, s.T.tensor([1, 2]))),
    v('isin nan', lambda s: s.T.isin(s.T.tensor([float('nan'), 1.0]),
                                     s.T.tensor([float('nan'), 1.0]))),
    v('unique_consecutive', lambda s: s.T.unique_consecutive(s.T.tensor([1, 1, 2, 2, 3, 1, 1, 2]))),
    v('unique_consecutive inverse counts', lambda s: s.T.tensor([1, 1, 2, 2, 3, 1, 1, 2])
      .unique_consecutive(return_inverse=True, return_counts=True)),
    v('unique_consecutive 2-d', lambda s: s.T.unique_consecutive(s.T.tensor([[1., 1], [2, 2]]),
                                                                 return_inverse=True)),
    v('unique_consecutive empty', lambda s: s.T.unique_consecutive(s.T.tensor([]),
                                                                   return_counts=True)),
]
