# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cases of test_torch_spellings.py for gnn-tensor-special.c and its
neighbours: erfc, erfinv, lgamma, digamma, logit, nan_to_num, hypot,
fmax / fmin and the in-place comparisons — values, dtypes, gradients, node
names and torch's messages."""

import numpy as np

from torch_spelling_composite import e
from torch_spelling_ops import A, P, U, g, v

INF_NAN = np.array([1.5, np.nan, np.inf, -np.inf, -2.0], dtype='float32')
WITH_NAN = np.array([1.0, np.nan, -3.0, np.nan, 0.5], dtype='float32')
OTHER_NAN = np.array([2.0, 4.0, np.nan, np.nan, 0.5], dtype='float32')
NEG = np.array([-2.5, -1.0, -0.5, 0.0, 0.3, 4.0, 12.5], dtype='float32')


def _inplace(T, x, name, *args):
    y = x * 1
    getattr(y, name)(*args)
    return y


CASES = []
for _n, _make in (('erfc', A), ('erfinv', U), ('lgamma', P), ('digamma', P)):
    CASES += [
        g(_n, lambda T, x, _n=_n: getattr(x, _n)(), _make(3, 4)),
        g(_n + '_', lambda T, x, _n=_n: _inplace(T, x, _n + '_'), _make(5)),
        v('torch.' + _n, lambda s, _n=_n: getattr(s.T, _n)(s.T.tensor(_make(6)))),
        v(_n + ' float64', lambda s, _n=_n: getattr(s.T.tensor(_make(4), dtype=s.T.float64), _n)()),
        v(_n + ' of int', lambda s, _n=_n: getattr(s.T, _n)(s.T.tensor([0, 1, 2]))),
    ]

CASES += [
    v('lgamma negative', lambda s: s.T.tensor(NEG).lgamma()),
    v('digamma negative', lambda s: s.T.tensor(NEG).digamma()),
    v('digamma large', lambda s: s.T.tensor([10.0, 11.0, 1e5, 1e18], dtype=s.T.float64).digamma()),
    v('erfinv edges', lambda s: s.T.tensor([-1.0, 1.0, 1.5, 0.0, 0.95, -0.999]).erfinv()),
    v('erfc large', lambda s: s.T.erfc(s.T.tensor([5.0, 10.0, -10.0], dtype=s.T.float64))),
    g('logit', lambda T, x: x.logit(), np.array([0.2, 0.5, 0.9], dtype='float32')),
    g('logit eps', lambda T, x: T.logit(x, eps=0.25), np.array([0.1, 0.5, 0.9, 0.3],
                                                                dtype='float32')),
    g('logit_', lambda T, x: _inplace(T, x, 'logit_', 0.1), np.array([0.05, 0.6], 'float32')),
    v('logit outside', lambda s: s.T.tensor([-0.5, 0.0, 1.0, 1.5]).logit()),
    v('logit int', lambda s: s.T.logit(s.T.tensor([0, 1]), 0.2)),
    g('nan_to_num', lambda T, x: x.nan_to_num(), INF_NAN),
    g('nan_to_num values', lambda T, x: T.nan_to_num(x, nan=-1.0, posinf=9.0, neginf=-9.0),
      INF_NAN),
    v('nan_to_num float64', lambda s: s.T.tensor(INF_NAN, dtype=s.T.float64).nan_to_num(
        posinf=1e300)),
    v('nan_to_num int', lambda s: s.T.nan_to_num(s.T.tensor([1, 2]))),
    v('nan_to_num_', lambda s: (lambda t: (t.nan_to_num_(nan=3.0), t)[1])(s.T.tensor(INF_NAN))),
    v('torch.nan_to_num_', lambda s: (lambda t: s.T.nan_to_num_(t, 1.0))(s.T.tensor(INF_NAN))),
    g('nan_to_num_ grad', lambda T, x: _inplace(T, x, 'nan_to_num_'), INF_NAN),
    g('hypot', lambda T, x, y: T.hypot(x, y), A(3, 4), A(4)),
    g('hypot_', lambda T, x, y: _inplace(T, x, 'hypot_', y), A(3), A(3, seed=2)),
    v('hypot float64', lambda s: s.T.tensor([3.0, 5.0], dtype=s.T.float64).hypot(
        s.T.tensor([4.0, 12.0], dtype=s.T.float64))),
    e('hypot int', lambda T: T.hypot(T.tensor([3]), T.tensor([4]))),
    g('fmax', lambda T, x, y: T.fmax(x, y), WITH_NAN, OTHER_NAN),
    g('fmin', lambda T, x, y: x.fmin(y), WITH_NAN, OTHER_NAN),
    g('fmax broadcast', lambda T, x, y: x.fmax(y), A(3, 4), A(4, seed=1)),
    v('fmax int', lambda s: s.T.fmax(s.T.tensor([1, 5, -2]), s.T.tensor([3, 2, -1]))),
    v('fmin mixed', lambda s: s.T.fmin(s.T.tensor([1, 5, -2]), s.T.tensor([0.5, 7.0, -1.0]))),
    v('fmax out', lambda s: (lambda o: (s.T.fmax(s.T.tensor(WITH_NAN), s.T.tensor(OTHER_NAN),
                                                 out=o), o)[1])(s.T.empty(0))),
]

# in-place comparisons: 1/0 in self's dtype, zero gradients, EqBackward0/1
for _n in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
    CASES += [
        v(_n + '_', lambda s, _n=_n: getattr(s.T.tensor([1.0, 2.0, 3.0]), _n + '_')(
            s.T.tensor([2.0, 2.0, 2.0]))),
        v(_n + '_ number int', lambda s, _n=_n: getattr(s.T.tensor([1, 2, 3]), _n + '_')(2)),
        g(_n + '_ tensor', lambda T, x, y, _n=_n: _inplace(T, x, _n + '_', y), A(4), A(4, seed=3)),
    ]
CASES += [
    g('eq_ number', lambda T, x: _inplace(T, x, 'eq_', 0.5), A(4)),
    v('ge_ broadcast', lambda s: s.T.tensor(A(2, 3)).ge_(s.T.tensor(A(3, seed=1)))),
    v('greater_', lambda s: s.T.tensor([1.0, 3.0]).greater_(2)),
    e('lt_ shape', lambda T: T.ones(3).lt_(T.ones(2, 3))),
]
