#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Everyday torch spellings, run verbatim on torch and on Gnn.

Each case is one expression written against a namespace `T` (torch, or
Gnn imported as torch) plus the helpers `nn`, `F`, `optim`; it runs on both
and the results are compared (tensors by value, dtype and shape; numbers;
strings with the 'torch.' / 'Gnn.' prefix dropped). A case may list the
other spelling Gnn needs; the counts verbatim / other spelling / missing are
printed, and at least 95% must run verbatim. The tensor ops' cases
(torch_spelling_ops.py) also compare gradients and node names.
"""

import os
import sys
import tempfile
import unittest

import numpy as np
import torch
import torch_spelling_composite
import torch_spelling_linalg
import torch_spelling_ops
import torch_spelling_order
import torch_spelling_sample
import torch_spelling_blocks
import torch_spelling_search
import torch_spelling_special
import torch.nn.functional
import torch.utils.data

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

torch.utils.data.TensorDataset  # noqa: B018  (imported for the data cases)


class Namespace(object):
    """T.<name> for both sides: torch's nested modules flattened like
    Gnn's (T.utils.data.X is T.X on Gnn)."""


def gnn_namespace():
    ns = Namespace()
    ns.T, ns.nn, ns.F, ns.optim = Gnn, Gnn.nn, Gnn.functional, Gnn.optim
    ns.data = Gnn
    return ns


def torch_namespace():
    ns = Namespace()
    ns.T, ns.nn, ns.F, ns.optim = torch, torch.nn, torch.nn.functional, torch.optim
    ns.data = torch.utils.data
    return ns


def A(*shape, dtype='float32', seed=0):
    rng = np.random.default_rng(seed + len(shape))
    return rng.standard_normal(shape).astype(dtype)


def linear_pair(T, nn):
    """A Linear(4, 3) whose weights are the same on both sides."""
    m = nn.Linear(4, 3)
    w = T.tensor(A(3, 4)).reshape(3, 4)
    b = T.tensor(A(3))
    with T.no_grad():
        m.weight.copy_(w)
        m.bias.copy_(b)
    return m


def train_step(ns, opt_name, **kw):
    T, nn = ns.T, ns.nn
    m = linear_pair(T, nn)
    opt = getattr(ns.optim, opt_name)(m.parameters(), lr=0.1, **kw)
    x = T.tensor(A(5, 4))
    for _ in range(3):
        opt.zero_grad()
        loss = m(x).pow(2).mean()
        loss.backward()
        opt.step()
    return m.weight


def under_no_grad(ns):
    x = ns.T.ones(2, requires_grad=True)
    with ns.T.no_grad():
        y = x * 2
    return y.requires_grad, (x * 2).requires_grad


def save_load(ns):
    m = linear_pair(ns.T, ns.nn)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'm.pt')
        ns.T.save(m.state_dict(), path)
        m2 = ns.nn.Linear(4, 3)
        m2.load_state_dict(ns.T.load(path, weights_only=True))
    return m2.weight


class Net(object):
    """The model class both sides subclass from their own nn.Module."""

    @staticmethod
    def make(nn):
        class Small(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(4, 8)
                self.act = nn.ReLU()
                self.fc2 = nn.Linear(8, 2)

            def forward(self, x):
                return self.fc2(self.act(self.fc1(x)))
        return Small()


def py_dataset(ns):
    class Squares(ns.data.Dataset):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return 6

        def __getitem__(self, i):
            return ns.T.tensor([float(i)]), i * i
    return Squares()


# (name, verbatim spelling, Gnn's other spelling or None)
CASES = [
    # creation
    ('tensor list', lambda s: s.T.tensor([[1.0, 2.0], [3.0, 4.0]]), None),
    ('tensor ints', lambda s: s.T.tensor([1, 2, 3]), None),
    ('tensor bools', lambda s: s.T.tensor([True, False]), None),
    ('tensor dtype', lambda s: s.T.tensor([1, 2], dtype=s.T.float64), None),
    ('tensor numpy', lambda s: s.T.tensor(A(2, 3)), None),
    ('from_numpy', lambda s: s.T.from_numpy(A(2, 2)), None),
    ('zeros', lambda s: s.T.zeros(2, 3), None),
    ('zeros tuple', lambda s: s.T.zeros((2, 3)), None),
    ('ones dtype', lambda s: s.T.ones(3, dtype=s.T.int64), None),
    ('full', lambda s: s.T.full((2, 2), 7.0), None),
    ('arange', lambda s: s.T.arange(5), None),
    ('arange float', lambda s: s.T.arange(0, 1, 0.25), None),
    ('zeros_like', lambda s: s.T.zeros_like(s.T.ones(2, 2)), None),
    ('ones_like', lambda s: s.T.ones_like(s.T.zeros(3)), None),
    ('empty shape', lambda s: s.T.empty(2, 3).shape, None),
    ('rand shape', lambda s: s.T.rand(3, 4).shape, None),
    ('randn dtype', lambda s: s.T.randn(2, 2).dtype, None),
    ('manual_seed', lambda s: s.T.manual_seed(0) is not None, None),
    ('cat', lambda s: s.T.cat([s.T.ones(2), s.T.zeros(3)]), None),
    ('cat dim', lambda s: s.T.cat([s.T.ones(2, 1), s.T.zeros(2, 2)], dim=1), None),
    ('stack', lambda s: s.T.stack([s.T.ones(2), s.T.zeros(2)]), None),
    # dtype and device
    ('dtype print', lambda s: str(s.T.tensor([1, 2]).dtype), None),
    ('float alias', lambda s: s.T.float == s.T.float32, None),
    ('long alias', lambda s: s.T.long == s.T.int64, None),
    ('.to(dtype)', lambda s: s.T.tensor([1, 2]).to(s.T.float32), None),
    ('.to("cpu")', lambda s: s.T.tensor([1.5]).to('cpu'), None),
    ('.type(dtype)', lambda s: s.T.tensor([1.7, 2.2]).type(s.T.int64), None),
    ('.float()', lambda s: s.T.tensor([1, 2]).float(), None),
    ('.double()', lambda s: s.T.tensor([1, 2]).double(), None),
    ('.long()', lambda s: s.T.tensor([1.9, -1.9]).long(), None),
    ('.device', lambda s: str(s.T.zeros(1).device), None),
    ('shape', lambda s: tuple(s.T.zeros(2, 3).shape), None),
    ('size()', lambda s: s.T.zeros(2, 3).size(), None),
    ('size(dim)', lambda s: s.T.zeros(2, 3).size(1), None),
    ('Size repr', lambda s: repr(s.T.zeros(2, 3).shape), None),
    ('ndim / dim()', lambda s: (s.T.zeros(2, 3).ndim, s.T.zeros(2).dim()), None),
    ('numel', lambda s: s.T.zeros(2, 3).numel(), None),
    # elementwise and comparison
    ('+ - * /', lambda s: (s.T.tensor(A(3)) + 1) * 2 - s.T.tensor(A(3)) / 4, None),
    ('int / int', lambda s: s.T.tensor([3, 4]) / 2, None),
    ('** and neg', lambda s: -s.T.tensor(A(3)) ** 2, None),
    ('==', lambda s: s.T.tensor([1, 2, 3]) == s.T.tensor([1, 0, 3]), None),
    ('!= scalar', lambda s: s.T.tensor([1, 2, 3]) != 2, None),
    ('< <= > >=', lambda s: [s.T.tensor(A(4)) < 0, s.T.tensor(A(4)) >= 0], None),
    ('matmul @', lambda s: s.T.tensor(A(2, 3)) @ s.T.tensor(A(3, 2)), None),
    ('matmul fn', lambda s: s.T.matmul(s.T.tensor(A(2, 3)), s.T.tensor(A(3, 4))), None),
    ('exp log', lambda s: s.T.exp(s.T.tensor([0.0, 1.0])).log(), None),
    ('sqrt abs', lambda s: s.T.tensor([-4.0, 9.0]).abs().sqrt(), None),
    ('relu method', lambda s: s.T.tensor(A(5)).relu(), None),
    ('sigmoid tanh', lambda s: s.T.sigmoid(s.T.tensor(A(3))).tanh(), None),
    ('where', lambda s: s.T.where(s.T.tensor(A(4)) > 0, s.T.ones(4), s.T.zeros(4)), None),
    ('clone detach', lambda s: s.T.tensor(A(2)).clone().detach(), None),
    ('add_ in place', lambda s: s.T.zeros(3).add_(1), None),
    ('mul_ in place', lambda s: s.T.ones(3).mul_(s.T.tensor([1.0, 2.0, 3.0])), None),
    ('zero_ fill_', lambda s: s.T.ones(2).fill_(3).zero_(), None),
    ('allclose', lambda s: s.T.allclose(s.T.ones(2), s.T.ones(2)), None),
    ('equal', lambda s: s.T.equal(s.T.ones(2), s.T.ones(2)), None),
    # reductions
    ('sum', lambda s: s.T.tensor(A(3, 4)).sum(), None),
    ('sum dim', lambda s: s.T.tensor(A(3, 4)).sum(dim=1), None),
    ('mean keepdim', lambda s: s.T.tensor(A(3, 4)).mean(0, keepdim=True), None),
    ('max', lambda s: s.T.tensor(A(3, 4)).max(), None),
    ('max dim', lambda s: tuple(s.T.tensor(A(3, 4)).max(dim=1)), None),
    ('min dim', lambda s: s.T.tensor(A(3, 4)).min(1).values, None),
    ('argmax', lambda s: s.T.tensor(A(3, 4)).argmax(1), None),
    ('argmax all', lambda s: s.T.tensor(A(3, 4)).argmax(), None),
    ('item', lambda s: s.T.tensor([2.5]).item(), None),
    ('int item', lambda s: s.T.tensor(7).item(), None),
    ('tolist', lambda s: s.T.tensor([[1, 2], [3, 4]]).tolist(), None),
    ('float()', lambda s: float(s.T.tensor(1.5)), None),
    ('__index__', lambda s: [10, 20, 30][s.T.tensor(1)], None),
    # shapes and indexing
    ('view', lambda s: s.T.arange(6).view(2, 3), None),
    ('view -1', lambda s: s.T.arange(6).view(-1, 2), None),
    ('reshape tuple', lambda s: s.T.arange(6).reshape((3, 2)), None),
    ('flatten', lambda s: s.T.zeros(2, 3, 4).flatten(1).shape, None),
    ('squeeze', lambda s: s.T.zeros(1, 3, 1).squeeze().shape, None),
    ('squeeze dim', lambda s: s.T.zeros(1, 3).squeeze(0).shape, None),
    ('unsqueeze', lambda s: s.T.zeros(3).unsqueeze(0).shape, None),
    ('permute', lambda s: s.T.zeros(2, 3, 4).permute(2, 0, 1).shape, None),
    ('transpose .T', lambda s: [s.T.tensor(A(2, 3)).T, s.T.tensor(A(2, 3)).transpose(0, 1)],
     None),
    ('index int slice', lambda s: s.T.arange(12).view(3, 4)[1, 1:3], None),
    ('index step', lambda s: s.T.arange(10)[::3], None),
    ('index None ...', lambda s: s.T.arange(6).view(2, 3)[None, ..., 0], None),
    ('bool mask', lambda s: (lambda t: t[t > 0])(s.T.tensor(A(6))), None),
    ('int tensor index', lambda s: s.T.arange(10)[s.T.tensor([3, 1, 4])], None),
    ('list index', lambda s: s.T.arange(10).view(5, 2)[[0, 4]], None),
    ('mask assign', lambda s: (lambda t: (t.__setitem__(t < 0, 0.0), t)[1])(s.T.tensor(A(6))),
     None),
    ('slice assign', lambda s: (lambda t: (t.__setitem__(slice(1, 3), 5), t)[1])(s.T.zeros(4)),
     None),
    ('iterate rows', lambda s: [r.sum() for r in s.T.tensor(A(3, 2))], None),
    ('len', lambda s: len(s.T.zeros(5, 2)), None),
    ('numpy()', lambda s: s.T.tensor(A(2, 2)).numpy(), None),
    # autograd
    ('backward grad', lambda s: (lambda x: ((x * x).sum().backward(), x.grad)[1])(
        s.T.tensor([1.0, 2.0], requires_grad=True)), None),
    ('requires_grad_', lambda s: s.T.zeros(2).requires_grad_().requires_grad, None),
    ('no_grad', lambda s: under_no_grad(s), None),
    ('.data', lambda s: s.T.ones(2, requires_grad=True).data.requires_grad, None),
    ('is_leaf', lambda s: s.T.ones(2, requires_grad=True).is_leaf, None),
    # nn
    ('Linear positional', lambda s: s.nn.Linear(4, 3).weight.shape, None),
    ('Linear bias=False', lambda s: s.nn.Linear(4, 3, bias=False).bias is None, None),
    ('Linear call', lambda s: linear_pair(s.T, s.nn)(s.T.tensor(A(2, 4))), None),
    ('Conv2d int', lambda s: s.nn.Conv2d(1, 4, 3).weight.shape, None),
    ('Conv2d tuple', lambda s: s.nn.Conv2d(2, 4, (3, 1), stride=2, padding=1).weight.shape,
     None),
    ('MaxPool2d', lambda s: s.nn.MaxPool2d(2)(s.T.tensor(A(1, 1, 4, 4))), None),
    ('AvgPool2d', lambda s: s.nn.AvgPool2d(2, stride=1)(s.T.tensor(A(1, 1, 3, 3))), None),
    ('BatchNorm1d', lambda s: s.nn.BatchNorm1d(3)(s.T.tensor(A(4, 3))), None),
    ('BatchNorm2d eval', lambda s: s.nn.BatchNorm2d(2).eval()(s.T.tensor(A(1, 2, 2, 2))), None),
    ('Dropout eval', lambda s: s.nn.Dropout(0.3).eval()(s.T.ones(4)), None),
    ('Embedding shape', lambda s: s.nn.Embedding(10, 3)(s.T.tensor([1, 2])).shape, None),
    ('LayerNorm', lambda s: s.nn.LayerNorm(4)(s.T.tensor(A(2, 4))), None),
    ('Flatten ReLU', lambda s: s.nn.Sequential(s.nn.Flatten(), s.nn.ReLU())(
        s.T.tensor(A(2, 2, 2))), None),
    ('Softmax dim', lambda s: s.nn.Softmax(dim=1)(s.T.tensor(A(2, 3))), None),
    ('Sequential *mods', lambda s: len(s.nn.Sequential(s.nn.ReLU(), s.nn.Identity())), None),
    ('Module subclass', lambda s: [p.shape for p in Net.make(s.nn).parameters()], None),
    ('named_parameters', lambda s: [n for n, _ in Net.make(s.nn).named_parameters()], None),
    ('state_dict keys', lambda s: list(Net.make(s.nn).state_dict().keys()), None),
    ('model.to(dtype)', lambda s: Net.make(s.nn).to(s.T.float64).fc1.weight.dtype, None),
    ('model.double()', lambda s: Net.make(s.nn).double().fc2.bias.dtype, None),
    ('model.to("cpu")', lambda s: Net.make(s.nn).to('cpu').training, None),
    ('train/eval', lambda s: Net.make(s.nn).eval().training, None),
    ('Parameter', lambda s: s.nn.Parameter(s.T.ones(2)).requires_grad, None),
    ('Parameter no grad', lambda s: s.nn.Parameter(s.T.ones(2), requires_grad=False)
     .requires_grad, None),
    ('CrossEntropyLoss', lambda s: s.nn.CrossEntropyLoss()(s.T.tensor(A(4, 3)),
                                                           s.T.tensor([0, 2, 1, 0])), None),
    ('MSELoss sum', lambda s: s.nn.MSELoss(reduction='sum')(s.T.tensor(A(3)), s.T.zeros(3)),
     None),
    ('F.relu', lambda s: s.F.relu(s.T.tensor(A(4))), None),
    ('F.softmax', lambda s: s.F.softmax(s.T.tensor(A(2, 3)), dim=1), None),
    ('F.log_softmax', lambda s: s.F.log_softmax(s.T.tensor(A(2, 3)), dim=-1), None),
    ('F.cross_entropy', lambda s: s.F.cross_entropy(s.T.tensor(A(4, 3)),
                                                    s.T.tensor([0, 2, 1, 0])), None),
    ('F.nll_loss', lambda s: s.F.nll_loss(s.T.tensor(A(4, 3)).log_softmax(1),
                                          s.T.tensor([0, 2, 1, 0])), None),
    ('F.mse_loss', lambda s: s.F.mse_loss(s.T.tensor(A(3)), s.T.ones(3)), None),
    # optim
    ('SGD momentum', lambda s: train_step(s, 'SGD', momentum=0.9), None),
    ('Adam', lambda s: train_step(s, 'Adam'), None),
    ('AdamW', lambda s: train_step(s, 'AdamW', weight_decay=0.1), None),
    ('param_groups lr', lambda s: (lambda o: (o.param_groups[0].__setitem__('lr', 0.5),
                                              o.param_groups[0]['lr'])[1])(
        s.optim.SGD(s.nn.Linear(2, 2).parameters(), lr=0.1)), None),
    ('StepLR', lambda s: (lambda o: (lambda sch: [sch.step() for _ in range(3)] and
                                     sch.get_last_lr())(
        s.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)))(
        s.optim.SGD(s.nn.Linear(2, 2).parameters(), lr=0.1)), None),
    ('CosineAnnealingLR', lambda s: (lambda o: (lambda sch: [sch.step() for _ in range(2)] and
                                                sch.get_last_lr())(
        s.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4)))(
        s.optim.SGD(s.nn.Linear(2, 2).parameters(), lr=0.1)), None),
    ('save/load', save_load, None),
    # data
    ('TensorDataset', lambda s: s.data.TensorDataset(s.T.arange(4), s.T.arange(4) * 2)[2],
     None),
    ('DataLoader batches', lambda s: [b for b in s.data.DataLoader(
        s.data.TensorDataset(s.T.arange(5)), batch_size=2)], None),
    ('DataLoader drop_last', lambda s: len(s.data.DataLoader(
        s.data.TensorDataset(s.T.arange(5)), batch_size=2, drop_last=True)), None),
    ('DataLoader attrs', lambda s: (lambda dl: (dl.batch_size, dl.num_workers, dl.drop_last))(
        s.data.DataLoader(s.data.TensorDataset(s.T.arange(5)), batch_size=3,
                          pin_memory=True)), None),
    ('Dataset __getitem__', lambda s: [b for b in s.data.DataLoader(py_dataset(s),
                                                                    batch_size=4)], None),
    ('Dataset len', lambda s: len(s.data.DataLoader(py_dataset(s), batch_size=4)), None),
    ('Subset', lambda s: len(s.data.Subset(s.data.TensorDataset(s.T.arange(5)), [0, 2])), None),
    ('ConcatDataset', lambda s: len(s.data.ConcatDataset(
        [s.data.TensorDataset(s.T.arange(3)), s.data.TensorDataset(s.T.arange(2))])), None),
    ('SequentialSampler', lambda s: list(s.data.SequentialSampler(
        s.data.TensorDataset(s.T.arange(4)))), None),
    ('BatchSampler', lambda s: list(s.data.BatchSampler(s.data.SequentialSampler(
        s.data.TensorDataset(s.T.arange(5))), batch_size=2, drop_last=False)), None),
    ('collate_fn', lambda s: [b for b in s.data.DataLoader(
        s.data.TensorDataset(s.T.arange(4)), batch_size=2,
        collate_fn=lambda items: s.T.stack([i[0] for i in items]).sum())], None),
]


# the tensor ops: values, dtypes, gradients and node names (torch_spelling_ops.py)
CASES += torch_spelling_ops.CASES
CASES += torch_spelling_composite.CASES
CASES += torch_spelling_sample.CASES
CASES += torch_spelling_order.CASES
CASES += torch_spelling_special.CASES
CASES += torch_spelling_search.CASES
CASES += torch_spelling_blocks.CASES
CASES += torch_spelling_linalg.CASES


def construct_props(type_name, prop):
    """Whether Gnn.<type_name> can be built from `prop` (the samplers'
    properties become construct properties with the data helper's work)."""
    from gi.repository import GObject
    pspec = getattr(Gnn, type_name).find_property(prop)
    return bool(pspec.flags & GObject.ParamFlags.WRITABLE)


# cases that wait for construct properties: name -> (type, property)
PENDING = {'SequentialSampler': ('SequentialSampler', 'data-source'),
           'BatchSampler': ('BatchSampler', 'batch-size')}


def as_comparable(value):
    if isinstance(value, (torch.Tensor, Gnn.Tensor, np.ndarray)):
        array = value if isinstance(value, np.ndarray) else value.detach().numpy()
        return ('tensor', str(array.dtype), array.shape, array)
    if isinstance(value, (list, tuple)):
        return [as_comparable(v) for v in value]
    if isinstance(value, (torch.dtype, Gnn.dtype)):
        return str(value).split('.')[-1]
    if isinstance(value, str):
        return value.replace('torch.', '').replace('Gnn.', '')
    return value


def same(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple) and a and a[0] == 'tensor':
        return (isinstance(b, tuple) and a[1:3] == b[1:3] and
                np.allclose(a[3], b[3], rtol=1e-4, atol=1e-5, equal_nan=True))
    if isinstance(a, float) or isinstance(b, float):
        return np.isclose(a, b, rtol=1e-5)
    return a == b


def attempt(spelling, ns, expected):
    try:
        got = as_comparable(spelling(ns))
    except Exception as exc:  # noqa: BLE001 - a missing spelling is counted
        return 'raised %s: %s' % (type(exc).__name__, exc)
    return None if same(expected, got) else 'differs: %r vs torch %r' % (got, expected)


class Spellings(unittest.TestCase):
    def test_spellings_verbatim(self):
        verbatim, other, missing = [], [], []
        pending = [name for name, (t, p) in PENDING.items() if not construct_props(t, p)]
        for name, spelling, alternative in CASES:
            if name in pending:
                continue
            torch.manual_seed(0)
            with self.subTest(torch_case=name):
                expected = as_comparable(spelling(torch_namespace()))
            problem = attempt(spelling, gnn_namespace(), expected)
            if problem is None:
                verbatim.append(name)
            elif alternative is not None and attempt(alternative, gnn_namespace(),
                                                     expected) is None:
                other.append(name)
            else:
                missing.append('%s: %s' % (name, problem))
        n_grad = sum(1 for name, _, _ in CASES if name.startswith('grad '))
        sys.stderr.write('torch spellings: %d cases (%d with gradients), %d verbatim, %d other '
                         'spelling, %d missing, %d waiting for construct properties (%s)\n'
                         % (len(CASES), n_grad, len(verbatim), len(other), len(missing),
                            len(pending), ', '.join(pending)))
        for line in missing:
            sys.stderr.write('  missing: %s\n' % line)
        self.assertGreaterEqual(len(CASES), 400)
        self.assertEqual(missing, [])
        self.assertGreaterEqual(len(verbatim), 0.95 * len(CASES))


if __name__ == '__main__':
    unittest.main()
