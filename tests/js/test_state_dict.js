// test_state_dict.js: the GJS bindings test for state dicts and
// safetensors state files: keys in PyTorch's order, lookup, strict and
// non-strict loading (all or nothing), saving and loading files with
// metadata, and file errors.
// Run as `gjs -m test_state_dict.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree; exits non-zero on the first failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

// Sequential(Linear(3, 2), ReLU(), Linear(2, 1, bias=False)), seeded.
function makeNet(seed) {
    const gen = Gnn.Generator.new(seed);
    return Gnn.Sequential.new([
        Gnn.Linear.new(3, 2, true, gen),
        Gnn.ReLU.new(false),
        Gnn.Linear.new(2, 1, false, gen),
    ]);
}

const tmpdir = GLib.dir_make_tmp('gnn-js-state-XXXXXX');

function tmpPath(name) {
    return GLib.build_filenamev([tmpdir, name]);
}

check('keys in PyTorch order and lookup', () => {
    const net = makeNet(1);
    const sd = net.state_dict();
    assert(JSON.stringify(sd.get_keys()) === JSON.stringify(['0.weight', '0.bias', '2.weight']),
        `keys ${sd.get_keys()}`);
    assert(sd.get_length() === 3, 'length');
    assert(sd.contains('0.bias') && !sd.contains('1.weight'), 'contains');
    assert(sd.lookup('missing') === null, 'lookup of a missing key is null');
    // The state dict holds the module's own tensors, not copies.
    const w = sd.lookup('0.weight');
    assertClose(w.to_floats(), net.get_parameter('0.weight').to_floats(), '0.weight');
});

check('build a state dict by hand', () => {
    const sd = Gnn.StateDict.new();
    sd.insert('a', Gnn.Tensor.ones([2], Gnn.DType.F32));
    sd.insert('b', Gnn.Tensor.zeros([1], Gnn.DType.F32));
    assert(JSON.stringify(sd.get_keys()) === JSON.stringify(['a', 'b']), 'insertion order');
    assert(sd.remove('a') && !sd.remove('a'), 'remove once');
    assert(sd.get_length() === 1, 'length after remove');
});

check('load_state_dict copies values between nets', () => {
    const a = makeNet(1);
    const b = makeNet(2);
    const [ok, missing, unexpected] = b.load_state_dict(a.state_dict(), true);
    assert(ok && missing.length === 0 && unexpected.length === 0, 'all keys matched');
    assertClose(b.get_parameter('2.weight').to_floats(),
        a.get_parameter('2.weight').to_floats(), '2.weight copied');
});

check('strict loading reports missing keys and applies nothing', () => {
    const a = makeNet(1);
    const b = makeNet(2);
    const before = b.get_parameter('0.weight').to_floats();
    const sd = a.state_dict();
    sd.remove('2.weight');
    assertThrows(() => b.load_state_dict(sd, true), Gnn.Error.KEY,
        'Missing key(s) in state_dict: "2.weight".', 'missing key');
    assertClose(b.get_parameter('0.weight').to_floats(), before, 'unchanged');
    const [ok, missing] = b.load_state_dict(sd, false);
    assert(ok && JSON.stringify(missing) === JSON.stringify(['2.weight']), `missing ${missing}`);
});

check('shape mismatch fails', () => {
    const sd = Gnn.StateDict.new();
    sd.insert('0.weight', Gnn.Tensor.ones([3, 3], Gnn.DType.F32));
    assertThrows(() => makeNet(1).load_state_dict(sd, false), Gnn.Error.SHAPE,
        'size mismatch for 0.weight', 'shape mismatch');
});

check('save and load a safetensors file with metadata', () => {
    const net = makeNet(1);
    const path = tmpPath('net.safetensors');
    net.state_dict().save(path, {format: 'pt'});
    const back = Gnn.StateDict.load(path);
    assert(JSON.stringify(back.get_keys()) === JSON.stringify(['0.weight', '0.bias', '2.weight']),
        `keys ${back.get_keys()}`);
    assert(back.get_metadata('format') === 'pt', 'metadata');
    assertClose(back.lookup('0.bias').to_floats(),
        net.get_parameter('0.bias').to_floats(), '0.bias');
    const copied = Gnn.StateDict.load_with_flags(path, Gnn.LoadFlags.COPY);
    assert(copied.get_length() === 3, 'copy flag');
});

check('module save and load round trip', () => {
    const a = makeNet(1);
    const b = makeNet(2);
    const path = tmpPath('module.safetensors');
    assert(a.save(path, null), 'save');
    assert(b.load(path), 'load');
    assertClose(b.get_parameter('0.weight').to_floats(),
        a.get_parameter('0.weight').to_floats(), '0.weight');
});

check('file errors name the path', () => {
    const missing = tmpPath('none.safetensors');
    // I/O failures keep GIO's domain and code.
    let thrown = null;
    try {
        Gnn.StateDict.load(missing);
    } catch (e) {
        thrown = e;
    }
    assert(thrown !== null && thrown.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_FOUND),
        `missing file: not G_IO_ERROR_NOT_FOUND: ${thrown}`);
    assert(thrown.message.includes(missing), `missing file: message: ${thrown.message}`);
    const garbage = tmpPath('garbage.safetensors');
    GLib.file_set_contents(garbage, 'garbage');
    assertThrows(() => Gnn.StateDict.load(garbage), Gnn.Error.FORMAT,
        'invalid safetensors', 'truncated file');
});

for (const name of ['net.safetensors', 'module.safetensors', 'garbage.safetensors'])
    GLib.unlink(tmpPath(name));
GLib.rmdir(tmpdir);

finish();
