#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""torch.save(obj, f) / torch.load(f, map_location=, weights_only=) side by
side with torch 1.13: paths and file objects (BytesIO, open files), for
tensors, numpy arrays, numbers, strings, None and containers nesting them
and state dicts; what comes back has torch's structure and values. Gnn
never pickles: a module or an arbitrary object is a clear error."""

import io
import os
import tempfile
import unittest

import numpy as np
import torch

import gnn
import gnn.nn

SIDES = (('torch', torch), ('gnn', gnn))


def plain(value):
    """A comparable picture of what load() gave: tensors and arrays as
    (kind, dtype, values), containers kept, mappings as dicts."""
    if isinstance(value, (torch.Tensor, gnn.Tensor)):
        return ('tensor', str(value.dtype).split('.')[-1], value.tolist())
    if isinstance(value, np.ndarray):
        return ('ndarray', str(value.dtype), value.tolist())
    if isinstance(value, dict) or hasattr(value, 'keys'):
        return ('dict', [(k, plain(value[k])) for k in value.keys()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(v) for v in value])
    return value


def objects(T):
    return {
        'tensor': T.arange(6).reshape(2, 3),
        'float tensor': T.ones(2, 2) * 0.5,
        'ndarray': np.arange(4.0),
        'number': 3,
        'float': 2.5,
        'string': 'checkpoint',
        'none': None,
        'list': [T.zeros(2), 'a', 1.5, None],
        'tuple': (T.ones(1), (2, T.tensor([True, False]))),
        'nested': {'epoch': 3, 'loss': 0.25, 'best': {'acc': 0.9, 'w': T.ones(2, 2) * 3},
                   'arrays': [np.int32(7), np.zeros((2, 1), dtype=np.float32)], 'name': 'mlp'},
        'state_dict': T.nn.Linear(2, 1).state_dict(),
    }


class Targets(object):
    """The ways torch.save / torch.load are pointed at a file."""

    def __init__(self, folder):
        self.folder = folder

    def round_trip(self, T, obj, how, **load_args):
        path = os.path.join(self.folder, 'obj.pt')
        if how == 'path':
            T.save(obj, path)
            return T.load(path, **load_args)
        if how == 'pathlike':
            import pathlib
            T.save(obj, pathlib.Path(path))
            return T.load(pathlib.Path(path), **load_args)
        if how == 'bytesio':
            buffer = io.BytesIO()
            T.save(obj, buffer)
            buffer.seek(0)
            return T.load(buffer, **load_args)
        with open(path, 'wb') as f:
            T.save(obj, f)
        with open(path, 'rb') as f:
            return T.load(f, **load_args)


class SaveLoad(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.targets = Targets(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_objects_every_target(self):
        for how in ('path', 'pathlike', 'bytesio', 'file'):
            torch_objects, gnn_objects = objects(torch), objects(gnn)
            for case in torch_objects:
                with self.subTest(target=how, case=case):
                    if case == 'state_dict':
                        # the same values on both sides
                        for key, value in torch_objects[case].items():
                            gnn_objects[case][key].copy_(gnn.from_numpy(value.numpy().copy()))
                    expected = plain(self.targets.round_trip(torch, torch_objects[case], how))
                    got = plain(self.targets.round_trip(gnn, gnn_objects[case], how))
                    if case == 'nested':     # torch keeps the numpy scalar; Gnn a number
                        expected[1][3][1][1][0] = 7
                    self.assertEqual(got, expected)

    def test_load_arguments(self):
        for name, T in SIDES:
            obj = {'w': T.ones(3)}
            for args in ({'map_location': 'cpu'}, {'map_location': T.device('cpu')},
                         {'map_location': {'cuda:0': 'cpu'}},
                         {'map_location': lambda storage, loc: storage},
                         {'weights_only': True}, {'weights_only': False}):
                with self.subTest(side=name, args=args):
                    got = self.targets.round_trip(T, obj, 'bytesio', **args)
                    self.assertEqual(got['w'].tolist(), [1.0, 1.0, 1.0])

    def test_map_location_cuda(self):
        got = {}
        for name, T in SIDES:
            try:
                self.targets.round_trip(T, {'w': T.ones(1)}, 'path', map_location='cuda:0')
                got[name] = None
            except RuntimeError as exc:
                got[name] = str(exc)
        # torch moves the tensors and fails; Gnn refuses the CUDA location
        self.assertIsNotNone(got['gnn'])
        self.assertIn('CUDA', got['gnn'])

    def test_training_resumes_from_file_object(self):
        buffer = io.BytesIO()
        gnn.manual_seed(0)
        model = gnn.nn.Linear(3, 1)
        opt = gnn.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        x, y = gnn.randn(8, 3), gnn.randn(8, 1)
        for _ in range(2):
            opt.zero_grad()
            gnn.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
        gnn.save({'model': model.state_dict(), 'optimizer': opt.state_dict(), 'epoch': 2},
                 buffer)
        buffer.seek(0)
        checkpoint = gnn.load(buffer)
        twin = gnn.nn.Linear(3, 1)
        twin.load_state_dict(checkpoint['model'])
        twin_opt = gnn.optim.SGD(twin.parameters(), lr=0.1, momentum=0.9)
        twin_opt.load_state_dict(checkpoint['optimizer'])
        self.assertEqual(checkpoint['epoch'], 2)
        for m, o in ((model, opt), (twin, twin_opt)):
            o.zero_grad()
            gnn.nn.functional.mse_loss(m(x), y).backward()
            o.step()
        self.assertEqual(model.weight.tolist(), twin.weight.tolist())

    def test_no_pickle(self):
        class Thing(object):
            pass
        with self.assertRaisesRegex(TypeError, 'cannot save Thing.*nothing is pickled'):
            gnn.save({'x': Thing()}, io.BytesIO())
        # a whole module is a model file (architecture + weights), also in a BytesIO
        buf = io.BytesIO()
        linear = gnn.nn.Linear(2, 2)
        gnn.save(linear, buf)
        buf.seek(0)
        back = gnn.load(buf)
        self.assertEqual(repr(back), repr(linear))
        self.assertEqual(back.weight.tolist(), linear.weight.tolist())
        with self.assertRaisesRegex(TypeError, 'optimizer.state_dict'):
            gnn.save(gnn.optim.SGD(linear.parameters(), lr=0.1), io.BytesIO())
        with self.assertRaisesRegex(TypeError, 'binary mode'):
            gnn.load(io.StringIO('text'))
        with self.assertRaises(Exception):
            gnn.load(io.BytesIO(b'not a checkpoint'))


if __name__ == '__main__':
    unittest.main(verbosity=2)
