// Declared child slots from GJS: a Linear's weight and bias are GObject
// properties backed by the module registry.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';
import {check, assert, finish} from './testlib.js';

check('slot reads the registry', () => {
    const lin = Gnn.Linear.new(4, 8, true, null);
    assert(lin.weight instanceof Gnn.Parameter, 'weight is a Parameter');
    assert(lin.weight === lin.get_child('weight'), 'same object as the registry child');
});

check('slot write registers and notifies', () => {
    const lin = Gnn.Linear.new(4, 8, true, null);
    let notified = 0;
    lin.connect('notify::weight', () => notified++);
    const p = Gnn.Parameter.new(Gnn.Tensor.zeros([8, 4], Gnn.DType.F32), true);
    lin.weight = p;
    assert(lin.get_child('weight') === p, 'registered');
    assert(notified === 1, `notify fired once (${notified})`);
});

check('empty slot reads null', () => {
    const lin = Gnn.Linear.new(4, 8, false, null);
    assert(lin.bias === null, 'bias slot is empty');
});

finish();
