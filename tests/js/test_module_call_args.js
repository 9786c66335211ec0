// test_module_call_args.js: a GJS module with a forward over several
// arguments (vfunc_forward_args), called through call_args, call and
// Sequential, with hooks that see the argument tuple. Run as
// `gjs -m test_module_call_args.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree; exits non-zero on the first failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

const V = Gnn.Value;
const tensor = values => Gnn.Tensor.new_from_floats(values, [values.length]);

// forward(x, h=null, scale=1.0) -> (y, h_n): y = x * scale (+ h), h_n = y
const Toy = GObject.registerClass({
    GTypeName: 'Gjs_Toy',
}, class Toy extends Gnn.Module {
    vfunc_forward_args(args, kwargs) {
        const items = args.get_items();
        if (items.length < 1 || items[0].get_kind() !== Gnn.ValueKind.TENSOR)
            throw new Error('Toy.forward() needs a tensor x');
        const x = items[0].get_tensor();
        const h = items.length > 1 ? items[1].get_tensor() : null;
        const scaleValue = kwargs ? kwargs.lookup('scale') : null;
        const scale = scaleValue ? scaleValue.get_double() : 1.0;
        let y = x.mul_scalar(scale);
        if (h !== null)
            y = y.add(h);
        return V.new_tuple([V.new_tensor(y), V.new_tensor(y)]);
    }
});

// forward(pair) -> pair[0]
const First = GObject.registerClass({
    GTypeName: 'Gjs_First',
}, class First extends Gnn.Module {
    vfunc_forward_args(args, kwargs) {
        return args.get_item(0).get_item(0);
    }
});

check('call_args runs vfunc_forward_args with positionals and keywords', () => {
    const toy = new Toy();
    const args = V.new_tuple([V.new_tensor(tensor([1, 2])), V.new_tensor(tensor([10, 20]))]);
    const kwargs = V.new_dict(['scale'], [V.new_double(3)]);
    const out = toy.call_args(args, kwargs);
    assert(out.get_kind() === Gnn.ValueKind.TUPLE, `kind ${out.get_kind()}`);
    assert(out.get_length() === 2, 'a pair');
    assertClose(out.get_item(0).get_tensor().to_floats(), [13, 26], 'y');
    assert(out.to_string() === '(tensor([13., 26.]), tensor([13., 26.]))', out.to_string());
});

check('a one-tensor call of a tuple-returning module names the general call', () => {
    const toy = new Toy();
    assertThrows(() => toy.call(tensor([1])), Gnn.Error.TYPE,
        'Toy returned a tuple, not a Tensor: call it with gnn_module_call_args', 'call');
    const [out, other] = toy.call_one(tensor([2]));
    assert(out === null, 'no tensor output');
    assertClose(other.get_item(0).get_tensor().to_floats(), [2], 'call_one');
});

check('a C layer called through call_args: Python\'s errors', () => {
    const lin = Gnn.Linear.new(2, 2, true, Gnn.Generator.new(1));
    const x = tensor([1, 2]);
    const out = lin.call_args(V.new_tuple([V.new_tensor(x)]), null);
    assertClose(out.get_tensor().to_floats(), lin.call(x).to_floats(), 'same as call');
    assertThrows(() => lin.call_args(V.new_tuple([V.new_tensor(x), V.new_tensor(x)]), null),
        Gnn.Error.TYPE, 'Linear.forward() takes 2 positional arguments but 3 were given', 'two');
});

check('hooks see the argument tuple and replace arguments and output', () => {
    const toy = new Toy();
    const seen = [];
    toy.register_forward_pre_hook_args((module, args, kwargs) => {
        seen.push(args.to_string());
        return V.new_tensor(args.get_item(0).get_tensor().mul_scalar(10));   // becomes (x * 10,)
    }, Gnn.HookFlags.NONE);
    toy.register_forward_hook_args((module, args, kwargs, output) => {
        seen.push(args.to_string());
        return output.get_item(0);
    }, Gnn.HookFlags.NONE);
    const out = toy.call_args(V.new_tuple([V.new_tensor(tensor([1])), V.new_none()]), null);
    assert(JSON.stringify(seen) === JSON.stringify(['(tensor([1.]), None)', '(tensor([10.]),)']),
        JSON.stringify(seen));
    assertClose(out.get_tensor().to_floats(), [10], 'hooked output');
});

check('Sequential passes a tuple on as one argument', () => {
    const lin = Gnn.Linear.new(2, 2, true, Gnn.Generator.new(3));
    const seq = Gnn.Sequential.new([new Toy(), new First(), lin]);
    const x = tensor([1, 2]);
    assertClose(seq.call(x).to_floats(), lin.call(x).to_floats(), 'toy -> first -> linear');
});

finish();
