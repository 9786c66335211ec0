# torch.linalg's qr, eigh, eigvalsh, svd, svdvals, lstsq, matrix_norm and
# norm, torch.svd / torch.qr, and det's gradient at singular matrices, side
# by side with PyTorch 1.13: values in float32 and float64, batches and
# broadcast batches, gradients (through losses that do not depend on the
# signs of singular vectors and eigenvectors, as torch's own tests do),
# grad_fn names, and torch's messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

RNG = np.random.default_rng(2626)
TOLS = ((np.float64, 1e-8), (np.float32, 5e-3))
FIELDS = ('Q', 'R', 'eigenvalues', 'eigenvectors', 'U', 'S', 'Vh', 'V', 'sign', 'logabsdet')


def sym(*shape):
    a = RNG.standard_normal(shape)
    return a + np.swapaxes(a, -1, -2)


def run(lib, fn, arrays, dtype, weights):
    """fn(lib, *tensors) -> a tuple of outputs; the gradients of
    sum(out_i * w_i) for every input."""
    ts = [lib.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    outs = fn(lib, *ts)
    if not isinstance(outs, tuple):
        outs = (outs,)
    if not weights:
        weights.extend(RNG.standard_normal(tuple(o.shape)).astype(dtype) for o in outs)
    loss = sum((o * lib.tensor(w)).sum() for o, w in zip(outs, weights))
    loss.backward()
    return [o.detach().numpy() for o in outs], [t.grad.numpy() for t in ts], \
        [o.grad_fn.name() for o in outs]


class DecompVsTorch(unittest.TestCase):
    def check(self, fn, *arrays, names=True, dtypes=TOLS):
        for dtype, tol in dtypes:
            weights = []
            want = run(torch, fn, arrays, dtype, weights)
            got = run(Gnn, fn, arrays, dtype, weights)
            for g, t in zip(got[0] + got[1], want[0] + want[1]):
                self.assertEqual(g.dtype, t.dtype)
                self.assertEqual(g.shape, t.shape)
                np.testing.assert_allclose(g, t, rtol=tol, atol=tol)
            if names:
                self.assertEqual(got[2], want[2])

    # --- values and gradients ---------------------------------------------------------

    def test_qr(self):
        for shape in ((4, 3), (3, 3), (3, 5), (2, 4, 3), (2, 3, 5)):
            a = RNG.standard_normal(shape)
            self.check(lambda lib, x: tuple(lib.linalg.qr(x)), a)
            self.check(lambda lib, x: lib.linalg.qr(x).R, a)
            self.check(lambda lib, x: lib.linalg.qr(x).Q, a)
        for shape in ((3, 3), (3, 5)):
            self.check(lambda lib, x: tuple(lib.linalg.qr(x, mode='complete')), RNG.standard_normal(shape))
        self.check(lambda lib, x: tuple(lib.qr(x)), RNG.standard_normal((4, 3)))
        self.check(lambda lib, x: tuple(x.qr(some=False))[1], RNG.standard_normal((3, 4)))
        for lib in (Gnn, torch):   # values only where the gradient is refused
            q, r = lib.linalg.qr(lib.tensor(RNG.standard_normal((5, 3))), mode='complete')
            self.assertEqual(tuple(q.shape), (5, 5))
            self.assertEqual(tuple(r.shape), (5, 3))
        a = RNG.standard_normal((5, 3))
        got = Gnn.linalg.qr(Gnn.tensor(a), mode='complete')
        want = torch.linalg.qr(torch.tensor(a), mode='complete')
        for g, t in zip(got, want):
            np.testing.assert_allclose(np.abs(g.numpy()[:, :3]), np.abs(t.numpy()[:, :3]), atol=1e-10)
        for lib in (Gnn, torch):
            q, r = lib.linalg.qr(lib.tensor(a), mode='r')
            self.assertEqual(tuple(q.shape), (0,))
        np.testing.assert_allclose(Gnn.linalg.qr(Gnn.tensor(a), mode='r').R.numpy(),
                                   torch.linalg.qr(torch.tensor(a), mode='r').R.numpy(), atol=1e-10)

    def test_eigh(self):
        for shape in ((1, 1), (4, 4), (2, 3, 3)):
            a = sym(*shape)
            self.check(lambda lib, x: lib.linalg.eigvalsh(x), a)
            self.check(lambda lib, x: lib.linalg.eigh(x).eigenvalues, a)
            # the eigenvectors' signs are free: losses on V∘V and V diag(L) Vᵀ
            self.check(lambda lib, x: (lambda lv: (lv[0], lv[1] * lv[1]))(lib.linalg.eigh(x)), a,
                       names=False)
            self.check(lambda lib, x: (lambda lv: lv[1] @ lib.diag_embed(lv[0] ** 2) @ lv[1].mT)(
                lib.linalg.eigh(x, UPLO='U')), a, names=False)
        # only one triangle is read
        a = sym(3, 3)
        a[0, 2] = 50.0
        self.check(lambda lib, x: lib.linalg.eigvalsh(x), a)
        self.check(lambda lib, x: lib.linalg.eigvalsh(x, UPLO='U'), a)

    def test_svd(self):
        for shape in ((4, 3), (3, 3), (3, 5), (2, 4, 3), (2, 3, 4)):
            a = RNG.standard_normal(shape)
            k = min(shape[-2:])
            self.check(lambda lib, x: lib.linalg.svdvals(x), a)
            self.check(lambda lib, x: lib.linalg.svd(x).S, a)
            self.check(lambda lib, x: (lambda usv: (usv[0] * usv[0], usv[1], usv[2] * usv[2]))(
                lib.linalg.svd(x, full_matrices=False)), a, names=False)
            self.check(lambda lib, x: (lambda usv: (usv[0][..., :k] ** 2, usv[2][..., :k, :] ** 2))(
                lib.linalg.svd(x)), a, names=False)
            self.check(lambda lib, x: (lambda usv: usv[0] @ lib.diag_embed(usv[1]) @ usv[2])(
                lib.linalg.svd(x, full_matrices=False)), a, names=False)
            self.check(lambda lib, x: (lambda usv: (usv[0] ** 2, usv[1], usv[2] ** 2))(lib.svd(x)), a,
                       names=False)
        for lib in (Gnn, torch):
            u, s, v = lib.svd(lib.ones(4, 3), compute_uv=False)
            self.assertEqual((tuple(u.shape), tuple(v.shape)), ((4, 4), (3, 3)))
            self.assertEqual(float(abs(u).sum() + abs(v).sum()), 0.0)
            self.assertEqual(tuple(lib.linalg.svd(lib.ones(4, 3)).U.shape), (4, 4))

    def test_matrix_norm(self):
        a = RNG.standard_normal((2, 3, 4))
        for ord in ('fro', 'nuc', 2, -2, 1, -1, float('inf'), -float('inf')):
            self.check(lambda lib, x: lib.linalg.matrix_norm(x, ord), a)
            self.check(lambda lib, x: lib.linalg.matrix_norm(x, ord, dim=(0, 2), keepdim=True), a)
            self.check(lambda lib, x: lib.linalg.matrix_norm(x, ord, dim=(-1, 0)), a)
            self.check(lambda lib, x: lib.linalg.norm(x[0], ord), a)
        self.check(lambda lib, x: lib.linalg.norm(x), a)
        self.check(lambda lib, x: lib.linalg.norm(x, dim=(1, 2)), a)
        self.check(lambda lib, x: lib.linalg.norm(x, 3, dim=1), a)
        self.check(lambda lib, x: lib.linalg.norm(x, 'nuc', dim=(1, 2), keepdim=True), a)
        self.check(lambda lib, x: lib.linalg.norm(x[0, 0], float('inf')), a)
        self.check(lambda lib, x: lib.linalg.matrix_norm(x, dtype=lib.float64), a,
                   dtypes=((np.float32, 1e-5),))

    def test_lstsq(self):
        cases = ((RNG.standard_normal((5, 3)), RNG.standard_normal((5, 2))),
                 (RNG.standard_normal((5, 3)), RNG.standard_normal(5)),            # a vector
                 (RNG.standard_normal((3, 5)), RNG.standard_normal((3, 2))),       # underdetermined
                 (RNG.standard_normal((2, 4, 3)), RNG.standard_normal((2, 4, 2))),
                 (RNG.standard_normal((1, 4, 3)), RNG.standard_normal((2, 4, 2))))  # broadcast
        for a, b in cases:
            for driver in (None, 'gelsd', 'gelss', 'gels'):
                if driver == 'gels' and a.shape[-2] < a.shape[-1]:
                    continue
                if b.ndim == a.ndim:   # torch 1.13's backward fails on vector B (IndexError)
                    self.check(lambda lib, x, y: lib.linalg.lstsq(x, y, driver=driver).solution, a, b)
                for dtype, tol in TOLS:
                    got = Gnn.linalg.lstsq(Gnn.tensor(a.astype(dtype)), Gnn.tensor(b.astype(dtype)),
                                           driver=driver)
                    want = torch.linalg.lstsq(torch.tensor(a.astype(dtype)),
                                              torch.tensor(b.astype(dtype)), driver=driver)
                    for g, t in zip(got, want):
                        self.assertEqual(tuple(g.shape), tuple(t.shape))
                        self.assertEqual(str(g.numpy().dtype), str(t.numpy().dtype))
                        np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=tol, atol=tol)
        # rank-deficient: gelsd's rank and its minimum-norm solution, no residuals
        a = np.array([[1., 2, 3], [2, 0, 2], [1, 1, 2], [0, 1, 1]])   # column 3 = 1 + 2
        b = RNG.standard_normal((4, 2))
        for lib in (Gnn, torch):
            r = lib.linalg.lstsq(lib.tensor(a), lib.tensor(b), driver='gelsd')
            self.assertEqual(int(r.rank), 2)
            self.assertEqual(tuple(r.residuals.shape), (0,))
        np.testing.assert_allclose(
            Gnn.linalg.lstsq(Gnn.tensor(a), Gnn.tensor(b), driver='gelsd').solution.numpy(),
            torch.linalg.lstsq(torch.tensor(a), torch.tensor(b), driver='gelsd').solution.numpy(),
            atol=1e-10)

    def test_det_singular_gradient(self):
        singular3 = np.array([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
        zero_pivot = np.array([[1., 2], [2, 4]])
        self.check(lambda lib, x: lib.linalg.det(x), singular3)
        self.check(lambda lib, x: lib.linalg.det(x), zero_pivot)
        self.check(lambda lib, x: lib.linalg.det(x), np.diag([1., 0, 2]))
        mixed = np.stack([zero_pivot, np.array([[1., 2], [3, 4]]), np.zeros((2, 2))])
        self.check(lambda lib, x: lib.linalg.det(x), mixed)
        self.check(lambda lib, x: lib.linalg.det(x), np.diag([2., 1e-17]))

    # --- messages -------------------------------------------------------------------------

    def test_errors(self):
        nan = [[float('nan'), 1.], [1., 1.]]
        cases = [
            lambda lib: lib.linalg.qr(lib.ones(3, 3), mode='x'),
            lambda lib: lib.linalg.qr(lib.ones(3)),
            lambda lib: lib.linalg.qr(lib.ones(3, 3, dtype=lib.long)),
            lambda lib: lib.linalg.eigh(lib.ones(4, 3)),
            lambda lib: lib.linalg.eigh(lib.ones(3)),
            lambda lib: lib.linalg.eigh(lib.ones(3, 3, dtype=lib.long)),
            lambda lib: lib.linalg.eigh(lib.eye(3), UPLO='X'),
            lambda lib: lib.linalg.eigvalsh(lib.ones(2, 3, 4)),
            lambda lib: lib.linalg.svd(lib.ones(3)),
            lambda lib: lib.linalg.svd(lib.ones(3, 3, dtype=lib.long)),
            lambda lib: lib.linalg.svd(lib.tensor(nan)),
            lambda lib: lib.linalg.svdvals(lib.stack([lib.eye(2), lib.tensor(nan)])),
            lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(4, 2)),
            lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(4)),
            lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(3, 2, dtype=lib.float64)),
            lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(3, 2), driver='foo'),
            lambda lib: lib.linalg.lstsq(lib.ones(3), lib.ones(3)),
            lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(2, 3, 2)),
            lambda lib: lib.linalg.matrix_norm(lib.ones(3)),
            lambda lib: lib.linalg.matrix_norm(lib.ones(3, 3), 3),
            lambda lib: lib.linalg.matrix_norm(lib.ones(3, 3), 'foo'),
            lambda lib: lib.linalg.matrix_norm(lib.ones(3, 3, dtype=lib.long)),
            lambda lib: lib.linalg.matrix_norm(lib.ones(3, 3), dim=(1, -1)),
            lambda lib: lib.linalg.norm(lib.ones(3, 3, 3), 'fro'),
            lambda lib: lib.linalg.norm(lib.ones(3, 3, 3), 2),
            lambda lib: lib.linalg.norm(lib.ones(3), 'fro'),
        ]
        for case in cases:
            with self.assertRaises(RuntimeError) as want:
                case(torch)
            with self.assertRaises(GLib.Error) as got:
                case(Gnn)
            self.assertEqual(got.exception.message, str(want.exception))

    def test_out(self):
        """out= for the tuple results: the tensors given are filled and
        returned in the named tuple; a tensor, or a tuple of the wrong
        length, is refused with torch's message."""
        a, s = RNG.standard_normal((4, 3)), sym(3, 3)
        cases = ((lambda lib: lib.linalg.qr, a, 2), (lambda lib: lib.linalg.eigh, s, 2),
                 (lambda lib: lib.linalg.svd, a, 3), (lambda lib: lib.linalg.slogdet, s, 2),
                 (lambda lib: lib.svd, a, 3), (lambda lib: lib.qr, a, 2))
        for get, array, n in cases:
            values = []
            for lib in (torch, Gnn):
                out = tuple(lib.empty(0, dtype=lib.float64) for _ in range(n))
                result = get(lib)(lib.tensor(array), out=out)
                for r, o in zip(result, out):
                    self.assertIs(r, o)
                fields = [f for f in FIELDS if hasattr(result, f)]
                values.append((fields, [np.abs(o.numpy()) for o in out]))
            self.assertEqual(values[1][0], values[0][0])
            for g, t in zip(values[1][1], values[0][1]):
                np.testing.assert_allclose(g, t, rtol=1e-10, atol=1e-10)
        for bad in (lambda lib: lib.empty(0), lambda lib: (lib.empty(0),)):
            messages = []
            for lib in (torch, Gnn):
                with self.assertRaises(TypeError) as raised:
                    lib.linalg.qr(lib.tensor(a), out=bad(lib))
                messages.append(str(raised.exception))
            self.assertEqual(messages[1], messages[0])

    def test_gradient_refused(self):
        for mode, shape in (('r', (3, 3)), ('complete', (4, 3))):
            for lib, error in ((torch, RuntimeError), (Gnn, GLib.Error)):
                x = lib.tensor(RNG.standard_normal(shape), requires_grad=True)
                with self.assertRaises(error) as raised:
                    lib.linalg.qr(x, mode=mode).R.sum().backward()
                message = getattr(raised.exception, 'message', None) or str(raised.exception)
                if lib is torch:
                    want = message
                else:
                    self.assertEqual(message, want)


if __name__ == '__main__':
    unittest.main()
