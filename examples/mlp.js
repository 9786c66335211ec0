// mlp.js: a Gnn.Module subclass written in JavaScript (GJS).
//
// GJS uses the typelib directly: a JS class extends Gnn.Module, registers
// its children in the C registry (so to_string(), named_parameters() and
// state dicts see them) and implements forward as vfunc_forward, which C
// callers of gnn_module_call() reach too.
//
//   gjs -m examples/mlp.js
// Uninstalled: GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib gjs -m ...
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

// GJS names the GType Gjs_Net; to_string() prints it as Net, like torch.
const Net = GObject.registerClass(class Net extends Gnn.Module {
    _init(generator) {
        super._init();
        // register_module is PyTorch's `self.fc1 = nn.Linear(...)`.
        this.register_module('fc1', Gnn.Linear.new(16, 32, true, generator));
        this.register_module('fc2', Gnn.Linear.new(32, 4, true, generator));
    }

    // The children live in the registry, not in JS fields: look them up.
    vfunc_forward(x) {
        const h = this.get_child('fc1').call(x).relu();
        return this.get_child('fc2').call(h).softmax(1);
    }
});

// A seeded generator: the same weights on every run.
const net = new Net(Gnn.Generator.new(0));
print(net.to_string());

const [params, names] = net.named_parameters(null, true);
names.forEach((name, i) => print(`${name}: [${params[i].get_shape()}]`));

// call() runs the hooks and vfunc_forward.
const x = Gnn.Tensor.ones([2, 16], Gnn.DType.F32);
const y = net.call(x);
print(y.to_string());

// Library errors are thrown as GLib.Error with PyTorch's wording.
try {
    net.call(Gnn.Tensor.ones([2, 15], Gnn.DType.F32));
    printerr('a wrong input shape was accepted');
    System.exit(1);
} catch (e) {
    if (!(e instanceof GLib.Error))
        throw e;
    print(`error: ${e.message}`);
}

// Each row of a softmax sums to 1.
const p = y.to_floats();
for (let r = 0; r < 2; r++) {
    const sum = p.slice(r * 4, r * 4 + 4).reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > 1e-5) {
        printerr(`row ${r} sums to ${sum}`);
        System.exit(1);
    }
}
