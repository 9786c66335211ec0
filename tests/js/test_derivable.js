// test_derivable.js: GJS subclasses of built-in layers (Conv2d, LayerNorm,
// LSTM) override vfunc_forward_args, chain up to the C forward with
// forward_args_as and change its output; calls, a Sequential and hooks
// reach the override. Run as `gjs -m test_derivable.js` with
// GI_TYPELIB_PATH/LD_LIBRARY_PATH pointing at the build tree.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, finish} from './testlib.js';

const V = Gnn.Value;

// A subclass of `parent` doubling the first output of the parent's forward.
function doubling(parent, name) {
    return GObject.registerClass({GTypeName: `Gjs_Doubled${name}`}, class extends parent {
        vfunc_forward_args(args, kwargs) {
            this.calls = (this.calls ?? 0) + 1;
            const out = this.forward_args_as(parent.$gtype, args, kwargs);
            const t = out.get_tensor();
            if (t !== null)
                return V.new_tensor(t.mul_scalar(2));
            const items = out.get_items();
            return V.new_tuple([V.new_tensor(items[0].get_tensor().mul_scalar(2)), ...items.slice(1)]);
        }
    });
}

const Conv = doubling(Gnn.Conv2d, 'Conv2d');
const Norm = doubling(Gnn.LayerNorm, 'LayerNorm');
const Lstm = doubling(Gnn.LSTM, 'LSTM');

const ramp = shape => {
    const n = shape.reduce((a, b) => a * b, 1);
    return Gnn.Tensor.new_from_floats(Array.from({length: n}, (_, i) => Math.sin(i)), shape);
};

function parentOutput(module, parent, x) {
    const out = module.forward_args_as(parent.$gtype, V.new_tuple([V.new_tensor(x)]), null);
    return (out.get_tensor() ?? out.get_item(0).get_tensor()).to_floats();
}

check('a Conv2d subclass chains up and doubles', () => {
    const conv = new Conv({in_channels: 2, out_channels: 3, kernel_h: 2, kernel_w: 2});
    const x = ramp([1, 2, 3, 3]);
    const want = parentOutput(conv, Gnn.Conv2d, x).map(v => 2 * v);
    assertClose(conv.call(x).to_floats(), want, 'call');
    assert(conv.calls === 1, `calls ${conv.calls}`);
    const seq = Gnn.Sequential.new([conv]);
    let hooked = 0;
    conv.register_forward_hook_args(() => {
        hooked++;
        return null;
    }, Gnn.HookFlags.NONE);
    assertClose(seq.call(x).to_floats(), want, 'through Sequential');
    assert(conv.calls === 2 && hooked === 1, `calls ${conv.calls}, hooks ${hooked}`);
});

check('a LayerNorm subclass chains up', () => {
    const norm = new Norm({normalized_shape: new GLib.Variant('ax', [4])});
    const x = ramp([2, 4]);
    const out = norm.call_args(V.new_tuple([V.new_tensor(x)]), null).get_tensor().to_floats();
    assertClose(out, parentOutput(norm, Gnn.LayerNorm, x).map(v => 2 * v), 'layer norm');
});

check('an LSTM subclass keeps the (output, (h, c)) tuple', () => {
    const lstm = new Lstm({input_size: 4, hidden_size: 3});
    const x = ramp([2, 1, 4]);
    const out = lstm.call_args(V.new_tuple([V.new_tensor(x)]), null);
    assert(out.get_length() === 2, 'a pair');
    assert(out.get_item(1).get_length() === 2, '(h, c)');
    assertClose(out.get_item(0).get_tensor().to_floats(),
        parentOutput(lstm, Gnn.LSTM, x).map(v => 2 * v), 'output doubled');
});

finish();
