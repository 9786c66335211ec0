// test_recent_symbols.js: recent public symbols reached from GJS beyond
// their torch values in test_torch_spellings.js — torch.linalg's errors,
// slogdet's sign, the factorizations' extra outputs, index_put_ in place with accumulate, fractional max
// pooling's indices and errors, CIFAR10/CIFAR100 over batch files written
// here in the published format (pickle protocol 3: a dict holding a numpy
// uint8 array of CHW rows and a list of labels), as tests/c/vision's
// test-vision-cifar.c writes them.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

const doubles = (values, shape) => Gnn.Tensor.new_from_doubles(values, shape);
const int64s = v => Gnn.Tensor.new_from_int64s(v, [v.length]);
const SINGULAR = [1, 2, 2, 4];

check('linalg: slogdet\'s sign, det of a singular matrix, torch\'s errors', () => {
    const [logabsdet, sign] = doubles([0, 1, 1, 0], [2, 2]).linalg_slogdet();
    assertClose(sign.to_doubles(), [-1], 'sign');
    assertClose(logabsdet.to_doubles(), [0], 'logabsdet');
    assertClose(doubles(SINGULAR, [2, 2]).linalg_det().to_doubles(), [0], 'det singular');
    assertThrows(() => doubles(SINGULAR, [2, 2]).linalg_solve(doubles([1, 1], [2, 1])),
        Gnn.Error.INVALID_ARGUMENT, 'torch.linalg.solve: The solver failed because the input matrix is singular.',
        'solve singular');
    assertThrows(() => doubles(SINGULAR, [2, 2]).linalg_inv(), Gnn.Error.INVALID_ARGUMENT,
        'the inversion could not be completed because the input matrix is singular.', 'inv singular');
    assertThrows(() => doubles([1, 2, 2, 1], [2, 2]).linalg_cholesky(false), Gnn.Error.INVALID_ARGUMENT,
        'linalg.cholesky: The factorization could not be completed', 'cholesky not positive-definite');
});

check('linalg: qr, eigh, svd, lstsq and the matrix norms with their extra outputs', () => {
    const a = doubles([1, 2, 3, 4, 5, 6], [3, 2]);
    const [q, r] = a.linalg_qr('reduced');
    assertClose(q.matmul(r).to_doubles(), [1, 2, 3, 4, 5, 6], 'Q R = A');
    assertClose(a.linalg_qr('r')[0].to_doubles(), [], 'mode r: an empty Q');
    const [l, v] = doubles([2, 1, 1, 2], [2, 2]).linalg_eigh(null);
    assertClose(l.to_doubles(), [1, 3], 'eigenvalues');
    assertClose(v.abs().to_doubles(), Array(4).fill(Math.SQRT1_2), 'eigenvectors up to sign');
    const [u, s, vh] = a.linalg_svd(false);
    assertClose(s.to_doubles(), [9.52551809156511, 0.5143005806586441], 'singular values');
    assertClose(u.mul(s.unsqueeze(0)).matmul(vh).to_doubles(), [1, 2, 3, 4, 5, 6], 'U S Vh = A');
    const [, , vOld] = a.svd(true, true);
    assertClose(vOld.to_doubles(), vh.transpose(0, 1).to_doubles(), 'torch.svd gives V');
    const [x, residuals, rank, sv] = a.linalg_lstsq(doubles([1, 2, 2], [3]), -1, 'gelsd');
    assertClose(x.to_doubles(), [-0.6666666666666667, 0.9166666666666669], 'lstsq solution');
    assertClose(residuals.to_doubles(), [0.16666666666666666], 'residuals');
    assertClose(rank.to_doubles(), [2], 'rank');
    assertClose(sv.to_doubles(), s.to_doubles(), 'gelsd\'s singular values');
    assertClose(a.linalg_matrix_norm('nuc', -2, -1, false).to_doubles(), [10.039818672223753], 'nuc');
    assertClose(a.linalg_norm('inf', [0, 1], false).to_doubles(), [11], 'norm dispatches to matrix_norm');
    assertClose(a.linalg_norm(null, null, false).to_doubles(), [9.539392014169456], 'norm: 2 of all');
    assertThrows(() => a.linalg_matrix_norm('3', -2, -1, false), Gnn.Error.INVALID_ARGUMENT,
        'linalg.matrix_norm: Order 3 not supported.', 'order 3');
    assertThrows(() => a.linalg_eigh(null), Gnn.Error.SHAPE,
        'linalg.eigh: A must be batches of square matrices, but they are 3 by 2 matrices', 'eigh 3x2');
});

check('index_put_ accumulates repeated indices in place', () => {
    const t = Gnn.Tensor.zeros([2, 3], Gnn.DType.F64);
    t.index_put_([int64s([0, 0, 1]), int64s([2, 2, 0])], doubles([1, 2, 5], [3]), true);
    assertClose(t.to_doubles(), [0, 0, 3, 5, 0, 0], 'accumulated');
    const copy = t.index_put([int64s([1])], doubles([7], [1]), false);
    assertClose(copy.to_doubles(), [0, 0, 3, 7, 7, 7], 'a whole row replaced, out of place');
    assertClose(t.to_doubles(), [0, 0, 3, 5, 0, 0], 'the source is unchanged');
    assertThrows(() => t.index_put_([int64s([2])], doubles([1], [1]), true), Gnn.Error.INDEX,
        'out of bounds', 'index out of range');
    assertClose(t.to_doubles(), [0, 0, 3, 5, 0, 0], 'unchanged after the error');
});

check('fractional max pooling: indices point at the maxima, torch\'s errors', () => {
    const values = Array.from({length: 2 * 7 * 7}, (_, i) => Math.sin(i * 1.3));
    const x = doubles(values, [1, 2, 7, 7]);
    const samples = doubles([0.2, 0.7, 0.5, 0.1], [1, 2, 2]);
    const [out, indices] = x.fractional_max_pool2d([2, 2], [3, 3], null, samples);
    assert(JSON.stringify(Array.from(out.get_shape())) === '[1,2,3,3]', `shape ${out.get_shape()}`);
    assertClose(x.flatten(2, -1).gather(2, indices.flatten(2, -1)).to_doubles(),
        out.flatten(2, -1).to_doubles(), 'input at the indices');
    const [byRatio] = x.fractional_max_pool2d([2, 2], null, [0.5, 0.5], samples);
    assert(JSON.stringify(Array.from(byRatio.get_shape())) === '[1,2,3,3]', 'output_ratio 0.5 of 7');
    assertThrows(() => x.fractional_max_pool2d([2, 2], null, null, samples), Gnn.Error.INVALID_ARGUMENT,
        'fractional_max_pool2d requires specifying either an output_size or an output_ratio', 'no size');
    const pool = new Gnn.FractionalMaxPool3d({kernel_d: 2, kernel_h: 2, kernel_w: 2, output_d: 2, output_h: 2,
        output_w: 2});
    pool.init(null);
    const y = pool.call(Gnn.Tensor.new_from_floats(Array.from({length: 125}, (_, i) => Math.cos(i)), [1, 1, 5, 5, 5]));
    assert(JSON.stringify(Array.from(y.get_shape())) === '[1,1,2,2,2]', `3d shape ${y.get_shape()}`);
    assert(pool.to_string().startsWith('FractionalMaxPool3d('), pool.to_string());
});

// --- CIFAR batch files -----------------------------------------------------------

const ROW = 3072;
const written = [];  // the files, removed at the end with their folders

class PickleWriter {
    constructor() {
        this.bytes = [];
    }

    raw(text) {
        for (const ch of text)
            this.bytes.push(ch.charCodeAt(0));
    }

    u32(v) {
        this.bytes.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24);
    }

    str(text) {
        this.raw('X');
        this.u32(text.length);
        this.raw(text);
    }

    int(v) {
        this.raw('J');
        this.u32(v);
    }

    // numpy's pickle of a uint8 array [n, 3072] (_reconstruct + BUILD)
    array(n, pixels) {
        this.raw('cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85C\x01b\x87R(K\x01');
        this.int(n);
        this.int(ROW);
        this.raw('\x86cnumpy\ndtype\n');
        this.str('u1');
        this.raw('\x89\x88\x87R(K\x03');
        this.str('|');
        this.raw('NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb\x89B');
        this.u32(n * ROW);
        for (const p of pixels)
            this.bytes.push(p);
        this.raw('tb');
    }

    save(path) {
        GLib.file_set_contents(path, new Uint8Array(this.bytes));
        written.push(path);
    }
}

function writeBatch(path, labelsKey, pixels, labels) {
    const w = new PickleWriter();
    w.raw('\x80\x03}(');
    w.str('data');
    w.array(labels.length, pixels.subarray(0, labels.length * ROW));
    w.str(labelsKey);
    w.raw('](');
    labels.forEach(l => w.int(l));
    w.raw('eu.');
    w.save(path);
}

function writeMeta(path, key, nClasses) {
    const w = new PickleWriter();
    w.raw('\x80\x03}(');
    w.str(key);
    w.raw('](');
    for (let i = 0; i < nClasses; i++)
        w.str(`class${i}`);
    w.raw('eu.');
    w.save(path);
}

function openCifar(type, root, train) {
    const dataset = new type({root, train, check_integrity: false});
    dataset.init(null);
    return dataset;
}

// Item i: a 32×32 RGB image whose pixel (y, x) channel c is row i's c·1024 + y·32 + x.
function assertItem(dataset, i, pixels, label) {
    const [image, target] = dataset.get_item(i);
    assert(image instanceof Gnn.Image, `item ${i}: ${image}`);
    assert(image.get_width() === 32 && image.get_height() === 32, 'size');
    assert(image.get_mode() === Gnn.ImageMode.RGB, 'mode');
    const hwc = image.contiguous().to_doubles();
    for (let y = 0; y < 32; y += 5) {
        for (let x = 0; x < 32; x += 3) {
            for (let c = 0; c < 3; c++) {
                assert(hwc[(y * 32 + x) * 3 + c] === pixels[i * ROW + c * 1024 + y * 32 + x],
                    `item ${i} pixel (${y}, ${x}, ${c})`);
            }
        }
    }
    assert(target.item() === label, `item ${i} label ${target.item()} != ${label}`);
}

check('CIFAR10 and CIFAR100 read batch files in the published format', () => {
    const root = GLib.dir_make_tmp('gnn-js-cifar-XXXXXX');
    try {
        const c10 = GLib.build_filenamev([root, 'cifar-10-batches-py']);
        const c100 = GLib.build_filenamev([root, 'cifar-100-python']);
        GLib.mkdir_with_parents(c10, 0o755);
        GLib.mkdir_with_parents(c100, 0o755);
        const pixels = Uint8Array.from({length: 4 * ROW}, (_, i) => (i * 7 + Math.floor(i / 1024)) & 0xff);
        const labels = [3, 0, 9, 5], fine = [99, 42, 0, 7];
        // batches 1-5 hold 1, 1, 0, 1, 1 images
        for (let b = 0; b < 5; b++) {
            const first = b < 2 ? b : b - 1;
            writeBatch(GLib.build_filenamev([c10, `data_batch_${b + 1}`]), 'labels',
                pixels.subarray(first * ROW), b === 2 ? [] : [labels[first]]);
        }
        writeBatch(GLib.build_filenamev([c10, 'test_batch']), 'labels', pixels, labels.slice(0, 2));
        writeMeta(GLib.build_filenamev([c10, 'batches.meta']), 'label_names', 10);
        writeBatch(GLib.build_filenamev([c100, 'train']), 'fine_labels', pixels, fine);
        writeBatch(GLib.build_filenamev([c100, 'test']), 'fine_labels', pixels, fine.slice(0, 1));
        writeMeta(GLib.build_filenamev([c100, 'meta']), 'fine_label_names', 100);

        const train = openCifar(Gnn.CIFAR10, root, true);
        assert(train.get_length() === 4, `CIFAR10 train length ${train.get_length()}`);
        assert(JSON.stringify(Array.from(train.get_data().get_shape())) === '[4,32,32,3]', 'data is NHWC');
        assert(train.get_targets().get_dtype() === Gnn.DType.I64, 'targets int64');
        for (let i = 0; i < 4; i++)
            assertItem(train, i, pixels, labels[i]);
        const classes = train.get_classes();
        assert(classes.length === 10 && classes[9] === 'class9', `classes ${classes}`);
        const test = openCifar(Gnn.CIFAR10, root, false);
        assert(test.get_length() === 2, 'CIFAR10 test length');
        assertItem(test, 1, pixels, labels[1]);

        const train100 = openCifar(Gnn.CIFAR100, root, true);
        assert(train100 instanceof Gnn.CIFAR10, 'CIFAR100 is a CIFAR10');
        assert(train100.get_length() === 4, 'CIFAR100 train length');
        assertItem(train100, 0, pixels, 99);
        assert(train100.get_classes().length === 100, 'CIFAR100 classes');
        assert(openCifar(Gnn.CIFAR100, root, false).get_length() === 1, 'CIFAR100 test length');

        // the published files' MD5 sums do not match these: check_integrity refuses them
        const checked = new Gnn.CIFAR10({root, train: true});
        let refused = false;
        try {
            checked.init(null);
        } catch (e) {
            refused = e instanceof GLib.Error;
        }
        assert(refused, 'check_integrity accepted files with the wrong MD5');
    } finally {
        for (const path of written)
            GLib.unlink(path);
        for (const dir of ['cifar-10-batches-py', 'cifar-100-python', ''])
            GLib.rmdir(GLib.build_filenamev([root, dir]));
    }
});

finish();
