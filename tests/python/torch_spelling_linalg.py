# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cases of test_torch_spellings.py for torch.linalg's factorizations
and norms (gnn-linalg-lapack.c, gnn-linalg-decomp.c, gnn-linalg-lstsq.c,
gnn-linalg-norm.c): values, gradients, node names and torch's messages.
Singular vectors and eigenvectors enter only through sign-free losses."""

import numpy as np

from torch_spelling_composite import e
from torch_spelling_ops import A, grad, v


def D(*shape, seed=0):
    return A(*shape, dtype='float64', seed=seed)


def S(n, seed=0):
    a = D(n, n, seed=seed)
    return a @ a.T + n * np.eye(n)


def g(name, fn, *arrays):
    return ('grad ' + name, lambda s: grad(s, fn, *arrays), None)


def gv(name, fn, *arrays):
    """A gradient case whose first output is a composition (values and
    gradients compared, not the node's name)."""
    return ('grad ' + name, lambda s: grad(s, fn, *arrays, names=False), None)


CASES = [
    g('linalg.solve', lambda T, a, b: T.linalg.solve(a, b), S(3), D(3, 2)),
    g('linalg.inv', lambda T, a: T.linalg.inv(a), S(3)),
    g('inverse', lambda T, a: a.inverse(), S(3)),
    g('linalg.det', lambda T, a: T.linalg.det(a), D(3, 3)),
    g('det', lambda T, a: T.det(a), D(2, 3, 3)),
    g('det singular', lambda T, a: T.linalg.det(a), np.array([[1., 2], [2, 4]])),
    g('linalg.slogdet', lambda T, a: T.linalg.slogdet(a).logabsdet, D(3, 3)),
    g('linalg.cholesky', lambda T, a: T.linalg.cholesky(a), S(3)),
    g('linalg.qr R', lambda T, a: T.linalg.qr(a).R, D(4, 3)),
    g('linalg.qr Q', lambda T, a: T.linalg.qr(a)[0], D(3, 4)),
    g('linalg.qr complete', lambda T, a: T.linalg.qr(a, mode='complete').Q, D(3, 3)),
    g('qr', lambda T, a: T.qr(a).R, D(4, 3)),
    g('Tensor.qr', lambda T, a: a.qr()[1], D(2, 4, 3)),
    v('linalg.qr mode r', lambda s: s.T.linalg.qr(s.T.tensor(D(4, 3)), mode='r').R),
    g('linalg.eigvalsh', lambda T, a: T.linalg.eigvalsh(a), S(4)),
    g('linalg.eigvalsh UPLO', lambda T, a: T.linalg.eigvalsh(a, UPLO='U'), D(3, 3)),
    g('linalg.eigh eigenvalues', lambda T, a: T.linalg.eigh(a).eigenvalues, S(3)),
    gv('linalg.eigh eigenvectors', lambda T, a: T.linalg.eigh(a).eigenvectors ** 2, S(3)),
    g('linalg.svdvals', lambda T, a: T.linalg.svdvals(a), D(4, 3)),
    g('linalg.svd S', lambda T, a: T.linalg.svd(a).S, D(2, 3, 4)),
    gv('linalg.svd U', lambda T, a: T.linalg.svd(a, full_matrices=False).U ** 2, D(4, 3)),
    gv('linalg.svd Vh', lambda T, a: T.linalg.svd(a, full_matrices=False).Vh ** 2, D(3, 4)),
    gv('svd V', lambda T, a: T.svd(a).V ** 2, D(4, 3)),
    gv('Tensor.svd', lambda T, a: (lambda usv: usv[0] @ T.diag_embed(usv[1]) @ usv[2].mT)(a.svd()),
       D(3, 3)),
    g('linalg.lstsq', lambda T, a, b: T.linalg.lstsq(a, b).solution, D(5, 3), D(5, 2)),
    # (torch 1.13's backward fails for a vector B: values only)
    v('linalg.lstsq vector', lambda s: s.T.linalg.lstsq(s.T.tensor(D(5, 3)), s.T.tensor(D(5)),
                                                       driver='gelsd')[0]),
    v('linalg.lstsq residuals', lambda s: s.T.linalg.lstsq(s.T.tensor(D(5, 3)), s.T.tensor(D(5, 2)),
                                                          driver='gelsd').residuals),
    v('linalg.lstsq rank', lambda s: s.T.linalg.lstsq(s.T.tensor(D(5, 3)), s.T.tensor(D(5, 2))).rank),
    g('linalg.matrix_norm', lambda T, a: T.linalg.matrix_norm(a), D(3, 4)),
    g('linalg.matrix_norm nuc', lambda T, a: T.linalg.matrix_norm(a, 'nuc'), D(2, 3, 4)),
    g('linalg.matrix_norm 2', lambda T, a: T.linalg.matrix_norm(a, 2), D(3, 4)),
    g('linalg.matrix_norm -2 keepdim', lambda T, a: T.linalg.matrix_norm(a, -2, keepdim=True), D(3, 4)),
    g('linalg.matrix_norm 1', lambda T, a: T.linalg.matrix_norm(a, 1), D(3, 4)),
    g('linalg.matrix_norm inf dim', lambda T, a: T.linalg.matrix_norm(a, float('inf'), dim=(0, 2)),
      D(2, 3, 4)),
    g('norm nuc', lambda T, a: T.norm(a, 'nuc'), D(3, 4)),
    g('Tensor.norm nuc dim keepdim', lambda T, a: a.norm('nuc', dim=(1, 2), keepdim=True), D(2, 3, 4)),
    e('norm nuc 3-d', lambda T: T.norm(T.ones(2, 3, 4), 'nuc')),
    g('linalg.norm fro', lambda T, a: T.linalg.norm(a, 'fro'), D(3, 4)),
    g('linalg.norm nuc', lambda T, a: T.linalg.norm(a, 'nuc'), D(3, 4)),
    g('linalg.norm ord dim', lambda T, a: T.linalg.norm(a, 1, dim=1), D(3, 4)),
    g('linalg.norm matrix dims', lambda T, a: T.linalg.norm(a, -1, dim=(1, 2)), D(2, 3, 4)),
    e('linalg.eigh not square', lambda T: T.linalg.eigh(T.ones(2, 3))),
    e('linalg.svd 1-d', lambda T: T.linalg.svd(T.ones(3))),
    e('linalg.qr mode', lambda T: T.linalg.qr(T.ones(2, 2), mode='full')),
    e('linalg.lstsq rows', lambda T: T.linalg.lstsq(T.ones(3, 2), T.ones(4, 2))),
    e('linalg.matrix_norm order', lambda T: T.linalg.matrix_norm(T.ones(2, 2), 3)),
]
