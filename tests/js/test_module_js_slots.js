// test_module_js_slots.js: child slots declared by a JavaScript class.
// A GJS class declares its children as ordinary GObject `Properties` of a
// module, parameter or tensor type; assigning one (`this.fc1 = ...`)
// registers it as Python's `self.fc1 = ...` does, and the registry's
// changes show up in the JS property.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, finish} from './testlib.js';

const RW = GObject.ParamFlags.READWRITE;
const slot = (name, type) => GObject.ParamSpec.object(name, '', '', RW, type);

// y = fc1(x) * scale; `running` is a buffer.
const Net = GObject.registerClass({
    Properties: {
        'fc1': slot('fc1', Gnn.Linear),
        'scale': slot('scale', Gnn.Parameter),
        'running': slot('running', Gnn.Tensor),
    },
}, class Net extends Gnn.Module {
    _init(params = {}) {
        super._init(params);
        this.fc1 = Gnn.Linear.new(3, 2, true, Gnn.Generator.new(7));
        this.scale = Gnn.Parameter.new(Gnn.Tensor.new_from_floats([2], [1]), true);
        this.running = Gnn.Tensor.zeros([2], Gnn.DType.F32);
    }

    vfunc_forward(input) {
        return this.fc1.call(input).mul(this.scale);
    }
});

// A subclass adds a slot of its own; its compound name is torch's my_head.
const Deeper = GObject.registerClass({
    Properties: {'my-head': slot('my-head', Gnn.Module)},
}, class Deeper extends Net {
    _init() {
        super._init();
        this.my_head = Gnn.Linear.new(2, 1, false, null);
    }
});

const json = v => JSON.stringify(v);

check('assigned slots are registered children, parameters and buffers', () => {
    const net = new Net();
    assert(net.get_child('fc1') === net.fc1, 'fc1 is the registered child');
    assert(net.get_child('scale') === net.scale, 'scale is the registered parameter');
    assert(net.get_child('running') === net.running, 'running is the registered buffer');
    const [, names] = net.named_parameters(null, true);
    assert(json(names) === json(['scale', 'fc1.weight', 'fc1.bias']), `parameters ${names}`);
    const [, buffers] = net.named_buffers(null, true);
    assert(json(buffers) === json(['running']), `buffers ${buffers}`);
    assert(json(net.state_dict().get_keys()) ===
           json(['scale', 'running', 'fc1.weight', 'fc1.bias']), `state_dict ${net.state_dict().get_keys()}`);
});

check('forward through the slots', () => {
    const net = new Net();
    const x = Gnn.Tensor.new_from_floats([1, 2, 3], [1, 3]);
    const y = net.call(x).to_floats();
    const w = net.fc1.weight.to_floats(), b = net.fc1.bias.to_floats();
    const expected = [0, 1].map(o => 2 * (b[o] + w[3 * o] + 2 * w[3 * o + 1] + 3 * w[3 * o + 2]));
    assertClose(y, expected, 'net(x)');
});

check('reassigning a slot replaces the child and notifies once', () => {
    const net = new Net();
    let notified = 0;
    net.connect('notify::fc1', () => notified++);
    const other = Gnn.Linear.new(3, 2, false, null);
    net.fc1 = other;
    assert(net.get_child('fc1') === other, 'registry has the new child');
    assert(net.fc1 === other, 'the property reads it');
    assert(notified === 1, `notify::fc1 ${notified} times`);
    const [, names] = net.named_parameters(null, true);
    assert(json(names) === json(['scale', 'fc1.weight']), `parameters ${names}`);
});

check('registry changes from C show in the JS property', () => {
    const net = new Net();
    const other = Gnn.Linear.new(3, 2, true, null);
    net.set_child('fc1', other);
    assert(net.fc1 === other, 'set_child');
    net.delete_child('scale');
    assert(net.scale === null, `deleted scale reads ${net.scale}`);
    net.set_property('scale', Gnn.Parameter.new(Gnn.Tensor.ones([1], Gnn.DType.F32), true));
    assert(net.scale === net.get_child('scale') && net.scale.item() === 1, 'set_property');
});

check('null empties a slot, as torch\'s self.fc1 = None', () => {
    const net = new Net();
    net.fc1 = null;
    assert(net.has_child('fc1') && net.get_child('fc1') === null, 'fc1 kept as an empty slot');
    const [, names] = net.named_parameters(null, true);
    assert(json(names) === json(['scale']), `parameters ${names}`);
});

check('a value of the wrong type keeps the registered one (GJS warns)', () => {
    const net = new Net();
    const scale = net.scale;
    net.scale = Gnn.Linear.new(2, 2, true, null);   // not a Parameter
    assert(net.get_child('scale') === scale, 'registry kept the parameter');
    assert(net.scale === scale, `the property reads it back: ${net.scale}`);
    net.fc1 = 5;
    assert(net.fc1 === net.get_child('fc1') && net.fc1 instanceof Gnn.Linear, 'a number is refused');
});

check('slots of a subclass and of its parent', () => {
    const net = new Deeper();
    assert(net.get_child('my_head') === net.my_head, 'my_head registered under torch\'s name');
    assert(net.get_child('fc1') === net.fc1, 'inherited fc1');
    assert(json(net.state_dict().get_keys()) ===
           json(['scale', 'running', 'fc1.weight', 'fc1.bias', 'my_head.weight']),
    `state_dict ${net.state_dict().get_keys()}`);
});

check('state dicts move between JS instances', () => {
    const a = new Net(), b = new Net();
    Gnn.no_grad_push();     // a parameter: torch refuses in-place writes outside no_grad
    try {
        a.fc1.weight.fill_(0.5);
    } finally {
        Gnn.no_grad_pop();
    }
    const [ok] = b.load_state_dict(a.state_dict(), true);
    assert(ok, 'load_state_dict');
    assertClose(b.fc1.weight.to_floats(), new Array(6).fill(0.5), 'copied weight');
});

finish();
