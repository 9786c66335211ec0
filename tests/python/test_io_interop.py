# safetensors interop with torch 1.13: a model saved by Gnn loads into the
# equivalent torch model with load_state_dict(strict=True) and gives the same
# outputs; a torch state_dict written as safetensors here (json + numpy: Debian
# 12 has no safetensors package) loads into Gnn strictly with equal outputs.
# Also the Python API: sd.save(path, metadata), Gnn.StateDict.load(path).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections
import json
import os
import struct
import tempfile
import unittest

import numpy as np
import torch
import torch.nn as tnn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

# safetensors dtype <-> numpy (BF16 has no numpy dtype: handled as uint16 bits)
ST_TO_NP = {'F64': np.float64, 'F32': np.float32, 'F16': np.float16, 'I64': np.int64,
            'I32': np.int32, 'I16': np.int16, 'I8': np.int8, 'U8': np.uint8, 'BOOL': np.bool_}
TORCH_TO_ST = {torch.float64: 'F64', torch.float32: 'F32', torch.float16: 'F16',
               torch.bfloat16: 'BF16', torch.int64: 'I64', torch.int32: 'I32',
               torch.int16: 'I16', torch.int8: 'I8', torch.uint8: 'U8', torch.bool: 'BOOL'}


def write_torch_safetensors(path, state_dict, metadata=None):
    """The reference writer's format, from a torch state_dict."""
    header, blobs, pos = {}, [], 0
    if metadata:
        header['__metadata__'] = metadata
    for name, t in state_dict.items():
        t = t.detach().contiguous()
        if t.dtype == torch.bfloat16:
            raw = t.view(torch.int16).numpy().tobytes()
        else:
            raw = t.numpy().astype(t.numpy().dtype.newbyteorder('<')).tobytes()
        header[name] = {'dtype': TORCH_TO_ST[t.dtype], 'shape': list(t.shape),
                        'data_offsets': [pos, pos + len(raw)]}
        blobs.append(raw)
        pos += len(raw)
    h = json.dumps(header).encode()
    h += b' ' * (-len(h) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(h)) + h + b''.join(blobs))


def read_safetensors_to_torch(path):
    """Parses a safetensors file with json + numpy; returns (OrderedDict, metadata, header_len)."""
    with open(path, 'rb') as f:
        blob = f.read()
    (n,) = struct.unpack('<Q', blob[:8])
    header = json.loads(blob[8:8 + n], object_pairs_hook=collections.OrderedDict)
    data = blob[8 + n:]
    metadata = header.pop('__metadata__', {})
    out = collections.OrderedDict()
    for name, info in header.items():
        b, e = info['data_offsets']
        if info['dtype'] == 'BF16':
            arr = np.frombuffer(data[b:e], dtype='<i2').reshape(info['shape'])
            out[name] = torch.from_numpy(arr.copy()).view(torch.bfloat16)
        else:
            arr = np.frombuffer(data[b:e], dtype=np.dtype(ST_TO_NP[info['dtype']]).newbyteorder('<'))
            out[name] = torch.from_numpy(arr.reshape(info['shape']).copy())
    return out, metadata, n


def gnn_model():
    g = Gnn.Sequential.new([])
    g.conv = Gnn.Conv2d.new(3, 4, 3, 1, 1, True)
    g.bn = Gnn.BatchNorm2d.new(4, 1e-5, 0.1, True, True)
    g.relu = Gnn.ReLU.new(False)
    g.flatten = Gnn.Flatten.new(1, -1)
    g.fc1 = Gnn.Linear.new(4 * 5 * 5, 6, True, None)
    return g


def torch_model():
    return tnn.Sequential(collections.OrderedDict([
        ('conv', tnn.Conv2d(3, 4, 3, 1, 1)),
        ('bn', tnn.BatchNorm2d(4)),
        ('relu', tnn.ReLU()),
        ('flatten', tnn.Flatten()),
        ('fc1', tnn.Linear(100, 6)),
    ]))


def gnn_indexed_model():
    return Gnn.Sequential.new([Gnn.Linear.new(5, 7, True, None), Gnn.ReLU.new(False),
                               Gnn.Linear.new(7, 3, True, None)])


def torch_indexed_model():
    return tnn.Sequential(tnn.Linear(5, 7), tnn.ReLU(), tnn.Linear(7, 3))


def gnn_forward(model, x):
    return model.call(Gnn.Tensor.from_numpy(np.ascontiguousarray(x))).numpy()


class TestInterop(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        torch.manual_seed(0)
        self.rng = np.random.default_rng(0)

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def train_gnn_a_bit(self, g):
        """Gives BatchNorm non-trivial running statistics."""
        g.train(True)
        for _ in range(3):
            g.call(Gnn.Tensor.from_numpy(self.rng.standard_normal((8, 3, 5, 5)).astype(np.float32)))
        g.train(False)

    def test_gnn_to_torch(self):
        g = gnn_model()
        self.train_gnn_a_bit(g)
        path = self.path('gnn.safetensors')
        g.save(path)
        sd, metadata, n = read_safetensors_to_torch(path)
        self.assertEqual(n % 8, 0)
        self.assertEqual(list(sd), ['conv.weight', 'conv.bias', 'bn.weight', 'bn.bias',
                                    'bn.running_mean', 'bn.running_var',
                                    'bn.num_batches_tracked', 'fc1.weight', 'fc1.bias'])
        self.assertEqual(sd['bn.num_batches_tracked'].dtype, torch.int64)
        self.assertEqual(int(sd['bn.num_batches_tracked']), 3)
        t = torch_model()
        result = t.load_state_dict(sd, strict=True)
        self.assertEqual(list(result.missing_keys), [])
        self.assertEqual(list(result.unexpected_keys), [])
        self.assertEqual(list(sd), list(t.state_dict()))
        t.eval()
        x = self.rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
        with torch.no_grad():
            expected = t(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(gnn_forward(g, x), expected, rtol=1e-5, atol=1e-5)

    def test_torch_to_gnn(self):
        t = torch_model()
        t.train()
        with torch.no_grad():
            for _ in range(2):
                t(torch.randn(8, 3, 5, 5))
        t.eval()
        path = self.path('torch.safetensors')
        write_torch_safetensors(path, t.state_dict(), {'format': 'pt'})
        g = gnn_model()
        g.load(path)                    # strict
        sd = Gnn.StateDict.load(path)
        self.assertEqual(list(sd.keys()), list(t.state_dict().keys()))
        self.assertEqual(sd.get_metadata('format'), 'pt')
        g.eval()
        x = self.rng.standard_normal((3, 3, 5, 5)).astype(np.float32)
        with torch.no_grad():
            expected = t(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(gnn_forward(g, x), expected, rtol=1e-5, atol=1e-5)
        got = g.state_dict()
        for key, value in t.state_dict().items():
            np.testing.assert_array_equal(got[key].numpy(), value.numpy(), err_msg=key)

    def test_indexed_names_both_ways(self):
        t = torch_indexed_model()
        path = self.path('idx.safetensors')
        write_torch_safetensors(path, t.state_dict())
        g = gnn_indexed_model()
        g.load_state_dict(Gnn.StateDict.load(path), strict=True)
        self.assertEqual([k for k in g.state_dict().keys()],
                         ['0.weight', '0.bias', '2.weight', '2.bias'])
        x = self.rng.standard_normal((4, 5)).astype(np.float32)
        with torch.no_grad():
            expected = t(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(gnn_forward(g, x), expected, rtol=1e-5, atol=1e-5)

        g2 = gnn_indexed_model()
        path2 = self.path('idx2.safetensors')
        g2.state_dict().save(path2, {'format': 'pt'})
        sd, metadata, _ = read_safetensors_to_torch(path2)
        self.assertEqual(metadata, {'format': 'pt'})
        t2 = torch_indexed_model()
        t2.load_state_dict(sd, strict=True)
        with torch.no_grad():
            expected = t2(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(gnn_forward(g2, x), expected, rtol=1e-5, atol=1e-5)

    def test_all_dtypes_from_torch(self):
        tensors = collections.OrderedDict()
        for i, dtype in enumerate(TORCH_TO_ST):
            if dtype == torch.bool:
                tensors['t%d' % i] = torch.tensor([[True, False, True], [False, False, True]])
            else:
                tensors['t%d' % i] = (torch.arange(6) * 3 - 5).reshape(2, 3).to(dtype)
        tensors['scalar'] = torch.tensor(42, dtype=torch.int64)
        path = self.path('dtypes.safetensors')
        write_torch_safetensors(path, tensors)
        sd = Gnn.StateDict.load(path)
        self.assertEqual(list(sd.keys()), list(tensors))
        for name, t in tensors.items():
            got = sd[name]
            self.assertEqual(list(got.get_shape()), list(t.shape), name)
            if t.dtype == torch.bfloat16:
                np.testing.assert_array_equal(got.to_dtype(Gnn.DType.F32).numpy(),
                                              t.float().numpy())
            else:
                np.testing.assert_array_equal(got.numpy(), t.numpy(), err_msg=name)
        # and back out: Gnn writes what the reference reader expects
        out = self.path('dtypes-out.safetensors')
        sd.save(out)
        back, _, _ = read_safetensors_to_torch(out)
        self.assertEqual(list(back), list(tensors))
        for name, t in tensors.items():
            self.assertEqual(back[name].dtype, t.dtype, name)
            self.assertTrue(torch.equal(back[name], t), name)

    def test_copy_flag_and_bytes(self):
        sd = Gnn.StateDict()
        sd['w'] = Gnn.Tensor.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
        path = self.path('copy.safetensors')
        sd.save(path)
        copied = Gnn.StateDict.load(path, copy=True)
        os.unlink(path)
        np.testing.assert_array_equal(copied['w'].numpy(), np.arange(6).reshape(2, 3))

    def test_load_map_location_spellings(self):
        # torch's CPU idioms for map_location: a device string, a mapping to
        # the CPU, a function (storage, location); another device raises
        path = self.path('ml.safetensors')
        Gnn.save({'w': Gnn.Tensor.from_numpy(np.arange(3, dtype=np.float32))}, path)
        for location in ('cpu', {'cuda:0': 'cpu'}, lambda storage, loc: storage):
            np.testing.assert_array_equal(Gnn.load(path, map_location=location)['w'].numpy(),
                                          [0, 1, 2])
        halved = Gnn.load(path, map_location=lambda storage, loc: storage * 0.5)
        np.testing.assert_array_equal(halved['w'].numpy(), [0, 0.5, 1])
        for location in ('cuda:0', {'cpu': 'cuda:0'}):
            with self.assertRaises(RuntimeError):
                Gnn.load(path, map_location=location)

    def test_strict_mismatch_is_atomic(self):
        t = torch_indexed_model()
        path = self.path('bad.safetensors')
        sd = t.state_dict()
        sd['extra'] = torch.zeros(1)
        write_torch_safetensors(path, sd)
        g = gnn_indexed_model()
        before = g.state_dict()['0.weight'].numpy().copy()
        with self.assertRaises(GLib.Error) as cm:
            g.load(path)
        self.assertIn('Unexpected key(s) in state_dict: "extra".', cm.exception.message)
        np.testing.assert_array_equal(g.state_dict()['0.weight'].numpy(), before)

    def test_bad_file_error(self):
        path = self.path('broken.safetensors')
        with open(path, 'wb') as f:
            f.write(struct.pack('<Q', 200_000_000) + b'{}')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.StateDict.load(path)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.FORMAT))
        self.assertIn('header size 200000000 is too large', cm.exception.message)



def train_steps(model, opt, n, seed):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        x = Gnn.from_numpy(rng.standard_normal((8, 4)).astype(np.float32))
        opt.zero_grad()
        (model(x) ** 2).sum().backward()
        opt.step()


class TestCheckpoint(unittest.TestCase):
    """torch.save's usual checkpoint, a nested dict, and the best-model
    deepcopy idiom."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, 'checkpoint.pt')

    def tearDown(self):
        self.dir.cleanup()

    def make(self):
        Gnn.manual_seed(5)
        model = Gnn.nn.Sequential(Gnn.nn.Linear(4, 3), Gnn.nn.ReLU(), Gnn.nn.Linear(3, 2))
        return model, Gnn.optim.Adam(model.parameters(), lr=0.01)

    def test_resume_from_a_checkpoint_dict(self):
        model, opt = self.make()
        train_steps(model, opt, 2, 0)
        Gnn.save({'epoch': 2, 'model': model.state_dict(), 'optimizer': opt.state_dict(),
                  'loss': 0.5, 'history': [1.0, float('inf')], 'note': None}, self.path)
        train_steps(model, opt, 3, 1)   # the uninterrupted run

        checkpoint = Gnn.load(self.path)
        self.assertEqual(list(checkpoint), ['epoch', 'model', 'optimizer', 'loss', 'history',
                                            'note'])
        self.assertEqual((checkpoint['epoch'], checkpoint['loss'], checkpoint['history'],
                          checkpoint['note']), (2, 0.5, [1.0, float('inf')], None))
        resumed, resumed_opt = self.make()
        resumed.load_state_dict(checkpoint['model'])
        resumed_opt.load_state_dict(checkpoint['optimizer'])
        train_steps(resumed, resumed_opt, 3, 1)
        for (name, a), (_, b) in zip(model.named_parameters(), resumed.named_parameters()):
            np.testing.assert_array_equal(a.numpy(), b.numpy(), name)

        # any safetensors reader sees the tensors under dotted names
        tensors, metadata, _ = read_safetensors_to_torch(self.path)
        self.assertEqual([k for k in tensors if k.startswith('model.')],
                         ['model.0.weight', 'model.0.bias', 'model.2.weight', 'model.2.bias'])
        self.assertTrue(any(k.startswith('optimizer.state.') for k in tensors))
        self.assertIn('gnn.checkpoint', metadata)

    def test_what_cannot_be_saved(self):
        model, opt = self.make()
        with self.assertRaises(TypeError):
            Gnn.save(opt, self.path)
        with self.assertRaises(TypeError):   # a module beside other values
            Gnn.save({'model': model, 'loss': 0.5}, self.path)
        with self.assertRaises(ValueError):   # both are "a.b"
            Gnn.save({'a.b': Gnn.ones(1), 'a': {'b': Gnn.ones(1)}}, self.path)
        self.assertFalse(os.path.exists(self.path))

    def test_deepcopy_like_torch(self):
        import copy
        model, opt = self.make()
        train_steps(model, opt, 1, 0)
        best = copy.deepcopy(model.state_dict())
        weight = copy.deepcopy(model[0].weight)
        train_steps(model, opt, 1, 1)
        self.assertFalse(np.array_equal(best['0.weight'].numpy(), model[0].weight.numpy()))
        self.assertEqual(type(weight).__name__, 'Parameter')
        self.assertTrue(weight.requires_grad)
        self.assertIsNot(weight.grad, None)
        model.load_state_dict(best)
        np.testing.assert_array_equal(model[0].weight.numpy(), best['0.weight'].numpy())
        t = torch.nn.Parameter(torch.ones(2))
        self.assertEqual(type(copy.deepcopy(t)).__name__, 'Parameter')

if __name__ == '__main__':
    unittest.main()
