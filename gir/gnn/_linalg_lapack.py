# _linalg_lapack.py: torch.linalg's solve, inv, det, slogdet and cholesky
# (gnn-linalg-lapack.c, LAPACK) as torch.linalg.* functions, torch.* functions
# and Tensor methods, with torch's named tuples. Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections

from ._gi import Gnn, export
from ._tensor import Tensor
from ._tensor_math import with_out
from ._tensor_reduce import _linalg

_LinalgSlogdet = collections.namedtuple('linalg_slogdet', ['sign', 'logabsdet'])
_Slogdet = collections.namedtuple('slogdet', ['sign', 'logabsdet'])


def solve(A, B, *, left=True):
    if not left:    # X A = B  <=>  Aᵀ Xᵀ = Bᵀ
        return Gnn.Tensor.linalg_solve(A.mT, B.mT).mT
    return Gnn.Tensor.linalg_solve(A, B)


def inv(A):
    return Gnn.Tensor.linalg_inv(A)


def det(A):
    return Gnn.Tensor.linalg_det(A)


def _slogdet(A):
    logabsdet, sign = Gnn.Tensor.linalg_slogdet(A)
    return sign, logabsdet


def cholesky(A, *, upper=False):
    return Gnn.Tensor.linalg_cholesky(A, bool(upper))


_linalg.solve = with_out(solve)
_linalg.inv = with_out(inv)
_linalg.det = with_out(det)
_linalg.slogdet = with_out(lambda A: _LinalgSlogdet(*_slogdet(A)), 'linalg_slogdet')
_linalg.cholesky = with_out(cholesky)

Tensor.inverse = inv
Tensor.det = det
Tensor.slogdet = lambda self: _Slogdet(*_slogdet(self))
Tensor.cholesky = lambda self, upper=False: cholesky(self, upper=upper)
export(with_out(inv), 'inverse')
export(det)
export(lambda input: Tensor.slogdet(input), 'slogdet')
export(with_out(lambda input, upper=False: cholesky(input, upper=upper)), 'cholesky')
