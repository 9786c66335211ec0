// classifier.js: the GJS counterpart of classifier.c — a trainable module
// class written in JavaScript, a dataset in JavaScript, one epoch of SGD on
// Fashion-MNIST, the weights saved, and a second gjs process that rebuilds
// the class, loads them and must predict exactly the same.
//
// What GJS shows:
//   - the children are declared as GObject `Properties` of a module,
//     parameter or tensor type: `this.fc1 = ...` registers the child as
//     Python's `self.fc1 = ...` does (named_parameters, state dicts and the
//     C side see it), and `this.fc1` reads the registry;
//   - configuration is a construct-only property (`new Classifier({hidden})`);
//   - forward is vfunc_forward; a dataset is vfunc_get_length/get_item and
//     runs with num_workers 0 (JavaScript runs on the main thread only: a
//     loader with workers refuses a JS dataset at iter()).
//
//   gjs -m examples/classifier.js [DATA_DIR]
//   gjs -m examples/classifier.js --infer WEIGHTS DATA_DIR   (the second process)
// Uninstalled: GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib gjs -m ...
// Exits 77 (skipped) without Debian's dataset-fashion-mnist, 1 on failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

const DEFAULT_DATA_DIR = '/usr/share/datasets/fashion-mnist';
const N_TRAIN = 6000, N_TEST = 2000;
const PIXEL_MEAN = 0.2860, PIXEL_STD = 0.3530;
const RW = GObject.ParamFlags.READWRITE;

// fc2(relu(fc1(x))) / temperature, as classifier.c's ExClassifier.
const Classifier = GObject.registerClass({
    GTypeName: 'ExJsClassifier',
    Properties: {
        'hidden': GObject.ParamSpec.int64('hidden', '', '', RW | GObject.ParamFlags.CONSTRUCT_ONLY,
            1, 2 ** 31 - 1, 64),
        // child slots: their values live in the module registry
        'fc1': GObject.ParamSpec.object('fc1', '', '', RW, Gnn.Linear),
        'fc2': GObject.ParamSpec.object('fc2', '', '', RW, Gnn.Linear),
        'temperature': GObject.ParamSpec.object('temperature', '', '', RW, Gnn.Parameter),
    },
}, class Classifier extends Gnn.Module {
    _init(params = {}) {
        super._init(params);
        this.fc1 = Gnn.Linear.new(28 * 28, this.hidden, true, null);
        this.fc2 = Gnn.Linear.new(this.hidden, 10, true, null);
        this.temperature = Gnn.Parameter.new(Gnn.Tensor.ones([1], Gnn.DType.F32), true);
    }

    vfunc_forward(x) {
        return this.fc2.call(this.fc1.call(x).relu()).div(this.temperature);
    }
});

// Item i: the normalized image flattened to 784 floats, and its label.
const FashionItems = GObject.registerClass(class FashionItems extends Gnn.Dataset {
    _init(images, labels) {
        super._init();
        this._images = images;
        this._labels = labels;
    }

    vfunc_get_length() {
        return this._images.get_size(0);
    }

    vfunc_get_item(i) {
        const x = this._images.select(0, i).add_scalar(-PIXEL_MEAN).mul_scalar(1 / PIXEL_STD);
        return [x.reshape([28 * 28]), this._labels.select(0, i)];
    }
});

// The first n items of a split, or null when the files are missing.
function loadSplit(dir, split, n) {
    const images = GLib.build_filenamev([dir, `${split}-images-idx3-ubyte.gz`]);
    const labels = GLib.build_filenamev([dir, `${split}-labels-idx1-ubyte.gz`]);
    if (!GLib.file_test(images, GLib.FileTest.EXISTS) || !GLib.file_test(labels, GLib.FileTest.EXISTS))
        return null;
    const idx = Gnn.IdxDataset.new(images, labels);
    return new FashionItems(idx.get_images().narrow(0, 0, n), idx.get_labels().narrow(0, 0, n));
}

function* batches(loader) {
    const iter = loader.iter();
    for (;;) {
        const [ok, batch] = iter.next();
        if (!ok)
            return;
        yield batch;
    }
}

function accuracy(model, test) {
    model.eval();
    Gnn.no_grad_push();
    let correct = 0;
    try {
        for (const [x, y] of batches(Gnn.DataLoader.new(test, 500, false)))
            correct += model.call(x).argmax(1, false).eq(y).sum(null, false).item();
    } finally {
        Gnn.no_grad_pop();
    }
    model.train(true);
    return correct / test.get_length();
}

function trainEpoch(model, train) {
    const [params] = model.named_parameters(null, true);
    const sgd = Gnn.SGD.new(params, 0.05, 0.9, 0, 0, false);
    const loader = new Gnn.DataLoader({dataset: train, batch_size: 64, shuffle: true, seed: 1});
    let lossSum = 0, n = 0;
    for (const [x, y] of batches(loader)) {
        sgd.zero_grad(true);
        const loss = Gnn.cross_entropy(model.call(x), y, null, -100, Gnn.Reduction.MEAN, 0);
        loss.backward(null, false);
        sgd.step();
        lossSum += loss.item();
        n++;
    }
    return lossSum / n;
}

// The second process: the class from this file, the weights from the file.
function infer(weights, dir) {
    const model = new Classifier({hidden: 64});
    model.load(weights);
    print(`hidden=${model.hidden}, accuracy=${accuracy(model, loadSplit(dir, 't10k', N_TEST)).toFixed(4)}`);
}

function main(argv) {
    if (argv.length === 3 && argv[0] === '--infer') {
        infer(argv[1], argv[2]);
        return 0;
    }
    const dir = argv[0] ?? DEFAULT_DATA_DIR;
    const train = loadSplit(dir, 'train', N_TRAIN), test = loadSplit(dir, 't10k', N_TEST);
    if (train === null || test === null) {
        printerr(`classifier.js: Fashion-MNIST not found in ${dir}`);
        return 77;
    }

    Gnn.manual_seed(0);
    const model = new Classifier({hidden: 64});
    const [, names] = model.named_parameters(null, true);
    print(`parameters: ${names.join(', ')}`);
    if (model.get_child('fc1') !== model.fc1)
        throw new Error('fc1 is not the registered child');

    const loss = trainEpoch(model, train);
    const acc = accuracy(model, test);
    print(`one epoch on ${N_TRAIN} images: mean loss ${loss.toFixed(4)}, test accuracy ${acc.toFixed(4)}`);
    if (!(acc >= 0.70))
        throw new Error(`the model did not learn (accuracy ${acc})`);

    // A workers>0 loader refuses the JS dataset up front, with a clear error.
    try {
        new Gnn.DataLoader({dataset: train, batch_size: 64, num_workers: 2}).iter();
        throw new Error('a JS dataset ran in workers');
    } catch (e) {
        if (!(e instanceof GLib.Error) || !e.matches(Gnn.error_quark(), Gnn.Error.NOT_SUPPORTED))
            throw e;
        print(`refused: ${e.message}`);
    }

    const tmp = GLib.dir_make_tmp('gnn-classifier-js-XXXXXX');
    const weights = GLib.build_filenamev([tmp, 'classifier.safetensors']);
    model.save(weights, null);
    const self = GLib.filename_from_uri(import.meta.url)[0];
    const [, out, err, status] = GLib.spawn_sync(null,
        ['gjs', '-m', self, '--infer', weights, dir], null, GLib.SpawnFlags.SEARCH_PATH, null);
    GLib.unlink(weights);
    GLib.rmdir(tmp);
    const decoder = new TextDecoder();
    if (!GLib.spawn_check_wait_status(status))
        throw new Error(`second process failed: ${decoder.decode(err)}`);
    const got = decoder.decode(out);
    print(`second process: ${got.trim()}`);
    if (got !== `hidden=64, accuracy=${acc.toFixed(4)}\n`)
        throw new Error('the reloaded model predicts differently');
    return 0;
}

System.exit(main(System.programArgs));
