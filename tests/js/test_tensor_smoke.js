// test_tensor_smoke.js: the GJS bindings smoke test for Gnn.Tensor.
// Run as `gjs -m test_tensor_smoke.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree; exits non-zero on the first failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, finish} from './testlib.js';

check('build and read back', () => {
    const t = Gnn.Tensor.new_from_floats([1, 2, 3, 4, 5, 6], [2, 3]);
    assert(t.get_dtype() === Gnn.DType.F32, 'dtype');
    assert(t.get_ndim() === 2, 'ndim');
    assert(t.ndim === 2 && t.numel === 6, 'properties');
    const shape = t.get_shape();
    assert(shape.length === 2 && shape[0] === 2 && shape[1] === 3, `shape ${shape}`);
    assertClose(t.to_floats(), [1, 2, 3, 4, 5, 6], 'to_floats');
    assert(t.get_element([1, 2]) === 6, 'get_element');
});

check('matmul', () => {
    const a = Gnn.Tensor.new_from_floats([1, 2, 3, 4, 5, 6], [2, 3]);
    const b = Gnn.Tensor.new_from_floats([7, 8, 9, 10, 11, 12], [3, 2]);
    const c = a.matmul(b);
    const shape = c.get_shape();
    assert(shape.length === 2 && shape[0] === 2 && shape[1] === 2, `shape ${shape}`);
    assertClose(c.to_floats(), [58, 64, 139, 154], 'a @ b');
});

check('add broadcasts', () => {
    const a = Gnn.Tensor.new_from_floats([1, 2, 3, 4], [2, 2]);
    const b = Gnn.Tensor.new_from_floats([10, 20], [2]);
    assertClose(a.add(b).to_floats(), [11, 22, 13, 24], 'a + b');
});

check('matmul shape mismatch throws', () => {
    const a = Gnn.Tensor.new_from_floats([1, 2, 3, 4, 5, 6], [2, 3]);
    let thrown = null;
    try {
        a.matmul(a);
    } catch (e) {
        thrown = e;
    }
    assert(thrown !== null, 'no error thrown');
    assert(thrown instanceof GLib.Error, `not a GLib.Error: ${thrown}`);
    assert(thrown.matches(Gnn.error_quark(), Gnn.Error.SHAPE), `wrong domain/code: ${thrown}`);
    assert(thrown.message.includes('2x3 and 2x3'), `message: ${thrown.message}`);
});

check('view error throws', () => {
    const t = Gnn.Tensor.new_from_floats([1, 2, 3, 4, 5, 6], [2, 3]);
    let thrown = null;
    try {
        t.view([4, 4]);
    } catch (e) {
        thrown = e;
    }
    assert(thrown instanceof GLib.Error, 'GLib.Error thrown');
    assert(thrown.message.includes("shape '[4, 4]' is invalid for input of size 6"),
        `message: ${thrown.message}`);
});

check('to_string and item', () => {
    const s = Gnn.Tensor.new_scalar(2.5, Gnn.DType.F32);
    assert(s.item() === 2.5, 'item');
    const str = Gnn.Tensor.new_from_floats([1, 2], [2]).to_string();
    assert(typeof str === 'string' && str.startsWith('tensor('), `to_string: ${str}`);
});

finish();
