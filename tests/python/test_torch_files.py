# PyTorch's own files (torch.save's zip archives) read and written by the C
# library, side by side with torch 1.13: state dicts of every dtype, views,
# shared storages and checkpoints come back equal; what Gnn writes loads in
# torch.load(weights_only=True); hostile files (code-running globals,
# recursion and memo bombs, lying sizes, zip bombs, symlinks, truncation)
# are refused with an error and run nothing.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import io
import os
import pickle
import shutil
import struct
import tempfile
import unittest
import zipfile

import numpy as np
import torch
import torch.nn as tnn

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402


def as_numpy(t):
    if t.get_dtype() == Gnn.DType.BF16:
        return t.to_dtype(Gnn.DType.F32).numpy()
    return t.numpy()


def torch_numpy(t):
    t = t.detach()
    return (t.float() if t.dtype == torch.bfloat16 else t).numpy()


def torch_zip(entries, name='archive'):
    """A zip laid out as torch.save's: {relative name: bytes}."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_STORED) as z:
        for rel, data in entries.items():
            z.writestr('%s/%s' % (name, rel), data)
    return buf.getvalue()


class TorchFiles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='gnn-torch-files-')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data):
        path = self.path(name)
        with open(path, 'wb') as f:
            f.write(data)
        return path

    # -- reading what torch writes --------------------------------------------------

    def test_state_dict_of_every_dtype_and_views(self):
        torch.manual_seed(0)
        base = torch.arange(48.).reshape(6, 8)
        sd = {
            'f32': torch.randn(3, 4), 'f64': torch.randn(5, dtype=torch.float64),
            'f16': torch.randn(4).half(), 'bf16': torch.randn(4).bfloat16(),
            'i64': torch.arange(6), 'i32': torch.arange(3, dtype=torch.int32),
            'i16': torch.arange(3, dtype=torch.int16), 'i8': torch.arange(-3, 3, dtype=torch.int8),
            'u8': torch.arange(7, dtype=torch.uint8), 'bool': torch.tensor([True, False, True]),
            'scalar': torch.tensor(2.5), 'empty': torch.zeros(0, 3),
            'view': base[1:5, 2:7], 'transposed': base.t(), 'column': base[:, 3],
        }
        path = self.path('sd.pth')
        torch.save(sd, path)
        loaded = Gnn.load(path)
        self.assertIsInstance(loaded, Gnn.StateDict)
        self.assertEqual(list(loaded.keys()), list(sd))
        for key, t in sd.items():
            np.testing.assert_array_equal(as_numpy(loaded[key]), torch_numpy(t), err_msg=key)
            self.assertEqual(list(loaded[key].get_shape()), list(t.shape), key)
        self.assertEqual(loaded['f16'].get_dtype(), Gnn.DType.F16)
        self.assertEqual(loaded['bf16'].get_dtype(), Gnn.DType.BF16)
        # views of one storage share it in Gnn too
        self.assertTrue(loaded['view'].shares_storage(loaded['transposed']))
        self.assertEqual(loaded['transposed'].get_strides(), [1, 8])

    def test_model_state_dict_loads_into_the_same_model(self):
        torch.manual_seed(1)
        tm = tnn.Sequential(tnn.Conv2d(2, 4, 3, padding=1), tnn.BatchNorm2d(4), tnn.ReLU(),
                            tnn.Flatten(), tnn.Linear(4 * 5 * 5, 3))
        tm.train()
        tm(torch.randn(8, 2, 5, 5))   # running statistics move
        tm.eval()
        path = self.path('model.pth')
        torch.save(tm.state_dict(), path)
        gm = Gnn.Sequential(Gnn.Conv2d(2, 4, 3, padding=1), Gnn.BatchNorm2d(4), Gnn.ReLU(),
                            Gnn.Flatten(), Gnn.Linear(4 * 5 * 5, 3))
        gm.load_state_dict(Gnn.load(path))
        gm.eval()
        x = torch.randn(2, 2, 5, 5)
        np.testing.assert_allclose(gm(Gnn.Tensor.from_numpy(x.numpy())).numpy(),
                                   tm(x).detach().numpy(), rtol=1e-5, atol=1e-5)
        # C: gnn_module_load reads torch's files too
        gm2 = Gnn.Sequential(Gnn.Conv2d(2, 4, 3, padding=1), Gnn.BatchNorm2d(4), Gnn.ReLU(),
                             Gnn.Flatten(), Gnn.Linear(4 * 5 * 5, 3))
        Gnn.Module.load_with_flags(gm2, path, Gnn.LoadFlags.ASSIGN)
        gm2.eval()
        np.testing.assert_allclose(gm2(Gnn.Tensor.from_numpy(x.numpy())).numpy(),
                                   tm(x).detach().numpy(), rtol=1e-5, atol=1e-5)

    def test_checkpoint_structure(self):
        torch.manual_seed(2)
        m = tnn.Linear(3, 2)
        opt = torch.optim.Adam(m.parameters(), lr=1e-3)
        m(torch.randn(4, 3)).sum().backward()
        opt.step()
        ckpt = {'epoch': 7, 'model': m.state_dict(), 'optimizer': opt.state_dict(),
                'loss': 0.125, 'best': float('inf'), 'nan': float('nan'), 'name': 'run ä',
                'tags': ['a', 'b'], 'pair': (1, -2.5), 'blob': b'\x00\xff', 'none': None,
                'flag': True, 'big': 2 ** 40, 'neg': -70000, 'tensor': torch.ones(2)}
        path = self.path('ckpt.pth')
        torch.save(ckpt, path)
        loaded = Gnn.load(path)
        self.assertEqual(list(loaded), list(ckpt))
        for key in ('epoch', 'loss', 'best', 'name', 'tags', 'pair', 'blob', 'none', 'flag',
                    'big', 'neg'):
            self.assertEqual(loaded[key], ckpt[key], key)
            self.assertIs(type(loaded[key]), type(ckpt[key]), key)
        self.assertTrue(loaded['nan'] != loaded['nan'])
        self.assertIsInstance(loaded['model'], Gnn.StateDict)
        state = loaded['optimizer']['state']
        self.assertEqual(sorted(state), [0, 1])
        np.testing.assert_array_equal(state[0]['exp_avg'].numpy(),
                                      opt.state_dict()['state'][0]['exp_avg'].numpy())
        self.assertEqual(loaded['optimizer']['param_groups'][0]['betas'], (0.9, 0.999))
        self.assertEqual(loaded['optimizer']['param_groups'][0]['params'], [0, 1])
        # a NUL inside a string cannot reach C strings: refused, not cut
        torch.save({'name': 'run\x00a'}, path)
        with self.assertRaisesRegex(GLib.Error, "'name' is a string with a NUL character"):
            Gnn.load(path)

    def test_parameters_and_bare_tensors(self):
        path = self.path('p.pth')
        torch.save({'p': tnn.Parameter(torch.ones(2)), 'q': tnn.Parameter(torch.ones(1),
                                                                         requires_grad=False)}, path)
        loaded = Gnn.load(path)
        self.assertIsInstance(loaded['p'], Gnn.Parameter)
        self.assertTrue(loaded['p'].get_requires_grad())
        self.assertFalse(loaded['q'].get_requires_grad())
        torch.save(torch.arange(4.), path)
        np.testing.assert_array_equal(Gnn.load(path).numpy(), [0, 1, 2, 3])

    # -- what Gnn writes, torch reads ---------------------------------------------------

    def test_save_torch_reads_in_torch_weights_only(self):
        gm = Gnn.Sequential(Gnn.Linear(4, 3), Gnn.BatchNorm1d(3), Gnn.ReLU())
        path = self.path('gnn.pth')
        gm.state_dict().save_torch(path)
        sd = torch.load(path, weights_only=True)
        self.assertEqual(list(sd), list(gm.state_dict().keys()))
        for key, t in gm.state_dict().items():
            np.testing.assert_array_equal(sd[key].numpy(), t.numpy(), err_msg=key)
            self.assertFalse(sd[key].requires_grad)
        tm = tnn.Sequential(tnn.Linear(4, 3), tnn.BatchNorm1d(3), tnn.ReLU())
        tm.load_state_dict(sd)
        # and Gnn reads its own file back, zero copy
        back = Gnn.StateDict.load_torch(path, Gnn.LoadFlags.NONE)
        for key, t in gm.state_dict().items():
            np.testing.assert_array_equal(back[key].numpy(), t.numpy())

    def test_save_torch_views_dtypes_and_checkpoints(self):
        base = Gnn.Tensor.from_numpy(np.arange(24, dtype=np.float32).reshape(4, 6))
        sd = Gnn.StateDict()
        sd['base'] = base
        sd['t'] = base.transpose(0, 1)
        sd['half'] = base.to_dtype(Gnn.DType.F16)
        sd['bf16'] = base.to_dtype(Gnn.DType.BF16)
        sd['flags'] = Gnn.Tensor.from_numpy(np.array([True, False]))
        sd['expanded'] = Gnn.Tensor.from_numpy(np.arange(3, dtype=np.int64)).expand([2, 3])
        path = self.path('views.pth')
        sd.save_torch(path)
        back = torch.load(path, weights_only=True)
        np.testing.assert_array_equal(back['t'].numpy(), np.arange(24).reshape(4, 6).T)
        self.assertEqual(back['t'].storage().data_ptr(), back['base'].storage().data_ptr())
        self.assertEqual(back['half'].dtype, torch.float16)
        self.assertEqual(back['bf16'].dtype, torch.bfloat16)
        np.testing.assert_array_equal(back['expanded'].numpy(), [[0, 1, 2], [0, 1, 2]])
        # a checkpoint keeps its structure
        src = self.path('ckpt.pth')
        torch.save({'epoch': 3, 'loss': 0.5, 'model': {'w': torch.ones(2)}, 'names': ['a'],
                    'blob': b'\x00\x01'}, src)
        loaded = Gnn.StateDict.load_torch(src, Gnn.LoadFlags.NONE)
        loaded.save_torch(path)
        again = torch.load(path)
        self.assertEqual(again['epoch'], 3)
        self.assertEqual(again['loss'], 0.5)
        self.assertEqual(again['names'], ['a'])
        self.assertEqual(again['blob'], b'\x00\x01')
        np.testing.assert_array_equal(again['model']['w'].numpy(), [1, 1])

    # -- hostile files -------------------------------------------------------------------

    def assert_refused(self, data, needle, code=None):
        path = self.write('hostile.pth', data)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.StateDict.load_torch(path, Gnn.LoadFlags.NONE)
        self.assertIn(needle, cm.exception.message)
        if code is not None:
            self.assertEqual(cm.exception.code, int(code))
        with self.assertRaises(GLib.Error):
            Gnn.load(path)
        return cm.exception.message

    def test_code_running_globals(self):
        marker = self.path('pwned')

        class Evil:
            def __init__(self, func, arg):
                self.func, self.arg = func, arg

            def __reduce__(self):
                return (self.func, (self.arg,))
        for func, arg, name in ((os.system, 'touch ' + marker, 'posix.system'),
                                (eval, '__import__("os").system("touch %s")' % marker, 'eval'),
                                (torch._utils._import_dotted_name, 'os.system',
                                 'torch._utils._import_dotted_name')):
            for proto in (2, 4, 5):
                data = torch_zip({'data.pkl': pickle.dumps({'x': Evil(func, arg)}, protocol=proto),
                                  'version': b'3\n'})
                message = self.assert_refused(data, 'unsupported global ',
                                              Gnn.Error.NOT_SUPPORTED)
                self.assertIn(name + ':', message)
                self.assertIn('nothing in a file is ever run', message)
        self.assertFalse(os.path.exists(marker))

    def test_whole_modules_numpy_and_complex(self):
        path = self.path('module.pth')
        torch.save(tnn.Linear(2, 2), path)
        with open(path, 'rb') as f:
            self.assert_refused(f.read(), 'unsupported global torch.nn.modules.linear.Linear')
        torch.save({'acc': np.float64(0.5)}, path)
        with open(path, 'rb') as f:
            self.assert_refused(f.read(), "the checkpoint's entry 'acc' is a numpy value")
        torch.save({'c': torch.ones(2, dtype=torch.complex64)}, path)
        with open(path, 'rb') as f:
            self.assert_refused(f.read(), 'complex tensors are not supported')

    def test_other_torch_formats(self):
        path = self.path('legacy.pth')
        torch.save({'w': torch.ones(2)}, path, _use_new_zipfile_serialization=False)
        with open(path, 'rb') as f:
            self.assert_refused(f.read(), 'legacy torch format')
        torch.jit.save(torch.jit.script(tnn.Linear(2, 2)), path)
        with open(path, 'rb') as f:
            self.assert_refused(f.read(), 'TorchScript archive')
        self.assert_refused(b'not a zip at all', 'not a zip archive')
        self.assert_refused(b'PK\x03\x04' + b'\x00' * 100, 'invalid zip archive')
        self.assert_refused(torch_zip({'version': b'3\n'}), 'has no "archive/data.pkl"')

    def test_recursion_and_memo_bombs(self):
        # 2,000 nested lists: built flat by the machine, refused by depth
        deep = b'\x80\x02' + b'(' * 2000 + b'l' * 2000 + b'.'
        self.assert_refused(torch_zip({'data.pkl': deep}), 'nests deeper than 64 levels')
        # 1,000,000: more than the file's size allows
        deep = b'\x80\x02' + b'(' * 1000000 + b'l' * 1000000 + b'.'
        self.assert_refused(torch_zip({'data.pkl': deep}), 'more memory than')
        # a list containing itself through the memo
        cycle = b'\x80\x02]q\x00h\x00a.'
        self.assert_refused(torch_zip({'data.pkl': cycle}), 'contains itself')
        # 2^40 references through a chain of memoized lists (billion laughs)
        laughs = b'\x80\x02]q\x00'
        for i in range(1, 41):
            laughs += b'0](h%ch%ceq%c' % (i - 1, i - 1, i)
        laughs += b'.'
        self.assert_refused(torch_zip({'data.pkl': laughs}), 'repeats itself too often')
        # memo indices far out, and entries never set
        self.assert_refused(torch_zip({'data.pkl': b'\x80\x02Nr\xff\xff\xff\xff.'}),
                            'beyond the limit')
        self.assert_refused(torch_zip({'data.pkl': b'\x80\x02h\x07.'}), 'never set')
        # more values than the file's size allows
        many = b'\x80\x02(' + b'K\x01' * (3 << 20) + b'l.'
        self.assert_refused(torch_zip({'data.pkl': many}), 'more memory than',
                            Gnn.Error.MEMORY)

    def test_lying_lengths_and_opcodes(self):
        for body, needle in ((b'\x8d' + struct.pack('<Q', 1 << 62), 'runs past the end'),
                             (b'X' + struct.pack('<I', 0xffffffff), 'runs past the end'),
                             (b'\x95' + struct.pack('<Q', 1 << 40), 'runs past the end'),
                             (b'\x8b' + struct.pack('<I', 0x7fffffff), 'runs past the end'),
                             (b'\x8a\x09' + b'\x01' * 9, 'does not fit in 64 bits'),
                             (b'X\x02\x00\x00\x00\xff\xfe', 'not valid UTF-8'),
                             (b'i__builtin__\nobject\n', 'opcode INST is not allowed'),
                             (b'\x82\x01', 'opcode EXT1 is not allowed'),
                             (b'Pfoo\n', 'opcode PERSID is not allowed'),
                             (b'\xff', 'unknown opcode 0xff'),
                             (b'a', 'pops an empty stack'),
                             (b'(.', 'STOP leaves 0 values and 1 marks'),
                             (b'N', 'ends in the middle'),
                             (b'NN.', 'STOP leaves 2 values')):
            self.assert_refused(torch_zip({'data.pkl': b'\x80\x02' + body}), needle)
        self.assert_refused(torch_zip({'data.pkl': b'\x80\x07N.'}), 'protocol 7')

    def storage_pickle(self, numel, offset, size, stride, key='0', cls=b'FloatStorage'):
        """_rebuild_tensor_v2 of one storage, pickled by hand."""
        ints = lambda values: b'(' + b''.join(b'J' + struct.pack('<i', v) for v in values) + b't'
        return (b'\x80\x02}(X\x01\x00\x00\x00w'
                b'ctorch._utils\n_rebuild_tensor_v2\n('
                b'(X\x07\x00\x00\x00storagectorch\n' + cls + b'\nX' + struct.pack('<I', len(key)) +
                key.encode() + b'X\x03\x00\x00\x00cpuJ' + struct.pack('<i', numel) + b'tQ'
                b'J' + struct.pack('<i', offset) + ints(size) + ints(stride) +
                b'\x89ccollections\nOrderedDict\n)RtRu.')

    def test_storages_and_views(self):
        ok = self.storage_pickle(6, 0, [2, 3], [3, 1])
        path = self.write('ok.pth', torch_zip({'data.pkl': ok, 'data/0': bytes(24)}))
        self.assertEqual(list(Gnn.load(path)['w'].get_shape()), [2, 3])
        for pkl, entries, needle in (
                (ok, {'data/0': bytes(20)}, 'runs past the end of its entry'),
                (ok, {}, 'has no entry "archive/data/0"'),
                (self.storage_pickle(6, 1, [2, 3], [3, 1]), {'data/0': bytes(24)},
                 'reaches element 6 of storage "0", which has 6'),
                (self.storage_pickle(6, 0, [2, 3], [0, 1]), {'data/0': bytes(24)},
                 'elements overlap'),
                (self.storage_pickle(7, 0, [3, 3], [1, 2]), {'data/0': bytes(28)},
                 'elements overlap'),
                (self.storage_pickle(6, 0, [2, -3], [3, 1]), {'data/0': bytes(24)},
                 'non-negative integer'),
                (self.storage_pickle(1 << 30, 0, [1 << 30], [1]), {'data/0': bytes(24)},
                 'runs past the end of its entry'),
                (self.storage_pickle(6, 0, [2, 3], [3, 1], key='../x'), {'data/0': bytes(24)},
                 'not a file name'),
                (self.storage_pickle(6, 0, [2, 3], [3, 1], cls=b'ComplexFloatStorage'),
                 {'data/0': bytes(48)}, 'complex tensors are not supported')):
            entries = dict(entries)
            entries['data.pkl'] = pkl
            self.assert_refused(torch_zip(entries), needle)

    def test_zip_bombs_symlinks_and_truncation(self):
        ok = self.storage_pickle(1 << 24, 0, [1 << 24], [1])
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, 'w') as z:
            z.writestr('archive/data.pkl', ok)
            z.writestr('archive/data/0', bytes(4 << 24), compress_type=zipfile.ZIP_DEFLATED)
        self.assertLess(len(buf.getvalue()), 1 << 20)
        self.assert_refused(buf.getvalue(), 'a zip bomb?', Gnn.Error.FORMAT)

        buf = io.BytesIO()
        with zipfile.ZipFile(buf, 'w') as z:
            z.writestr('archive/data.pkl', b'\x80\x02N.')
            info = zipfile.ZipInfo('archive/link')
            info.external_attr = (0o120777 << 16)
            z.writestr(info, '/etc/passwd')
        self.assert_refused(buf.getvalue(), 'is a symbolic link')

        buf = io.BytesIO()
        with zipfile.ZipFile(buf, 'w') as z:
            z.writestr('archive/data.pkl', b'\x80\x02N.')
            z.writestr('archive/data.pkl', b'\x80\x02N.')
        self.assert_refused(buf.getvalue(), 'invalid zip archive')

        path = self.path('good.pth')
        torch.save({'a': torch.randn(64), 'b': torch.arange(10)}, path)
        with open(path, 'rb') as f:
            good = f.read()
        for cut in range(0, len(good), max(1, len(good) // 97)):
            truncated = self.write('cut.pth', good[:cut])
            with self.assertRaises(GLib.Error, msg='cut at %d' % cut):
                Gnn.StateDict.load_torch(truncated, Gnn.LoadFlags.NONE)


if __name__ == '__main__':
    unittest.main()
