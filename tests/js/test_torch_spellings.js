// test_torch_spellings.js: torch spellings (tensor methods, torch.*
// functions, F.* functionals and losses, nn layers, nn.init, optimizer
// steps) reached from GJS and compared with torch 1.13's values and
// gradients, stored in fixtures/torch_spellings.json by
// gen_torch_fixtures.py (regenerate with
// `/usr/bin/python3 tests/js/gen_torch_fixtures.py spellings`). Each case
// feeds the fixture's inputs to the GJS spelling, compares the output, then
// runs backward with the fixture's gradient and compares every input's
// gradient. A fixture case without a GJS spelling (or the reverse) fails.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, finish} from './testlib.js';

const MEAN = Gnn.Reduction.MEAN;
const F64 = Gnn.DType.F64;
const scalar = v => Gnn.Tensor.new_scalar(v, F64);
const zero = () => scalar(0);
// GJS's `new` does not run GInitable's init (construction errors surface here)
function initialized(object) {
    object.init(null);
    return object;
}
const int64s = v => Gnn.Tensor.new_from_int64s(v, [v.length]);

// A layer: copies the fixture's parameters into the module, calls it on x;
// the gradients compared are x's then the parameters'.
function layer(module, names) {
    return (x, ...values) => {
        const params = names.map(n => module.get_parameter(n));
        Gnn.no_grad_push();
        params.forEach((p, i) => p.copy_(values[i]));
        Gnn.no_grad_pop();
        return [module.call(x), [x, ...params]];
    };
}

// An optimizer: 3 steps on sum(p**3 * c), as gen_torch_fixtures.py's optim_case.
function optimizer(make) {
    return (p0, c) => {
        const p = Gnn.Parameter.new(p0.clone(), true);
        const opt = make([p]);
        for (let i = 0; i < 3; i++) {
            opt.zero_grad(true);
            p.pow(3).mul(c).sum(null, false).backward(null, false);
            opt.step();
        }
        return p.detach();
    };
}

function init(fn) {
    return w => {
        const t = w.clone();
        fn(t);
        return t;
    };
}

const SPELLINGS = {
    'add': (a, b) => a.add(b),
    'sub': (a, b) => a.sub(b),
    'mul': (a, b) => a.mul(b),
    'div': (a, b) => a.div(b),
    'add_broadcast': (a, b) => a.add(b),
    'pow_scalar': a => a.pow(2.5),
    'exp': a => a.exp(),
    'log': a => a.log(),
    'sqrt': a => a.sqrt(),
    'rsqrt': a => a.rsqrt(),
    'sin': a => a.sin(),
    'cos': a => a.cos(),
    'tanh': a => a.tanh(),
    'sigmoid': a => a.sigmoid(),
    'abs': a => a.abs(),
    'neg': a => a.neg(),
    'log1p': a => a.log1p(),
    'expm1': a => a.expm1(),
    'atan2': (a, b) => a.atan2(b),
    'clamp': a => a.clamp(scalar(-0.5), scalar(0.5)),
    'matmul': (a, b) => a.matmul(b),
    'mm': (a, b) => a.mm(b),
    'bmm': (a, b) => a.bmm(b),
    'addmm': (c, a, b) => c.addmm(a, b, 0.5, 2.0),
    'outer': (a, b) => a.outer(b),
    'einsum': (a, b) => Gnn.Tensor.einsum('ij,jk->ik', [a, b]),
    'sum_dim': a => a.sum([1], false),
    'mean_keepdim': a => a.mean([0], true),
    'prod': a => a.prod([1], false),
    'max_dim': a => a.max_dim(1, false)[0],
    'logsumexp': a => a.logsumexp([1], false),
    'var': a => a.var([1], 1, false),
    'std': a => a.std([0], 1, false),
    'norm': a => a.norm(2, [1], false),
    'cumsum': a => a.cumsum(1),
    'softmax': a => a.softmax(1),
    'log_softmax': a => a.log_softmax(1),
    'transpose': a => a.transpose(0, 1),
    'reshape': a => a.reshape([2, 6]),
    'cat': (a, b) => Gnn.Tensor.cat([a, b], 0),
    'stack': (a, b) => Gnn.Tensor.stack([a, b], 1),
    'where': (a, b) => a.gt(zero()).where(a, b),
    'masked_fill': a => a.masked_fill(a.lt(zero()), scalar(0.5)),
    'gather': (a, i) => a.gather(1, i),
    'tril': a => a.tril(0),
    'flip': a => a.flip([1]),
    'roll': a => a.roll([1], [1]),
    'lerp': (a, b) => a.lerp(b, scalar(0.3)),
    'addcmul': (a, b, c) => a.addcmul(b, c, 0.5),
    'linalg.solve': (a, b) => a.linalg_solve(b),
    'linalg.inv': a => a.linalg_inv(),
    'linalg.det': a => a.linalg_det(),
    'linalg.slogdet': a => a.linalg_slogdet()[0],
    'linalg.cholesky': a => a.linalg_cholesky(false),
    'linalg.cholesky_upper': a => a.linalg_cholesky(true),
    'linalg.svdvals': a => a.linalg_svdvals(),
    'linalg.eigvalsh': a => a.linalg_eigvalsh(null),
    'linalg.qr_R': a => a.linalg_qr(null)[1],
    'linalg.matrix_norm_nuc': a => a.linalg_matrix_norm('nuc', -2, -1, false),
    'linalg.lstsq': (a, b) => a.linalg_lstsq(b, -1, null)[0],
    'index_put_accumulate': (a, v) =>
        a.index_put([int64s([0, 2, 0]), int64s([1, 3, 1])], v, true),
    'nn.FractionalMaxPool2d': (a, s) => initialized(new Gnn.FractionalMaxPool2d({
        kernel_h: 2, kernel_w: 2, output_h: 3, output_w: 3, random_samples: s,
    })).call(a),
    'nn.FractionalMaxPool3d': (a, s) => initialized(new Gnn.FractionalMaxPool3d({
        kernel_d: 2, kernel_h: 2, kernel_w: 2,
        output_ratio_d: 0.5, output_ratio_h: 0.5, output_ratio_w: 0.5, random_samples: s,
    })).call(a),
    'F.relu': a => a.relu(),
    'F.leaky_relu': a => a.leaky_relu(0.2),
    'F.elu': a => a.elu(1.5),
    'F.gelu': a => a.gelu(),
    'F.silu': a => a.silu(),
    'F.softplus': a => a.softplus(2, 20),
    'F.hardtanh': a => a.hardtanh(-0.5, 0.5),
    'F.mish': a => a.mish(),
    'F.normalize': a => Gnn.normalize(a, 2, 1, 1e-12),
    'F.cosine_similarity': (a, b) => Gnn.cosine_similarity(a, b, 1, 1e-8),
    'F.pairwise_distance': (a, b) => Gnn.pairwise_distance(a, b, 2, 1e-6, false),
    'F.mse_loss': (a, b) => Gnn.mse_loss(a, b, MEAN),
    'F.l1_loss': (a, b) => Gnn.l1_loss(a, b, MEAN),
    'F.smooth_l1_loss': (a, b) => Gnn.smooth_l1_loss(a, b, MEAN, 0.5),
    'F.huber_loss': (a, b) => Gnn.huber_loss(a, b, MEAN, 0.5),
    'F.cross_entropy': (a, t) => Gnn.cross_entropy(a, t, null, -100, MEAN, 0),
    'F.cross_entropy_smoothing': (a, t) => Gnn.cross_entropy(a, t, null, -100, MEAN, 0.1),
    'F.nll_loss': (a, t) => Gnn.nll_loss(a.log_softmax(1), t, null, -100, MEAN),
    'F.binary_cross_entropy': (a, t) => Gnn.binary_cross_entropy(a, t, null, MEAN),
    'F.binary_cross_entropy_with_logits': (a, t) =>
        Gnn.binary_cross_entropy_with_logits(a, t, null, null, MEAN),
    'F.kl_div': (a, t) => Gnn.kl_div(a.log_softmax(1), t, Gnn.Reduction.BATCHMEAN, false),
    'F.margin_ranking_loss': (a, b, y) => Gnn.margin_ranking_loss(a, b, y, 0.2, MEAN),
    'F.soft_margin_loss': (a, t) => Gnn.soft_margin_loss(a, t, MEAN),
    'F.poisson_nll_loss': (a, t) => Gnn.poisson_nll_loss(a, t, true, false, 1e-8, MEAN),
    'nn.Linear': layer(Gnn.Linear.new(4, 3, true, null), ['weight', 'bias']),
    'nn.Conv2d': layer(Gnn.Conv2d.new(2, 3, 3, 1, 1, true), ['weight', 'bias']),
    'nn.Conv1d': layer(Gnn.Conv1d.new(2, 3, 3, 2, 0, 1, 1, true, null), ['weight', 'bias']),
    'nn.LayerNorm': layer(Gnn.LayerNorm.new([4], 1e-5, true), ['weight', 'bias']),
    'nn.BatchNorm1d': layer(Gnn.BatchNorm1d.new(4, 1e-5, 0.1, true, true), ['weight', 'bias']),
    'nn.MaxPool2d': x => Gnn.MaxPool2d.new(2, 2, 0, 1, false).call(x),
    'nn.AvgPool2d': x => Gnn.AvgPool2d.new(2, 2, 0, false, true, 0).call(x),
    'nn.Flatten': x => Gnn.Flatten.new(1, -1).call(x),
    'nn.Softmax': x => Gnn.Softmax.new(1).call(x),
    'nn.Tanh': x => Gnn.Tanh.new().call(x),
    'nn.CrossEntropyLoss': (a, t) => Gnn.CrossEntropyLoss.new(null, -100, MEAN, 0).call2(a, t),
    'nn.MSELoss': (a, t) => Gnn.MSELoss.new(MEAN).call2(a, t),
    'nn.init.constant_': init(w => Gnn.init_constant_(w, 0.25)),
    'nn.init.eye_': init(w => Gnn.init_eye_(w)),
    'nn.init.dirac_': init(w => Gnn.init_dirac_(w, 1)),
    'optim.SGD': optimizer(p => Gnn.SGD.new(p, 0.1, 0, 0, 0, false)),
    'optim.SGD_nesterov': optimizer(p => Gnn.SGD.new(p, 0.1, 0.9, 0, 0.01, true)),
    'optim.Adam': optimizer(p => Gnn.Adam.new(p, 0.01, 0.9, 0.999, 1e-8, 0, false)),
    'optim.AdamW': optimizer(p => Gnn.AdamW.new(p, 0.01, 0.9, 0.999, 1e-8, 0.1, false)),
    'optim.RMSprop': optimizer(p => Gnn.RMSprop.new(p, 0.01)),
    'optim.Adagrad': optimizer(p => Gnn.Adagrad.new(p, 0.1)),
};

function tensor(spec) {
    switch (spec.dtype) {
    case 'float64': return Gnn.Tensor.new_from_doubles(spec.values, spec.shape);
    case 'float32': return Gnn.Tensor.new_from_floats(spec.values, spec.shape);
    case 'int64': return Gnn.Tensor.new_from_int64s(spec.values, spec.shape);
    }
    throw new Error(`fixture dtype ${spec.dtype}`);
}

// float64 cases must agree to ~1e-7 relative, float32 ones to ~1e-4
function assertMatches(got, spec, what) {
    assert(got !== null, `${what}: no tensor`);
    const shape = Array.from(got.get_shape());
    assert(JSON.stringify(shape) === JSON.stringify(spec.shape),
        `${what}: shape [${shape}] != torch's [${spec.shape}]`);
    const [atol, rtol] = spec.dtype === 'float32' ? [1e-5, 1e-4] : [1e-9, 1e-7];
    const values = got.to_doubles();
    spec.values.forEach((want, i) => {
        assert(Math.abs(values[i] - want) <= atol + rtol * Math.abs(want),
            `${what}[${i}]: ${values[i]} != torch's ${want}`);
    });
}

const path = GLib.build_filenamev([GLib.path_get_dirname(import.meta.url.replace('file://', '')),
    'fixtures', 'torch_spellings.json']);
const fixture = JSON.parse(new TextDecoder().decode(GLib.file_get_contents(path)[1]));
const names = Object.keys(fixture.cases);

check('every fixture case has a GJS spelling and every spelling a fixture case', () => {
    assert(names.length >= 60, `only ${names.length} cases`);
    for (const name of names)
        assert(name in SPELLINGS, `no GJS spelling for ${name}`);
    for (const name of Object.keys(SPELLINGS))
        assert(name in fixture.cases, `${name} has no torch fixture`);
});

for (const name of names.filter(n => n in SPELLINGS)) {
    check(`${name} gives torch ${fixture.torch}'s value and gradients`, () => {
        const c = fixture.cases[name];
        const inputs = c.inputs.map(spec => {
            const t = tensor(spec);
            if (spec.grad)
                t.set_requires_grad(true);
            return t;
        });
        let out = SPELLINGS[name](...inputs), leaves = inputs;
        if (Array.isArray(out))
            [out, leaves] = out;
        assertMatches(out, c.output, 'output');
        if (!c.grads)
            return;
        out.backward(tensor(c.grad_output), false);
        c.grads.forEach((g, i) => {
            if (g !== null)
                assertMatches(leaves[i].get_grad(), g, `grad of input ${i}`);
        });
    });
}

// The comparison itself can fail: a value off by 1e-3 is caught.
check('a wrong value fails the comparison', () => {
    const spec = fixture.cases['exp'].output;
    const wrong = spec.values.map((v, i) => i === 0 ? v + 1e-3 : v);
    let caught = false;
    try {
        assertMatches(Gnn.Tensor.new_from_doubles(wrong, spec.shape), spec, 'wrong');
    } catch (e) {
        caught = true;
    }
    assert(caught, 'a value off by 1e-3 passed');
});

finish();
