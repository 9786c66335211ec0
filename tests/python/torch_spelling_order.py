# SPDX-License-Identifier: LGPL-2.1-or-later
"""The order-statistic cases of test_torch_spellings.py (gnn-tensor-order.c:
kthvalue, median, nanmedian): values, positions, gradients, node names and
torch's messages (inputs without ties: torch's positions among equal values
are unspecified)."""

import numpy as np

from torch_spelling_composite import e
from torch_spelling_ops import A, g, v

NAN_ROWS = np.array([[3., 1, 2, 5], [4, np.nan, 0, 1], [np.nan, 7, np.nan, 6]], dtype='float32')

CASES = [
    g('kthvalue', lambda T, x: x.kthvalue(2, 1)[0], A(3, 5)),
    v('kthvalue indices', lambda s: s.T.kthvalue(s.T.tensor(A(3, 5)), 4, 1, keepdim=True)),
    g('kthvalue keepdim', lambda T, x: T.kthvalue(x, 1, dim=0, keepdim=True).values, A(4, 3)),
    g('median', lambda T, x: x.median(), A(3, 5)),
    g('median dim', lambda T, x: T.median(x, 1).values, A(3, 4)),
    v('median dim indices', lambda s: s.T.median(s.T.tensor(A(3, 4)), dim=0, keepdim=True)),
    g('nanmedian', lambda T, x: x.nanmedian(), A(4, 3)),
    g('nanmedian dim', lambda T, x: x.nanmedian(0).values, A(5, 2)),
    v('median nan', lambda s: s.T.tensor(NAN_ROWS).median()),
    v('median nan rows', lambda s: s.T.tensor(NAN_ROWS[:2]).median(1)),
    v('nanmedian nan rows', lambda s: s.T.tensor(NAN_ROWS).nanmedian(1)),
    v('nanmedian all', lambda s: s.T.tensor(NAN_ROWS).nanmedian()),
    v('kthvalue nan', lambda s: s.T.tensor(NAN_ROWS[1]).kthvalue(2)),
    v('median int', lambda s: s.T.tensor([[1, 5, 3]]).median(1)),
    v('median empty', lambda s: s.T.ones(0).median()),
    v('median 0-d', lambda s: s.T.tensor(2.5).median(0)),
    v('median out', lambda s: (lambda o: (s.T.median(s.T.tensor([[3., 1, 2]]), 1, out=o), o)[1])(
        (s.T.empty(0), s.T.empty(0, dtype=s.T.int64)))),
    e('kthvalue k', lambda T: T.ones(3, 2).kthvalue(5, 1)),
    e('median dim', lambda T: T.ones(3).median(2)),
]

# in-place forms recorded as the op's own node (gnn-tensor-inplace-result.c)
CASES += [
    g('tril_', lambda T, x: (x * 1).tril_(), A(3, 4)),
    g('triu_ diagonal', lambda T, x: (x * 2).triu_(1), A(2, 3, 3)),
    g('cumsum_', lambda T, x: (x + 0).cumsum_(1), A(3, 4)),
    v('cumsum_ int', lambda s: s.T.arange(5).cumsum_(0)),
    v('tril_ returns self', lambda s: (lambda t: t.tril_() is t)(s.T.ones(3, 3))),
    e('tril_ leaf', lambda T: T.ones(2, 2, requires_grad=True).tril_()),
    e('cumsum_ dim', lambda T: T.ones(2).cumsum_(3)),
]
