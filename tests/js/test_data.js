// test_data.js: the GJS bindings test for datasets and the data loader.
// GJS refuses calls into JS from other threads, so datasets written in JS
// run with zero workers; C datasets (TensorDataset) may use worker threads.
// Run as `gjs -m test_data.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree; exits non-zero on the first failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

// x[i] = [2i, 2i + 1] (float32), y[i] = i (int64).
function tensorDataset(n) {
    const x = Gnn.Tensor.arange(0, 2 * n, 1, Gnn.DType.F32).reshape([n, 2]);
    const y = Gnn.Tensor.arange(0, n, 1, Gnn.DType.I64);
    return Gnn.TensorDataset.new([x, y]);
}

// Every batch of one pass, as arrays of tensors.
function allBatches(loader) {
    const iter = loader.iter();
    const batches = [];
    for (;;) {
        const [ok, batch] = iter.next();
        if (!ok)
            break;
        batches.push(batch);
    }
    return batches;
}

// A map-style dataset implemented in JS: item i is (i * i) as a float32.
const Squares = GObject.registerClass(class Squares extends Gnn.Dataset {
    vfunc_get_length() {
        return 5;
    }

    vfunc_get_item(index) {
        return [Gnn.Tensor.new_scalar(index * index, Gnn.DType.F32)];
    }
});

check('TensorDataset items are views of rows', () => {
    const ds = tensorDataset(5);
    assert(ds.get_length() === 5, 'length');
    const [x, y] = ds.get_item(3);
    assertClose(x.to_floats(), [6, 7], 'x[3]');
    assert(y.get_ndim() === 0 && y.item() === 3, 'y[3]');
    assertThrows(() => ds.get_item(5), Gnn.Error.INDEX, 'out of range', 'index 5');
});

check('loader batches in order with a short last batch', () => {
    const loader = new Gnn.DataLoader({dataset: tensorDataset(5), batch_size: 2});
    assert(loader.get_length() === 3, `len ${loader.get_length()}`);
    const batches = allBatches(loader);
    assert(batches.length === 3, `batches ${batches.length}`);
    const xs = batches[0][0];
    const shape = xs.get_shape();
    assert(shape.length === 2 && shape[0] === 2 && shape[1] === 2, `x shape ${shape}`);
    assertClose(xs.to_floats(), [0, 1, 2, 3], 'first x batch');
    assert(batches[0][1].get_dtype() === Gnn.DType.I64, 'labels stay int64');
    assertClose(batches[2][1].to_floats(), [4], 'last y batch');
});

check('drop_last drops the short batch', () => {
    const loader = new Gnn.DataLoader({dataset: tensorDataset(5), batch_size: 2, drop_last: true});
    assert(loader.get_length() === 2, 'len');
    assert(allBatches(loader).length === 2, 'batches');
});

check('shuffle is a permutation reproducible by seed', () => {
    const order = seed => {
        const loader = new Gnn.DataLoader({
            dataset: tensorDataset(10), batch_size: 3, shuffle: true, seed,
        });
        return allBatches(loader).flatMap(b => Array.from(b[1].to_floats()));
    };
    const a = order(7);
    assert(JSON.stringify(a) === JSON.stringify(order(7)), 'same seed, same order');
    assert(JSON.stringify([...a].sort((p, q) => p - q)) ===
        JSON.stringify([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), `permutation ${a}`);
    assert(JSON.stringify(a) !== JSON.stringify([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 'shuffled');
});

check('C dataset with two worker threads keeps sampler order', () => {
    const loader = new Gnn.DataLoader({dataset: tensorDataset(9), batch_size: 2, num_workers: 2});
    const labels = allBatches(loader).flatMap(b => Array.from(b[1].to_floats()));
    assertClose(labels, [0, 1, 2, 3, 4, 5, 6, 7, 8], 'labels');
});

check('JS dataset subclass with zero workers', () => {
    const ds = new Squares();
    assert(ds.get_length() === 5, 'length');
    assert(ds.get_item(3)[0].item() === 9, 'item 3');
    const batches = allBatches(new Gnn.DataLoader({dataset: ds, batch_size: 2}));
    assert(batches.length === 3, 'batches');
    assertClose(batches[1][0].to_floats(), [4, 9], 'second batch');
    assertThrows(() => ds.get_item(7), Gnn.Error.INDEX,
        'index 7 is out of range', 'out of range');
});

check('invalid options fail with PyTorch messages', () => {
    const loader = new Gnn.DataLoader({dataset: tensorDataset(3), batch_size: 0});
    assertThrows(() => loader.iter(), Gnn.Error.INVALID_ARGUMENT,
        'batch_size should be a positive integer value, but got batch_size=0', 'batch_size 0');
});

// A JS class cannot run in workers: iter() refuses it before any worker
// starts (no Gjs-CRITICAL per item), in every worker mode, and the loader
// stays usable with num_workers 0.
for (const mode of [Gnn.WorkerMode.THREADS, Gnn.WorkerMode.PROCESSES, Gnn.WorkerMode.SPAWN]) {
    check(`JS dataset with 2 workers (mode ${mode}) is refused at iter()`, () => {
        const loader = new Gnn.DataLoader({
            dataset: new Squares(), batch_size: 2, num_workers: 2, worker_mode: mode,
        });
        assertThrows(() => loader.iter(), Gnn.Error.NOT_SUPPORTED,
            'the dataset Gjs_Squares is a JavaScript class', 'iter()');
        assertThrows(() => loader.iter(), Gnn.Error.NOT_SUPPORTED, 'use num_workers=0',
            'iter() again');
        loader.num_workers = 0;
        const batches = allBatches(loader);
        assert(batches.length === 3, `batches after num_workers=0: ${batches.length}`);
        assertClose(batches[1][0].to_floats(), [4, 9], 'second batch');
    });
}

check('a JS collate with workers is refused too', () => {
    const Doubling = GObject.registerClass(class Doubling extends Gnn.Collate {});
    const loader = new Gnn.DataLoader({
        dataset: tensorDataset(4), batch_size: 2, num_workers: 1, collate: new Doubling(),
    });
    assertThrows(() => loader.iter(), Gnn.Error.NOT_SUPPORTED, 'the collate Gjs_Doubling', 'iter()');
});

check('C datasets keep their worker threads under GJS', () => {
    const loader = new Gnn.DataLoader({dataset: tensorDataset(6), batch_size: 2, num_workers: 2});
    const batches = allBatches(loader);
    assert(batches.length === 3, `batches ${batches.length}`);
    assertClose(batches[2][1].to_floats(), [4, 5], 'last targets');
});

// Dict items: {x: [i, -i], label: i}, named through a Gnn.Batch.
const Records = GObject.registerClass(class Records extends Gnn.Dataset {
    vfunc_get_length() {
        return 5;
    }

    vfunc_get_item(index) {
        return this.vfunc_get_item_batch(index).get_tensors();
    }

    vfunc_get_item_batch(index) {
        return Gnn.Batch.new_dict(['x', 'label'], [
            Gnn.Tensor.new_from_floats([index, -index], [2]),
            Gnn.Tensor.new_scalar(index, Gnn.DType.I64),
        ]);
    }
});

check('a loader over dict items yields named GnnBatches', () => {
    const loader = new Gnn.DataLoader({dataset: new Records(), batch_size: 2});
    const iter = loader.iter();
    const [ok, batch] = iter.next_batch();
    assert(ok && batch instanceof Gnn.Batch, 'a Gnn.Batch');
    assert(batch.get_kind() === Gnn.BatchKind.DICT, `kind ${batch.get_kind()}`);
    assert(batch.get_n_fields() === 2, 'two fields');
    assert(JSON.stringify(batch.dup_names()) === '["x","label"]', `${batch.dup_names()}`);
    assert(batch.get_name(1) === 'label', 'name 1');
    assertClose(batch.lookup('x').to_floats(), [0, 0, 1, -1], 'x');
    assert(batch.lookup('label').get_dtype() === Gnn.DType.I64, 'label dtype');
    assert(batch.lookup('missing') === null, 'no such key');
});

check('a loader over a TensorDataset in threads yields tuple GnnBatches', () => {
    const loader = new Gnn.DataLoader({dataset: tensorDataset(4), batch_size: 2, num_workers: 2});
    const [ok, batch] = loader.iter().next_batch();
    assert(ok && batch.get_kind() === Gnn.BatchKind.TUPLE, 'tuple');
    assert(batch.get_name(0) === null && batch.dup_names() === null, 'positional');
    assertClose(batch.get_field(1).to_floats(), [0, 1], 'y');
});

check('duplicate keys are refused', () => {
    const t = Gnn.Tensor.new_scalar(1, Gnn.DType.F32);
    assertThrows(() => Gnn.Batch.new_dict(['a', 'a'], [t, t]), Gnn.Error.INVALID_ARGUMENT,
        "duplicate field name 'a'", 'duplicate');
});

finish();
