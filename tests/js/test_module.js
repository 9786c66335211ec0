// test_module.js: the GJS bindings test for Gnn.Module subclasses.
// Run as `gjs -m test_module.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree; exits non-zero on the first failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

// y = fc(x) * scale, with fc a registered Linear child and scale a
// registered 1-element parameter.
const Net = GObject.registerClass({
    GTypeName: 'Gjs_Net',
}, class Net extends Gnn.Module {
    _init() {
        super._init();
        const gen = Gnn.Generator.new(7);
        this.register_module('fc', Gnn.Linear.new(3, 2, true, gen));
        this.register_parameter('scale',
            Gnn.Parameter.new(Gnn.Tensor.new_from_floats([2], [1]), true));
    }

    vfunc_forward(input) {
        const fc = this.get_child('fc');
        const scale = this.get_child('scale');
        return fc.call(input).mul(scale);
    }
});

// The expected output of Net computed from its parameters.
function expectedOutput(net, x, rows) {
    const w = net.get_parameter('fc.weight').to_floats();
    const b = net.get_parameter('fc.bias').to_floats();
    const s = net.get_parameter('scale').to_floats()[0];
    const out = [];
    for (let r = 0; r < rows; r++) {
        for (let o = 0; o < 2; o++) {
            let v = b[o];
            for (let k = 0; k < 3; k++)
                v += x[r * 3 + k] * w[o * 3 + k];
            out.push(v * s);
        }
    }
    return out;
}

check('subclass call runs vfunc_forward', () => {
    const net = new Net();
    const x = [1, 2, 3, -1, 0, 0.5];
    const y = net.call(Gnn.Tensor.new_from_floats(x, [2, 3]));
    const shape = y.get_shape();
    assert(shape.length === 2 && shape[0] === 2 && shape[1] === 2, `shape ${shape}`);
    assertClose(y.to_floats(), expectedOutput(net, x, 2), 'net(x)');
});

check('named_parameters names and values', () => {
    const net = new Net();
    const [values, names] = net.named_parameters(null, true);
    assert(JSON.stringify(names) === JSON.stringify(['scale', 'fc.weight', 'fc.bias']),
        `names ${JSON.stringify(names)}`);
    assert(values.length === 3, `values ${values.length}`);
    assert(values[0] instanceof Gnn.Parameter, 'values are parameters');
    const wshape = values[1].get_shape();
    assert(wshape[0] === 2 && wshape[1] === 3, `fc.weight shape ${wshape}`);
    const [, prefixed] = net.named_parameters('net', true);
    assert(prefixed[1] === 'net.fc.weight', `prefixed ${JSON.stringify(prefixed)}`);
    const [, own] = net.named_parameters(null, false);
    assert(JSON.stringify(own) === JSON.stringify(['scale']), `own ${JSON.stringify(own)}`);
    assert(net.count_parameters(false) === 1 + 6 + 2, 'count_parameters');
});

check('to_string prints like PyTorch', () => {
    const net = new Net();
    const text = net.to_string();
    const want = 'Net(\n  (fc): Linear(in_features=3, out_features=2, bias=True)\n)';
    assert(text === want, `to_string:\n${text}`);
});

check('registration errors carry PyTorch messages', () => {
    const net = new Net();
    const p = Gnn.Parameter.new(Gnn.Tensor.new_from_floats([1], [1]), true);
    assertThrows(() => net.register_parameter('a.b', p), Gnn.Error.NAME,
        'parameter name can\'t contain "."', 'dotted name');
    assertThrows(() => net.register_parameter('fc', p), Gnn.Error.NAME,
        "attribute 'fc' already exists", 'name taken by a module');
    assertThrows(() => net.get_child('nope'), Gnn.Error.KEY,
        "object has no attribute 'nope'", 'missing child');
});

check('forward hook replaces the output until removed', () => {
    const net = new Net();
    const x = Gnn.Tensor.new_from_floats([1, 2, 3], [1, 3]);
    const plain = net.call(x).to_floats();
    let calls = 0;
    const handle = net.register_forward_hook((module, input, output) => {
        calls++;
        assert(module === net, 'hook gets the module');
        return output.add(Gnn.Tensor.new_from_floats([100], [1]));
    }, Gnn.HookFlags.NONE);
    assert(handle.is_active(), 'handle active');
    assertClose(net.call(x).to_floats(), plain.map(v => v + 100), 'hooked output');
    assert(calls === 1, `hook calls ${calls}`);
    handle.remove();
    assert(!handle.is_active(), 'handle inactive after remove');
    assertClose(net.call(x).to_floats(), plain, 'output after remove');
    assert(calls === 1, `hook calls after remove ${calls}`);
});

check('a hook returning junk fails the call (issue 31 item 13)', () => {
    const net = new Net();
    const x = Gnn.Tensor.new_from_floats([1, 2, 3], [1, 3]);
    for (const register of [
        h => net.register_forward_pre_hook(h, Gnn.HookFlags.NONE),
        h => net.register_forward_hook(h, Gnn.HookFlags.NONE)]) {
        const handle = register(() => 'junk');
        let thrown = null;
        try {
            net.call(x);
        } catch (e) {
            thrown = e;
        }
        handle.remove();
        assert(thrown !== null, 'the call went on with the original value');
        assert(`${thrown}`.includes('Return value'), `error: ${thrown}`);
        assert(net.call(x).get_numel() > 0, 'the module works without the hook');
    }
});

finish();
