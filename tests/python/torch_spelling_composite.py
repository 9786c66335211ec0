# SPDX-License-Identifier: LGPL-2.1-or-later
"""The composite-op cases of test_torch_spellings.py (gnn-tensor-composite.c:
tile, broadcast_to/broadcast_tensors, meshgrid, atleast_Nd, the *stack ops,
diff, tensor_split, repeat_interleave, take_along_dim, cartesian_prod, mT,
nelement): values, dtypes, gradients and node names against torch 1.13, and
torch's messages for bad input."""

from torch_spelling_ops import A, I, g, v


def message(fn):
    """The text of the error fn raises (torch's RuntimeError, Gnn's
    GLib.Error)."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the message is compared
        return getattr(exc, 'message', None) or str(exc).split('\n')[0]
    return 'no error'


def e(name, fn):
    """An error case: fn(T) must fail with torch's message."""
    return v('error ' + name, lambda s: message(lambda: fn(s.T)))


CASES = [
    g('tile', lambda T, x: x.tile(2), A(3, 2)),
    g('tile more dims', lambda T, x: T.tile(x, (2, 1, 3)), A(2, 3)),
    g('broadcast_to', lambda T, x: T.broadcast_to(x, (4, 3)), A(3)),
    g('broadcast_to method', lambda T, x: x.broadcast_to((2, 2, 3)), A(1, 3)),
    g('broadcast_tensors', lambda T, x, y: (lambda r: r[0] * r[1])(T.broadcast_tensors(x, y)),
      A(3, 1), A(4)),
    g('meshgrid ij', lambda T, x, y: (lambda r: r[0] + 2 * r[1])(T.meshgrid(x, y, indexing='ij')),
      A(3), A(4, seed=1)),
    g('meshgrid xy', lambda T, x, y: (lambda r: r[0] * r[1])(T.meshgrid([x, y], indexing='xy')),
      A(3), A(4, seed=1)),
    g('atleast_3d', lambda T, x: T.atleast_3d(x), A(4)),
    g('atleast_2d', lambda T, x: T.atleast_2d(x), A(4)),
    v('atleast_1d many', lambda s: s.T.atleast_1d(s.T.tensor(1.), s.T.ones(2, 2))),
    v('atleast_3d matrix', lambda s: s.T.atleast_3d(s.T.ones(2, 3)).shape),
    g('hstack', lambda T, x, y: T.hstack([x, y]), A(2, 3), A(2, 1)),
    g('hstack vectors', lambda T, x, y: T.hstack((x, y)), A(3), A(2)),
    g('vstack', lambda T, x, y: T.vstack([x, y]), A(3), A(2, 3)),
    v('row_stack', lambda s: s.T.row_stack([s.T.arange(3), s.T.arange(3)])),
    g('dstack', lambda T, x, y: T.dstack([x, y]), A(2, 3), A(2, 3, seed=1)),
    g('column_stack', lambda T, x, y: T.column_stack([x, y]), A(3), A(3, 2)),
    v('hstack out', lambda s: (lambda o: (s.T.hstack([s.T.ones(2), s.T.zeros(1)], out=o), o)[1])(
        s.T.empty(0))),
    g('diff', lambda T, x: x.diff(), A(3, 4)),
    g('diff twice dim 0', lambda T, x: T.diff(x, n=2, dim=0), A(4, 3)),
    g('diff prepend append', lambda T, x, p, a: T.diff(x, prepend=p, append=a), A(2, 3),
      A(2, 1), A(2, 2)),
    v('diff bool', lambda s: s.T.diff(s.T.tensor([True, False, False, True]))),
    v('diff int', lambda s: s.T.diff(s.T.tensor([1, 4, 9, 16]), 2)),
    v('diff too many', lambda s: s.T.diff(s.T.arange(3.), 5)),
    g('tensor_split sections', lambda T, x: T.tensor_split(x, 3)[0], A(7, 2)),
    g('tensor_split indices', lambda T, x: x.tensor_split([1, 4], dim=1)[1], A(2, 6)),
    v('tensor_split count', lambda s: [t.shape for t in s.T.tensor_split(s.T.arange(7), 3)]),
    v('tensor_split out of range', lambda s: s.T.tensor_split(s.T.arange(5), [2, 9, 1])),
    v('tensor_split tensor', lambda s: s.T.tensor_split(s.T.arange(6), s.T.tensor([2, 3]))),
    g('repeat_interleave', lambda T, x: x.repeat_interleave(2), A(2, 2)),
    g('repeat_interleave dim', lambda T, x: T.repeat_interleave(x, 3, dim=1), A(2, 2)),
    g('repeat_interleave counts', lambda T, x, r: x.repeat_interleave(r, dim=0), A(3, 2),
      I(3, high=3)),
    v('repeat_interleave index', lambda s: s.T.repeat_interleave(s.T.tensor([2, 0, 3]))),
    g('take_along_dim', lambda T, x, i: T.take_along_dim(x, i, dim=1), A(3, 4), I(3, 2, high=4)),
    g('take_along_dim broadcast', lambda T, x, i: x.take_along_dim(i, 0), A(3, 4),
      I(2, 1, high=3)),
    g('take_along_dim flat', lambda T, x, i: T.take_along_dim(x, i), A(3, 4), I(5, high=12)),
    v('take_along_dim argsort', lambda s: (lambda x: s.T.take_along_dim(
        x, x.argsort(dim=1), dim=1))(s.T.tensor([[3., 1, 2], [0, 5, 4]]))),
    g('cartesian_prod', lambda T, x, y: T.cartesian_prod(x, y), A(3), A(2, seed=1)),
    v('cartesian_prod int', lambda s: s.T.cartesian_prod(s.T.arange(2), s.T.arange(3),
                                                         s.T.arange(2))),
    g('mT', lambda T, x: x.mT, A(2, 3, 4)),
    v('nelement', lambda s: s.T.ones(3, 4).nelement()),
    e('repeat_interleave float counts',
      lambda T: T.ones(3).repeat_interleave(T.tensor([1., 2, 3]))),
    e('repeat_interleave counts size',
      lambda T: T.ones(3, 2).repeat_interleave(T.tensor([1, 2]), 0)),
    e('repeat_interleave 2-d counts',
      lambda T: T.ones(3, 2).repeat_interleave(T.tensor([[1, 2]]), 0)),
    e('repeat_interleave negative', lambda T: T.ones(3).repeat_interleave(-1)),
    e('repeat_interleave index 0-d', lambda T: T.repeat_interleave(T.tensor(2))),
    # torch prints the tensor after "but got:"
    v('error meshgrid 2-d', lambda s: message(lambda: s.T.meshgrid(
        s.T.ones(2), s.T.ones(2, 2), indexing='ij')).split(' but got')[0]),
    e('meshgrid dtypes', lambda T: T.meshgrid(T.ones(2), T.arange(2), indexing='ij')),
    e('cartesian_prod 2-d', lambda T: T.cartesian_prod(T.ones(3, 2), T.ones(2))),
    e('diff 0-d', lambda T: T.diff(T.tensor(1.))),
    e('diff prepend dims', lambda T: T.diff(T.ones(3, 2), prepend=T.ones(2))),
    e('tensor_split 0 sections', lambda T: T.tensor_split(T.ones(3), 0)),
    e('tensor_split 0-d', lambda T: T.tensor_split(T.tensor(1.), 2)),
    e('take_along_dim int32',
      lambda T: T.take_along_dim(T.ones(3, 2), T.tensor([[0]], dtype=T.int32), 1)),
    e('take_along_dim dims', lambda T: T.take_along_dim(T.ones(3, 2), T.tensor([0]), 1)),
    e('hstack empty', lambda T: T.hstack([])),
    e('vstack empty', lambda T: T.vstack([])),
    e('broadcast_tensors', lambda T: T.broadcast_tensors(T.ones(2), T.ones(3))),
    e('mT vector', lambda T: T.ones(3).mT),
]
