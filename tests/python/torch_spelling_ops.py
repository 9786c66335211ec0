# SPDX-License-Identifier: LGPL-2.1-or-later
"""The tensor-op cases of test_torch_spellings.py: torch 1.13's spellings of
the elementwise, reduction, scan, sort, index, shape, linear-algebra and
factory ops, written once against a namespace `s` (s.T is torch or Gnn) and
compared verbatim — values, dtypes, shapes, and through grad() the
gradients of every input and the name of the node (type(y.grad_fn))."""

import numpy as np


def A(*shape, dtype='float32', seed=0):
    rng = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    return rng.standard_normal(shape).astype(dtype)


def P(*shape, seed=0):
    """Positive values away from 0."""
    return np.abs(A(*shape, seed=seed)) + 0.5


def U(*shape, seed=0):
    """Values inside (-0.9, 0.9)."""
    return (np.tanh(A(*shape, seed=seed)) * 0.9).astype('float32')


def I(*shape, high=5, seed=0):
    rng = np.random.default_rng(seed + 11 * len(shape) + sum(shape))
    return rng.integers(0, high, size=shape).astype('int64')


# Gradient cases whose node is named after how torch happens to compute the
# op (split's one node with several outputs, indexing's IndexBackward0,
# t()'s TBackward0, 1.13's ReshapeAliasBackward0, einsum's last step...):
# values and gradients are compared, the node's name is not.
NAMES_DIFFER = {'rdiv number', 'std_mean', 'split', 'split sizes', 'chunk', 'unbind',
                'index list', 'index mask', 'index two lists', 'diag', 'trace', 't()',
                'reshape_as', 'flatten', 'einsum diag', 'einsum outer', 'setitem list grad'}


def grad(s, fn, *arrays, names=True):
    """fn(T, *inputs) on inputs requiring grad: [output, each input's
    gradient after backward of (output * fixed weights).sum(), the node's
    type name]. Non-float arrays are passed as tensors without grad."""
    T = s.T
    xs = [T.tensor(a, requires_grad=a.dtype.kind == 'f') if isinstance(a, np.ndarray) else a
          for a in arrays]
    out = fn(T, *xs)
    first = out[0] if isinstance(out, tuple) else out
    w = T.tensor(A(*tuple(first.shape), seed=99)) if first.dim() else T.tensor(0.75)
    (first * w).sum().backward()
    return ([first] + [x.grad if hasattr(x, 'grad') else None for x in xs] +
            ([type(first.grad_fn).__name__] if names else []))


def g(name, fn, *arrays):
    """A gradient case."""
    return ('grad ' + name, lambda s: grad(s, fn, *arrays, names=name not in NAMES_DIFFER),
            None)


def v(name, fn):
    """A value case."""
    return (name, fn, None)


def _inplace_grad(T, x, op):
    y = x * 1
    getattr(y, op)()
    return y


UNARY = ['sin', 'cos', 'tan', 'atan', 'sinh', 'cosh', 'tanh', 'sigmoid', 'exp', 'expm1',
         'exp2', 'erf', 'neg', 'abs', 'square', 'sign', 'floor', 'ceil', 'trunc', 'frac',
         'round', 'relu', 'asinh']
POSITIVE = ['log', 'log2', 'log10', 'log1p', 'sqrt', 'rsqrt', 'reciprocal', 'acosh']
BOUNDED = ['asin', 'acos', 'atanh']

CASES = []

# --- unary math: values and gradients (method, function, in-place) ---------------------------
for _n in UNARY:
    CASES.append(g(_n, lambda T, x, _n=_n: getattr(x, _n)(), A(3, 4)))
    CASES.append(v('torch.' + _n, lambda s, _n=_n: getattr(s.T, _n)(s.T.tensor(A(5)))))
for _n in POSITIVE:
    _a = P(3, 4) + (1.0 if _n == 'acosh' else 0.0)
    CASES.append(g(_n, lambda T, x, _n=_n: getattr(x, _n)(), _a))
    CASES.append(v('torch.' + _n, lambda s, _n=_n: getattr(s.T, _n)(s.T.tensor(P(5) + 1))))
for _n in BOUNDED:
    CASES.append(g(_n, lambda T, x, _n=_n: getattr(x, _n)(), U(3, 4)))
    CASES.append(v('torch.' + _n, lambda s, _n=_n: getattr(s.T, _n)(s.T.tensor(U(5)))))
for _n in ['sin', 'exp', 'sqrt', 'log', 'tanh', 'sigmoid', 'floor', 'neg', 'abs', 'reciprocal']:
    CASES.append(g(_n + '_ in place', lambda T, x, _n=_n: _inplace_grad(T, x, _n + '_'), P(4)))
for _alias in ['absolute', 'negative', 'arcsin', 'arctan', 'fix', 'arccos']:
    CASES.append(v('alias ' + _alias, lambda s, _a=_alias: getattr(s.T, _a)(s.T.tensor(U(4)))))

CASES += [
    v('round decimals', lambda s: s.T.tensor([1.2345, -2.5, 0.5, 1.5]).round(decimals=2)),
    v('round halves even', lambda s: s.T.round(s.T.tensor([0.5, 1.5, 2.5, -0.5]))),
    v('sign int', lambda s: s.T.tensor([-3, 0, 2]).sign()),
    v('abs int', lambda s: s.T.tensor([-3, 0, 2]).abs()),
    v('neg int8', lambda s: s.T.tensor([-3, 0, 2], dtype=s.T.int8).neg()),
    v('sqrt of int', lambda s: s.T.tensor([4, 9]).sqrt()),
    v('exp of int', lambda s: s.T.exp(s.T.tensor([0, 1]))),
    v('sin float64', lambda s: s.T.tensor(A(3), dtype=s.T.float64).sin()),
    v('isnan isinf isfinite', lambda s: (lambda t: [t.isnan(), t.isinf(), t.isfinite()])(
        s.T.tensor([1.0, float('nan'), float('inf'), -float('inf')]))),
    v('nan_to_num style', lambda s: (lambda t: t.masked_fill(t.isnan(), 0.0))(
        s.T.tensor([1.0, float('nan')]))),
    v('torch.square int', lambda s: s.T.square(s.T.tensor([2, -3]))),
]

# --- binary ops and type promotion ---------------------------------------------------------
CASES += [
    g('add broadcast', lambda T, x, y: x + y, A(3, 4), A(4)),
    g('sub alpha', lambda T, x, y: T.sub(x, y, alpha=2), A(3, 4), A(3, 1)),
    g('add alpha', lambda T, x, y: x.add(y, alpha=0.5), A(2, 3), A(2, 3)),
    g('mul broadcast', lambda T, x, y: x * y, A(2, 1, 3), A(4, 1)),
    g('div', lambda T, x, y: x / y, A(3, 4), P(4)),
    g('rdiv number', lambda T, x: 2.0 / x, P(3)),
    g('rsub number', lambda T, x: 1 - x, A(3)),
    g('pow number', lambda T, x: x ** 3, A(3, 2)),
    g('pow tensor', lambda T, x, y: x.pow(y), P(3, 2), A(2)),
    g('rpow number', lambda T, x: 2 ** x, A(4)),
    g('pow fractional', lambda T, x: x ** 0.5, P(4)),
    g('atan2', lambda T, x, y: T.atan2(x, y), A(3), A(3)),
    g('maximum', lambda T, x, y: T.maximum(x, y), A(3, 4), A(4)),
    g('minimum', lambda T, x, y: T.minimum(x, y), A(3, 4), A(3, 4, seed=1)),
    g('max elementwise', lambda T, x, y: x.max(y), A(5), A(5, seed=1)),
    g('remainder', lambda T, x: x.remainder(1.5), A(6)),
    g('fmod', lambda T, x: T.fmod(x, 0.7), A(6)),
    g('div floor', lambda T, x, y: x.div(y, rounding_mode='floor'), A(4), P(4)),
    g('lerp scalar', lambda T, x, y: T.lerp(x, y, 0.3), A(3), A(3, seed=1)),
    g('lerp tensor weight', lambda T, x, y, w: x.lerp(y, w), A(3), A(3, seed=1), U(3)),
    g('addcmul', lambda T, x, a, b: T.addcmul(x, a, b, value=0.5), A(3), A(3, seed=1),
      A(3, seed=2)),
    g('addcdiv', lambda T, x, a, b: x.addcdiv(a, b, value=2), A(3), A(3, seed=1), P(3)),
    g('clamp', lambda T, x: x.clamp(-0.5, 0.5), A(8)),
    g('clamp min only', lambda T, x: x.clamp(min=0.1), A(8)),
    g('clamp tensors', lambda T, x, lo: x.clamp(min=lo), A(6), A(6, seed=3)),
    g('clip', lambda T, x: T.clip(x, max=0.2), A(6)),
    g('where', lambda T, x, y: T.where(x > 0, x, y), A(5), A(5, seed=1)),
    g('where number', lambda T, x: T.where(x > 0, x, 0.0), A(5)),
    g('Tensor.where', lambda T, x, y: x.where(x > 0, y), A(5), A(5, seed=1)),
    g('masked_fill', lambda T, x: x.masked_fill(x < 0, 0.0), A(6)),
    v('int + float', lambda s: s.T.tensor([1, 2]) + 1.5),
    v('int * int', lambda s: s.T.tensor([3, 4]) * 2),
    v('int64 + int32', lambda s: s.T.tensor([1], dtype=s.T.int64) + s.T.tensor([2],
                                                                               dtype=s.T.int32)),
    v('uint8 + int8', lambda s: s.T.tensor([200], dtype=s.T.uint8) + s.T.tensor(
        [1], dtype=s.T.int8)),
    v('float32 + float64 0-d', lambda s: s.T.ones(2) + s.T.tensor(1.0, dtype=s.T.float64)),
    v('float32 + float64', lambda s: (s.T.ones(2) + s.T.ones(2, dtype=s.T.float64)).dtype),
    v('int + 0-d float', lambda s: (s.T.tensor([1, 2]) + s.T.tensor(0.5)).dtype),
    v('bool + bool', lambda s: s.T.tensor([True]) + s.T.tensor([True])),
    v('bool * int', lambda s: s.T.tensor([True, False]) * 3),
    v('half + float number', lambda s: (s.T.ones(2, dtype=s.T.float16) + 1.5).dtype),
    v('int8 * 1000', lambda s: s.T.tensor([3], dtype=s.T.int8) * 100),
    v('int / int', lambda s: s.T.tensor([7, -7]) / 2),
    v('int // int', lambda s: s.T.tensor([7, -7]) // 2),
    v('float // float', lambda s: s.T.tensor([7.5, -7.5]) // 2),
    v('int % int', lambda s: s.T.tensor([7, -7]) % 3),
    v('float % neg', lambda s: s.T.tensor([7.5, -7.5]) % -2),
    v('fmod int', lambda s: s.T.fmod(s.T.tensor([7, -7]), 3)),
    v('div trunc', lambda s: s.T.div(s.T.tensor([7, -7]), 2, rounding_mode='trunc')),
    v('div floor int', lambda s: s.T.div(s.T.tensor([7, -7]), 2, rounding_mode='floor')),
    v('floor_divide', lambda s: s.T.floor_divide(s.T.tensor([5.0, -5.0]), 2)),
    v('true_divide', lambda s: s.T.true_divide(s.T.tensor([5, 6]), 4)),
    v('int ** int', lambda s: s.T.tensor([2, 3]) ** 2),
    v('int ** neg float', lambda s: s.T.tensor([2, 4]) ** -1.0),
    v('number ** int tensor', lambda s: 2 ** s.T.tensor([1, 2, 3])),
    v('pow tensor tensor int', lambda s: s.T.pow(s.T.tensor([2, 3]), s.T.tensor([3, 2]))),
    v('result_type', lambda s: [s.T.result_type(s.T.tensor([1]), 1.0),
                                s.T.result_type(s.T.tensor([1], dtype=s.T.uint8), 1),
                                s.T.result_type(s.T.tensor(1.0, dtype=s.T.float64),
                                                s.T.tensor([1], dtype=s.T.int32))]),
    v('promote_types', lambda s: [s.T.promote_types(s.T.int32, s.T.float16),
                                  s.T.promote_types(s.T.uint8, s.T.int8),
                                  s.T.promote_types(s.T.bool, s.T.int16)]),
    v('can_cast', lambda s: [s.T.can_cast(s.T.float32, s.T.int32),
                             s.T.can_cast(s.T.int32, s.T.float32)]),
    v('bitwise ops', lambda s: (lambda a, b: [a & b, a | b, a ^ b, ~a])(
        s.T.tensor([12, 10]), s.T.tensor([10, 6]))),
    v('bitwise bool', lambda s: (lambda a, b: [a & b, a | b, a ^ b, ~a])(
        s.T.tensor([True, False]), s.T.tensor([True, True]))),
    v('bitwise_and fn', lambda s: s.T.bitwise_and(s.T.tensor([5]), 3)),
    v('logical ops', lambda s: (lambda a, b: [s.T.logical_and(a, b), s.T.logical_or(a, b),
                                              s.T.logical_xor(a, b), s.T.logical_not(a)])(
        s.T.tensor([0.0, 1.5, -2.0]), s.T.tensor([1, 0, 3]))),
    v('comparisons int/float', lambda s: [s.T.tensor([1, 2]) < 1.5, s.T.tensor([1, 2]) == 2.0]),
    v('greater less', lambda s: [s.T.greater(s.T.tensor([1, 3]), 2), s.T.less_equal(
        s.T.tensor([1, 3]), 1), s.T.not_equal(s.T.tensor([1, 3]), 3)]),
    v('eq fn', lambda s: s.T.eq(s.T.tensor([1, 2]), s.T.tensor([1, 3]))),
    v('maximum int', lambda s: s.T.maximum(s.T.tensor([1, 5]), s.T.tensor([3, 2]))),
    v('maximum nan', lambda s: s.T.maximum(s.T.tensor([1.0, float('nan')]), s.T.tensor([3.0, 2.0]))),
    v('clamp int', lambda s: s.T.tensor([-5, 0, 5]).clamp(-1, 2)),
    v('clamp int float bound', lambda s: s.T.tensor([-5, 0, 5]).clamp(max=2.5)),
    v('clamp_ in place', lambda s: s.T.tensor(A(5)).clamp_(-0.1, 0.1)),
    v('clamp_min clamp_max', lambda s: [s.T.clamp_min(s.T.tensor(A(4)), 0),
                                        s.T.clamp_max(s.T.tensor(A(4)), 0)]),
    v('masked_fill_ tensor value', lambda s: s.T.zeros(3).masked_fill_(
        s.T.tensor([True, False, True]), s.T.tensor(2.5))),
    v('masked_fill broadcast', lambda s: s.T.zeros(2, 3).masked_fill(
        s.T.tensor([True, False, True]), 1.0)),
    v('where int and float', lambda s: s.T.where(s.T.tensor([True, False]), s.T.tensor([1, 2]),
                                                  s.T.tensor([0.5, 0.5]))),
    v('where one arg', lambda s: s.T.where(s.T.tensor([[0, 1], [1, 1]]))),
    v('add_ alpha', lambda s: s.T.ones(3).add_(s.T.tensor([1.0, 2.0, 3.0]), alpha=2)),
    v('sub_ number', lambda s: s.T.ones(3).sub_(0.5)),
    v('mul_ int by float', lambda s: s.T.ones(2).mul_(2)),
    v('div_', lambda s: s.T.ones(2).div_(4)),
    v('pow_', lambda s: s.T.tensor([2.0, 3.0]).pow_(2)),
    v('lerp_', lambda s: s.T.zeros(3).lerp_(s.T.ones(3), 0.25)),
    v('addcmul_', lambda s: s.T.zeros(2).addcmul_(s.T.tensor([1.0, 2.0]),
                                                   s.T.tensor([3.0, 4.0]), value=2)),
    v('addcdiv_', lambda s: s.T.zeros(2).addcdiv_(s.T.tensor([1.0, 2.0]),
                                                   s.T.tensor([4.0, 4.0]))),
    v('remainder_', lambda s: s.T.tensor([5.0, -5.0]).remainder_(3)),
    v('bitwise_and_', lambda s: s.T.tensor([7, 12]).bitwise_and_(s.T.tensor([3, 4]))),
    v('iadd int += float tensor 0-d', lambda s: (lambda t: (t.__iadd__(s.T.tensor(2)), t)[1])(
        s.T.tensor([1.5]))),
    v('isclose', lambda s: s.T.isclose(s.T.tensor([1.0, 1.001, float('nan')]),
                                       s.T.tensor([1.0, 1.0, float('nan')]))),
    v('isclose equal_nan', lambda s: s.T.isclose(s.T.tensor([float('nan')]),
                                                 s.T.tensor([float('nan')]), equal_nan=True)),
    v('allclose tol', lambda s: s.T.allclose(s.T.tensor([1.0]), s.T.tensor([1.1]), atol=0.2)),
    v('allclose equal_nan', lambda s: s.T.allclose(s.T.tensor([float('nan')]),
                                                   s.T.tensor([float('nan')]), equal_nan=True)),
    v('out= add', lambda s: (lambda o: (s.T.add(s.T.ones(2), 1, out=o), o)[1])(s.T.empty(2))),
    v('out= sin', lambda s: (lambda o: (s.T.sin(s.T.zeros(3), out=o), o)[1])(s.T.empty(3))),
    v('out= cast', lambda s: (lambda o: (s.T.mul(s.T.tensor([1, 2]), 2, out=o), o)[1])(
        s.T.empty(2, dtype=s.T.float64))),
    v('out= resize', lambda s: (lambda o: (s.T.exp(s.T.zeros(2, 2), out=o), o)[1])(
        s.T.empty(0))),
]

# --- reductions ------------------------------------------------------------------------------
CASES += [
    g('sum', lambda T, x: x.sum(), A(3, 4)),
    g('sum dims keepdim', lambda T, x: x.sum((0, 2), keepdim=True), A(2, 3, 4)),
    g('mean dim', lambda T, x: x.mean(-1), A(3, 4)),
    g('prod', lambda T, x: x.prod(), A(5)),
    g('prod dim', lambda T, x: T.prod(x, 1), A(3, 4)),
    g('amax', lambda T, x: x.amax(1), A(3, 4)),
    g('amin dims', lambda T, x: T.amin(x, (0, 1)), A(3, 4)),
    g('max all', lambda T, x: x.max(), A(3, 4)),
    g('max dim values', lambda T, x: x.max(1).values, A(3, 4)),
    g('min dim keepdim', lambda T, x: x.min(0, keepdim=True)[0], A(3, 4)),
    g('var', lambda T, x: x.var(), A(3, 4)),
    g('var dim unbiased=False', lambda T, x: x.var(1, unbiased=False), A(3, 4)),
    g('std dim keepdim', lambda T, x: x.std(0, keepdim=True), A(3, 4)),
    g('std correction', lambda T, x: T.std(x, dim=1, correction=0), A(3, 4)),
    g('var_mean', lambda T, x: T.var_mean(x, 1)[0] + T.var_mean(x, 1)[1], A(3, 4)),
    g('std_mean', lambda T, x: T.std_mean(x)[0], A(3, 4)),
    g('logsumexp', lambda T, x: x.logsumexp(1), A(3, 4)),
    g('logsumexp keepdim', lambda T, x: T.logsumexp(x, dim=0, keepdim=True), A(3, 4)),
    g('norm', lambda T, x: x.norm(), A(3, 4)),
    g('norm p=1 dim', lambda T, x: x.norm(p=1, dim=1), A(3, 4)),
    g('norm p=3', lambda T, x: T.norm(x, 3), A(6)),
    g('linalg.vector_norm', lambda T, x: T.linalg.vector_norm(x, dim=1), A(3, 4)),
    g('linalg.vector_norm inf', lambda T, x: T.linalg.vector_norm(x, ord=float('inf')), A(6)),
    g('linalg.norm', lambda T, x: T.linalg.norm(x), A(5)),
    g('cumsum', lambda T, x: x.cumsum(1), A(3, 4)),
    g('cumsum dim 0', lambda T, x: T.cumsum(x, dim=0), A(3, 4)),
    g('cumprod', lambda T, x: x.cumprod(0), A(5)),
    g('cumprod dim', lambda T, x: T.cumprod(x, 1), A(2, 4)),
    g('softmax dim', lambda T, x: x.softmax(1), A(2, 5)),
    g('log_softmax dim', lambda T, x: x.log_softmax(-1), A(2, 5)),
    v('sum int', lambda s: s.T.tensor([1, 2, 3]).sum()),
    v('sum bool', lambda s: s.T.tensor([True, True, False]).sum()),
    v('sum dtype', lambda s: s.T.tensor([1, 2]).sum(dtype=s.T.float64)),
    v('sum int8', lambda s: s.T.tensor([100, 100], dtype=s.T.int8).sum()),
    v('mean dtype', lambda s: s.T.tensor([1, 2]).mean(dtype=s.T.float32)),
    v('prod int', lambda s: s.T.tensor([2, 3, 4]).prod()),
    v('prod bool', lambda s: s.T.tensor([True, True]).prod()),
    v('max int', lambda s: s.T.tensor([3, 9, 2]).max()),
    v('max dim tuple', lambda s: tuple(s.T.tensor([[1, 5], [7, 2]]).max(0))),
    v('max namedtuple', lambda s: (lambda r: (r.values, r.indices))(
        s.T.max(s.T.tensor(A(3, 4)), dim=1))),
    v('min dim keepdim', lambda s: s.T.min(s.T.tensor(A(3, 4)), 1, keepdim=True)),
    v('max ties first', lambda s: s.T.tensor([1.0, 3.0, 3.0]).max(0).indices),
    v('max nan', lambda s: s.T.tensor([1.0, float('nan'), 3.0]).max()),
    v('argmax keepdim', lambda s: s.T.tensor(A(3, 4)).argmax(1, keepdim=True)),
    v('argmin', lambda s: s.T.argmin(s.T.tensor(A(3, 4)), dim=0)),
    v('argmin all', lambda s: s.T.tensor(A(3, 4)).argmin()),
    v('all any', lambda s: [s.T.tensor([1, 0]).all(), s.T.tensor([1, 0]).any()]),
    v('all dim', lambda s: s.T.tensor([[True, False], [True, True]]).all(1)),
    v('any dim keepdim', lambda s: s.T.any(s.T.tensor([[0.0, 0.0], [0.0, 1.0]]), 0,
                                            keepdim=True)),
    v('all uint8', lambda s: s.T.tensor([1, 2], dtype=s.T.uint8).all()),
    v('count_nonzero', lambda s: s.T.count_nonzero(s.T.tensor([[0, 1], [2, 0]]))),
    v('count_nonzero dim', lambda s: s.T.tensor([[0, 1], [2, 3]]).count_nonzero(1)),
    v('var int', lambda s: s.T.tensor([1.0, 2.0, 4.0]).var()),
    v('std single', lambda s: s.T.tensor([1.0]).std()),
    v('var_mean tuple', lambda s: s.T.var_mean(s.T.tensor(A(3, 4)), dim=0, unbiased=False)),
    v('logsumexp inf', lambda s: s.T.tensor([-float('inf'), -float('inf')]).logsumexp(0)),
    v('norm dtype', lambda s: s.T.tensor([3.0, 4.0], dtype=s.T.float64).norm()),
    v('cumsum int', lambda s: s.T.tensor([1, 2, 3]).cumsum(0)),
    v('cumsum bool', lambda s: s.T.tensor([True, True]).cumsum(0)),
    v('cumsum dtype', lambda s: s.T.tensor([1, 2]).cumsum(0, dtype=s.T.float32)),
    v('cumprod int', lambda s: s.T.cumprod(s.T.tensor([1, 2, 3]), 0)),
    v('out= sum', lambda s: (lambda o: (s.T.sum(s.T.ones(2, 3), 1, out=o), o)[1])(s.T.empty(2))),
    v('out= cumsum', lambda s: (lambda o: (s.T.cumsum(s.T.ones(3), 0, out=o), o)[1])(
        s.T.empty(3))),
    v('mean of empty dim', lambda s: s.T.zeros(0, 3).sum(0)),
]

# --- sorting and selection -------------------------------------------------------------
CASES += [
    g('sort values', lambda T, x: x.sort(1).values, A(3, 5)),
    g('sort descending', lambda T, x: T.sort(x, dim=0, descending=True)[0], A(4, 3)),
    g('topk', lambda T, x: x.topk(2).values, A(3, 5)),
    g('topk smallest dim 0', lambda T, x: T.topk(x, 2, dim=0, largest=False)[0], A(4, 3)),
    g('msort', lambda T, x: T.msort(x), A(4, 2)),
    g('kthvalue style: sort then select', lambda T, x: x.sort()[0][..., 1], A(2, 4)),
    v('sort indices', lambda s: s.T.tensor([3.0, 1.0, 2.0]).sort().indices),
    v('sort stable', lambda s: s.T.sort(s.T.tensor([1, 0, 1, 0, 1]), stable=True)),
    v('sort stable descending', lambda s: s.T.tensor([1, 0, 1, 0]).sort(descending=True,
                                                                        stable=True)),
    v('sort nan last', lambda s: s.T.tensor([2.0, float('nan'), 1.0]).sort()),
    v('sort nan first descending', lambda s: s.T.tensor([2.0, float('nan'), 1.0]).sort(
        descending=True)),
    v('sort int', lambda s: s.T.tensor([[3, 1], [0, 2]]).sort(0)),
    v('sort namedtuple', lambda s: (lambda r: [r.values, r.indices])(s.T.sort(
        s.T.tensor([2.0, 1.0])))),
    v('argsort', lambda s: s.T.tensor([3.0, 1.0, 2.0]).argsort()),
    v('argsort descending', lambda s: s.T.argsort(s.T.tensor([[3, 1, 2]]), dim=1,
                                                  descending=True)),
    v('topk indices', lambda s: s.T.tensor(A(8)).topk(3).indices),
    v('topk namedtuple', lambda s: (lambda r: [r.values, r.indices])(
        s.T.topk(s.T.tensor(A(6)), 2, largest=False))),
    v('topk int', lambda s: s.T.tensor([4, 1, 9, 3]).topk(2)),
    v('unique', lambda s: s.T.unique(s.T.tensor([3, 1, 3, 2, 1]))),
    v('unique inverse counts', lambda s: s.T.unique(s.T.tensor([3, 1, 3, 2, 1]),
                                                    return_inverse=True, return_counts=True)),
    v('unique method float', lambda s: s.T.tensor([2.0, 0.5, 2.0]).unique()),
    v('unique 2d', lambda s: s.T.tensor([[1, 2], [2, 3]]).unique(return_counts=True)),
    v('bincount', lambda s: s.T.bincount(s.T.tensor([0, 1, 1, 4]))),
    v('bincount minlength', lambda s: s.T.tensor([1, 1]).bincount(minlength=4)),
    v('bincount weights', lambda s: s.T.bincount(s.T.tensor([0, 1, 1]),
                                                 weights=s.T.tensor([0.5, 1.0, 2.0]))),
    v('histc', lambda s: s.T.histc(s.T.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=4)),
    v('histc auto range', lambda s: s.T.tensor([1.0, 2.0, 1.0, 4.0]).histc(bins=3)),
    v('nonzero', lambda s: s.T.nonzero(s.T.tensor([[0, 1], [1, 1]]))),
    v('nonzero as_tuple', lambda s: s.T.tensor([0, 2, 0, 3]).nonzero(as_tuple=True)),
    v('masked_select', lambda s: s.T.masked_select(s.T.tensor(A(2, 3)),
                                                   s.T.tensor(A(2, 3)) > 0)),
    v('masked_select broadcast', lambda s: s.T.tensor(A(2, 3)).masked_select(
        s.T.tensor([True, False, True]))),
    g('masked_select grad', lambda T, x: x.masked_select(x > 0), A(6)),
]

# --- gather, scatter and index ops --------------------------------------------------------
CASES += [
    g('gather', lambda T, x: x.gather(1, T.tensor([[0, 0], [1, 0], [2, 1]])), A(3, 3)),
    g('gather dim 0', lambda T, x: T.gather(x, 0, T.tensor([[1, 0, 1]])), A(2, 3)),
    g('scatter src', lambda T, x, src: x.scatter(0, T.tensor([[1, 0, 1]]), src), A(2, 3),
      A(1, 3)),
    g('scatter value', lambda T, x: x.scatter(1, T.tensor([[0], [2]]), 9.0), A(2, 3)),
    g('scatter_add', lambda T, x, src: x.scatter_add(1, T.tensor([[0, 0, 2], [1, 1, 1]]), src),
      A(2, 3), A(2, 3, seed=1)),
    g('torch.scatter_add', lambda T, x, src: T.scatter_add(x, 0, T.tensor([[1, 1], [0, 1]]),
                                                           src), A(3, 2), A(2, 2)),
    g('index_select', lambda T, x: x.index_select(0, T.tensor([2, 0, 2])), A(3, 4)),
    g('index_add', lambda T, x, src: x.index_add(0, T.tensor([0, 2, 0]), src), A(3, 2),
      A(3, 2, seed=1)),
    g('index_add alpha', lambda T, x, src: T.index_add(x, 1, T.tensor([1, 0]), src, alpha=2),
      A(2, 3), A(2, 2)),
    g('index_copy', lambda T, x, src: x.index_copy(0, T.tensor([2, 0]), src), A(3, 2),
      A(2, 2, seed=4)),
    g('index_fill', lambda T, x: x.index_fill(1, T.tensor([0, 2]), -1.0), A(2, 3)),
    g('take_along_dim style gather', lambda T, x: x.gather(0, x.argsort(0)), A(3, 2)),
    v('scatter_ in place', lambda s: s.T.zeros(3, 3).scatter_(0, s.T.tensor([[0, 1, 2]]),
                                                              s.T.ones(1, 3))),
    v('scatter_ reduce add', lambda s: s.T.ones(4).scatter_(0, s.T.tensor([0, 0, 3]),
                                                            s.T.ones(3), reduce='add')),
    v('scatter_add_', lambda s: s.T.zeros(5).scatter_add_(0, s.T.tensor([0, 1, 1, 4]),
                                                          s.T.ones(4))),
    v('scatter int', lambda s: s.T.zeros(3, dtype=s.T.int64).scatter(
        0, s.T.tensor([2]), s.T.tensor([7]))),
    v('index_add_', lambda s: s.T.zeros(3).index_add_(0, s.T.tensor([0, 0, 2]),
                                                      s.T.tensor([1.0, 2.0, 3.0]))),
    v('index_fill_', lambda s: s.T.zeros(2, 3).index_fill_(1, s.T.tensor([1]), 5)),
    v('index_copy_', lambda s: s.T.zeros(3).index_copy_(0, s.T.tensor([2, 0]),
                                                        s.T.tensor([4.0, 5.0]))),
    v('gather int', lambda s: s.T.tensor([[1, 2], [3, 4]]).gather(1, s.T.tensor([[1], [0]]))),
    v('onehot via scatter', lambda s: s.T.zeros(3, 4).scatter_(1, s.T.tensor([[1], [3], [0]]),
                                                                1.0)),
]

# --- shapes, views and rearrangements ---------------------------------------------------------
CASES += [
    g('flip', lambda T, x: x.flip(0), A(3, 2)),
    g('flip dims', lambda T, x: T.flip(x, [0, 1]), A(3, 2)),
    g('fliplr flipud', lambda T, x: T.fliplr(x) + T.flipud(x), A(2, 2)),
    g('roll', lambda T, x: x.roll(1, 0), A(4, 2)),
    g('roll dims', lambda T, x: T.roll(x, (1, -1), (0, 1)), A(3, 3)),
    g('roll flat', lambda T, x: x.roll(2), A(2, 3)),
    g('tril', lambda T, x: x.tril(), A(3, 3)),
    g('triu diagonal', lambda T, x: T.triu(x, 1), A(3, 4)),
    g('tril negative', lambda T, x: x.tril(-1), A(4, 3)),
    g('repeat', lambda T, x: x.repeat(2, 3), A(2, 2)),
    g('repeat new dims', lambda T, x: x.repeat(2, 1, 2), A(3)),
    g('expand', lambda T, x: x.expand(3, 4), A(1, 4)),
    g('expand -1', lambda T, x: x.expand(2, -1, 3), A(4, 1)),
    g('expand_as', lambda T, x: x.expand_as(T.zeros(2, 3)), A(3)),
    g('split', lambda T, x: x.split(2)[1], A(5, 2)),
    g('split sizes', lambda T, x: T.split(x, [1, 3], dim=1)[1], A(2, 4)),
    g('chunk', lambda T, x: x.chunk(3, 1)[2], A(2, 5)),
    g('unbind', lambda T, x: x.unbind(1)[1], A(2, 3)),
    g('stack unbind', lambda T, x: T.stack(T.unbind(x), 1), A(2, 3)),
    g('cat', lambda T, x, y: T.cat([x, y], 0), A(2, 3), A(1, 3)),
    g('narrow', lambda T, x: x.narrow(1, 1, 2), A(2, 4)),
    g('select', lambda T, x: x.select(0, 1), A(3, 2)),
    g('index', lambda T, x: x[1:, ::2], A(3, 4)),
    g('index list', lambda T, x: x[[0, 2, 2]], A(3, 2)),
    g('index mask', lambda T, x: x[x > 0], A(3, 2)),
    g('index two lists', lambda T, x: x[[0, 1], [1, 0]], A(2, 2)),
    g('diag', lambda T, x: T.diag(x), A(3, 3)),
    g('diag vector', lambda T, x: x.diag(1), A(3)),
    g('diagonal', lambda T, x: x.diagonal(), A(3, 4)),
    g('diagonal offset dims', lambda T, x: T.diagonal(x, 1, 1, 2), A(2, 3, 3)),
    g('trace', lambda T, x: x.trace(), A(3, 3)),
    g('movedim', lambda T, x: x.movedim(0, 2), A(2, 3, 4)),
    g('swapaxes', lambda T, x: T.swapaxes(x, 0, 1), A(2, 3)),
    g('permute', lambda T, x: x.permute(1, 0, 2), A(2, 3, 2)),
    g('transpose', lambda T, x: x.transpose(-1, -2), A(2, 3)),
    g('t()', lambda T, x: x.t(), A(2, 3)),
    g('squeeze dim', lambda T, x: x.squeeze(1), A(3, 1, 2)),
    g('unsqueeze', lambda T, x: x.unsqueeze(-1), A(3)),
    g('view_as', lambda T, x: x.view_as(T.zeros(3, 2)), A(2, 3)),
    g('reshape_as', lambda T, x: x.reshape_as(T.zeros(6)), A(2, 3)),
    g('flatten', lambda T, x: x.flatten(), A(2, 3)),
    g('unflatten', lambda T, x: x.unflatten(1, (2, 2)), A(3, 4)),
    g('contiguous of t', lambda T, x: x.t().contiguous(), A(2, 3)),
    v('squeeze_ in place', lambda s: s.T.zeros(1, 3, 1).squeeze_().shape),
    v('unsqueeze_', lambda s: s.T.zeros(3).unsqueeze_(0).shape),
    v('transpose_', lambda s: s.T.tensor(A(2, 3)).transpose_(0, 1)),
    v('t_', lambda s: s.T.tensor(A(2, 3)).t_()),
    v('squeeze dims none', lambda s: s.T.squeeze(s.T.zeros(1, 2, 1)).shape),
    v('split uneven', lambda s: s.T.arange(7).split(3)),
    v('chunk uneven', lambda s: s.T.arange(5).chunk(2)),
    v('chunk more than size', lambda s: s.T.arange(3).chunk(5)),
    v('tensor_split style split sizes', lambda s: s.T.arange(6).split([2, 4])),
    v('unbind tuple', lambda s: s.T.arange(4).view(2, 2).unbind()),
    v('repeat ints', lambda s: s.T.tensor([1, 2]).repeat(3)),
    v('repeat_interleave style', lambda s: s.T.tensor([1, 2]).unsqueeze(1).repeat(1, 2).flatten()),
    v('tril int', lambda s: s.T.ones(3, 3, dtype=s.T.int64).tril()),
    v('triu batched', lambda s: s.T.ones(2, 3, 3).triu(1)),
    v('roll neg', lambda s: s.T.arange(5).roll(-2)),
    v('flip int', lambda s: s.T.arange(6).view(2, 3).flip(1)),
    v('diag_embed style diag', lambda s: s.T.diag(s.T.tensor([1, 2]))),
    v('trace int', lambda s: s.T.arange(9).view(3, 3).trace()),
    v('moveaxis', lambda s: s.T.moveaxis(s.T.zeros(2, 3, 4), 1, 0).shape),
    v('movedim lists', lambda s: s.T.zeros(2, 3, 4).movedim((0, 1), (2, 0)).shape),
    v('swapdims', lambda s: s.T.swapdims(s.T.zeros(2, 3), 0, 1).shape),
    v('view dtype shape', lambda s: s.T.arange(6.0).view(3, -1)),
    v('flatten range', lambda s: s.T.zeros(2, 3, 4, 5).flatten(1, 2).shape),
    v('narrow negative', lambda s: s.T.arange(5).narrow(0, -3, 2)),
    v('new_zeros', lambda s: s.T.ones(2, dtype=s.T.float64).new_zeros(3)),
    v('new_ones tuple', lambda s: s.T.ones(2, dtype=s.T.int64).new_ones((2, 2))),
    v('new_full', lambda s: s.T.ones(1).new_full((2,), 7)),
    v('new_tensor', lambda s: s.T.ones(1, dtype=s.T.float64).new_tensor([1, 2])),
    v('new_empty shape', lambda s: s.T.ones(1).new_empty(2, 3).shape),
    v('new_zeros dtype', lambda s: s.T.ones(1).new_zeros(2, dtype=s.T.int32)),
]

# --- products and einsum -------------------------------------------------------------------
CASES += [
    g('mm', lambda T, a, b: T.mm(a, b), A(2, 3), A(3, 4)),
    g('mm method', lambda T, a, b: a.mm(b), A(3, 3), A(3, 2)),
    g('bmm', lambda T, a, b: T.bmm(a, b), A(2, 3, 4), A(2, 4, 2)),
    g('mv', lambda T, a, b: T.mv(a, b), A(3, 4), A(4)),
    g('dot', lambda T, a, b: a.dot(b), A(5), A(5, seed=1)),
    g('outer', lambda T, a, b: T.outer(a, b), A(3), A(4)),
    g('ger', lambda T, a, b: a.ger(b), A(2), A(3)),
    g('addmm', lambda T, c, a, b: T.addmm(c, a, b), A(2, 4), A(2, 3), A(3, 4)),
    g('addmm beta alpha', lambda T, c, a, b: c.addmm(a, b, beta=0.5, alpha=2), A(4), A(2, 3),
      A(3, 4)),
    g('baddbmm', lambda T, c, a, b: T.baddbmm(c, a, b), A(2, 2, 4), A(2, 2, 3), A(2, 3, 4)),
    g('baddbmm beta', lambda T, c, a, b: T.baddbmm(c, a, b, beta=0.0, alpha=0.5), A(2, 2, 2),
      A(2, 2, 3), A(2, 3, 2)),
    g('matmul batched broadcast', lambda T, a, b: a @ b, A(2, 3, 4), A(4, 5)),
    g('matmul vector', lambda T, a, b: T.matmul(a, b), A(3), A(3, 2)),
    g('einsum ij,jk', lambda T, a, b: T.einsum('ij,jk->ik', a, b), A(2, 3), A(3, 4)),
    g('einsum bij,bjk', lambda T, a, b: T.einsum('bij,bjk->bik', a, b), A(2, 2, 3), A(2, 3, 2)),
    g('einsum trace', lambda T, a: T.einsum('ii', a), A(3, 3)),
    g('einsum diag', lambda T, a: T.einsum('ii->i', a), A(3, 3)),
    g('einsum sum', lambda T, a: T.einsum('ij->', a), A(2, 3)),
    g('einsum transpose', lambda T, a: T.einsum('ij->ji', a), A(2, 3)),
    g('einsum outer', lambda T, a, b: T.einsum('i,j->ij', a, b), A(2), A(3)),
    g('einsum implicit', lambda T, a, b: T.einsum('ij,jk', a, b), A(2, 3), A(3, 2)),
    g('einsum ellipsis', lambda T, a, b: T.einsum('...ij,...jk->...ik', a, b), A(2, 2, 3),
      A(2, 3, 2)),
    g('einsum three', lambda T, a, b, c: T.einsum('ij,jk,kl->il', a, b, c), A(2, 3), A(3, 2),
      A(2, 2)),
    g('einsum list', lambda T, a, b: T.einsum('bi,bi->b', [a, b]), A(3, 4), A(3, 4, seed=1)),
    g('einsum attention', lambda T, q, k: T.einsum('bhqd,bhkd->bhqk', q, k), A(1, 2, 3, 4),
      A(1, 2, 2, 4)),
    v('mm int', lambda s: s.T.mm(s.T.tensor([[1, 2]]), s.T.tensor([[3], [4]]))),
    v('bmm float64', lambda s: s.T.bmm(s.T.tensor(A(2, 2, 2), dtype=s.T.float64),
                                       s.T.tensor(A(2, 2, 2), dtype=s.T.float64))),
    v('dot int', lambda s: s.T.dot(s.T.tensor([1, 2]), s.T.tensor([3, 4]))),
    v('outer int', lambda s: s.T.outer(s.T.tensor([1, 2]), s.T.tensor([3, 4]))),
    v('einsum int', lambda s: s.T.einsum('i,i->', s.T.tensor([1, 2]), s.T.tensor([3, 4]))),
    v('out= mm', lambda s: (lambda o: (s.T.mm(s.T.ones(2, 2), s.T.ones(2, 2), out=o), o)[1])(
        s.T.empty(2, 2))),
]

# --- factories ------------------------------------------------------------------------------
CASES += [
    v('eye', lambda s: s.T.eye(3)),
    v('eye rect', lambda s: s.T.eye(2, 4)),
    v('eye dtype', lambda s: s.T.eye(2, dtype=s.T.int64)),
    v('linspace', lambda s: s.T.linspace(0, 1, 5)),
    v('linspace one step', lambda s: s.T.linspace(2, 3, 1)),
    v('linspace dtype', lambda s: s.T.linspace(-1, 1, steps=4, dtype=s.T.float64)),
    v('logspace', lambda s: s.T.logspace(0, 2, 3)),
    v('logspace base', lambda s: s.T.logspace(0, 3, 4, base=2)),
    v('arange step int', lambda s: s.T.arange(1, 10, 3)),
    v('arange float64', lambda s: s.T.arange(0, 1, 0.5, dtype=s.T.float64)),
    v('full int', lambda s: s.T.full((2,), 3)),
    v('full bool', lambda s: s.T.full((2,), True)),
    v('full_like', lambda s: s.T.full_like(s.T.zeros(2, dtype=s.T.int64), 4)),
    v('zeros_like dtype', lambda s: s.T.zeros_like(s.T.zeros(2), dtype=s.T.int32)),
    v('ones_like int', lambda s: s.T.ones_like(s.T.tensor([1, 2]))),
    v('empty_like shape', lambda s: s.T.empty_like(s.T.zeros(2, 3)).shape),
    v('rand_like shape dtype', lambda s: (lambda t: (t.shape, t.dtype))(
        s.T.rand_like(s.T.zeros(2, 3, dtype=s.T.float64)))),
    v('randn_like dtype', lambda s: s.T.randn_like(s.T.zeros(2), dtype=s.T.float64).dtype),
    v('randint shape dtype', lambda s: (lambda t: (t.shape, t.dtype))(s.T.randint(5, (3, 2)))),
    v('randint low high', lambda s: (lambda t: bool(((t >= 2) & (t < 4)).all()))(
        s.T.randint(2, 4, (100,)))),
    v('randint size=', lambda s: s.T.randint(0, 3, size=(4,)).shape),
    v('randint_like', lambda s: s.T.randint_like(s.T.zeros(3), 10).shape),
    v('randperm', lambda s: s.T.randperm(5).sort().values),
    v('tensor float64 exact', lambda s: s.T.tensor([0.1], dtype=s.T.float64)),
    v('tensor nested tuples', lambda s: s.T.tensor(((1, 2), (3, 4)))),
    v('tensor mixed int float', lambda s: s.T.tensor([1, 2.5])),
    v('tensor mixed bool int', lambda s: s.T.tensor([True, 2])),
    v('tensor of 0-d tensors', lambda s: s.T.tensor([s.T.tensor(1.5), s.T.tensor(2.0)])),
    v('tensor empty', lambda s: s.T.tensor([])),
    v('tensor scalar', lambda s: s.T.tensor(3)),
    v('tensor big int', lambda s: s.T.tensor([2 ** 40 + 1])),
    v('as_tensor list', lambda s: s.T.as_tensor([1, 2], dtype=s.T.float32)),
    v('LongTensor', lambda s: s.T.LongTensor([1, 2])),
    v('FloatTensor', lambda s: s.T.FloatTensor([[1, 2]])),
    v('Tensor list', lambda s: s.T.Tensor([1, 2])),
    v('BoolTensor', lambda s: s.T.BoolTensor([True, False])),
    v('DoubleTensor', lambda s: s.T.DoubleTensor([0.1])),
    v('zeros dtype long', lambda s: s.T.zeros(2, dtype=s.T.long)),
]

# --- tensor protocol ---------------------------------------------------------------------
CASES += [
    v('tolist float', lambda s: s.T.tensor([[0.5, 1.25]]).tolist()),
    v('tolist bool', lambda s: s.T.tensor([True, False]).tolist()),
    v('tolist int64 big', lambda s: s.T.tensor([2 ** 62]).tolist()),
    v('tolist 0-d', lambda s: s.T.tensor(2.5).tolist()),
    v('item int64 big', lambda s: s.T.tensor(2 ** 62 + 1).item()),
    v('item bool', lambda s: s.T.tensor(True).item()),
    v('int()', lambda s: int(s.T.tensor(3.7))),
    v('bool()', lambda s: bool(s.T.tensor([0.0]))),
    v('abs()', lambda s: abs(s.T.tensor([-1.5]))),
    v('round()', lambda s: round(s.T.tensor(2.5).item())),
    v('in', lambda s: 2 in s.T.tensor([1, 2, 3])),
    v('index int tensor 0-d', lambda s: s.T.arange(5)[s.T.tensor(2)]),
    v('index range', lambda s: s.T.arange(10)[range(2, 5)]),
    v('index empty list', lambda s: s.T.arange(4)[[]]),
    v('index bool scalar', lambda s: s.T.arange(3)[True].shape),
    v('index negative list', lambda s: s.T.arange(5)[[-1, 0]]),
    v('setitem list', lambda s: (lambda t: (t.__setitem__([0, 2], 9), t)[1])(s.T.zeros(4))),
    v('setitem broadcast row', lambda s: (lambda t: (t.__setitem__(1, s.T.tensor([1.0, 2.0])),
                                                     t)[1])(s.T.zeros(2, 2))),
    v('setitem step', lambda s: (lambda t: (t.__setitem__(slice(None, None, 2), 1), t)[1])(
        s.T.zeros(5))),
    v('setitem mask tensor', lambda s: (lambda t: (t.__setitem__(t > 1, s.T.tensor([7.0])),
                                                   t)[1])(s.T.arange(4.0))),
    v('setitem int index tensor', lambda s: (lambda t: (t.__setitem__(
        s.T.tensor([1, 3]), s.T.tensor([5.0, 6.0])), t)[1])(s.T.zeros(4))),
    g('setitem keeps grad', lambda T, x: (lambda y: (y.__setitem__(0, 0.0), y)[1])(x * 1),
      A(3)),
    g('setitem list grad', lambda T, x, v_: (lambda y: (y.__setitem__([0, 2], v_), y)[1])(
        x * 1), A(4), A(2)),
    v('grad_fn name', lambda s: type((s.T.ones(2, requires_grad=True) * 2).grad_fn).__name__),
    v('grad_fn next_functions', lambda s: [
        (type(f).__name__ if f is not None else None, n) for f, n in
        (s.T.ones(2, requires_grad=True) + s.T.ones(2)).grad_fn.next_functions]),
    v('grad_fn None leaf', lambda s: s.T.ones(2, requires_grad=True).grad_fn is None),
    v('requires_grad propagates', lambda s: (s.T.ones(2, requires_grad=True).sum() * 2)
      .requires_grad),
    v('detach_', lambda s: (s.T.ones(2, requires_grad=True) * 2).detach_().requires_grad),
    v('retain_grad', lambda s: (lambda x: (lambda y: (y.retain_grad(), y.sum().backward(),
                                                      y.grad)[2])(x * 2))(
        s.T.ones(2, requires_grad=True))),
    v('grad accumulates', lambda s: (lambda x: ((x * 2).sum().backward(),
                                                (x * 3).sum().backward(), x.grad)[2])(
        s.T.ones(2, requires_grad=True))),
    v('backward gradient', lambda s: (lambda x: ((x * x).backward(s.T.tensor([1.0, 0.5])),
                                                 x.grad)[1])(
        s.T.tensor([1.0, 2.0], requires_grad=True))),
    v('autograd.backward', lambda s: (lambda x: (s.T.autograd.backward((x * 2).sum()),
                                                 x.grad)[1])(s.T.ones(2, requires_grad=True))),
]


class _Cube(object):
    """The custom Function both sides define from their own base."""

    @staticmethod
    def make(T):
        class Cube(T.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                ctx.save_for_backward(x)
                ctx.k = k
                return x ** 3 * k

            @staticmethod
            def backward(ctx, grad_out):
                (x,) = ctx.saved_tensors
                return grad_out * 3 * x ** 2 * ctx.k, None
        return Cube

    @staticmethod
    def make_two(T):
        class SumDiff(T.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.needs = ctx.needs_input_grad
                return a + b, a - b

            @staticmethod
            def backward(ctx, g_sum, g_diff):
                return g_sum + g_diff, g_sum - g_diff
        return SumDiff

    @staticmethod
    def make_dirty(T):
        class Double_(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 2
        return Double_

    @staticmethod
    def make_nondiff(T):
        class SortIdx(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                values, idx = x.sort()
                ctx.mark_non_differentiable(idx)
                ctx.save_for_backward(idx)
                return values, idx

            @staticmethod
            def backward(ctx, g, _):
                (idx,) = ctx.saved_tensors
                return T.zeros_like(g).scatter(0, idx, g)
        return SortIdx


CASES += [
    g('Function apply', lambda T, x: _Cube.make(T).apply(x, 2.0), A(4)),
    g('Function two outputs', lambda T, a, b: (lambda r: r[0] * 2 + r[1])(
        _Cube.make_two(T).apply(a, b)), A(3), A(3, seed=1)),
    g('Function mark_dirty', lambda T, x: _Cube.make_dirty(T).apply(x * 1), A(3)),
    g('Function non-differentiable', lambda T, x: _Cube.make_nondiff(T).apply(x)[0], A(4)),
    v('Function grad_fn name', lambda s: type(_Cube.make(s.T).apply(
        s.T.ones(2, requires_grad=True), 1.0).grad_fn).__name__),
    v('Function needs_input_grad', lambda s: (lambda F: (lambda r: r[1].requires_grad)(
        F.apply(s.T.ones(2, requires_grad=True), s.T.ones(2))))(_Cube.make_two(s.T))),
    v('Function no grad inputs', lambda s: _Cube.make(s.T).apply(s.T.ones(2), 2.0)
      .requires_grad),
]
