// test_random.js: Gnn.Tensor.randn / rand / randn_like from GJS: the
// C constructors exist, give the shape and dtype asked, standard normal
// moments, and the same values for the same seed.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, finish} from './testlib.js';

function moments(values) {
    let s = 0, ss = 0;
    for (const v of values)
        s += v;
    const mean = s / values.length;
    for (const v of values)
        ss += (v - mean) * (v - mean);
    return [mean, Math.sqrt(ss / values.length)];
}

check('randn shape, dtype and moments', () => {
    assert(typeof Gnn.Tensor.randn === 'function', 'Gnn.Tensor.randn exists');
    const t = Gnn.Tensor.randn([200, 500], Gnn.DType.F32, new Gnn.Generator({seed: 5}));
    const shape = t.get_shape();
    assert(shape.length === 2 && shape[0] === 200 && shape[1] === 500, `shape ${shape}`);
    assert(t.get_dtype() === Gnn.DType.F32, 'dtype');
    const [mean, std] = moments(t.to_doubles());
    assert(Math.abs(mean) < 0.01, `mean ${mean}`);
    assert(Math.abs(std - 1) < 0.01, `std ${std}`);
});

check('randn reproducible with a seed', () => {
    const a = Gnn.Tensor.randn([1001], Gnn.DType.F64, Gnn.Generator.new(42)).to_doubles();
    const b = Gnn.Tensor.randn([1001], Gnn.DType.F64, Gnn.Generator.new(42)).to_doubles();
    const c = Gnn.Tensor.randn([1001], Gnn.DType.F64, Gnn.Generator.new(43)).to_doubles();
    assert(a.every((v, i) => v === b[i]), 'same seed, same values');
    assert(a.some((v, i) => v !== c[i]), 'another seed, other values');
    Gnn.manual_seed(7);
    const d = Gnn.Tensor.randn([1001], Gnn.DType.F64, null).to_doubles();
    Gnn.manual_seed(7);
    const e = Gnn.Tensor.randn([1001], Gnn.DType.F64, null).to_doubles();
    assert(d.every((v, i) => v === e[i]), 'manual_seed replays the default generator');
});

check('rand and the _like constructors', () => {
    const u = Gnn.Tensor.rand([3, 4], Gnn.DType.F64, Gnn.Generator.new(1));
    assert(u.to_doubles().every(v => v >= 0 && v < 1), 'rand in [0, 1)');
    const like = u.randn_like(Gnn.Generator.new(1));
    assert(like.get_dtype() === Gnn.DType.F64 && like.get_shape().join() === '3,4', 'randn_like');
    let threw = false;
    try {
        Gnn.Tensor.randn([2], Gnn.DType.I64, null);
    } catch (e) {
        threw = e.message.includes('"normal_kernel_cpu" not implemented for \'Long\'');
    }
    assert(threw, 'an integer dtype throws torch\'s message');
});

finish();
