#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the torch 1.13 fixtures the GJS suites compare against.

  /usr/bin/python3 tests/js/gen_torch_fixtures.py spellings   -> fixtures/torch_spellings.json
  /usr/bin/python3 tests/js/gen_torch_fixtures.py quickstart  -> fixtures/quickstart.json

spellings: each case names a torch spelling, its inputs (values, shape,
dtype, whether they require grad), torch's output, the gradient fed to
backward and torch's gradients of the inputs (for layers and optimizers the
parameters are inputs too, copied into the module before the call).
test_torch_spellings.js has one GJS spelling per case name.

quickstart: PyTorch's Quickstart (FashionMNIST from Debian's
dataset-fashion-mnist, Flatten + Linear(784,512)-ReLU-Linear(512,512)-ReLU-
Linear(512,10), CrossEntropyLoss, SGD lr 1e-3, batch 64, one epoch) run on
torch from the weights quickstart_init() gives, a hash of the parameter
index that examples/quickstart.js reproduces bit for bit, so the GJS run and
this one start equal and see the same batches.
"""

import gzip
import json
import math
import os
import shutil
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, 'fixtures')


def spec(t):
    return {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''),
            'values': t.detach().reshape(-1).tolist()}


def randn(*shape, dtype=torch.float64):
    return torch.randn(*shape, dtype=torch.float64).to(dtype)


def positive(*shape, dtype=torch.float64):
    return (torch.rand(*shape, dtype=torch.float64) + 0.5).to(dtype)


def spd(n):
    a = torch.randn(n, n, dtype=torch.float64)
    return a @ a.T + n * torch.eye(n, dtype=torch.float64)


def ints(high, *shape):
    return torch.randint(0, high, shape, dtype=torch.int64)


# name -> (input makers, fn(*inputs) -> output); inputs that are floating
# require grad unless the maker is wrapped in const().
class const:
    def __init__(self, make):
        self.make = make


def x34():
    return randn(3, 4)


def module_case(make_module, param_names, make_input):
    """A layer: inputs are the input then the parameters (in param_names
    order); the fn copies them into a fresh module and calls it."""
    torch.manual_seed(1)
    proto = make_module()
    makers = [make_input] + [(lambda p=getattr(proto, n): p.detach().clone()) for n in param_names]

    def fn(x, *params):
        m = make_module()
        for n, p in zip(param_names, params):
            m._parameters[n] = p  # the leaf itself, so its .grad is torch's
        return m(x)
    return makers, fn


def optim_case(make_opt, steps=3):
    """An optimizer: a parameter, `steps` steps on loss = sum(p**3 * c)
    (a gradient that changes each step); the output is the parameter."""
    def fn(p0, c):
        p = nn.Parameter(p0.detach().clone())
        opt = make_opt([p])
        for _ in range(steps):
            opt.zero_grad()
            (p ** 3 * c).sum().backward()
            opt.step()
        return p.detach()
    return [const(lambda: randn(2, 3)), const(lambda: randn(2, 3))], fn


def init_case(fn_init, shape):
    def fn(w):
        w = w.detach().clone()
        fn_init(w)
        return w
    return [const(lambda: randn(*shape))], fn


CASES = {
    # tensor methods and torch.* functions
    'add': ([x34, x34], lambda a, b: a + b),
    'sub': ([x34, x34], lambda a, b: a - b),
    'mul': ([x34, x34], lambda a, b: a * b),
    'div': ([x34, lambda: positive(3, 4)], lambda a, b: a / b),
    'add_broadcast': ([x34, lambda: randn(4)], lambda a, b: torch.add(a, b)),
    'pow_scalar': ([lambda: positive(3, 4)], lambda a: a.pow(2.5)),
    'exp': ([x34], torch.exp),
    'log': ([lambda: positive(3, 4)], torch.log),
    'sqrt': ([lambda: positive(3, 4)], torch.sqrt),
    'rsqrt': ([lambda: positive(3, 4)], torch.rsqrt),
    'sin': ([x34], torch.sin),
    'cos': ([x34], torch.cos),
    'tanh': ([x34], torch.tanh),
    'sigmoid': ([x34], torch.sigmoid),
    'abs': ([x34], torch.abs),
    'neg': ([x34], torch.neg),
    'log1p': ([lambda: positive(3, 4)], torch.log1p),
    'expm1': ([x34], torch.expm1),
    'atan2': ([x34, x34], torch.atan2),
    'clamp': ([x34], lambda a: a.clamp(-0.5, 0.5)),
    'matmul': ([x34, lambda: randn(4, 2)], torch.matmul),
    'mm': ([x34, lambda: randn(4, 5)], torch.mm),
    'bmm': ([lambda: randn(2, 3, 4), lambda: randn(2, 4, 2)], torch.bmm),
    'addmm': ([lambda: randn(3, 2), x34, lambda: randn(4, 2)],
              lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2.0)),
    'outer': ([lambda: randn(3), lambda: randn(4)], torch.outer),
    'einsum': ([x34, lambda: randn(4, 2)], lambda a, b: torch.einsum('ij,jk->ik', a, b)),
    'sum_dim': ([x34], lambda a: a.sum(1)),
    'mean_keepdim': ([x34], lambda a: a.mean(0, keepdim=True)),
    'prod': ([x34], lambda a: a.prod(1)),
    'max_dim': ([x34], lambda a: a.max(1).values),
    'logsumexp': ([x34], lambda a: torch.logsumexp(a, 1)),
    'var': ([x34], lambda a: a.var(1)),
    'std': ([x34], lambda a: a.std(0)),
    'norm': ([x34], lambda a: a.norm(2, 1)),
    'cumsum': ([x34], lambda a: a.cumsum(1)),
    'softmax': ([x34], lambda a: a.softmax(1)),
    'log_softmax': ([x34], lambda a: a.log_softmax(1)),
    'transpose': ([x34], lambda a: a.transpose(0, 1)),
    'reshape': ([x34], lambda a: a.reshape(2, 6)),
    'cat': ([x34, x34], lambda a, b: torch.cat([a, b], 0)),
    'stack': ([x34, x34], lambda a, b: torch.stack([a, b], 1)),
    'where': ([x34, x34], lambda a, b: torch.where(a > 0, a, b)),
    'masked_fill': ([x34], lambda a: a.masked_fill(a < 0, 0.5)),
    'gather': ([x34, const(lambda: ints(4, 3, 2))], lambda a, i: a.gather(1, i)),
    'tril': ([lambda: randn(4, 4)], lambda a: a.tril()),
    'flip': ([x34], lambda a: a.flip(1)),
    'roll': ([x34], lambda a: a.roll(1, 1)),
    'lerp': ([x34, x34], lambda a, b: torch.lerp(a, b, torch.full_like(a, 0.3))),
    'addcmul': ([x34, x34, x34], lambda a, b, c: torch.addcmul(a, b, c, value=0.5)),
    # torch.linalg, index_put, fractional max pooling
    'linalg.solve': ([lambda: spd(3), lambda: randn(3, 2)], torch.linalg.solve),
    'linalg.inv': ([lambda: spd(3)], torch.linalg.inv),
    'linalg.det': ([lambda: randn(3, 3)], torch.linalg.det),
    'linalg.slogdet': ([lambda: randn(3, 3)], lambda a: torch.linalg.slogdet(a).logabsdet),
    'linalg.cholesky': ([lambda: spd(3)], lambda a: torch.linalg.cholesky(a)),
    'linalg.cholesky_upper': ([lambda: spd(3)], lambda a: torch.linalg.cholesky(a, upper=True)),
    'linalg.svdvals': ([lambda: randn(4, 3)], torch.linalg.svdvals),
    'linalg.eigvalsh': ([lambda: spd(3)], torch.linalg.eigvalsh),
    'linalg.qr_R': ([lambda: randn(4, 3)], lambda a: torch.linalg.qr(a).R),
    'linalg.matrix_norm_nuc': ([x34], lambda a: torch.linalg.matrix_norm(a, 'nuc')),
    'linalg.lstsq': ([lambda: randn(4, 3), lambda: randn(4, 2)],
                     lambda a, b: torch.linalg.lstsq(a, b).solution),
    'index_put_accumulate': ([x34, lambda: randn(3)],
                             lambda a, v: a.index_put((torch.tensor([0, 2, 0]), torch.tensor([1, 3, 1])), v,
                                                      accumulate=True)),
    'nn.FractionalMaxPool2d': ([lambda: randn(1, 2, 7, 7), const(lambda: torch.rand(1, 2, 2, dtype=torch.float64))],
                               lambda a, s: nn.FractionalMaxPool2d(2, output_size=3, _random_samples=s)(a)),
    'nn.FractionalMaxPool3d': ([lambda: randn(1, 1, 5, 5, 5),
                                const(lambda: torch.rand(1, 1, 3, dtype=torch.float64))],
                               lambda a, s: nn.FractionalMaxPool3d(2, output_ratio=0.5, _random_samples=s)(a)),
    # torch.nn.functional
    'F.relu': ([x34], F.relu),
    'F.leaky_relu': ([x34], lambda a: F.leaky_relu(a, 0.2)),
    'F.elu': ([x34], lambda a: F.elu(a, 1.5)),
    'F.gelu': ([x34], F.gelu),
    'F.silu': ([x34], F.silu),
    'F.softplus': ([x34], lambda a: F.softplus(a, 2.0, 20.0)),
    'F.hardtanh': ([x34], lambda a: F.hardtanh(a, -0.5, 0.5)),
    'F.mish': ([x34], F.mish),
    'F.normalize': ([x34], lambda a: F.normalize(a, 2.0, 1)),
    'F.cosine_similarity': ([x34, x34], lambda a, b: F.cosine_similarity(a, b, 1)),
    'F.pairwise_distance': ([x34, x34], F.pairwise_distance),
    # losses
    'F.mse_loss': ([x34, const(x34)], F.mse_loss),
    'F.l1_loss': ([x34, const(x34)], F.l1_loss),
    'F.smooth_l1_loss': ([x34, const(x34)], lambda a, b: F.smooth_l1_loss(a, b, beta=0.5)),
    'F.huber_loss': ([x34, const(x34)], lambda a, b: F.huber_loss(a, b, delta=0.5)),
    'F.cross_entropy': ([x34, const(lambda: ints(4, 3))], F.cross_entropy),
    'F.cross_entropy_smoothing': ([x34, const(lambda: ints(4, 3))],
                                  lambda a, t: F.cross_entropy(a, t, label_smoothing=0.1)),
    'F.nll_loss': ([x34, const(lambda: ints(4, 3))], lambda a, t: F.nll_loss(a.log_softmax(1), t)),
    'F.binary_cross_entropy': ([lambda: torch.rand(3, 4, dtype=torch.float64) * 0.8 + 0.1,
                                const(lambda: torch.rand(3, 4, dtype=torch.float64))],
                               F.binary_cross_entropy),
    'F.binary_cross_entropy_with_logits': ([x34, const(lambda: torch.rand(3, 4, dtype=torch.float64))],
                                           F.binary_cross_entropy_with_logits),
    'F.kl_div': ([x34, const(lambda: torch.rand(3, 4, dtype=torch.float64))],
                 lambda a, t: F.kl_div(a.log_softmax(1), t, reduction='batchmean')),
    'F.margin_ranking_loss': ([lambda: randn(5), lambda: randn(5),
                               const(lambda: torch.tensor([1., -1, 1, -1, 1], dtype=torch.float64))],
                              lambda a, b, y: F.margin_ranking_loss(a, b, y, margin=0.2)),
    'F.soft_margin_loss': ([x34, const(lambda: torch.randint(0, 2, (3, 4)).double() * 2 - 1)],
                           F.soft_margin_loss),
    'F.poisson_nll_loss': ([x34, const(lambda: positive(3, 4))], F.poisson_nll_loss),
    # nn layers (float32 parameters, as torch's defaults)
    'nn.Linear': module_case(lambda: nn.Linear(4, 3), ['weight', 'bias'], lambda: randn(2, 4, dtype=torch.float32)),
    'nn.Conv2d': module_case(lambda: nn.Conv2d(2, 3, 3, padding=1), ['weight', 'bias'],
                             lambda: randn(1, 2, 5, 5, dtype=torch.float32)),
    'nn.Conv1d': module_case(lambda: nn.Conv1d(2, 3, 3, stride=2), ['weight', 'bias'],
                             lambda: randn(2, 2, 7, dtype=torch.float32)),
    'nn.LayerNorm': module_case(lambda: nn.LayerNorm(4), ['weight', 'bias'],
                                lambda: randn(3, 4, dtype=torch.float32)),
    'nn.BatchNorm1d': module_case(lambda: nn.BatchNorm1d(4), ['weight', 'bias'],
                                  lambda: randn(5, 4, dtype=torch.float32)),
    'nn.MaxPool2d': ([lambda: randn(1, 2, 4, 4, dtype=torch.float32)], nn.MaxPool2d(2)),
    'nn.AvgPool2d': ([lambda: randn(1, 2, 4, 4, dtype=torch.float32)], nn.AvgPool2d(2)),
    'nn.Flatten': ([lambda: randn(2, 3, 2, dtype=torch.float32)], nn.Flatten()),
    'nn.Softmax': ([lambda: randn(2, 5, dtype=torch.float32)], nn.Softmax(1)),
    'nn.Tanh': ([lambda: randn(2, 5, dtype=torch.float32)], nn.Tanh()),
    'nn.CrossEntropyLoss': ([lambda: randn(3, 4, dtype=torch.float32), const(lambda: ints(4, 3))],
                            nn.CrossEntropyLoss()),
    'nn.MSELoss': ([lambda: randn(3, 4, dtype=torch.float32), const(lambda: randn(3, 4, dtype=torch.float32))],
                   nn.MSELoss()),
    # nn.init (the deterministic ones)
    'nn.init.constant_': init_case(lambda w: nn.init.constant_(w, 0.25), (3, 4)),
    'nn.init.eye_': init_case(nn.init.eye_, (3, 4)),
    'nn.init.dirac_': init_case(nn.init.dirac_, (2, 2, 3)),
    # optimizer steps
    'optim.SGD': optim_case(lambda p: torch.optim.SGD(p, lr=0.1)),
    'optim.SGD_nesterov': optim_case(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True,
                                                               weight_decay=0.01)),
    'optim.Adam': optim_case(lambda p: torch.optim.Adam(p, lr=0.01)),
    'optim.AdamW': optim_case(lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.1)),
    'optim.RMSprop': optim_case(lambda p: torch.optim.RMSprop(p, lr=0.01)),
    'optim.Adagrad': optim_case(lambda p: torch.optim.Adagrad(p, lr=0.1)),
}


def spellings():
    out = {'torch': torch.__version__, 'cases': {}}
    for name, (makers, fn) in CASES.items():
        torch.manual_seed(0)
        inputs, leaves = [], []
        for make in makers:
            is_const = isinstance(make, const)
            t = (make.make if is_const else make)()
            if not is_const and t.is_floating_point():
                t.requires_grad_(True)
            inputs.append(t)
        y = fn(*inputs)
        case = {'inputs': [dict(spec(t), grad=t.requires_grad) for t in inputs], 'output': spec(y)}
        if y.requires_grad:
            g = torch.cos(torch.arange(y.numel(), dtype=torch.float64)).reshape(y.shape).to(y.dtype)
            y.backward(g)
            case['grad_output'] = spec(g)
            case['grads'] = [spec(t.grad) if t.requires_grad else None for t in inputs]
        out['cases'][name] = case
    return out


# ---- quickstart ---------------------------------------------------------------

def fmix32(h):
    """murmur3's 32-bit finalizer on uint64 arrays holding uint32 values."""
    h = h ^ (h >> 16)
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h = h ^ (h >> 13)
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


def quickstart_init(model):
    """Every parameter, in state_dict order, uniform in torch's Linear bound
    ±1/sqrt(fan_in) from fmix32 of its global element index."""
    offset = 0
    with torch.no_grad():
        for name, p in model.state_dict().items():
            fan_in = p.shape[1] if p.dim() == 2 else model.state_dict()[name[:-4] + 'weight'].shape[1]
            idx = np.arange(offset, offset + p.numel(), dtype=np.uint64)
            u = fmix32(idx).astype(np.float64) / 2.0 ** 32
            bound = 1 / math.sqrt(fan_in)
            p.copy_(torch.from_numpy(((2 * u - 1) * bound).astype(np.float32)).reshape(p.shape))
            offset += p.numel()


def quickstart():
    from torch.utils.data import DataLoader
    from torchvision import datasets
    from torchvision.transforms import ToTensor

    src = '/usr/share/datasets/fashion-mnist'
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, 'FashionMNIST', 'raw')
        os.makedirs(raw)
        for f in os.listdir(src):
            if f.endswith('-ubyte.gz'):
                with gzip.open(os.path.join(src, f)) as i, open(os.path.join(raw, f[:-3]), 'wb') as o:
                    shutil.copyfileobj(i, o)
        train = datasets.FashionMNIST(tmp, train=True, transform=ToTensor())
        test = datasets.FashionMNIST(tmp, train=False, transform=ToTensor())
        model = nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                              nn.Linear(512, 10))
        quickstart_init(model)
        loss_fn = nn.CrossEntropyLoss()
        opt = torch.optim.SGD(model.parameters(), lr=1e-3)
        first_losses = []
        for batch, (X, y) in enumerate(DataLoader(train, batch_size=64)):
            loss = loss_fn(model(X), y)
            loss.backward()
            opt.step()
            opt.zero_grad()
            if batch % 100 == 0:
                first_losses.append(loss.item())
        test_loss, correct, n = 0.0, 0, 0
        with torch.no_grad():
            for X, y in DataLoader(test, batch_size=64):
                pred = model(X)
                test_loss += loss_fn(pred, y).item()
                correct += (pred.argmax(1) == y).sum().item()
                n += 1
    return {'torch': torch.__version__, 'accuracy': correct / len(test), 'avg_loss': test_loss / n,
            'losses_every_100_batches': first_losses}


def main():
    which = sys.argv[1:] or ['spellings', 'quickstart']
    os.makedirs(FIXTURES, exist_ok=True)
    for w in which:
        data = spellings() if w == 'spellings' else quickstart()
        path = os.path.join(FIXTURES, ('torch_spellings' if w == 'spellings' else w) + '.json')
        with open(path, 'w') as f:
            json.dump(data, f, indent=None, separators=(',', ':'))
            f.write('\n')
        print('wrote', path)


if __name__ == '__main__':
    main()
