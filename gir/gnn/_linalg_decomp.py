# _linalg_decomp.py: torch.linalg's qr, eigh, eigvalsh, svd, svdvals, lstsq,
# matrix_norm and norm (gnn-linalg-decomp.c, gnn-linalg-lstsq.c,
# gnn-linalg-norm.c) as torch.linalg.* functions, the older torch.svd /
# torch.qr and Tensor methods, with torch's named tuples. Argument mapping only.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections

from ._gi import Gnn, export
from ._tensor import Tensor
from ._tensor_math import with_out
from ._tensor_reduce import _linalg, _cast

_LinalgQr = collections.namedtuple('linalg_qr', ['Q', 'R'])
_Qr = collections.namedtuple('qr', ['Q', 'R'])
_LinalgEigh = collections.namedtuple('linalg_eigh', ['eigenvalues', 'eigenvectors'])
_LinalgSvd = collections.namedtuple('linalg_svd', ['U', 'S', 'Vh'])
_Svd = collections.namedtuple('svd', ['U', 'S', 'V'])
_LinalgLstsq = collections.namedtuple('linalg_lstsq',
                                      ['solution', 'residuals', 'rank', 'singular_values'])


def _ord_text(ord):
    """torch's ord (a number or 'fro' / 'nuc') as the C functions read it."""
    if ord is None or isinstance(ord, str):
        return ord
    return repr(float(ord))


def qr(A, mode='reduced'):
    return _LinalgQr(*Gnn.Tensor.linalg_qr(A, mode))


def eigh(A, UPLO='L'):
    return _LinalgEigh(*Gnn.Tensor.linalg_eigh(A, UPLO))


def eigvalsh(A, UPLO='L'):
    return Gnn.Tensor.linalg_eigvalsh(A, UPLO)


def svd(A, full_matrices=True, *, driver=None):
    return _LinalgSvd(*Gnn.Tensor.linalg_svd(A, bool(full_matrices)))


def svdvals(A, *, driver=None):
    return Gnn.Tensor.linalg_svdvals(A)


def lstsq(A, B, rcond=None, *, driver=None):
    return _LinalgLstsq(*Gnn.Tensor.linalg_lstsq(A, B, -1.0 if rcond is None else float(rcond),
                                                  driver))


def matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None):
    dim = tuple(dim)
    if len(dim) != 2:
        raise RuntimeError('linalg.matrix_norm: dim must be a 2-tuple. Got %s'
                           % ' '.join(str(d) for d in dim))
    d0, d1 = dim
    return Gnn.Tensor.linalg_matrix_norm(_cast(A, dtype), _ord_text(ord), int(d0), int(d1),
                                         bool(keepdim))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    dims = None if dim is None else ([int(dim)] if isinstance(dim, int) else [int(d) for d in dim])
    return Gnn.Tensor.linalg_norm(_cast(A, dtype), _ord_text(ord), dims, bool(keepdim))


def _svd(input, some=True, compute_uv=True):
    return _Svd(*Gnn.Tensor.svd(input, bool(some), bool(compute_uv)))


def _qr(input, some=True):
    return _Qr(*Gnn.Tensor.linalg_qr(input, 'reduced' if some else 'complete'))


_linalg.qr = with_out(qr, 'linalg_qr')
_linalg.eigh = with_out(eigh, 'linalg_eigh')
_linalg.eigvalsh = with_out(eigvalsh)
_linalg.svd = with_out(svd, 'linalg_svd')
_linalg.svdvals = with_out(svdvals)
_linalg.lstsq = lstsq
_linalg.matrix_norm = with_out(matrix_norm)
_linalg.norm = with_out(norm)

Tensor.svd = _svd
Tensor.qr = _qr
export(with_out(_svd, 'svd'), 'svd')
export(with_out(_qr, 'qr'), 'qr')
