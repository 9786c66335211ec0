// test_autograd.js: the GJS bindings test for autograd: backward from JS,
// reading .grad of leaves and of a module's parameters, grad_fn names,
// no-grad scopes, tensor gradient hooks and the errors PyTorch raises.
// Run as `gjs -m test_autograd.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree; exits non-zero on the first failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

function leaf(values, shape) {
    const t = Gnn.Tensor.new_from_floats(values, shape);
    t.set_requires_grad(true);
    return t;
}

check('sum(x * x) gives 2x', () => {
    const x = leaf([1, 2, 3], [3]);
    const y = x.mul(x).sum(null, false);
    assert(y.item() === 14, 'value');
    assert(y.get_grad_fn_name() === 'SumBackward0', `grad_fn ${y.get_grad_fn_name()}`);
    assert(x.is_leaf() && !y.is_leaf(), 'leaves');
    assert(x.get_grad() === null, 'no grad before backward');
    y.backward(null, false);
    assertClose(x.get_grad().to_floats(), [2, 4, 6], 'x.grad');
});

check('gradients accumulate across backward calls', () => {
    const x = leaf([1, 2], [2]);
    x.mul(x).sum(null, false).backward(null, false);
    x.mul(x).sum(null, false).backward(null, false);
    assertClose(x.get_grad().to_floats(), [4, 8], 'x.grad after two passes');
});

check('Linear + MSE gradients match the closed form', () => {
    const lin = Gnn.Linear.new(2, 1, true, Gnn.Generator.new(0));
    const xs = [1, 2, 3, 4];
    const targets = [1, 0];
    const out = lin.call(Gnn.Tensor.new_from_floats(xs, [2, 2]));
    const loss = Gnn.mse_loss(out, Gnn.Tensor.new_from_floats(targets, [2, 1]),
        Gnn.Reduction.MEAN);
    loss.backward(null, false);
    // dL/dy_n = 2 (y_n - t_n) / N; dW = sum_n dL/dy_n x_n; db = sum_n dL/dy_n
    const y = out.to_floats();
    const dy = [0, 1].map(n => 2 * (y[n] - targets[n]) / 2);
    const dw = [0, 1].map(k => dy[0] * xs[k] + dy[1] * xs[2 + k]);
    assertClose(lin.get_parameter('weight').get_grad().to_floats(), dw, 'weight.grad');
    assertClose(lin.get_parameter('bias').get_grad().to_floats(), [dy[0] + dy[1]], 'bias.grad');
    lin.zero_grad(true);
    assert(lin.get_parameter('weight').get_grad() === null, 'zero_grad(set_to_none)');
});

check('no_grad scope records nothing', () => {
    const x = leaf([1, 2], [2]);
    Gnn.no_grad_push();
    try {
        assert(!Gnn.is_grad_enabled(), 'disabled inside');
        const z = x.mul(x);
        assert(!z.get_requires_grad() && z.get_grad_fn_name() === null, 'no graph');
    } finally {
        Gnn.no_grad_pop();
    }
    assert(Gnn.is_grad_enabled(), 'enabled after pop');
    assert(x.mul(x).get_requires_grad(), 'recording again');
});

check('errors use PyTorch messages', () => {
    const plain = Gnn.Tensor.new_from_floats([1], [1]);
    assertThrows(() => plain.backward(null, false), Gnn.Error.AUTOGRAD,
        'element 0 of tensors does not require grad and does not have a grad_fn',
        'backward of a constant');
    const x = leaf([1, 2], [2]);
    const y = x.mul(x).sum(null, false);
    y.backward(null, false);
    assertThrows(() => y.backward(null, false), Gnn.Error.AUTOGRAD,
        'Trying to backward through the graph a second time', 'second backward');
});

check('retain_graph allows a second backward', () => {
    const x = leaf([3], [1]);
    const y = x.mul(x).sum(null, false);
    y.backward(null, true);
    y.backward(null, false);
    assertClose(x.get_grad().to_floats(), [12], 'x.grad');
});

check('register_hook sees and replaces gradients (leaf and non-leaf)', () => {
    const x = leaf([1, -2, 3], [3]);
    const seen = [];
    const id = x.register_hook(g => { seen.push(g.to_floats()); return null; });
    const y = x.mul(x);
    y.register_hook(g => g.mul(Gnn.Tensor.new_wrapped_number(10)));
    y.sum(null, false).backward(null, false);
    assertClose(x.get_grad().to_floats(), [20, -40, 60], 'x.grad through the hooked y');
    assertClose(seen[0], [20, -40, 60], 'leaf hook sees the gradient');
    x.remove_hook(id);
    x.mul(x).sum(null, false).backward(null, false);
    assert(seen.length === 1, 'removed hook not called');
    assertThrows(() => Gnn.Tensor.new_from_floats([1], [1]).register_hook(() => null),
        Gnn.Error.AUTOGRAD, "cannot register a hook on a tensor that doesn't require gradient",
        'no requires_grad');
});

finish();
