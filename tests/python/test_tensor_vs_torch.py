#!/usr/bin/python3
# test_tensor_vs_torch.py: differential test of Gnn.Tensor against PyTorch
# (Debian's torch 1.13 for /usr/bin/python3).
#
# Every row of OPS runs one operation on the same seeded random inputs in Gnn
# and in torch and compares shape, dtype and values (float tolerance per row).
# Every row of ERRORS runs a bad call in both and checks that the GLib.Error
# message from Gnn contains torch's message (or a stated part of it).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
import unittest

import numpy as np

try:
    import torch
except ImportError:  # pragma: no cover
    print('torch is not installed: skipping')
    sys.exit(77)

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

torch.set_grad_enabled(False)

# Tolerances: float32 elementwise; reductions/matmul accumulate differently
# (Gnn in double, torch in float32 blocks/BLAS), so they get looser ones.
F32 = dict(rtol=1e-5, atol=1e-6)
RED = dict(rtol=1e-4, atol=1e-5)
BIG = dict(rtol=1e-4, atol=1e-3)
F64 = dict(rtol=1e-12, atol=1e-12)


# --- inputs -------------------------------------------------------------------
# Input specs are (kind, shape) tuples turned into numpy arrays by make();
# the same array is given to Gnn (from_numpy) and torch (from_numpy).

def R(*shape):            # float32, standard normal
    return ('normal', shape, np.float32)


def R64(*shape):          # float64, standard normal
    return ('normal', shape, np.float64)


def P(*shape):            # float32, positive (log, sqrt, division)
    return ('positive', shape, np.float32)


def I(*shape):            # int64 in [-10, 10]  # noqa: E743
    return ('int', shape, np.int64)


def NZ(*shape):           # int64 in [1, 10], a safe divisor
    return ('nonzero', shape, np.int64)


def B(*shape):            # bool
    return ('bool', shape, np.bool_)


def IDX(*values):         # a literal int64 index vector
    return ('literal', np.array(values, dtype=np.int64), np.int64)


def make(spec, rng):
    kind, shape, dtype = spec
    if kind == 'literal':
        return shape.copy()
    if kind == 'normal':
        return np.asarray(rng.standard_normal(shape)).astype(dtype)
    if kind == 'positive':
        return np.asarray(rng.uniform(0.1, 4.0, shape)).astype(dtype)
    if kind == 'int':
        return np.asarray(rng.integers(-10, 11, shape)).astype(dtype)
    if kind == 'nonzero':
        return np.asarray(rng.integers(1, 11, shape)).astype(dtype)
    if kind == 'bool':
        return np.asarray(rng.random(shape) < 0.5)
    raise ValueError(kind)


# --- the operation table --------------------------------------------------------
# (name, inputs, gnn function, torch function or None (= the same function:
# Gnn and torch share the method name and signature), tolerance)

OPS = []


def op(name, inputs, gnn_fn, torch_fn=None, tol=F32):
    OPS.append((name, inputs, gnn_fn, torch_fn, tol))


# Broadcasting binary ops over shape pairs.
BROADCAST_PAIRS = [
    ((3, 4), (4,)),
    ((4,), (3, 4)),
    ((2, 1, 4), (3, 1)),
    ((5, 1), (1, 6)),
    ((2, 3, 4), (2, 3, 4)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((), ()),
    ((1,), (5,)),
    ((2, 1, 3, 1), (4, 1, 5)),
    ((0, 3), (3,)),
    ((1, 0), (4, 1)),
]
for sa, sb in BROADCAST_PAIRS:
    for name in ('add', 'sub', 'mul'):
        op('%s/f32 %s %s' % (name, sa, sb), [R(*sa), R(*sb)],
           lambda a, b, n=name: getattr(a, n)(b))
    op('div/f32 %s %s' % (sa, sb), [R(*sa), P(*sb)], lambda a, b: a.div(b))
    for name in ('add', 'sub', 'mul'):
        op('%s/i64 %s %s' % (name, sa, sb), [I(*sa), I(*sb)],
           lambda a, b, n=name: getattr(a, n)(b))
op('add/f64', [R64(3, 4), R64(4)], lambda a, b: a.add(b), tol=F64)
op('div/f64', [R64(3, 4), R64(3, 1)], lambda a, b: a.div(b), tol=F64)
# The C integer division truncates, = torch's rounding_mode='trunc'.
op('div/i64 trunc', [I(3, 4), NZ(4)], lambda a, b: a.div(b, rounding_mode='trunc'),
   lambda a, b: torch.div(a, b, rounding_mode='trunc'))
op('add/non-contiguous', [R(4, 3), R(3, 4)], lambda a, b: a.transpose(0, 1).add(b))
op('mul/expanded', [R(3, 1), R(3, 5)], lambda a, b: a.expand([3, 5]).mul(b))
op('add/narrowed', [R(6, 5), R(2, 5)], lambda a, b: a.narrow(0, 2, 2).add(b))

# Python operators of the override (scalars become 0-d tensors).
op('operator +', [R(3, 4), R(4)], lambda a, b: a + b)
op('operator -', [R(3, 4), R(3, 1)], lambda a, b: a - b)
op('operator *', [R(2, 3), R(2, 3)], lambda a, b: a * b)
op('operator /', [R(2, 3), P(3)], lambda a, b: a / b)
op('operator / int', [I(2, 3), NZ(3)], lambda a, b: a / b)
op('operator @', [R(3, 4), R(4, 2)], lambda a, b: a @ b, tol=RED)
op('operator unary -', [R(2, 3)], lambda a: -a)
op('operator scalar +', [R(2, 3)], lambda a: 2.5 + a)
op('operator scalar -', [R(2, 3)], lambda a: 1 - a)
op('operator scalar *', [R(2, 3)], lambda a: a * 3)
op('operator scalar /', [P(2, 3)], lambda a: 2 / a)
op('operator int + float', [I(2, 3)], lambda a: a + 0.5)
op('operator <', [R(2, 3), R(3)], lambda a, b: a < b)
op('operator >= scalar', [R(2, 3)], lambda a: a >= 0)

# Scalar variants.
op('add_scalar/f32', [R(3, 4)], lambda a: a.add_scalar(1.5), lambda a: a.add(1.5))
op('add_scalar/i64', [I(3, 4)], lambda a: a.add_scalar(3), lambda a: a.add(3))
op('mul_scalar/f32', [R(3, 4)], lambda a: a.mul_scalar(-0.25), lambda a: a.mul(-0.25))
op('mul_scalar/i64', [I(3, 4)], lambda a: a.mul_scalar(3), lambda a: a.mul(3))
op('pow 2', [R(3, 4)], lambda a: a.pow(2.0), lambda a: a.pow(2))
op('pow 0.5', [P(3, 4)], lambda a: a.pow(0.5))
op('pow -1', [P(3, 4)], lambda a: a.pow(-1.0), lambda a: a.pow(-1))
op('pow 3 i64', [I(3, 4)], lambda a: a.pow(3), lambda a: a.pow(3))
op('pow 3.0 i64', [I(3, 4)], lambda a: a.pow(3.0), lambda a: a.pow(3.0))

# Unary ops.
for name in ('relu', 'tanh', 'sigmoid', 'exp', 'neg', 'abs'):
    op('%s/f32' % name, [R(3, 5)], lambda a, n=name: getattr(a, n)())
    op('%s/f32 transposed' % name, [R(5, 3)],
       lambda a, n=name: getattr(a.transpose(0, 1), n)())
    op('%s/f64' % name, [R64(7)], lambda a, n=name: getattr(a, n)(), tol=F64)
for name in ('relu', 'neg', 'abs'):
    op('%s/i64' % name, [I(3, 5)], lambda a, n=name: getattr(a, n)())
op('log/f32', [P(3, 5)], lambda a: a.log())
op('sqrt/f32', [P(3, 5)], lambda a: a.sqrt())
op('gelu/f32', [R(3, 5)], lambda a: a.gelu(), lambda a: torch.nn.functional.gelu(a))
op('gelu/f64', [R64(3, 5)], lambda a: a.gelu(), lambda a: torch.nn.functional.gelu(a),
   tol=dict(rtol=1e-10, atol=1e-12))
op('exp/f32 0-d', [R()], lambda a: a.exp())
op('abs/f32 empty', [R(0, 3)], lambda a: a.abs())

# Comparisons and where.
for name in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
    op('%s/f32' % name, [R(3, 4), R(4)], lambda a, b, n=name: getattr(a, n)(b))
    op('%s/i64' % name, [I(3, 4), I(3, 1)], lambda a, b, n=name: getattr(a, n)(b))
op('eq/f32 self', [R(3, 4)], lambda a: a.eq(a))
op('where/same shape', [B(3, 4), R(3, 4), R(3, 4)],
   lambda c, a, b: Gnn.where(c, a, b), lambda c, a, b: torch.where(c, a, b))
op('where/broadcast', [B(3, 1), R(4), R(2, 1, 1)],
   lambda c, a, b: Gnn.where(c, a, b), lambda c, a, b: torch.where(c, a, b))
op('where/from comparison', [R(3, 4)],
   lambda a: Gnn.where(a.gt(a.mul_scalar(0.0)), a, a.mul_scalar(0.0)),
   lambda a: torch.where(a > 0, a, a * 0))

# Reductions: (dims, keepdim) over a 3-d input; dims=[] reduces everything.
REDUCE_DIMS = [[], [0], [1], [2], [-1], [0, 2], [2, 0], [-1, -2], [0, 1, 2]]
for dims in REDUCE_DIMS:
    for keep in (False, True):
        suffix = '%s keepdim=%s' % (dims, keep)
        op('sum/f32 %s' % suffix, [R(3, 4, 5)], lambda a, d=dims, k=keep: a.sum(d, k),
           lambda a, d=dims, k=keep: a.sum(d, k) if d else a.sum().reshape([1] * 3 if k else []),
           tol=RED)
        op('mean/f32 %s' % suffix, [R(3, 4, 5)], lambda a, d=dims, k=keep: a.mean(d, k),
           lambda a, d=dims, k=keep: a.mean(d, k) if d else
           a.mean().reshape([1] * 3 if k else []), tol=RED)
        op('max/f32 %s' % suffix, [R(3, 4, 5)], lambda a, d=dims, k=keep: a.max(d, k),
           lambda a, d=dims, k=keep: torch.amax(a, d, k))
        op('min/f32 %s' % suffix, [R(3, 4, 5)], lambda a, d=dims, k=keep: a.min(d, k),
           lambda a, d=dims, k=keep: torch.amin(a, d, k))
for keep in (False, True):
    op('sum/i64 [1] keepdim=%s' % keep, [I(3, 4)], lambda a, k=keep: a.sum([1], k),
       lambda a, k=keep: a.sum([1], k))
    op('sum/bool [0] keepdim=%s' % keep, [B(3, 4)], lambda a, k=keep: a.sum([0], k),
       lambda a, k=keep: a.sum([0], k))
    op('max/i64 [0] keepdim=%s' % keep, [I(3, 4)], lambda a, k=keep: a.max([0], k),
       lambda a, k=keep: torch.amax(a, [0], k))
    for dim in (0, 1, 2, -1):
        op('argmax/f32 dim=%d keepdim=%s' % (dim, keep), [R(3, 4, 5)],
           lambda a, d=dim, k=keep: a.argmax(d, k))
    op('argmax/i64 ties keepdim=%s' % keep, [IDX(1, 3, 3, 0, 3)],
       lambda a, k=keep: a.argmax(0, k))
op('sum/f32 all of empty', [R(0, 3)], lambda a: a.sum([], False), lambda a: a.sum())
op('sum/f32 dim of empty', [R(0, 3)], lambda a: a.sum([0], False), lambda a: a.sum([0]))
op('sum/f32 transposed', [R(4, 6)], lambda a: a.transpose(0, 1).sum([1], False),
   lambda a: a.transpose(0, 1).sum([1]), tol=RED)
op('sum/f32 large', [R(1000, 1000)], lambda a: a.sum([], False), lambda a: a.sum(), tol=BIG)
op('sum/f32 large rows', [R(64, 4096)], lambda a: a.sum([1], False), lambda a: a.sum([1]),
   tol=BIG)
op('mean/f32 large', [R(512, 2048)], lambda a: a.mean([0], True), lambda a: a.mean([0], True),
   tol=RED)
op('mean/f64', [R64(4, 5)], lambda a: a.mean([1], False), lambda a: a.mean([1]), tol=F64)

for dim in (0, 1, -1):
    op('softmax/f32 dim=%d' % dim, [R(4, 7)], lambda a, d=dim: a.softmax(d))
    op('log_softmax/f32 dim=%d' % dim, [R(4, 7)], lambda a, d=dim: a.log_softmax(d))
op('softmax/f32 3-d middle', [R(2, 5, 3)], lambda a: a.softmax(1))
op('softmax/f32 large values', [R(3, 6)], lambda a: a.mul_scalar(1000.0).softmax(1),
   lambda a: (a * 1000).softmax(1))
op('log_softmax/f32 large values', [R(3, 6)], lambda a: a.mul_scalar(1000.0).log_softmax(1),
   lambda a: (a * 1000).log_softmax(1), tol=RED)
op('softmax/f32 transposed', [R(7, 4)], lambda a: a.transpose(0, 1).softmax(-1))
op('softmax/f32 wide', [R(8, 10000)], lambda a: a.softmax(1), tol=RED)
op('softmax/f64', [R64(4, 7)], lambda a: a.softmax(1), tol=F64)
op('log_softmax/f64', [R64(4, 7)], lambda a: a.log_softmax(0), tol=F64)

# Matmul: 1-d/2-d/batched, with broadcasting of batch dims.
MATMUL_SHAPES = [
    ((4,), (4,)),
    ((3, 4), (4,)),
    ((4,), (4, 5)),
    ((3, 4), (4, 5)),
    ((1, 1), (1, 1)),
    ((2, 3, 4), (2, 4, 5)),
    ((2, 3, 4), (4, 5)),
    ((3, 4), (2, 4, 5)),
    ((2, 3, 4), (4,)),
    ((4,), (2, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((3, 0), (0, 2)),
    ((0, 4), (4, 3)),
    ((64, 128), (128, 32)),
]
for sa, sb in MATMUL_SHAPES:
    op('matmul/f32 %s @ %s' % (sa, sb), [R(*sa), R(*sb)], lambda a, b: a.matmul(b), tol=RED)
op('matmul/f64', [R64(5, 6), R64(6, 3)], lambda a, b: a.matmul(b), tol=F64)
op('matmul/f32 transposed operands', [R(4, 3), R(5, 4)],
   lambda a, b: a.transpose(0, 1).matmul(b.transpose(0, 1)), tol=RED)
op('matmul/i64', [I(3, 4), I(4, 2)], lambda a, b: a.matmul(b))

# Joining.
for dim in (0, 1, -1):
    op('cat/f32 dim=%d' % dim, [R(2, 3), R(2, 3), R(2, 3)],
       lambda a, b, c, d=dim: Gnn.Tensor.cat([a, b, c], d),
       lambda a, b, c, d=dim: torch.cat([a, b, c], d))
    op('stack/f32 dim=%d' % dim, [R(2, 3), R(2, 3)],
       lambda a, b, d=dim: Gnn.Tensor.stack([a, b], d),
       lambda a, b, d=dim: torch.stack([a, b], d))
op('cat/f32 uneven', [R(2, 3), R(4, 3)], lambda a, b: Gnn.Tensor.cat([a, b], 0),
   lambda a, b: torch.cat([a, b], 0))
op('cat/f32 with empty', [R(2, 3), R(0, 3)], lambda a, b: Gnn.Tensor.cat([a, b], 0),
   lambda a, b: torch.cat([a, b], 0))
op('cat/i64 single', [I(2, 3)], lambda a: Gnn.Tensor.cat([a], 1), lambda a: torch.cat([a], 1))
op('cat/f32 views', [R(3, 2), R(2, 3)],
   lambda a, b: Gnn.Tensor.cat([a.transpose(0, 1), b], 1),
   lambda a, b: torch.cat([a.transpose(0, 1), b], 1))
op('stack/f32 dim=2 of 2-d', [R(2, 3), R(2, 3)], lambda a, b: Gnn.Tensor.stack([a, b], 2),
   lambda a, b: torch.stack([a, b], 2))
op('stack/f32 0-d', [R(), R()], lambda a, b: Gnn.Tensor.stack([a, b], 0),
   lambda a, b: torch.stack([a, b], 0))

# Shape and view ops.
op('transpose', [R(2, 3, 4)], lambda a: a.transpose(0, 2))
op('transpose negative', [R(2, 3, 4)], lambda a: a.transpose(-1, -2))
op('permute', [R(2, 3, 4)], lambda a: a.permute([2, 0, 1]))
op('permute negative', [R(2, 3, 4)], lambda a: a.permute([-1, 1, 0]))
op('narrow', [R(5, 6)], lambda a: a.narrow(1, 2, 3))
op('narrow negative start', [R(5, 6)], lambda a: a.narrow(0, -3, 2))
op('narrow empty', [R(5, 6)], lambda a: a.narrow(0, 5, 0))
op('select', [R(3, 4, 5)], lambda a: a.select(1, 2))
op('select negative', [R(3, 4, 5)], lambda a: a.select(-1, -1))
op('select to 0-d', [R(4)], lambda a: a.select(0, 3))
op('index_select dim 0', [R(5, 3), IDX(4, 0, 0, 2)], lambda a, i: a.index_select(0, i))
op('index_select dim 1', [R(5, 3), IDX(2, 1)], lambda a, i: a.index_select(1, i))
op('index_select empty', [R(5, 3), IDX()], lambda a, i: a.index_select(0, i))
op('index_select i64 data', [I(4, 4), IDX(3, 3)], lambda a, i: a.index_select(1, i))
# several index tensors pair up element by element (torch's and numpy's
# advanced indexing): in place when adjacent, first when apart
op('getitem rows and classes', [R(5, 3), IDX(0, 1, 2, 3, 4), IDX(0, 2, 1, 1, 0)],
   lambda a, i, y: a[i, y])
op('getitem index tensors apart', [R(3, 4, 5), IDX(0, 2), IDX(1, 3)], lambda a, i, j: a[i, :, j])
op('getitem index tensors adjacent', [R(3, 4, 5), IDX(0, 2), IDX(1, 3)],
   lambda a, i, j: a[:, i, j])
op('getitem int then index tensor', [R(3, 4, 5), IDX(0, 1)], lambda a, i: a[0, :, i])
# torch's type promotion between two tensors
op('mul float by bool mask', [R(3, 4), B(3, 4)], lambda a, m: a * m)
op('add float32 and float64', [R(3, 4), R64(3, 4)], lambda a, b: a + b)
op('sub int64 and float32', [I(3, 4), R(3, 4)], lambda a, b: a - b)
op('div int64 by float64', [I(3, 4), R64(3, 4)], lambda a, b: a / b)
op('lt float32 and int64', [R(3, 4), I(3, 4)], lambda a, b: a < b)
op('add bool and int64', [B(3, 4), I(3, 4)], lambda a, b: a + b)
op('add float32 and 0-d float64', [R(3), R64()], lambda a, b: a + b)
op('mul int64 and 0-d float64', [I(3), R64()], lambda a, b: a * b)
op('pow tensor exponent', [R(3, 4), NZ(3, 4)], lambda a, e: a ** e.float())
op('pow int tensors', [NZ(5), IDX(0, 1, 2, 3, 2)], lambda a, e: a ** e)
op('rpow number base', [R(3, 4)], lambda e: 2 ** e)
op('pow 0-d tensors', [P(), R()], lambda a, e: a ** e)
op('rpow int exponent', [IDX(0, 1, 2, 5)], lambda e: 3 ** e)
op('min other', [R(3, 4), R(3, 4)], lambda a, b: a.min(b))
op('argmin uint8', [('literal', np.array([0, 5, 3], np.uint8), np.uint8)], lambda a: a.argmin())
op('min dim uint8 indices', [('literal', np.array([[7, 0], [0, 9]], np.uint8), np.uint8)],
   lambda a: a.min(1).indices)
op('reshape', [R(2, 3, 4)], lambda a: a.reshape([4, 6]))
op('reshape infer', [R(2, 3, 4)], lambda a: a.reshape([-1, 4]))
op('reshape non-contiguous', [R(2, 3, 4)], lambda a: a.transpose(0, 2).reshape([-1]))
op('reshape to 0-d', [R(1, 1)], lambda a: a.reshape([]))
op('view', [R(2, 3, 4)], lambda a: a.view([6, 4]))
op('view infer', [R(2, 3, 4)], lambda a: a.view([2, -1]))
op('expand', [R(3, 1)], lambda a: a.expand([3, 4]))
op('expand new dims', [R(3)], lambda a: a.expand([2, 4, 3]))
op('expand keep -1', [R(1, 4)], lambda a: a.expand([5, -1]))
op('flatten all', [R(2, 3, 4)], lambda a: a.flatten(0, -1))
op('flatten middle', [R(2, 3, 4, 5)], lambda a: a.flatten(1, 2))
op('flatten 0-d', [R()], lambda a: a.flatten(0, -1))
op('squeeze', [R(2, 1, 3)], lambda a: a.squeeze(1))
op('squeeze no-op', [R(2, 1, 3)], lambda a: a.squeeze(0))
op('unsqueeze', [R(2, 3)], lambda a: a.unsqueeze(1))
op('unsqueeze end', [R(2, 3)], lambda a: a.unsqueeze(-1))
op('contiguous', [R(3, 4)], lambda a: a.transpose(0, 1).contiguous())
op('clone', [R(3, 4)], lambda a: a.clone())
op('to_dtype f64', [R(3, 4)], lambda a: a.to_dtype(Gnn.DType.F64),
   lambda a: a.to(torch.float64))
op('to_dtype i64 truncates', [R(3, 4)], lambda a: a.mul_scalar(10.0).to_dtype(Gnn.DType.I64),
   lambda a: (a * 10).to(torch.int64))
op('to_dtype bool', [R(3, 4)], lambda a: a.to_dtype(Gnn.DType.BOOL),
   lambda a: a.to(torch.bool))
op('chain', [R(2, 3, 4), R(4, 5)],
   lambda a, b: a.permute([1, 0, 2]).matmul(b).relu().sum([0], False).softmax(-1),
   tol=RED)


# --- error table ----------------------------------------------------------------
# (name, inputs, function (applied to Gnn and to torch tensors alike, or a
# (gnn, torch) pair), expected part of torch's message or None = torch's whole
# message)

ERRORS = []


def err(name, inputs, fn, expect=None):
    ERRORS.append((name, inputs, fn, expect))


err('broadcast add', [R(2, 3), R(2)], lambda a, b: a.add(b))
err('broadcast mul 3-d', [R(2, 3, 4), R(3, 5)], lambda a, b: a.mul(b))
err('broadcast where', [B(2, 3), R(2, 3), R(4)],
    (lambda c, a, b: Gnn.where(c, a, b), lambda c, a, b: torch.where(c, a, b)))
err('matmul 2-d', [R(2, 3), R(2, 3)], lambda a, b: a.matmul(b))
err('matmul batch broadcast', [R(4, 2, 3), R(5, 3, 3)], lambda a, b: a.matmul(b))
err('softmax dim', [R(2, 3)], lambda a: a.softmax(2))
err('log_softmax dim', [R(2, 3)], lambda a: a.log_softmax(-3))
err('sum dim', [R(2, 3)], (lambda a: a.sum([-3], False), lambda a: a.sum([-3])))
err('sum duplicate dim', [R(2, 3)], (lambda a: a.sum([0, 0], False), lambda a: a.sum([0, 0])))
err('mean dim', [R(2, 3)], (lambda a: a.mean([2], True), lambda a: a.mean([2], True)))
err('max dim', [R(2, 3)], (lambda a: a.max([5], False), lambda a: torch.amax(a, [5])))
err('argmax dim', [R(2, 3)], lambda a: a.argmax(5, False))
err('argmax empty dim', [R(0, 3)], lambda a: a.argmax(0, False),
    'Expected reduction dim 0 to have non-zero size')
err('max empty dim', [R(0, 3)], (lambda a: a.max([0], False), lambda a: torch.amax(a, [0])),
    'Expected reduction dim 0 to have non-zero size')
err('transpose dim', [R(2, 3)], lambda a: a.transpose(0, 2))
err('squeeze dim', [R(2, 3)], lambda a: a.squeeze(3))
err('unsqueeze dim', [R(2, 3)], lambda a: a.unsqueeze(4))
err('cat sizes', [R(2, 3), R(3, 3)],
    (lambda a, b: Gnn.Tensor.cat([a, b], 1), lambda a, b: torch.cat([a, b], 1)))
err('cat ndim', [R(2, 3), R(2, 3, 1)],
    (lambda a, b: Gnn.Tensor.cat([a, b], 1), lambda a, b: torch.cat([a, b], 1)))
err('cat dim', [R(2, 3), R(2, 3)],
    (lambda a, b: Gnn.Tensor.cat([a, b], 2), lambda a, b: torch.cat([a, b], 2)))
err('stack sizes', [R(2, 3), R(2, 4)],
    (lambda a, b: Gnn.Tensor.stack([a, b], 0), lambda a, b: torch.stack([a, b], 0)))
err('view size', [R(2, 3)], lambda a: a.view([4, 4]))
err('reshape size', [R(2, 3)], lambda a: a.reshape([5, -1]))
err('narrow length', [R(2, 3)], lambda a: a.narrow(1, 2, 2))
err('select index', [R(2, 3)], lambda a: a.select(0, 5))
err('expand size', [R(3)], lambda a: a.expand([2, 4]))
err('permute length', [R(2, 3)], lambda a: a.permute([0, 1, 2]),
    'number of dimensions in the tensor input does not match the length of the desired '
    'ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 3')
err('permute duplicate', [R(2, 3)], lambda a: a.permute([0, 0]),
    'duplicate dims are not allowed')
err('flatten order', [R(2, 3)], lambda a: a.flatten(1, 0))


# --- the tests ------------------------------------------------------------------

def to_gnn(array):
    return Gnn.Tensor.from_numpy(array)


def to_torch(array):
    return torch.from_numpy(array.copy())


class VsTorchTest(unittest.TestCase):

    def compare(self, got, expected, tol):
        self.assertIsInstance(got, Gnn.Tensor)
        got_np = got.numpy()
        exp_np = expected.numpy()
        self.assertEqual(got_np.shape, exp_np.shape, 'shape')
        self.assertEqual(got_np.dtype, exp_np.dtype, 'dtype')
        if np.issubdtype(exp_np.dtype, np.floating):
            np.testing.assert_allclose(got_np, exp_np, equal_nan=True, **tol)
        else:
            np.testing.assert_array_equal(got_np, exp_np)

    def test_ops(self):
        for i, (name, inputs, gnn_fn, torch_fn, tol) in enumerate(OPS):
            with self.subTest(op=name):
                rng = np.random.default_rng(1000 + i)
                arrays = [make(spec, rng) for spec in inputs]
                expected = (torch_fn or gnn_fn)(*[to_torch(a) for a in arrays])
                tensors = [to_gnn(a) for a in arrays]
                got = gnn_fn(*tensors)
                self.compare(got, expected, tol)
                for t, a in zip(tensors, arrays):   # inputs are left unchanged
                    np.testing.assert_array_equal(t.numpy(), a)

    def test_integer_and_mask_operators_like_torch(self):
        # %, //, &, |, ^, ~: results and dtypes (masks stay bool)
        def run(lib):
            a, f = lib.arange(-5, 7), lib.tensor([-3.5, 2.25, 7.0])
            results = []
            for expr in ('a % 3', 'a // 3', 'a % -4', '7 % (a + 6)', 'f % 2', 'f // 2',
                         '(a > 2) & (a < 5)', '(a < -2) | (a > 4)', '~(a > 0)',
                         '(a > 0) ^ (a > 3)', 'a & 6', '~a', '(a > 0) & True', 'a % 2.5',
                         'a.remainder(4)', 'a.floor_divide(-2)', '(a > 0).logical_not()'):
                r = eval(expr, {'a': a, 'f': f})
                results.append((expr, str(r.dtype).split('.')[-1],
                                [float(v) + 0.0 for v in r.tolist()]))
            return results
        self.assertEqual(run(Gnn), run(torch))
        with self.assertRaises(TypeError):
            ~torch.ones(2)
        with self.assertRaises(TypeError):
            ~Gnn.ones(2)
        for expr in ('f & f', 'a % (a * 0)'):
            with self.assertRaises(RuntimeError, msg=expr) as tcm:
                eval(expr, {'a': torch.arange(1, 4), 'f': torch.ones(2)})
            with self.assertRaises(GLib.Error, msg=expr) as gcm:
                eval(expr, {'a': Gnn.arange(1, 4), 'f': Gnn.ones(2)})
            self.assertEqual(gcm.exception.message, str(tcm.exception))

    def test_composed_methods_like_torch(self):
        # clamp, masked_fill, var/std, chunk/split, all/any, repeat, expand:
        # values and gradients
        def run(lib):
            rng = np.random.default_rng(0)
            x = lib.tensor(rng.standard_normal((3, 4)).astype(np.float32).tolist(),
                           requires_grad=True)
            out = {}
            y = x.clamp(-0.5, 0.5)
            (y * y).sum().backward()
            out['clamp'] = (y.tolist(), x.grad.tolist(), x.clip(min=0.0).tolist())
            x.grad = None
            y = x.masked_fill(x > 0, 0.0)
            y.sum().backward()
            out['masked_fill'] = (y.tolist(), x.grad.tolist())
            x.grad = None
            v = x.var(1)
            v.sum().backward()
            out['var'] = (v.tolist(), x.std().item(), x.grad.tolist(),
                          x.var(1, unbiased=False).tolist(), x.std(0, keepdim=True).tolist())
            out['chunk'] = [list(c.shape) for c in x.chunk(3, 1)]
            out['split'] = [list(c.shape) for c in x.split(3, 1) + x.split([1, 3], 1)]
            out['all'] = (bool((x > -10).all()), (x > 0).any(1).tolist(), (x > 0).all(0).tolist())
            out['repeat'] = (x.detach()[:1, :2].repeat(2, 3).tolist(),
                             list(x.detach()[0].repeat(2, 1, 2).shape))
            out['expand'] = list(x.detach()[:1].expand(5, -1).shape)
            return out

        def rounded(v):
            if isinstance(v, dict):
                return {k: rounded(e) for k, e in v.items()}
            if isinstance(v, (list, tuple)):
                return [rounded(e) for e in v]
            return round(float(v), 4) if isinstance(v, (float, np.floating)) else v
        with Gnn.enable_grad(), torch.enable_grad():
            self.assertEqual(rounded(run(Gnn)), rounded(run(torch)))
        for lib in (Gnn, torch):
            with self.assertRaises(RuntimeError):
                lib.ones(2).clamp()

    def test_review_cases_like_torch(self):
        # 0-d stays 0-d, var(unbiased) overload, clamp promotes an integer
        # tensor, copy_ and in-place activations carry the gradient to src
        def run(lib):
            t = lib.tensor(7)
            out = [list((t // 2).shape), list((~t).shape), list((t % 2).shape),
                   list(lib.tensor([1.0, 0.0]).all().shape),
                   lib.tensor([1, 2, 3]).clamp(min=1.5).tolist(),
                   round(lib.tensor([[1.0, 2.0], [3.0, 5.0]]).var(False).item(), 6)]
            with lib.enable_grad():
                for f in (lambda y: y.copy_(y * 3.0 + 0.0),
                          lambda y: lib.nn.LeakyReLU(0.1, inplace=True)(y),
                          lambda y: lib.nn.ELU(inplace=True)(y),
                          lambda y: lib.nn.functional.silu(y, inplace=True),
                          lambda y: y.clamp_(min=0), lambda y: y.masked_fill_(y < 0, 0.0)):
                    x = lib.tensor([2.0, -3.0], requires_grad=True)
                    f(x * 1.0).sum().backward()
                    out.append([round(v, 4) for v in x.grad.tolist()])
                x = lib.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
                lib.nn.functional.normalize(x).sum().backward()
                out.append([round(v, 3) for v in x.grad.numpy().reshape(-1).tolist()])
            out.append(list(lib.nn.BCELoss(weight=lib.ones(2)).state_dict()))
            return out
        self.assertEqual(run(Gnn), run(torch))

    def test_sort_topk_gather_like_torch(self):
        # values, indices and gradients; NaN sorts as the largest
        def run(lib):
            a = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32)
            out = {}
            with lib.enable_grad():
                x = lib.tensor(a.tolist(), requires_grad=True)
                v, i = x.topk(2, dim=1)
                (v * v).sum().backward()
                out['topk'] = (np.round(np.array(v.tolist()), 4).tolist(), i.tolist(),
                               np.round(np.array(x.grad.tolist()), 4).tolist())
                x.grad = None
                v, i = x.sort(dim=0, descending=True)
                (v * lib.arange(5).float()).sum().backward()
                out['sort'] = (np.round(np.array(v.tolist()), 4).tolist(), i.tolist(),
                               np.round(np.array(x.grad.tolist()), 4).tolist())
                x.grad = None
                g = x.gather(1, lib.tensor([[0, 2], [1, 1], [4, 0]]))
                (g * 2).sum().backward()
                out['gather'] = (np.round(np.array(g.tolist()), 4).tolist(),
                                 np.round(np.array(x.grad.tolist()), 4).tolist())
            nan = float('nan')
            out['more'] = (lib.tensor([3, 1, 2]).argsort().tolist(),
                           lib.tensor([3.0, nan, 1.0, 2.0]).topk(2, largest=False).indices.tolist(),
                           lib.tensor([3.0, nan, 1.0]).sort(descending=True).indices.tolist(),
                           lib.tensor([3.0, nan, 1.0]).sort().indices.tolist(),
                           lib.tensor([5, -2, 7]).sort(descending=True).values.tolist())
            return out
        self.assertEqual(run(Gnn), run(torch))

    def test_format_like_torch(self):
        # f"{loss:.4f}": a 0-d tensor formats as its number
        for value in (0.123456, 3.0, -2.5e-7):
            for spec in ('.4f', '', '8.2e', 'g', '>12.3f'):
                self.assertEqual(format(Gnn.tensor(value), spec),
                                 format(torch.tensor(value), spec), (value, spec))
        self.assertEqual(f'{Gnn.tensor(7):d}', f'{torch.tensor(7):d}')
        self.assertEqual(f'{Gnn.tensor([1.0, 2.0])}', f'{Gnn.tensor([1.0, 2.0])!s}')
        with self.assertRaises(TypeError):   # as torch: no spec for a vector
            format(Gnn.tensor([1.0, 2.0]), '.2f')
        # the usual device choice runs unchanged on a CPU build
        self.assertEqual(Gnn.cuda.is_available(), torch.cuda.is_available())
        self.assertEqual(Gnn.backends.mps.is_available(), torch.backends.mps.is_available())

    def test_inplace_casts_like_torch(self):
        # an in-place op keeps the tensor's dtype: float64 or int operands
        # go into a float32 tensor, a float result into an int one is torch's
        # RuntimeError with its message
        a = np.array([1.5, -2.0], np.float32)
        for other in (np.array([0.25, 3.0]), np.array([2, 3])):
            t, g = to_torch(a), to_gnn(a)
            t += to_torch(other)
            g += to_gnn(other)
            self.compare(g, t, F32)
        ints = np.array([1, 2])
        for op_ in (lambda x: x.__iadd__(2.5), lambda x: x.__itruediv__(2),
                    lambda x: x.__imul__(x.float() if hasattr(x, 'float') else x)):
            with self.assertRaises(RuntimeError) as tcm:
                op_(to_torch(ints))
            with self.assertRaises(GLib.Error) as gcm:
                op_(to_gnn(ints))
            self.assertEqual(gcm.exception.message, str(tcm.exception))

    def test_integer_index_out_of_range(self):
        a = np.zeros((3, 4), np.float32)
        for key in (5, (0, -5), (slice(None), 4)):
            with self.assertRaises(IndexError) as tcm:
                to_torch(a)[key]
            with self.assertRaises(IndexError) as gcm:
                to_gnn(a)[key]
            self.assertEqual(str(gcm.exception), str(tcm.exception))

    def test_index_tensors_that_do_not_broadcast(self):
        # torch's IndexError and message (Python indexing raises Python's type)
        a, i, j = np.zeros((3, 4), np.float32), np.array([0, 1]), np.array([0, 1, 2])
        with self.assertRaises(IndexError) as tcm:
            to_torch(a)[to_torch(i), to_torch(j)]
        with self.assertRaises(IndexError) as gcm:
            to_gnn(a)[to_gnn(i), to_gnn(j)]
        self.assertEqual(str(gcm.exception), str(tcm.exception))

    def test_errors(self):
        for i, (name, inputs, fn, expect) in enumerate(ERRORS):
            with self.subTest(error=name):
                gnn_fn, torch_fn = fn if isinstance(fn, tuple) else (fn, fn)
                rng = np.random.default_rng(2000 + i)
                arrays = [make(spec, rng) for spec in inputs]
                with self.assertRaises((RuntimeError, IndexError, ValueError)) as tcm:
                    torch_fn(*[to_torch(a) for a in arrays])
                torch_msg = str(tcm.exception).split('\n')[0].strip()
                if expect is None:
                    expect = torch_msg
                else:
                    self.assertIn(expect, torch_msg, 'expected text is not in torch\'s message')
                with self.assertRaises(GLib.Error) as gcm:
                    gnn_fn(*[to_gnn(a) for a in arrays])
                self.assertEqual(gcm.exception.domain, 'gnn-error-quark')
                self.assertIn(expect, gcm.exception.message)


if __name__ == '__main__':
    unittest.main(verbosity=2)
