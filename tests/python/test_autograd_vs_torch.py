"""Gradients of Gnn ops and losses against torch 1.13 (float64 inputs)."""
import sys

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn
import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(7)
failures = []


def gnn_tensor(a, requires_grad=True):
    t = Gnn.Tensor.new_from_doubles(a.ravel().tolist(), list(a.shape))
    t.set_requires_grad(requires_grad)
    return t


def gnn_long(a):
    return Gnn.Tensor.new_from_int64s(np.asarray(a).ravel().tolist(), list(np.shape(a)))


def values(t):
    shape = list(t.get_shape())
    return np.array(t.to_doubles()).reshape(shape)


def check(name, gnn_fn, torch_fn, shapes, offset=0.0):
    arrays = [rng.standard_normal(s) + offset for s in shapes]
    g_in = [gnn_tensor(a) for a in arrays]
    t_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    g_out = gnn_fn(*g_in)
    t_out = torch_fn(*t_in)
    weights = rng.standard_normal(tuple(t_out.shape))
    g_loss = g_out.mul(gnn_tensor(weights, False)).sum(None, False)
    (t_out * torch.tensor(weights)).sum().backward()
    g_loss.backward()
    ok = np.allclose(values(g_out), t_out.detach().numpy(), rtol=1e-9, atol=1e-10)
    for gi_, ti in zip(g_in, t_in):
        ok = ok and np.allclose(values(gi_.grad), ti.grad.numpy(), rtol=1e-7, atol=1e-9)
    name_torch = type(t_out.grad_fn).__name__
    print('%s %s (%s / torch %s)' % ('ok' if ok else 'FAIL', name, g_out.grad_fn_name, name_torch))
    if not ok:
        failures.append(name)


R = Gnn.Reduction
ops = [
    ('add', lambda a, b: a.add(b), lambda a, b: a + b, [(2, 3, 4), (3, 1)]),
    ('sub', lambda a, b: a.sub(b), lambda a, b: a - b, [(3, 1), (2, 3, 4)]),
    ('mul', lambda a, b: a.mul(b), lambda a, b: a * b, [(2, 3, 4), (4,)]),
    ('div', lambda a, b: a.div(b), lambda a, b: a / b, [(2, 3), (2, 1)]),
    ('pow', lambda a: a.pow(3.0), lambda a: a.pow(3.0), [(3, 4)]),
    ('relu', lambda a: a.relu(), torch.relu, [(3, 4)]),
    ('gelu', lambda a: a.gelu(), F.gelu, [(3, 4)]),
    ('tanh', lambda a: a.tanh(), torch.tanh, [(3, 4)]),
    ('sigmoid', lambda a: a.sigmoid(), torch.sigmoid, [(3, 4)]),
    ('exp', lambda a: a.exp(), torch.exp, [(3, 4)]),
    ('abs', lambda a: a.abs(), torch.abs, [(3, 4)]),
    ('sum-dim', lambda a: a.sum([1], False), lambda a: a.sum(1), [(2, 3, 4)]),
    ('mean-keepdim', lambda a: a.mean([0, 2], True), lambda a: a.mean((0, 2), keepdim=True), [(2, 3, 4)]),
    ('amax', lambda a: a.max([1], False), lambda a: a.amax(1), [(2, 3, 4)]),
    ('softmax', lambda a: a.softmax(1), lambda a: a.softmax(1), [(2, 5)]),
    ('log_softmax', lambda a: a.log_softmax(-1), lambda a: a.log_softmax(-1), [(2, 5)]),
    ('mm', lambda a, b: a.matmul(b), torch.matmul, [(3, 4), (4, 2)]),
    ('bmm-broadcast', lambda a, b: a.matmul(b), torch.matmul, [(2, 1, 3, 4), (3, 4, 2)]),
    ('mv', lambda a, b: a.matmul(b), torch.matmul, [(3, 4), (4,)]),
    ('transpose', lambda a: a.transpose(0, 2), lambda a: a.transpose(0, 2), [(2, 3, 4)]),
    ('narrow', lambda a: a.narrow(1, 1, 2), lambda a: a.narrow(1, 1, 2), [(2, 4)]),
    ('expand', lambda a: a.expand([2, 3, 4]), lambda a: a.expand(2, 3, 4), [(3, 1)]),
    ('conv2d', lambda x, w, b: Gnn.Tensor.conv2d(x, w, b, 2, 1, 1, 0, 1, 2, 1),
     lambda x, w, b: F.conv2d(x, w, b, (2, 1), (1, 0), (1, 2)), [(2, 2, 5, 6), (3, 2, 3, 2), (3,)]),
    # columns of 2.25 MiB per image: the batch of 7 runs as GEMM chunks of 3, 3 and 1 images
    ('conv2d-chunked', lambda x, w, b: Gnn.Tensor.conv2d(x, w, b, 1, 1, 1, 1, 1, 1, 1),
     lambda x, w, b: F.conv2d(x, w, b, 1, 1), [(7, 8, 64, 64), (4, 8, 3, 3), (4,)]),
    ('max_pool2d', lambda x: x.max_pool2d(2, 2, 0, 0, 1, 0, 1, 1, False),
     lambda x: F.max_pool2d(x, 2, padding=(1, 0)), [(2, 2, 4, 5)]),
    ('avg_pool2d', lambda x: x.avg_pool2d(3, 2, 2, 1, 1, 1, True, False, 0),
     lambda x: F.avg_pool2d(x, (3, 2), (2, 1), 1, True, False), [(2, 5, 4)]),
    ('layer_norm', lambda x, w, b: x.layer_norm([4], w, b, 1e-5),
     lambda x, w, b: F.layer_norm(x, (4,), w, b, 1e-5), [(3, 4), (4,), (4,)]),
    ('batch_norm', lambda x, w, b: x.batch_norm(None, None, w, b, True, 0.1, 1e-5),
     lambda x, w, b: F.batch_norm(x, None, None, w, b, True, 0.1, 1e-5), [(4, 3, 2), (3,), (3,)]),
    ('mse_loss', lambda a, b: Gnn.mse_loss(a, b, R.MEAN), F.mse_loss, [(2, 3), (2, 3)]),
]
for name, g, t, shapes in ops:
    check(name, g, t, shapes)

target = [1, 0, 3, -100]
for smoothing in (0.0, 0.2):
    for red, tred in ((R.MEAN, 'mean'), (R.SUM, 'sum'), (R.NONE, 'none')):
        check('cross_entropy-%s-%g' % (tred, smoothing),
              lambda x: Gnn.cross_entropy(x, gnn_long(target), None, -100, red, smoothing),
              lambda x: F.cross_entropy(x, torch.tensor(target), reduction=tred,
                                        label_smoothing=smoothing), [(4, 5)])
weight = np.array([1.0, 2.0, 0.5, 3.0, 1.5])
check('cross_entropy-weighted',
      lambda x: Gnn.cross_entropy(x, gnn_long([1, 0, 3, 2]), gnn_tensor(weight, False), -100, R.MEAN, 0.1),
      lambda x: F.cross_entropy(x, torch.tensor([1, 0, 3, 2]), torch.tensor(weight), label_smoothing=0.1),
      [(4, 5)])
check('cross_entropy-spatial',
      lambda x: Gnn.cross_entropy(x, gnn_long([[[1, 2], [0, 1]], [[2, 2], [1, 0]]]), None, -100, R.MEAN, 0.0),
      lambda x: F.cross_entropy(x, torch.tensor([[[1, 2], [0, 1]], [[2, 2], [1, 0]]])), [(2, 3, 2, 2)])
check('nll_loss',
      lambda x: Gnn.nll_loss(x, gnn_long([1, 0, 3, 2]), None, -100, R.MEAN),
      lambda x: F.nll_loss(x, torch.tensor([1, 0, 3, 2])), [(4, 5)])
bce_t = rng.uniform(size=(2, 3))
pos_w = np.array([2.0, 0.5, 1.0])
check('bce_with_logits',
      lambda x: Gnn.binary_cross_entropy_with_logits(x, gnn_tensor(bce_t, False), None,
                                                     gnn_tensor(pos_w, False), R.MEAN),
      lambda x: F.binary_cross_entropy_with_logits(x, torch.tensor(bce_t), pos_weight=torch.tensor(pos_w)),
      [(2, 3)])

# no_grad and the error messages
x = gnn_tensor(np.ones(3))
with Gnn.no_grad():
    y = x.mul(x)
assert not y.get_requires_grad() and Gnn.is_grad_enabled()
try:
    x.mul(x).backward()
    failures.append('non-scalar backward did not fail')
except gi.repository.GLib.Error as e:
    assert 'grad can be implicitly created only for scalar outputs' in e.message

if failures:
    print('FAILED:', failures)
    sys.exit(1)
