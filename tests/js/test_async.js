// test_async.js: the asynchronous API from a GLib main loop in GJS — a
// Trainer epoch with "progress" (C modules on a worker thread; a model
// written in JS, which runs batch by batch on the main loop), cancelled
// from its progress handler; state dicts and model files saved and loaded
// asynchronously; a loader pass through next_async.
// Run as `gjs -m test_async.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gio from 'gi://Gio';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, finish} from './testlib.js';

const dir = GLib.dir_make_tmp('gnn-js-async-XXXXXX');
const path = name => GLib.build_filenamev([dir, name]);

// Runs the main loop until the callback given to start() is called; returns
// its GAsyncResult.
function runAsync(start) {
    const loop = GLib.MainLoop.new(null, false);
    let result = null;
    start((source, res) => {
        result = res;
        loop.quit();
    });
    loop.run();
    return result;
}

// 32 samples of x (4 features) and y (2 targets), batches of 4.
function loader(numWorkers) {
    const x = Gnn.Tensor.arange(0, 128, 1, Gnn.DType.F32).reshape([32, 4]).mul_scalar(0.01);
    const y = Gnn.Tensor.arange(0, 64, 1, Gnn.DType.F32).reshape([32, 2]).mul_scalar(-0.01);
    return new Gnn.DataLoader({dataset: Gnn.TensorDataset.new([x, y]), batch_size: 4,
        num_workers: numWorkers});
}

function trainerFor(model, numWorkers) {
    const [params] = model.named_parameters(null, true);
    const opt = Gnn.SGD.new(params, 0.05, 0.9, 0, 0, false);
    return Gnn.Trainer.new(model, Gnn.MSELoss.new(Gnn.Reduction.MEAN), opt, loader(numWorkers));
}

// y = fc(x) in JavaScript: GJS runs it on the main thread only.
const JsNet = GObject.registerClass(class JsNet extends Gnn.Module {
    _init(params) {
        super._init(params);
        this.register_module('fc', Gnn.Linear.new(4, 2, true, Gnn.Generator.new(5)));
    }

    vfunc_forward(input) {
        return this.get_child('fc').call(input);
    }
});

check('an async epoch reports progress and trains', () => {
    const model = Gnn.Linear.new(4, 2, true, Gnn.Generator.new(5));
    const before = model.get_parameter('weight').to_floats();
    const trainer = trainerFor(model, 2);
    const seen = [];
    trainer.connect('progress', (t, batches, total, samples, rate, eta, loss) => {
        seen.push({batches, total, samples, rate, eta, loss});
    });
    const res = runAsync(cb => trainer.train_epoch_async(null, cb));
    const [ok, mean] = trainer.train_epoch_finish(res);
    assert(ok, 'finished');
    assert(seen.length === 8, `progress ${seen.length} times`);
    const last = seen[seen.length - 1];
    assert(last.batches === 8 && last.total === 8 && last.samples === 32, 'last report');
    assert(last.eta === 0 && last.rate > 0, `eta ${last.eta}, rate ${last.rate}`);
    assertClose([mean], [last.loss], 'mean loss');
    const after = model.get_parameter('weight').to_floats();
    assert(after.some((v, i) => v !== before[i]), 'the weights moved');
});

check('a model written in JS trains on the main loop and cancels within a batch', () => {
    const model = new JsNet();
    const trainer = trainerFor(model, 0);
    const cancellable = new Gio.Cancellable();
    let reports = 0;
    trainer.connect('progress', (t, batches) => {
        reports++;
        if (batches === 3)
            cancellable.cancel();
    });
    const res = runAsync(cb => trainer.train_epoch_async(cancellable, cb));
    let thrown = null;
    try {
        trainer.train_epoch_finish(res);
    } catch (e) {
        thrown = e;
    }
    assert(thrown !== null && thrown.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED),
        `cancelled: ${thrown}`);
    assert(reports === 3, `stopped after the batch it was cancelled in (${reports})`);
    // the next epoch runs to its end
    const again = runAsync(cb => trainer.train_epoch_async(null, cb));
    const [ok] = trainer.train_epoch_finish(again);
    assert(ok && reports === 11, `second epoch (${reports} reports)`);
});

check('state dicts and model files save and load asynchronously', () => {
    const gen = Gnn.Generator.new(1);
    const model = Gnn.Sequential.new([Gnn.Linear.new(3, 4, true, gen), Gnn.Tanh.new(),
        Gnn.Linear.new(4, 2, true, gen)]);
    const x = Gnn.Tensor.new_from_floats([1, 2, 3, -1, 0, 0.5], [2, 3]);

    const sd = model.state_dict();
    const saved = runAsync(cb => sd.save_async(path('sd.safetensors'), null, null, cb));
    assert(sd.save_finish(saved), 'state dict saved');
    const read = runAsync(cb => Gnn.StateDict.load_async(path('sd.safetensors'),
        Gnn.LoadFlags.NONE, null, cb));
    const back = Gnn.StateDict.load_finish(read);
    assertClose(back.lookup('2.bias').to_floats(), sd.lookup('2.bias').to_floats(), 'state dict');

    const written = runAsync(cb => model.save_model_async(path('m.safetensors'), null, null, cb));
    assert(model.save_model_finish(written), 'model saved');
    const built = runAsync(cb => Gnn.Module.load_model_async(path('m.safetensors'),
        Gnn.LoadFlags.NONE, null, cb));
    const loaded = Gnn.Module.load_model_finish(built);
    assertClose(loaded.call(x).to_floats(), model.call(x).to_floats(), 'model outputs');
});

check('a loader pass through next_async', () => {
    const iter = loader(2).iter();
    const loop = GLib.MainLoop.new(null, false);
    let batches = 0, ended = false;
    const onNext = (source, res) => {
        const [ok, batch] = iter.next_finish(res);
        if (!ok) {
            ended = true;
            loop.quit();
            return;
        }
        assert(batch.length === 2 && batch[0].get_size(0) === 4, 'a batch of (x, y)');
        batches++;
        iter.next_async(null, onNext);
    };
    iter.next_async(null, onNext);
    loop.run();
    assert(ended && batches === 8, `${batches} batches, then the end`);
});

finish();
