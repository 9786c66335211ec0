#!/usr/bin/env python3
# Generates the seed corpora of the torch-file and model-file fuzzers, and
# the files test-io-torch replays: run once with torch (and the build's Gnn
# for the model files) and commit the output.
#
#   GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib \
#     /usr/bin/python3 tests/io/make-torch-corpus.py tests/io
#
# torch-corpus/   whole files: what torch.save writes, and hostile ones
# pickle-corpus/  the data.pkl of those, and hand-made pickles
# model-corpus/   "gnn.model" metadata texts of a few models, and broken ones
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import io
import json
import os
import pickle
import struct
import sys
import zipfile

import numpy as np
import torch
import torch.nn as tnn

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
dirs = {k: os.path.join(out, k) for k in ('torch-corpus', 'pickle-corpus', 'model-corpus')}
for d in dirs.values():
    os.makedirs(d, exist_ok=True)


def put(kind, name, data):
    with open(os.path.join(dirs[kind], name), 'wb') as f:
        f.write(data)


def saved(obj, **kwargs):
    buf = io.BytesIO()
    torch.save(obj, buf, **kwargs)
    return buf.getvalue()


def torch_zip(entries, compress=None):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_STORED) as z:
        for rel, data in entries.items():
            if isinstance(data, zipfile.ZipInfo):
                z.writestr(data, b'/etc/passwd')
            else:
                z.writestr('archive/' + rel, data,
                           compress_type=compress if rel.startswith('data/') and compress else None)
    return buf.getvalue()


class Evil:
    def __init__(self, func, arg):
        self.func, self.arg = func, arg

    def __reduce__(self):
        return (self.func, (self.arg,))


def storage_pickle(numel, offset, size, stride, key='0'):
    ints = lambda values: b'(' + b''.join(b'J' + struct.pack('<i', v) for v in values) + b't'
    return (b'\x80\x02}(X\x01\x00\x00\x00wctorch._utils\n_rebuild_tensor_v2\n('
            b'(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX' + struct.pack('<I', len(key)) +
            key.encode() + b'X\x03\x00\x00\x00cpuJ' + struct.pack('<i', numel) + b'tQJ' +
            struct.pack('<i', offset) + ints(size) + ints(stride) +
            b'\x89ccollections\nOrderedDict\n)RtRu.')


torch.manual_seed(0)
base = torch.arange(12.).reshape(3, 4)
files = {
    'state-dict': saved(tnn.Sequential(tnn.Linear(3, 2), tnn.BatchNorm1d(2)).state_dict()),
    'views': saved({'t': base.t(), 'row': base[1], 'half': torch.ones(2).half(),
                    'bf16': torch.ones(2).bfloat16(), 'flags': torch.tensor([True, False]),
                    'i8': torch.arange(3, dtype=torch.int8), 'empty': torch.zeros(0, 2)}),
    'checkpoint': saved({'epoch': 3, 'loss': 1e-8, 'inf': float('inf'), 'name': 'x',
                         'tags': ['a', ('b', 2)], 'blob': b'\x00\x01', 'none': None,
                         'big': 2 ** 40, 'state': {0: {'m': torch.ones(2)}}}),
    'parameter': saved({'p': tnn.Parameter(torch.ones(2))}),
    'bare-tensor': saved(torch.arange(3)),
    'os-system': torch_zip({'data.pkl': pickle.dumps(Evil(os.system, 'true'), protocol=2)}),
    'eval': torch_zip({'data.pkl': pickle.dumps(Evil(eval, '1'), protocol=4)}),
    'other-torch-utils': torch_zip({'data.pkl': pickle.dumps(
        Evil(torch._utils._import_dotted_name, 'os.system'), protocol=2)}),
    'whole-module': saved(tnn.Linear(1, 1)),
    'numpy-scalar': saved({'a': np.float64(1)}),
    'complex': saved({'c': torch.ones(1, dtype=torch.complex64)}),
    'legacy': saved({'w': torch.ones(1)}, _use_new_zipfile_serialization=False),
    'zip-bomb': torch_zip({'data.pkl': storage_pickle(1 << 14, 0, [1 << 14], [1]),
                           'data/0': bytes(1 << 16)}, compress=zipfile.ZIP_DEFLATED),
}
info = zipfile.ZipInfo('archive/link')
info.external_attr = 0o120777 << 16
files['symlink'] = torch_zip({'data.pkl': b'\x80\x02N.', 'link': info})
good = files['state-dict']
files['truncated'] = good[:len(good) // 2]
for name, data in files.items():
    put('torch-corpus', name + '.pth', data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for entry in z.namelist():
                if entry.endswith('data.pkl'):
                    put('pickle-corpus', name + '.pkl', z.read(entry))
    except zipfile.BadZipFile:
        pass


laughs = b'\x80\x02]q\x00'
for i in range(1, 12):
    laughs += b'0](h%ch%ceq%c' % (i - 1, i - 1, i)
pickles = {
    'view-ok': storage_pickle(16, 2, [2, 3], [4, 1]),
    'view-past-end': storage_pickle(16, 10, [2, 4], [4, 1]),
    'view-overlap': storage_pickle(16, 0, [4, 4], [1, 2]),
    'shared-storage': storage_pickle(16, 0, [4], [1])[:-2] + b'X\x01\x00\x00\x00v' +
    storage_pickle(16, 4, [4], [1])[13:-2] + b'u.',
    'cycle': b'\x80\x02]q\x00h\x00a.',
    'laughs': laughs + b'.',
    'deep': b'\x80\x02' + b'(' * 100 + b'l' * 100 + b'.',
    'protocol-5': pickle.dumps({'a': [1, 2.5, 'x', b'y', None, True, (1,), {3}]}, protocol=5),
    'ordered-dict': b'\x80\x02ccollections\nOrderedDict\n)R}(X\x01\x00\x00\x00aK\x01ub.',
    # numpy arrays (the unpickler rebuilds them; a torch file refuses them)
    'numpy-array-p2': pickle.dumps({'a': np.arange(6, dtype=np.float32).reshape(2, 3)}, protocol=2),
    'numpy-array-p5': pickle.dumps([np.arange(4, dtype=np.int64), np.float64(1.5)], protocol=5),
    'numpy-fortran': pickle.dumps(np.asfortranarray(np.ones((2, 3), dtype=np.uint8)), protocol=4),
    'numpy-big-endian': pickle.dumps(np.zeros(2, dtype='>f4'), protocol=4),
    'numpy-short-data': pickle.dumps(np.arange(6, dtype=np.uint8), protocol=3).replace(
        b'C\x06\x00\x01\x02\x03\x04\x05', b'C\x05\x00\x01\x02\x03\x04'),
}
for name, data in pickles.items():
    put('pickle-corpus', name + '.pkl', data)

# model files: from the build's Gnn when it is importable
try:
    import gi
    gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn
except (ImportError, ValueError):
    Gnn = None
if Gnn is not None:
    import tempfile
    path = tempfile.mktemp(suffix='.safetensors')
    shared = Gnn.ReLU()
    models = {
        'mlp': Gnn.Sequential(Gnn.Linear(2, 3), shared, Gnn.Dropout(0.1), shared),
        'cnn': Gnn.Sequential(Gnn.Conv2d(1, 2, 3), Gnn.BatchNorm2d(2), Gnn.MaxPool2d(2),
                              Gnn.Flatten(), Gnn.LayerNorm([8])),
        'linear': Gnn.Linear(2, 3),
    }
    for name, model in models.items():
        Gnn.save(model, path)
        put('model-corpus', name + '.json',
            Gnn.StateDict.load(path).get_metadata('gnn.model').encode())
    os.unlink(path)
broken = {
    'unknown-type': '{"format":"gnn.model","version":1,"modules":[{"type":"GnnNope"}]}',
    'wrong-property': '{"format":"gnn.model","version":1,"modules":[{"type":"GnnLinear",'
                      '"properties":{"in-features":"2"}}]}',
    'cycle': '{"format":"gnn.model","version":1,"modules":[{"type":"GnnSequential"},'
             '{"parent":0,"name":"a","same_as":0}]}',
    'tied': '{"format":"gnn.model","version":1,"modules":[{"type":"GnnSequential"},'
            '{"parent":0,"name":"0","type":"GnnLinear","properties":{"in-features":2,'
            '"out-features":3}},{"parent":0,"name":"1","type":"GnnLinear","properties":'
            '{"in-features":2,"out-features":3},"parameters":[{"name":"weight","same_as":'
            '"0.weight"},{"name":"bias","empty":true}]}]}',
}
for name, text in broken.items():
    put('model-corpus', name + '.json', text.encode())
