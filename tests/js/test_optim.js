// test_optim.js: optimizers and schedulers from GJS: parameter groups with
// their own options, a group's lr set through the C accessors and used by
// the next step, a closure and an lr_lambda written in JavaScript, and the
// errors as GLib.Errors.
// Run as `gjs -m test_optim.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

function param(values) {
    return Gnn.Parameter.new(Gnn.Tensor.new_from_floats(values, [values.length]), true);
}

function setGrad(p, values) {
    p.set_grad(Gnn.Tensor.new_from_floats(values, [values.length]));
}

// SGD over a (the defaults) and b (lr 0.5).
function twoGroups(a, b) {
    const opt = new Gnn.SGD({lr: 0.1});
    opt.init(null);
    opt.add_param_group([a], null);
    opt.add_param_group([b], new GLib.Variant('a{sv}', {lr: new GLib.Variant('d', 0.5)}));
    return opt;
}

check('a group lr set from JS is the next step\'s', () => {
    const a = param([1, 1]), b = param([1, 1]);
    const opt = twoGroups(a, b);
    assert(opt.get_n_param_groups() === 2, 'two groups');
    assert(opt.get_group_lr(1) === 0.5, `group 1 lr ${opt.get_group_lr(1)}`);
    opt.set_group_lr(1, 0.25);
    opt.set_group_option(0, 'lr', new GLib.Variant('d', 0.125));
    assert(opt.get_group_option(0, 'lr').unpack() === 0.125, 'option read back');
    setGrad(a, [1, 1]);
    setGrad(b, [1, 1]);
    opt.step();
    assertClose(a.to_floats(), [0.875, 0.875], 'group 0 moved by its lr');
    assertClose(b.to_floats(), [0.75, 0.75], 'group 1 moved by its lr');
    const names = opt.list_group_options(0);
    assert(names[0] === 'lr' && names.includes('weight_decay'), `options ${names}`);
});

check('a parameter in two groups is refused', () => {
    const a = param([1]);
    const opt = twoGroups(a, param([2]));
    assertThrows(() => opt.add_param_group([a], null), Gnn.Error.INVALID_ARGUMENT,
        'some parameters appear in more than one parameter group', 'overlap');
    assert(opt.get_n_param_groups() === 2, 'nothing added');
});

check('torch\'s messages for bad hyper-parameters', () => {
    assertThrows(() => Gnn.RAdam.new([param([1])], -0.1), Gnn.Error.INVALID_ARGUMENT,
        'Invalid learning rate: -0.1', 'negative lr');
    const adam = new Gnn.Adam({beta1: 1.0});
    assertThrows(() => adam.init(null), Gnn.Error.INVALID_ARGUMENT,
        'Invalid beta parameter at index 0: 1.0', 'bad beta');
});

check('a closure written in JS drives LBFGS', () => {
    const x = param([0, 0, 0]);
    const opt = Gnn.LBFGS.new([x], 1.0);
    let calls = 0;
    // loss = sum((x - 2)^2), gradient 2 (x - 2)
    const [ok, loss] = opt.step_with_closure(() => {
        calls++;
        const v = x.to_floats();
        x.set_grad(Gnn.Tensor.new_from_floats(v.map(e => 2 * (e - 2)), [3]));
        return Gnn.Tensor.new_from_floats([v.reduce((s, e) => s + (e - 2) * (e - 2), 0)], []);
    });
    assert(ok && calls > 1, `closure calls ${calls}`);
    assertClose(loss.to_floats(), [12], 'the first loss');
    assertClose(x.to_floats(), [2, 2, 2], 'the minimum');
});

check('an lr_lambda written in JS, per group', () => {
    const opt = twoGroups(param([1]), param([1]));
    const sched = Gnn.LambdaLR.new(opt, (epoch, group) => group === 0 ? 0.5 ** epoch : 1, -1);
    sched.step();
    sched.step();
    assertClose([opt.get_group_lr(0), opt.get_group_lr(1)], [0.025, 0.5], 'rates');
    assertClose(sched.get_last_lrs(), [0.025, 0.5], 'last rates');
    assert(sched.get_last_epoch() === 2, 'epoch');
});

check('schedulers set every group', () => {
    const opt = twoGroups(param([1]), param([1]));
    const sched = new Gnn.OneCycleLR({
        optimizer: opt, max_lr: new GLib.Variant('ad', [1.0, 2.0]), total_steps: 10,
        cycle_momentum: false,
    });
    sched.init(null);
    assertClose(sched.get_last_lrs(), [0.04, 0.08], 'initial rates');
    for (let i = 0; i < 3; i++)
        sched.step();
    assertClose([opt.get_group_lr(0), opt.get_group_lr(1)], sched.get_last_lrs(), 'applied');
});

finish();
