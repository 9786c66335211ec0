#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""torch's module and tensor protocol details that programs rely on, run on
torch 1.13 and on gnn imported as torch, side by side: generator
traversals, Module attribute protocol, CPU-build device errors, tensor
attributes, legacy constructors, grad modes, the default generator,
threads, finfo/iinfo, range and dataset-slice indexing."""

import unittest

import numpy as np
import torch
import torch.nn
import torch.utils.data

import gnn
import gnn.nn
import gnn.utils.data

SIDES = (('torch', torch), ('gnn', gnn))


def kind(exc):
    """The builtin exception type an exception is (Gnn's torch-kind errors
    are GLib.Errors and TypeErrors at once: TypeError)."""
    cls = type(exc)
    if cls.__module__ == 'builtins':
        return cls.__name__
    return next((b.__name__ for b in cls.__bases__ if b.__module__ == 'builtins'), cls.__name__)


def outcome(func):
    """(exception type name, message) or ('ok', value) of func()."""
    try:
        return 'ok', func()
    except Exception as exc:   # noqa: BLE001  (comparing what each side raises)
        return kind(exc), str(exc)


class Net(object):
    """The same small model built on either side."""

    @staticmethod
    def build(T):
        class Block(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = T.nn.Linear(3, 2)
                self.register_buffer('count', T.zeros(1))

            def forward(self, x):
                return self.fc(x)

        class Model(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()
                self.head = T.nn.Linear(2, 1)
                self.scale = T.nn.Parameter(T.ones(1))

            def forward(self, x):
                return self.head(self.block(x)) * self.scale
        return Model()


class Traversals(unittest.TestCase):
    def test_generators(self):
        results = {}
        for name, T in SIDES:
            m = Net.build(T)
            kinds = {}
            for method in ('parameters', 'named_parameters', 'buffers', 'named_buffers',
                           'children', 'named_children', 'modules', 'named_modules'):
                it = getattr(m, method)()
                kinds[method] = type(it).__name__
                first = next(it)
                kinds[method + '/first'] = first[0] if isinstance(first, tuple) else \
                    type(first).__name__.replace('Parameter', 'P').replace('Tensor', 'P')
            kinds['names'] = [n for n, _ in m.named_parameters()]
            kinds['modules'] = [n for n, _ in m.named_modules()]
            kinds['shape'] = list(next(m.parameters()).shape)
            results[name] = kinds
        self.assertEqual(results['gnn']['parameters'], 'generator')
        for key in results['torch']:
            if key.endswith('/first') and key.startswith(('parameters', 'buffers', 'children',
                                                          'modules')):
                continue          # class names differ (Block vs Block, Parameter vs P)
            self.assertEqual(results['gnn'][key], results['torch'][key], key)

    def test_lazy_walk(self):
        # like torch's, the walk happens when the generator first advances
        for _, T in SIDES:
            m = T.nn.Linear(2, 2)
            it = m.named_parameters()
            m.extra = T.nn.Parameter(T.zeros(1))
            self.assertEqual([n for n, _ in it], ['weight', 'bias', 'extra'])


class ModuleAttributes(unittest.TestCase):
    def both(self, func):
        return {name: outcome(lambda: func(T)) for name, T in SIDES}

    def assert_same_kind(self, func):
        got = self.both(func)
        self.assertEqual(got['gnn'][0], got['torch'][0], got)
        return got

    def test_getattr_missing(self):
        got = self.assert_same_kind(lambda T: T.nn.Linear(2, 3).foo)
        self.assertEqual(got['gnn'], got['torch'])

    def test_delattr_missing(self):
        got = self.assert_same_kind(lambda T: delattr(T.nn.Linear(2, 3), 'foo'))
        self.assertEqual(got['gnn'], got['torch'])

    def test_delattr_parameter(self):
        def act(T):
            m = T.nn.Linear(2, 3)
            del m.bias
            return [n for n, _ in m.named_parameters()], hasattr(m, 'bias')
        got = self.both(act)
        self.assertEqual(got['gnn'], got['torch'])

    def test_setattr_wrong_kinds(self):
        # torch's TypeErrors (Gnn's are GLib.Errors too)
        got = self.assert_same_kind(lambda T: setattr(T.nn.Linear(2, 3), 'weight', T.zeros(3, 2)))
        self.assertIn("as parameter 'weight'", got['gnn'][1])
        got = self.assert_same_kind(lambda T: setattr(T.nn.Sequential(T.nn.Linear(1, 1)), '0', 5))
        self.assertIn("cannot assign 'int' as child module '0'", got['gnn'][1])
        got = self.assert_same_kind(lambda T: setattr(Net.build(T).block, 'count', [1]))
        self.assertIn("cannot assign 'list' as buffer 'count'", got['gnn'][1])

    def test_setattr_kinds(self):
        def act(T):
            m = Net.build(T)
            m.extra = T.nn.Parameter(T.zeros(2))      # a parameter
            m.sub = T.nn.ReLU()                         # a child
            m.block.count = T.ones(1)                   # an existing buffer updated
            m.plain = T.zeros(1)                        # a plain attribute, not a buffer
            m.number = 3
            m.head = None                               # keeps the slot
            return ([n for n, _ in m.named_parameters()], [n for n, _ in m.named_children()],
                    [n for n, _ in m.named_buffers()], m.block.count.tolist(), m.number,
                    m.head is None)
        got = self.both(act)
        self.assertEqual(got['gnn'], got['torch'])

    def test_assign_before_init(self):
        def act(T):
            class Early(T.nn.Module):
                def __init__(self):
                    self.fc = T.nn.Linear(1, 1)
                    super().__init__()
            return Early()
        got = self.both(act)
        self.assertEqual(got['gnn'], got['torch'])

    def test_registry_maps(self):
        def act(T):
            m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.ReLU())
            seen = [list(m._modules), list(m[0]._parameters), list(Net.build(T).block._buffers)]
            m._modules['1'] = T.nn.Tanh()           # replace a layer in place
            m._modules['extra'] = T.nn.ReLU()
            del m[0]._parameters['bias']
            seen.append([type(c).__name__ for c in m.children()])
            seen.append([n for n, _ in m.named_parameters()])
            seen.append(outcome(lambda: m._modules['missing'])[0])
            seen.append(len(m._modules))
            return seen
        got = self.both(act)
        self.assertEqual(got['gnn'], got['torch'])

    def test_dir(self):
        for name, T in SIDES:
            names = dir(Net.build(T))
            for attr in ('block', 'head', 'scale', 'forward', 'parameters'):
                self.assertIn(attr, names, name)
            self.assertIn('count', dir(Net.build(T).block), name)


class Devices(unittest.TestCase):
    CASES = {
        'model.to(cuda)': lambda T: T.nn.Linear(2, 2).to('cuda'),
        'model.to(device(cuda:0))': lambda T: T.nn.Linear(2, 2).to(T.device('cuda:0')),
        'model.cuda()': lambda T: T.nn.Linear(2, 2).cuda(),
        'tensor.to(cuda)': lambda T: T.zeros(2).to('cuda'),
        'tensor.cuda()': lambda T: T.zeros(2).cuda(),
        'zeros(device=cuda)': lambda T: T.zeros(2, device='cuda'),
        'tensor.to(mps)': lambda T: T.zeros(2).to('mps'),
        'device(xyz)': lambda T: T.device('xyz'),
    }

    def test_cpu_build_errors(self):
        for case, func in self.CASES.items():
            with self.subTest(case=case):
                got = {name: outcome(lambda: func(T)) for name, T in SIDES}
                self.assertEqual(got['gnn'], got['torch'])

    def test_device_objects(self):
        for spelling in (('cuda',), ('cuda:1',), ('cuda', 0), ('cpu',), ('meta',)):
            t, g = torch.device(*spelling), gnn.device(*spelling)
            self.assertEqual((repr(g), str(g), g.type, g.index),
                             (repr(t), str(t), t.type, t.index))
        self.assertEqual(gnn.device('cuda:0'), 'cuda:0')
        self.assertEqual(gnn.device('cpu'), gnn.device('cpu'))
        self.assertEqual('cuda' if gnn.cuda.is_available() else 'cpu', 'cpu')
        self.assertEqual(torch.nn.Linear(1, 1).to('cpu').weight.device.type,
                         gnn.nn.Linear(1, 1).to('cpu').weight.device.type)


class TensorAttributes(unittest.TestCase):
    def test_attributes(self):
        got = {}
        for name, T in SIDES:
            x = T.ones(2, requires_grad=True)
            y = (x * 2).sum()
            d = y.detach()
            got[name] = (x.is_cuda, str(x.device), x.is_leaf, y.is_leaf, d.is_leaf,
                         x.grad_fn is None, y.grad_fn.name(), repr(y.grad_fn).split(' ')[0],
                         x.data.requires_grad, x.data.tolist(), x.get_device())
        self.assertEqual(got['gnn'], got['torch'])

    def test_data_shares(self):
        for _, T in SIDES:
            x = T.zeros(3, requires_grad=True)
            x.data[0] = 4.0
            self.assertEqual(x.tolist(), [4.0, 0.0, 0.0])

    def test_grad_fn_next_functions(self):
        got = {}
        for name, T in SIDES:
            x = T.ones(2, requires_grad=True)
            w = T.ones(2)
            y = (x * 2 + w * x).sum()
            f = y.grad_fn
            chain = []
            while f is not None:
                nexts = f.next_functions
                chain.append((type(f).__name__, f.name(), repr(f).split(' ')[0][1:],
                              [(type(n).__name__ if n is not None else None, nr)
                               for n, nr in nexts]))
                f = nexts[0][0] if nexts else None
            leaf = y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
            got[name] = (chain, leaf.variable is x, y.grad_fn is y.grad_fn)
        self.assertEqual(got['gnn'], got['torch'])


class LegacyConstructors(unittest.TestCase):
    CASES = {
        'Tensor(list)': lambda T: T.Tensor([1, 2]),
        'Tensor(nested)': lambda T: T.Tensor([[1, 2], [3, 4]]),
        'Tensor(tuple)': lambda T: T.Tensor((1.5, 2)),
        'Tensor(sizes)': lambda T: T.Tensor(2, 3).shape,
        'Tensor()': lambda T: T.Tensor(),
        'Tensor(array)': lambda T: T.Tensor(np.arange(3)),
        'FloatTensor': lambda T: T.FloatTensor([1, 2]),
        'LongTensor': lambda T: T.LongTensor([1, 2]),
        'LongTensor(floats)': lambda T: T.LongTensor([1.7, -2.2]),
        'DoubleTensor': lambda T: T.DoubleTensor([1]),
        'BoolTensor': lambda T: T.BoolTensor([1, 0]),
        'ByteTensor': lambda T: T.ByteTensor([1, 2]),
        'IntTensor': lambda T: T.IntTensor(3).shape,
        'HalfTensor': lambda T: T.HalfTensor([1]).dtype,
        'Tensor(float tensor)': lambda T: T.Tensor(T.tensor([1.0, 2.0])),
        'FloatTensor(long tensor)': lambda T: T.FloatTensor(T.tensor([1, 2])),
        'Tensor(dtype=)': lambda T: T.Tensor([1, 2], dtype=T.long),
    }

    def normalize(self, value):
        if isinstance(value, (torch.Tensor, gnn.Tensor)):
            return (value.tolist(), str(value.dtype).split('.')[-1], list(value.shape))
        if isinstance(value, (torch.Size, tuple)):
            return list(value)
        return str(value).split('.')[-1]

    def test_cases(self):
        for case, func in self.CASES.items():
            with self.subTest(case=case):
                got = {}
                for name, T in SIDES:
                    kind, value = outcome(lambda: func(T))
                    got[name] = (kind, self.normalize(value) if kind == 'ok' else None)
                self.assertEqual(got['gnn'], got['torch'])

    def test_isinstance(self):
        for _, T in SIDES:
            self.assertIsInstance(T.zeros(2), T.FloatTensor)
            self.assertNotIsInstance(T.zeros(2, dtype=T.long), T.FloatTensor)
            self.assertIsInstance(T.zeros(2, dtype=T.long), T.LongTensor)
            self.assertIsInstance(T.Tensor([1]), T.Tensor)
            self.assertEqual(T.FloatTensor.dtype, T.float32)

    def test_alias_shares(self):
        for _, T in SIDES:
            t = T.Tensor([1.0, 2.0])
            u = T.Tensor(t)
            u[0] = 9
            self.assertEqual(t.tolist(), [9.0, 2.0])


class GradModes(unittest.TestCase):
    def modes(self, T):
        seen = []

        @T.no_grad()
        def called():
            seen.append(T.is_grad_enabled())

        @T.enable_grad()
        def enabled():
            seen.append(T.is_grad_enabled())
        called()
        with T.no_grad():
            enabled()
        previous = T.is_grad_enabled()
        T.set_grad_enabled(False)
        seen.append(T.is_grad_enabled())
        T.set_grad_enabled(previous)
        with T.set_grad_enabled(False):
            seen.append(T.is_grad_enabled())
        seen.append(T.is_grad_enabled())
        with T.inference_mode():
            seen.append((T.is_grad_enabled(), T.is_inference_mode_enabled()))
            with T.inference_mode(False):
                seen.append(T.is_inference_mode_enabled())
        seen.append(T.is_inference_mode_enabled())

        @T.inference_mode()
        def inferred():
            return T.is_grad_enabled(), T.is_inference_mode_enabled()
        seen.append(inferred())
        x = T.ones(2, requires_grad=True)
        with T.no_grad():
            seen.append((x * 2).requires_grad)
        seen.append((x * 2).requires_grad)
        return seen

    def test_same_modes(self):
        self.assertEqual(self.modes(gnn), self.modes(torch))

    def test_bare_decorator(self):
        # torch 2.x's spelling (1.13 refuses it); Gnn takes it
        @gnn.no_grad
        def f():
            return gnn.is_grad_enabled()
        self.assertFalse(f())
        self.assertTrue(gnn.is_grad_enabled())


class DefaultGenerator(unittest.TestCase):
    def draws(self):
        gnn.manual_seed(123)
        layer = gnn.nn.Linear(4, 3)
        drop = gnn.nn.Dropout(0.5)(gnn.ones(20))
        loader = gnn.utils.data.DataLoader(gnn.utils.data.TensorDataset(gnn.arange(10)),
                                           batch_size=10, shuffle=True)
        sampler = list(gnn.utils.data.RandomSampler(range(10)))
        w = gnn.empty(3, 3)
        gnn.nn.init.kaiming_uniform_(w)
        return (layer.weight.tolist(), gnn.rand(3).tolist(), gnn.randn(3).tolist(),
                drop.tolist(), sampler, w.tolist(), next(iter(loader))[0].tolist(),
                gnn.randint(0, 10, (5,)).tolist())

    def test_manual_seed_repeats_everything(self):
        a, b = self.draws(), self.draws()
        self.assertEqual(a, b)
        gnn.manual_seed(124)
        self.assertNotEqual(gnn.rand(3).tolist(), a[1])

    def test_loader_shuffles_follow_manual_seed(self):
        # as torch's: a loader given no generator draws its seed from the
        # default generator; seed= (Gnn's) or generator= decide instead
        def order(global_seed, **kw):
            gnn.manual_seed(global_seed)
            loader = gnn.utils.data.DataLoader(gnn.utils.data.TensorDataset(gnn.arange(12)),
                                               batch_size=12, shuffle=True, **kw)
            return next(iter(loader))[0].tolist()
        self.assertEqual(order(1), order(1))
        self.assertNotEqual(order(1), order(2))
        self.assertEqual(order(1, seed=5), order(2, seed=5))
        self.assertEqual(order(1, generator=gnn.Generator().manual_seed(3)),
                         order(2, generator=gnn.Generator().manual_seed(3)))

    def test_worker_processes_seed_the_default_generator(self):
        # torch seeds each worker process's default generator with its
        # seed: random augmentations differ between workers
        class Noisy(gnn.utils.data.Dataset):
            def __len__(self):
                return 4

            def __getitem__(self, index):
                return gnn.rand(1)
        loader = gnn.utils.data.DataLoader(Noisy(), batch_size=1, num_workers=2,
                                           worker_mode='processes')
        values = [b.item() for b in loader]
        self.assertEqual(len(set(values)), 4, values)

    def test_one_c_generator(self):
        # torch.manual_seed returns the default generator, which C layers use
        g = gnn.manual_seed(7)
        self.assertIs(g, gnn.default_generator)
        self.assertEqual(gnn.initial_seed(), 7)
        state = gnn.get_rng_state()
        first = gnn.nn.Linear(2, 2).weight.tolist()
        gnn.set_rng_state(state)
        self.assertEqual(gnn.nn.Linear(2, 2).weight.tolist(), first)
        self.assertEqual(type(torch.manual_seed(7)).__name__, 'Generator')

    def test_generator_api(self):
        got = {}
        for name, T in SIDES:
            g = T.Generator()
            same = g.manual_seed(5) is g
            state = g.get_state()
            a = T.rand(4, generator=g).tolist()
            g.set_state(state)
            b = T.rand(4, generator=g).tolist()
            got[name] = (same, g.initial_seed(), state.dtype == T.uint8, a == b,
                         str(g.device), g.seed() != 5, outcome(lambda: T.Generator('cuda'))[0])
        self.assertEqual(got['gnn'], got['torch'])


class Threads(unittest.TestCase):
    def test_num_threads(self):
        before = (gnn.get_num_threads(), torch.get_num_threads())
        try:
            for _, T in SIDES:
                self.assertIsNone(T.set_num_threads(2))
                self.assertEqual(T.get_num_threads(), 2)
                self.assertEqual(T.get_num_interop_threads() >= 1, True)
            self.assertEqual(outcome(lambda: gnn.set_num_threads(0))[0],
                             outcome(lambda: torch.set_num_threads(0))[0])
        finally:
            gnn.set_num_threads(before[0])
            torch.set_num_threads(before[1])


class DtypeInfo(unittest.TestCase):
    def test_finfo_iinfo(self):
        for name in ('float32', 'float64', 'float16', 'bfloat16'):
            t, g = torch.finfo(getattr(torch, name)), gnn.finfo(getattr(gnn, name))
            self.assertEqual(repr(g), repr(t))
            self.assertEqual((g.bits, g.eps, g.max, g.min, g.tiny, g.resolution, g.dtype),
                             (t.bits, t.eps, t.max, t.min, t.tiny, t.resolution, t.dtype))
        self.assertEqual(repr(gnn.finfo()), repr(torch.finfo()))
        for name in ('int64', 'int32', 'int16', 'int8', 'uint8'):
            t, g = torch.iinfo(getattr(torch, name)), gnn.iinfo(getattr(gnn, name))
            self.assertEqual(repr(g), repr(t))
            self.assertEqual((g.bits, g.max, g.min, g.dtype), (t.bits, t.max, t.min, t.dtype))
        for func in (lambda T: T.iinfo(T.float32), lambda T: T.finfo(T.int32),
                     lambda T: T.iinfo(T.bool)):
            got = {name: outcome(lambda: func(T)) for name, T in SIDES}
            self.assertEqual(got['gnn'], got['torch'])


class Indexing(unittest.TestCase):
    def test_range(self):
        for key in (range(2), range(1, 4), range(0, 5, 2), (range(2), 0)):
            got = {}
            for name, T in SIDES:
                t = T.arange(20).reshape(5, 4)
                got[name] = t[key].tolist()
            self.assertEqual(got['gnn'], got['torch'], key)

    def test_dataset_slices(self):
        for key in (slice(0, 3), slice(2, 9, 3), range(2), [1, 4], 5, -1):
            got = {}
            for name, T in SIDES:
                ds = T.utils.data.TensorDataset(T.arange(10), T.arange(10) * 2)
                got[name] = [t.tolist() for t in ds[key]]
            self.assertEqual(got['gnn'], got['torch'], key)
        for _, T in SIDES:
            ds = T.utils.data.TensorDataset(T.arange(100).reshape(100, 1))
            self.assertEqual(list(ds[0:64][0].shape), [64, 1])
            self.assertEqual(len(ds.tensors), 1)

    def test_subset(self):
        got = {}
        for name, T in SIDES:
            ds = T.utils.data.TensorDataset(T.arange(10))
            sub = T.utils.data.Subset(ds, [7, 3, 5])
            got[name] = (sub[0][0].item(), [t.tolist() for t in sub[[0, 2]]], list(sub.indices),
                         sub.dataset is ds)
        self.assertEqual(got['gnn'], got['torch'])


if __name__ == '__main__':
    unittest.main(verbosity=2)
