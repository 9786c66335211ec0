# test_tensor_repr.py: Gnn.Tensor.to_string() against repr() of the same
# tensor in PyTorch 1.13, over many dtypes, shapes and values.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import sys
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

DTYPES = {
    torch.float32: Gnn.DType.F32,
    torch.float64: Gnn.DType.F64,
    torch.float16: Gnn.DType.F16,
    torch.bfloat16: Gnn.DType.BF16,
    torch.int64: Gnn.DType.I64,
    torch.int32: Gnn.DType.I32,
    torch.int16: Gnn.DType.I16,
    torch.int8: Gnn.DType.I8,
    torch.uint8: Gnn.DType.U8,
    torch.bool: Gnn.DType.BOOL,
}


def to_gnn(t):
    """The same values, shape and dtype as torch tensor @t, as a Gnn.Tensor."""
    shape = list(t.shape)
    if t.dtype.is_floating_point or t.dtype == torch.bool:
        # Every value of these dtypes is exact as a double.
        values = t.detach().double().reshape(-1).tolist()
        g = Gnn.Tensor.new_from_doubles(values, shape)
    else:
        values = t.detach().long().reshape(-1).tolist()
        g = Gnn.Tensor.new_from_int64s(values, shape)
    if g.get_dtype() != DTYPES[t.dtype]:
        g = g.to_dtype(DTYPES[t.dtype])
    if t.requires_grad:
        g.set_requires_grad(True)
    return g


def rng_values(seed, shape, scale=1.0):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape) * scale)


CASES = [
    ('vector', lambda: torch.tensor([1., 2., 3.])),
    ('matrix-fractions', lambda: torch.tensor([[1.5, -2.25], [3.125, 4.]])),
    ('scalar-int-valued', lambda: torch.tensor(3.)),
    ('scalar-float64', lambda: torch.tensor(2.5, dtype=torch.float64)),
    ('scalar-int64', lambda: torch.tensor(-7)),
    ('scalar-bool', lambda: torch.tensor(True)),
    ('empty', lambda: torch.tensor([])),
    ('empty-0x3', lambda: torch.zeros(0, 3)),
    ('empty-int64', lambda: torch.zeros(0, dtype=torch.int64)),
    ('empty-2x0x4-bool', lambda: torch.zeros(2, 0, 4, dtype=torch.bool)),
    ('int64', lambda: torch.tensor([1, -20, 300])),
    ('int32-matrix', lambda: torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)),
    ('uint8', lambda: torch.tensor([0, 7, 255], dtype=torch.uint8)),
    ('int8-negative', lambda: torch.tensor([-128, 5, 127], dtype=torch.int8)),
    ('int16', lambda: torch.arange(-5, 5, dtype=torch.int16)),
    ('int64-huge', lambda: torch.tensor([2 ** 62, -5, 3])),
    ('bool', lambda: torch.tensor([[True, False], [False, True]])),
    ('sci-small', lambda: torch.tensor([1e-5, 1.0, 3.5])),
    ('sci-large', lambda: torch.tensor([1e9, 1.0])),
    ('sci-int-ratio', lambda: torch.tensor([1., 2000.])),
    ('nonfinite', lambda: torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5])),
    ('nan-int-mode', lambda: torch.tensor([float('nan'), 1., -2.])),
    ('nan-sci', lambda: torch.tensor([float('nan'), 1e-7, 2.])),
    ('all-zero', lambda: torch.zeros(2, 3)),
    ('negative-zero', lambda: torch.tensor([-0., 1.5, 2.])),
    ('arange-100-wraps', lambda: torch.arange(100.)),
    ('arange-2000-summarized', lambda: torch.arange(2000.)),
    ('summarized-2d', lambda: torch.arange(2000.).reshape(40, 50) / 7),
    ('summarized-3d', lambda: torch.arange(2000.).reshape(10, 10, 20)),
    ('summarized-int64', lambda: torch.arange(5000)),
    ('summarized-sci', lambda: torch.arange(2000.) * 1e6),
    ('summarized-narrow', lambda: torch.arange(3003.).reshape(3, 1001)),
    ('3d', lambda: torch.arange(24.).reshape(2, 3, 4) - 10),
    ('4d', lambda: torch.arange(16).reshape(2, 2, 2, 2)),
    ('transposed', lambda: (torch.arange(6.).reshape(2, 3) / 4).t()),
    ('float16', lambda: torch.tensor([0.1, 0.2, 65504.], dtype=torch.float16)),
    ('float16-fractions', lambda: torch.tensor([0.1, -0.25, 3.3], dtype=torch.float16)),
    ('bfloat16', lambda: torch.tensor([0.1, 1.5, -3.], dtype=torch.bfloat16)),
    ('float64-random', lambda: rng_values(1, (4, 5))),
    ('float32-random', lambda: rng_values(2, (5, 7)).float()),
    ('float32-wide', lambda: rng_values(3, (20,), 1000.).float()),
    ('float32-long-rows', lambda: rng_values(4, (3, 30)).float()),
    ('requires-grad', lambda: torch.tensor([1., 2.]).requires_grad_()),
    ('requires-grad-float64-wrap',
     lambda: (rng_values(5, (7,)) * 100).requires_grad_()),
    ('requires-grad-int-suffix-wrap',
     lambda: torch.arange(9, dtype=torch.float64).mul(1000).requires_grad_()),
]


class TestTensorRepr(unittest.TestCase):
    def test_cases(self):
        for name, make in CASES:
            with self.subTest(name=name):
                t = make()
                g = to_gnn(t)
                self.assertEqual(g.to_string(), repr(t))

    def test_parameter(self):
        t = torch.tensor([[0.5, -1.], [2., 3.25]])
        p = torch.nn.Parameter(t)
        g = Gnn.Parameter.new(to_gnn(t), True)
        self.assertEqual(g.to_string(), repr(p))

    def test_parameter_without_grad(self):
        t = torch.arange(4.)
        p = torch.nn.Parameter(t, requires_grad=False)
        g = Gnn.Parameter.new(to_gnn(t), False)
        self.assertEqual(g.to_string(), repr(p))

    def test_views_match(self):
        t = torch.arange(60.).reshape(3, 4, 5) / 3
        g = to_gnn(t)
        self.assertEqual(g.transpose(0, 2).to_string(), repr(t.transpose(0, 2)))
        self.assertEqual(g.narrow(1, 1, 2).to_string(), repr(t.narrow(1, 1, 2)))
        self.assertEqual(g.select(0, 2).to_string(), repr(t.select(0, 2)))

    def test_random_sweep(self):
        # Seeded random tensors: all dtypes, shapes up to summarization,
        # magnitudes from 1e-9 to 1e12, with nan/inf/0/-0 sprinkled in.
        rng = np.random.default_rng(2024)
        dtypes = list(DTYPES)
        for i in range(300):
            ndim = int(rng.integers(0, 5))
            shape = [int(rng.choice([0, 1, 2, 3, 5, 7, 8, 13])) for _ in range(ndim)]
            if ndim and rng.random() < 0.15:
                shape[0] = int(rng.choice([300, 1200]))
            n = int(np.prod(shape)) if shape else 1
            dtype = dtypes[int(rng.integers(len(dtypes)))]
            vals = rng.standard_normal(n) * 10.0 ** rng.uniform(-9, 12)
            if rng.random() < 0.3:
                vals = np.round(vals)
            if rng.random() < 0.3:
                mask = rng.random(n)
                vals[mask < 0.1] = np.nan
                vals[(mask > 0.1) & (mask < 0.15)] = np.inf
                vals[(mask > 0.15) & (mask < 0.2)] = -np.inf
                vals[(mask > 0.2) & (mask < 0.3)] = -0.0
            if dtype == torch.bool:
                vals = (np.nan_to_num(vals) > 0).astype(float)
            elif not dtype.is_floating_point:
                info = torch.iinfo(dtype)
                vals = np.nan_to_num(vals, posinf=0, neginf=0)
                vals = np.clip(vals, info.min, min(info.max, 2 ** 53)).round()
            t = torch.tensor(vals.reshape(shape), dtype=torch.float64).to(dtype)
            with self.subTest(i=i, shape=shape, dtype=str(dtype)):
                self.assertEqual(to_gnn(t).to_string(), repr(t))

    def test_sanity_of_harness(self):
        self.assertTrue(math.isnan(float('nan')))
        self.assertEqual(len(CASES), len({name for name, _ in CASES}))


if __name__ == '__main__':
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
