// test_nn_functional.js: torch.nn.functional's activations and losses,
// nn.init and nn.utils reached from GJS through the C functions, against
// values PyTorch 1.13 computed (float64 inputs; the numbers below are
// torch's, rounded to 8 decimals), modules built and called from JS with
// torch's reprs, and torch's error messages.
// Run as `gjs -m test_nn_functional.js` with GI_TYPELIB_PATH/LD_LIBRARY_PATH
// pointing at the build tree; exits non-zero when a check fails.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GObject from 'gi://GObject';
import Gnn from 'gi://Gnn?version=1.0';

import {check, assert, assertClose, assertThrows, finish} from './testlib.js';

const doubles = (values, shape) => Gnn.Tensor.new_from_doubles(values, shape);
const X = [-2.0, -0.5, 0.0, 0.25, 1.0, 3.0];
const LOGITS = [0.2, -1.0, 0.5, 1.5, 0.3, -0.7];
const MEAN = Gnn.Reduction.MEAN;

check('activations give torch\'s values', () => {
    const x = doubles(X, [6]);
    assertClose(x.leaky_relu(0.2).to_doubles(), [-0.4, -0.1, 0, 0.25, 1, 3], 'leaky_relu');
    assertClose(x.elu(1.5).to_doubles(),
        [-1.29699708, -0.59020401, 0, 0.25, 1, 3], 'elu');
    assertClose(x.gelu_approximate('tanh').to_doubles(),
        [-0.04540231, -0.15428599, 0, 0.14967535, 0.84119199, 2.99636261], 'gelu tanh');
    assertClose(x.softplus(2, 1).to_doubles(),
        [0.00907496, 0.15663084, 0.34657359, 0.48703849, 1, 3], 'softplus');
    assertClose(x.hardshrink(0.5).to_doubles(), [-2, 0, 0, 0, 1, 3], 'hardshrink');
});

check('an activation\'s gradient is computed in C', () => {
    const x = doubles(X, [6]);
    x.set_requires_grad(true);
    const y = x.silu();
    assert(y.get_grad_fn_name() === 'SiluBackward0', y.get_grad_fn_name());
    y.sum(null, false).backward(null, false);
    assertClose(x.get_grad().to_doubles(),
        [-0.09078425, 0.26003881, 0.5, 0.62371002, 0.92767051, 1.08810411], 'silu grad');
});

check('losses give torch\'s values', () => {
    const input = doubles(LOGITS, [2, 3]);
    const target = Gnn.Tensor.new_from_int64s([2, 0], [2]);
    const a = doubles([0.1, 0.6, 0.9], [3]);
    const b = doubles([0, 1, 1], [3]);
    const a3 = doubles([0.3, 1.8, 2.7], [3]);
    assertClose(Gnn.cross_entropy(input, target, null, -100, MEAN, 0).to_doubles(),
        [0.5099811], 'cross_entropy');
    assertClose(Gnn.cross_entropy(input, target, null, -100, MEAN, 0.1).to_doubles(),
        [0.59664777], 'label smoothing');
    assertClose(Gnn.nll_loss(input.log_softmax(1), target, null, 0, MEAN).to_doubles(),
        [0.67495693], 'nll_loss ignore_index');
    assertClose(Gnn.binary_cross_entropy(a, b, null, MEAN).to_doubles(), [0.24051555], 'bce');
    assertClose(Gnn.smooth_l1_loss(a3, b, MEAN, 0.5).to_doubles(), [0.69666667], 'smooth_l1');
    assertClose(Gnn.huber_loss(a3, b, MEAN, 0.5).to_doubles(), [0.34833333], 'huber');
    assertClose(Gnn.l1_loss(a, b, Gnn.Reduction.SUM).to_doubles(), [0.6], 'l1 sum');
});

check('ctc_loss gives torch\'s value', () => {
    const lp = doubles([-1.2, -0.8, -1.4, -0.9, -1.3, -1.1, -1.5, -0.7, -1.2], [3, 1, 3]);
    const loss = Gnn.ctc_loss(lp, Gnn.Tensor.new_from_int64s([1, 2], [1, 2]),
        Gnn.Tensor.new_from_int64s([3], [1]), Gnn.Tensor.new_from_int64s([2], [1]), 0, MEAN,
        false);
    assertClose(loss.to_doubles(), [0.81724355], 'ctc');
});

check('vector functions give torch\'s values', () => {
    const x = doubles(LOGITS, [2, 3]);
    const flipped = doubles([0.5, -1.0, 0.2, -0.7, 0.3, 1.5], [2, 3]);
    assertClose(Gnn.normalize(x, 2, 1, 1e-12).to_doubles(),
        [0.17609018, -0.88045091, 0.44022545, 0.89165745, 0.17833149, -0.41610681], 'normalize');
    assertClose(Gnn.cosine_similarity(x, flipped, 1, 1e-8).to_doubles(),
        [0.93023256, -0.71024735], 'cosine_similarity');
    assertClose(Gnn.pairwise_distance(x, flipped, 2, 1e-6, false).to_doubles(),
        [0.42426407, 3.11126984], 'pairwise_distance');
});

check('loss and activation modules are built from properties and called', () => {
    const crit = new Gnn.SmoothL1Loss({beta: 0.5});
    assert(crit.to_string() === 'SmoothL1Loss()', crit.to_string());
    const loss = crit.compute(doubles([0.3, 1.8, 2.7], [3]), doubles([0, 1, 1], [3]));
    assertClose(loss.to_doubles(), [0.69666667], 'SmoothL1Loss');
    const act = new Gnn.LeakyReLU({negative_slope: 0.2});
    assert(act.to_string() === 'LeakyReLU(negative_slope=0.2)', act.to_string());
    assertClose(act.call(doubles(X, [6])).to_doubles(), [-0.4, -0.1, 0, 0.25, 1, 3], 'LeakyReLU');
    const shrink = GObject.Object.new(Gnn.Softshrink, {lambd: -1.0});
    assertThrows(() => shrink.call(doubles(X, [6])), Gnn.Error.INVALID_ARGUMENT,
        'lambda must be greater or equal to 0, but found to be -1.', 'Softshrink(-1)');
});

check('nn.init: gains, fans and xavier bounds', () => {
    assertClose([Gnn.init_calculate_gain('leaky_relu', 0.2)], [1.3867504905630728], 'leaky');
    assertClose([Gnn.init_calculate_gain('tanh', NaN)], [5 / 3], 'tanh');
    assertClose([Gnn.init_calculate_gain('selu', NaN)], [0.75], 'selu');
    const w = Gnn.Tensor.new_from_floats(new Array(24).fill(0), [4, 6]);
    const [ok, fanIn, fanOut] = Gnn.init_calculate_fan_in_and_fan_out(w);
    assert(ok && fanIn === 6 && fanOut === 4, `fans ${fanIn} ${fanOut}`);
    assert(Gnn.init_xavier_uniform_(w, 1.0, Gnn.Generator.new(3)), 'xavier_uniform_');
    const bound = Math.sqrt(6 / (6 + 4));
    assert(w.to_floats().every(v => Math.abs(v) <= bound) &&
        w.to_floats().some(v => v !== 0), 'inside the bound');
    assertThrows(() => Gnn.init_calculate_gain('cubic', NaN), Gnn.Error.INVALID_ARGUMENT,
        'Unsupported nonlinearity cubic', 'unknown nonlinearity');
});

check('nn.utils: clip_grad_norm_ scales the gradients as torch', () => {
    const p1 = Gnn.Tensor.new_from_floats([0, 0, 0], [3]);
    const p2 = Gnn.Tensor.new_from_floats([0, 0], [2]);
    p1.set_grad(Gnn.Tensor.new_from_floats([3, 4, 0], [3]));
    p2.set_grad(Gnn.Tensor.new_from_floats([0, 12], [2]));
    const total = Gnn.clip_grad_norm_([p1, p2], 6.5, 2, false);
    assertClose(total.to_floats(), [13], 'total norm');
    assertClose(p1.get_grad().to_floats(), [1.49999988, 1.99999988, 0], 'p1.grad');
    assertClose(p2.get_grad().to_floats(), [0, 5.99999952], 'p2.grad');
});

finish();
