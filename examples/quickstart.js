// quickstart.js: PyTorch's Quickstart tutorial in GJS — FashionMNIST with
// download=True and ToTensor, a NeuralNetwork of Flatten + Sequential(
// Linear(784,512), ReLU, Linear(512,512), ReLU, Linear(512,10)),
// CrossEntropyLoss, SGD at lr 1e-3, batch 64, one epoch of the tutorial's
// train/test loops, the state dict saved and loaded. The Python version is
// examples/quickstart.py; the names below are the tutorial's.
//
// download=True takes the files from Debian's dataset-fashion-mnist (Gnn
// downloads nothing) into DIR/data/FashionMNIST/raw, in a temporary DIR.
//
//   gjs -m examples/quickstart.js
//   gjs -m examples/quickstart.js --compare tests/js/fixtures/quickstart.json
// --compare starts from the weights tests/js/gen_torch_fixtures.py gives
// torch (a hash of each parameter's element index, reproduced here bit for
// bit) and fails unless the accuracy and test loss agree with torch 1.13's
// run stored in the fixture. Uninstalled:
//   GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib gjs -m examples/quickstart.js
// Exits 77 (skipped) without dataset-fashion-mnist, 1 on failure.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

const FASHION = '/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz';
// torch's run and this one differ only in float rounding: the accuracy on
// 10,000 images within half a point, the losses within 0.2%
const ACCURACY_TOLERANCE = 0.005, LOSS_TOLERANCE = 0.002;

class NeuralNetwork extends Gnn.Module {
    static {
        GObject.registerClass({
            GTypeName: 'NeuralNetwork',  // the repr reads NeuralNetwork(...) as torch's
            Properties: {
                'flatten': GObject.ParamSpec.object('flatten', '', '', GObject.ParamFlags.READWRITE,
                    Gnn.Module),
                'linear_relu_stack': GObject.ParamSpec.object('linear-relu-stack', '', '',
                    GObject.ParamFlags.READWRITE, Gnn.Module),
            },
        }, this);
    }

    _init() {
        super._init();
        this.flatten = Gnn.Flatten.new(1, -1);
        this.linear_relu_stack = Gnn.Sequential.new([
            Gnn.Linear.new(28 * 28, 512, true, null),
            Gnn.ReLU.new(false),
            Gnn.Linear.new(512, 512, true, null),
            Gnn.ReLU.new(false),
            Gnn.Linear.new(512, 10, true, null),
        ]);
    }

    vfunc_forward(x) {
        x = this.flatten.call(x);
        const logits = this.linear_relu_stack.call(x);
        return logits;
    }
}

function* iterate(dataloader) {
    const iter = dataloader.iter();
    for (;;) {
        const [ok, batch] = iter.next();
        if (!ok)
            return;
        yield batch;
    }
}

function fmt(value, width) {
    return String(value).padStart(width);
}

function train(dataloader, model, loss_fn, optimizer, losses) {
    const size = dataloader.dataset.get_length();
    model.train(true);
    let batch = 0;
    for (const [X, y] of iterate(dataloader)) {
        const pred = model.call(X);
        const loss = loss_fn.call2(pred, y);
        loss.backward(null, false);
        optimizer.step();
        optimizer.zero_grad(true);
        if (batch % 100 === 0) {
            const current = (batch + 1) * X.get_size(0);
            losses.push(loss.item());
            print(`loss: ${loss.item().toFixed(6).padStart(7)}  [${fmt(current, 5)}/${fmt(size, 5)}]`);
        }
        batch++;
    }
}

function test(dataloader, model, loss_fn) {
    const size = dataloader.dataset.get_length();
    let num_batches = 0;
    model.eval();
    let test_loss = 0, correct = 0;
    Gnn.no_grad_push();
    try {
        for (const [X, y] of iterate(dataloader)) {
            const pred = model.call(X);
            test_loss += loss_fn.call2(pred, y).item();
            correct += pred.argmax(1, false).eq(y).to_dtype(Gnn.DType.F32).sum(null, false).item();
            num_batches++;
        }
    } finally {
        Gnn.no_grad_pop();
    }
    test_loss /= num_batches;
    correct /= size;
    print(`Test Error: \n Accuracy: ${(100 * correct).toFixed(1)}%, Avg loss: ${test_loss.toFixed(6).padStart(8)} \n`);
    return [correct, test_loss];
}

// murmur3's 32-bit finalizer, as gen_torch_fixtures.py's fmix32
function fmix32(h) {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
}

// gen_torch_fixtures.py's quickstart_init: each parameter uniform in
// ±1/sqrt(fan_in) from the hash of its element's index over all parameters.
function sameStartAsTorch(model) {
    const [params] = model.named_parameters(null, true);
    let offset = 0, fanIn = 0;
    Gnn.no_grad_push();
    try {
        for (const p of params) {
            const shape = p.get_shape();
            if (shape.length === 2)
                fanIn = shape[1];  // a bias follows its weight
            const bound = 1 / Math.sqrt(fanIn), n = p.get_numel();
            const values = new Array(n);
            for (let i = 0; i < n; i++)
                values[i] = (2 * (fmix32(offset + i) / 2 ** 32) - 1) * bound;
            p.copy_(Gnn.Tensor.new_from_floats(values, shape));
            offset += n;
        }
    } finally {
        Gnn.no_grad_pop();
    }
}

function removeTree(file) {
    const children = file.enumerate_children('standard::name,standard::type',
        Gio.FileQueryInfoFlags.NOFOLLOW_SYMLINKS, null);
    for (let info; (info = children.next_file(null)) !== null;) {
        const child = file.get_child(info.get_name());
        if (info.get_file_type() === Gio.FileType.DIRECTORY)
            removeTree(child);
        else
            child.delete(null);
    }
    file.delete(null);
}

function main(argv) {
    const compare = argv[0] === '--compare' ? argv[1] : null;
    if (!GLib.file_test(FASHION, GLib.FileTest.EXISTS)) {
        print('dataset-fashion-mnist is not installed; skipping');
        return 77;
    }
    const workdir = GLib.dir_make_tmp('quickstart-js-XXXXXX');
    try {
        return tutorial(GLib.build_filenamev([workdir, 'data']), compare);
    } finally {
        removeTree(Gio.File.new_for_path(workdir));
    }
}

function tutorial(root, compare) {
    const training_data = Gnn.FashionMNIST.new(root, true, true, Gnn.ToTensor.new(), null);
    const test_data = Gnn.FashionMNIST.new(root, false, true, Gnn.ToTensor.new(), null);

    const batch_size = 64;
    const train_dataloader = Gnn.DataLoader.new(training_data, batch_size, false);
    const test_dataloader = Gnn.DataLoader.new(test_data, batch_size, false);

    for (const [X, y] of iterate(test_dataloader)) {
        print(`Shape of X [N, C, H, W]: [${X.get_shape().join(', ')}]`);
        print(`Shape of y: [${y.get_shape().join(', ')}] ${y.get_dtype() === Gnn.DType.I64 ? 'int64' : y.get_dtype()}`);
        break;
    }

    let model = new NeuralNetwork();
    print(model.to_string());
    if (compare !== null)
        sameStartAsTorch(model);

    const loss_fn = Gnn.CrossEntropyLoss.new(null, -100, Gnn.Reduction.MEAN, 0);
    const [params] = model.named_parameters(null, true);
    const optimizer = Gnn.SGD.new(params, 1e-3, 0, 0, 0, false);

    const epochs = 1, losses = [];
    let accuracy, avg_loss;
    for (let t = 0; t < epochs; t++) {
        print(`Epoch ${t + 1}\n-------------------------------`);
        train(train_dataloader, model, loss_fn, optimizer, losses);
        [accuracy, avg_loss] = test(test_dataloader, model, loss_fn);
    }
    print('Done!');

    const path = GLib.build_filenamev([root, 'model.pth']);
    model.save(path, null);
    print('Saved PyTorch Model State to model.pth');
    const trained = model;
    model = new NeuralNetwork();
    model.load(path);
    const [a] = trained.named_parameters(null, true), [b] = model.named_parameters(null, true);
    if (!a.every((p, i) => p.equal(b[i])))
        throw new Error('the reloaded model differs from the saved one');

    const classes = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
        'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];
    model.eval();
    const [x, y] = test_data.get_item(0);
    Gnn.no_grad_push();
    const pred = model.call(x.unsqueeze(0));
    Gnn.no_grad_pop();
    const actual = typeof y === 'number' ? y : y.item();
    print(`Predicted: "${classes[pred.select(0, 0).argmax_all(false).item()]}", Actual: "${classes[actual]}"`);

    if (compare === null)  // one epoch at lr 1e-3 reaches about 45%
        return accuracy > 0.3 ? 0 : 1;
    const [, bytes] = GLib.file_get_contents(compare);
    const want = JSON.parse(new TextDecoder().decode(bytes));
    print(`torch ${want.torch}: accuracy ${(100 * want.accuracy).toFixed(2)}%, avg loss ${want.avg_loss.toFixed(6)}; ` +
        `GJS: accuracy ${(100 * accuracy).toFixed(2)}%, avg loss ${avg_loss.toFixed(6)}`);
    let ok = Math.abs(accuracy - want.accuracy) <= ACCURACY_TOLERANCE &&
        Math.abs(avg_loss - want.avg_loss) <= LOSS_TOLERANCE * want.avg_loss;
    want.losses_every_100_batches.forEach((l, i) => {
        if (Math.abs(losses[i] - l) > LOSS_TOLERANCE * l) {
            printerr(`training loss at batch ${100 * i}: ${losses[i]} != torch's ${l}`);
            ok = false;
        }
    });
    return ok ? 0 : 1;
}

System.exit(main(ARGV));
