// test_recurrent.js: the recurrent layers and Bilinear from GJS through the
// general call: an LSTM's (output, (h_n, c_n)) with the state carried into
// the next call (same output as one call over the whole sequence), a packed
// input, LSTMCell steps with and without their state, Bilinear's two
// inputs, and torch's messages. Run as `gjs -m test_recurrent.js`.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

const V = Gnn.Value;
const tuple = items => V.new_tuple(items.map(t => t instanceof Gnn.Tensor ? V.new_tensor(t) : t));
const ramp = (shape, scale) => {
    const n = shape.reduce((a, b) => a * b, 1);
    return Gnn.Tensor.new_from_floats(Array.from({length: n}, (_, i) => Math.sin(i * scale)), shape);
};
const lstm = (props = {}) => new Gnn.LSTM({input_size: 3, hidden_size: 4, generator: Gnn.Generator.new(5),
    ...props});

check('LSTM: output, (h_n, c_n), and the state carried into the next call', () => {
    const net = lstm({num_layers: 2});
    const x = ramp([6, 2, 3], 0.3);
    const whole = net.call_args(tuple([x]), null);
    assert(whole.get_length() === 2, 'a pair');
    assert(whole.get_item(0).get_tensor().get_shape().join() === '6,2,4', 'output shape');
    const state = whole.get_item(1);
    assert(state.get_length() === 2, '(h_n, c_n)');
    assert(state.get_item(0).get_tensor().get_shape().join() === '2,2,4', 'h_n shape');
    // the first 4 steps, then the last 2 from their state: the same output
    const first = net.call_args(tuple([x.narrow(0, 0, 4)]), null);
    const rest = net.call_args(tuple([x.narrow(0, 4, 2), first.get_item(1)]), null);
    assertClose(rest.get_item(0).get_tensor().to_floats(),
        whole.get_item(0).get_tensor().narrow(0, 4, 2).to_floats(), 'continued output');
    assertClose(rest.get_item(1).get_item(1).get_tensor().to_floats(),
        state.get_item(1).get_tensor().to_floats(), 'c_n');
    assert(net.to_string() === 'LSTM(3, 4, num_layers=2)', net.to_string());
});

check('a packed input gives a packed output', () => {
    const net = lstm({bidirectional: true});
    const x = ramp([5, 2, 3], 0.7);
    const lengths = Gnn.Tensor.new_from_int64s([5, 3], [2]);
    const packed = Gnn.pack_padded_sequence(x, lengths, false, true);
    const out = net.call_args(V.new_tuple([V.new_object(packed)]), null);
    const packedOut = out.get_item(0).get_object();
    assert(packedOut instanceof Gnn.PackedSequence, 'packed');
    const [padded, outLengths] = packedOut.pad(false, 0, -1);
    assert(padded.get_shape().join() === '5,2,8', padded.get_shape().join());
    assert(outLengths.to_floats().join() === '5,3', 'lengths');
});

check('LSTMCell: (h, c) of one step', () => {
    const cell = new Gnn.LSTMCell({input_size: 3, hidden_size: 4, generator: Gnn.Generator.new(2)});
    const x = ramp([2, 3], 0.4);
    const out = cell.call_args(tuple([x]), null);
    assert(out.get_length() === 2, '(h, c)');
    const again = cell.call_args(tuple([x, out]), null);
    assert(again.get_item(0).get_tensor().get_shape().join() === '2,4', 'h shape');
    assert(cell.to_string() === 'LSTMCell(3, 4)', cell.to_string());
});

check('Bilinear: two inputs', () => {
    const bil = Gnn.Bilinear.new(2, 3, 4, true, Gnn.Generator.new(1));
    const y = bil.call_args(tuple([ramp([5, 2], 0.1), ramp([5, 3], 0.2)]), null).get_tensor();
    assert(y.get_shape().join() === '5,4', y.get_shape().join());
    assertThrows(() => bil.call(ramp([5, 2], 0.1)), Gnn.Error.TYPE,
        "Bilinear.forward() missing 1 required positional argument: 'input2'", 'one input');
});

check('torch\'s messages', () => {
    const net = lstm();
    assertThrows(() => net.call_args(tuple([ramp([2, 1, 5], 0.1)]), null), Gnn.Error.SHAPE,
        'input.size(-1) must be equal to input_size. Expected 3, got 5', 'features');
    assertThrows(() => net.call(ramp([2, 1, 3], 0.1)), Gnn.Error.TYPE,
        'LSTM returned a tuple, not a Tensor: call it with gnn_module_call_args', 'one-tensor call');
});

finish();
