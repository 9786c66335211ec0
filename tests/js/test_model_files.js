// test_model_files.js: model files and torch files from GJS: a model saved
// with save_model comes back from load_model with the same outputs and
// repr; a class defined in JS is refused unless the caller allows it (its
// GType registered by importing this file), then rebuilt; a training
// checkpoint round-trips; a state dict goes through torch's format.
// Run as `gjs -m test_model_files.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

const dir = GLib.dir_make_tmp('gnn-js-model-XXXXXX');
const path = name => GLib.build_filenamev([dir, name]);

// A module class of the program: y = 2 * fc(x), fc built by _init.
const Doubler = GObject.registerClass({
    GTypeName: 'Gjs_Doubler',
}, class Doubler extends Gnn.Module {
    _init(params) {
        super._init(params);
        this.register_module('fc', Gnn.Linear.new(3, 2, true, Gnn.Generator.new(3)));
    }

    vfunc_forward(input) {
        return this.get_child('fc').call(input).mul_scalar(2);
    }
});

function mlp() {
    const gen = Gnn.Generator.new(1);
    return Gnn.Sequential.new([Gnn.Linear.new(3, 4, true, gen), Gnn.Tanh.new(),
        Gnn.Linear.new(4, 2, true, gen)]);
}

const x = Gnn.Tensor.new_from_floats([1, 2, 3, -1, 0, 0.5], [2, 3]);

check('a model file rebuilds the model', () => {
    const model = mlp();
    model.save_model(path('mlp.safetensors'), null);
    const loaded = Gnn.Module.load_model(path('mlp.safetensors'), Gnn.LoadFlags.NONE);
    assert(loaded instanceof Gnn.Sequential, `type ${loaded}`);
    assert(loaded.to_string() === model.to_string(), 'repr');
    assertClose(loaded.call(x).to_floats(), model.call(x).to_floats(), 'outputs');
});

check('a JS class needs ALLOW_TYPES', () => {
    const model = new Doubler();
    model.save_model(path('doubler.safetensors'), null);
    assertThrows(() => Gnn.Module.load_model(path('doubler.safetensors'), Gnn.LoadFlags.NONE),
        Gnn.Error.TYPE, '"Gjs_Doubler", which is not one of Gnn\'s own types', 'refused');
    const loaded = Gnn.Module.load_model(path('doubler.safetensors'), Gnn.LoadFlags.ALLOW_TYPES);
    assert(loaded instanceof Doubler, `type ${loaded}`);
    assertClose(loaded.call(x).to_floats(), model.call(x).to_floats(), 'outputs');
});

check('a training checkpoint round-trips', () => {
    const model = mlp();
    const [params] = model.named_parameters(null, true);
    const opt = Gnn.SGD.new(params, 0.1, 0.9, 0, 0, false);
    const sched = Gnn.StepLR.new(opt, 2, 0.5);
    Gnn.Checkpoint.new(model, opt, sched, 4).save(path('ckpt.safetensors'), null);
    const ckpt = Gnn.Checkpoint.load(path('ckpt.safetensors'), Gnn.LoadFlags.NONE);
    assert(ckpt.get_epoch() === 4, 'epoch');
    assert(ckpt.get_scheduler().get_optimizer() === ckpt.get_optimizer(), 'scheduler');
    assertClose(ckpt.get_model().call(x).to_floats(), model.call(x).to_floats(), 'outputs');
});

check('a state dict through torch\'s format', () => {
    const model = mlp();
    model.state_dict().save_torch(path('mlp.pth'));
    const sd = Gnn.StateDict.load_torch(path('mlp.pth'), Gnn.LoadFlags.NONE);
    assert(sd.get_keys().join() === '0.weight,0.bias,2.weight,2.bias', `keys ${sd.get_keys()}`);
    const other = mlp();
    other.load(path('mlp.pth'));
    assertClose(other.call(x).to_floats(), model.call(x).to_floats(), 'outputs');
});

for (const name of ['mlp.safetensors', 'doubler.safetensors', 'ckpt.safetensors', 'mlp.pth'])
    GLib.unlink(path(name));
GLib.rmdir(dir);
finish();
