#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""t.numpy() and from_numpy share memory as torch's do, side by side with
torch 1.13: writes are seen both ways (torch's own tutorials print the
changed values), strides are kept, the memory lives as long as either side
needs it, and the refusals are torch's."""

import gc
import weakref
import unittest

import numpy as np
import torch

import gnn

SIDES = (('torch', torch), ('gnn', gnn))



def _under_asan():
    with open('/proc/self/maps') as maps:
        return 'libasan' in maps.read()


class Sharing(unittest.TestCase):
    def test_tutorial(self):
        # torch's "Tensors" tutorial: bridge with numpy
        printed = {}
        for name, T in SIDES:
            lines = []
            t = T.ones(5)
            n = t.numpy()
            t.add_(1)
            lines.append((t.tolist(), n.tolist()))
            n = np.ones(5)
            t = T.from_numpy(n)
            np.add(n, 1, out=n)
            lines.append((t.tolist(), n.tolist()))
            t = T.zeros(3)
            t.numpy()[0] = 5
            lines.append(t.tolist())
            printed[name] = lines
        self.assertEqual(printed['gnn'], printed['torch'])

    def test_every_dtype(self):
        for np_dtype in ('float32', 'float64', 'float16', 'int64', 'int32', 'int16', 'int8',
                         'uint8', 'bool'):
            with self.subTest(dtype=np_dtype):
                a = np.arange(6).reshape(2, 3).astype(np_dtype)
                t = gnn.from_numpy(a)
                self.assertEqual(str(t.dtype).split('.')[-1],
                                 str(torch.from_numpy(a).dtype).split('.')[-1])
                back = t.numpy()
                self.assertEqual(back.dtype, a.dtype)
                self.assertTrue(np.shares_memory(back, a))
                a[1, 2] = 1
                self.assertEqual(t[1, 2].item(), torch.from_numpy(a)[1, 2].item())

    def test_views_and_strides(self):
        for name, T in SIDES:
            with self.subTest(side=name):
                base = np.arange(24, dtype=np.float32).reshape(4, 6)
                t = T.from_numpy(base[:, ::2])
                self.assertEqual(t.stride(), torch.from_numpy(base[:, ::2]).stride())
                t[1, 1] = -1
                self.assertEqual(base[1, 2], -1)
                u = T.arange(12.0).reshape(3, 4).t()
                a = u.numpy()
                self.assertEqual(a.strides, (4, 16))
                a[0, 2] = 100
                self.assertEqual(u[0, 2].item(), 100)
                row = T.zeros(2, 3)[1]
                row.numpy()[:] = 7
                self.assertEqual(row.tolist(), [7, 7, 7])

    def test_zero_d_and_empty(self):
        for _, T in SIDES:
            t = T.tensor(3.5)
            self.assertEqual(t.numpy().shape, ())
            t.numpy()[()] = 1.5
            self.assertEqual(t.item(), 1.5)
            self.assertEqual(T.zeros(0, 3).numpy().shape, (0, 3))
            self.assertEqual(T.from_numpy(np.zeros((2, 0))).shape, (2, 0))

    def test_refusals(self):
        cases = {
            'negative strides': lambda T: T.from_numpy(np.arange(5.0)[::-1]),
            'byte order': lambda T: T.from_numpy(np.zeros(3, dtype='>f4')),
            'not an array': lambda T: T.from_numpy([1, 2]),
            'bfloat16 numpy': lambda T: T.zeros(2, dtype=T.bfloat16).numpy(),
        }
        for case, func in cases.items():
            with self.subTest(case=case):
                got = {}
                for name, T in SIDES:
                    try:
                        func(T)
                        got[name] = None
                    except Exception as exc:   # noqa: BLE001
                        got[name] = (type(exc).__name__, str(exc))
                self.assertEqual(got['gnn'], got['torch'])
        with self.assertRaisesRegex(TypeError, "can't convert np.ndarray of type numpy.object_"):
            gnn.from_numpy(np.array([object()]))

    def test_as_tensor_shares_and_tensor_copies(self):
        for _, T in SIDES:
            a = np.zeros(3, dtype=np.float32)
            shared, copied = T.as_tensor(a), T.tensor(a)
            a[0] = 2
            self.assertEqual((shared[0].item(), copied[0].item()), (2, 0))


class Lifetimes(unittest.TestCase):
    """The tensor keeps the array alive; the array keeps the tensor's
    memory alive (no use after free when either side is dropped first)."""

    def test_tensor_keeps_array(self):
        a = np.arange(1000, dtype=np.float64)
        ref = weakref.ref(a) if hasattr(a, '__weakref__') else None
        t = gnn.from_numpy(a)
        view = t[10:20]
        del a
        gc.collect()
        self.assertEqual(view.tolist(), list(range(10, 20)))
        del t
        gc.collect()
        self.assertEqual(view.sum().item(), sum(range(10, 20)))
        del view
        gc.collect()
        if ref is not None:
            self.assertIsNone(ref())

    def test_array_keeps_memory(self):
        t = gnn.arange(1000.0)
        a = t.numpy()[500:]
        del t
        gc.collect()
        junk = [gnn.ones(1000) for _ in range(20)]   # reuse freed memory if any
        self.assertEqual(a[0], 500.0)
        self.assertEqual(float(a.sum()), float(sum(range(500, 1000))))
        del junk

    def test_memory_follows_module_to(self):
        # model.to(dtype) gives the parameter new memory; an array taken
        # before keeps the old one, as torch's _apply does
        m = gnn.nn.Linear(2, 2)
        a = m.weight.detach().numpy()
        before = a.copy()
        m.to(gnn.float64)
        gc.collect()
        np.testing.assert_array_equal(a, before)
        self.assertEqual(m.weight.dtype, gnn.float64)

    def test_many_round_trips(self):
        # no leak of owners or storages over many conversions
        import resource
        start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for _ in range(2000):
            a = np.ones(10000, dtype=np.float32)
            t = gnn.from_numpy(a)
            b = t.numpy()
            b[0] = 3
            self.assertEqual(a[0], 3)
        gc.collect()
        if _under_asan():
            # ASan's quarantine keeps freed blocks resident, so RSS says
            # nothing there; the uninstrumented build's run checks growth.
            return
        grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start) / 1024
        self.assertLess(grown_mb, 40)      # 2000 x 40 KB would be 80 MB if leaked

    def test_worker_threads_see_shared_data(self):
        # a dataset over numpy arrays through the loader's worker threads
        x = np.arange(20, dtype=np.float32).reshape(10, 2)
        ds = gnn.utils.data.TensorDataset(gnn.from_numpy(x))
        loader = gnn.utils.data.DataLoader(ds, batch_size=5, num_workers=2,
                                           worker_mode='threads')
        x[0, 0] = -1
        first = next(iter(loader))[0]
        self.assertEqual(first[0, 0].item(), -1)


if __name__ == '__main__':
    unittest.main(verbosity=2)
