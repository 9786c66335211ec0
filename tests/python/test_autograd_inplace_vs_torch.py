#!/usr/bin/python3
# test_autograd_inplace_vs_torch.py: in-place writes and autograd, side by
# side with torch 1.13 — the version counter (tensor._version), the error a
# backward raises when a tensor it saved was modified since (torch's exact
# text: "[torch.FloatTensor [2, 3]], which is output 0 of TanhBackward0, is
# at version 1; expected version 0 instead."), and the refusal of in-place
# writes into a leaf that requires grad (outside no_grad) while the
# library's own writes (initialization, optimizers, state dicts) go on.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
import unittest

try:
    import torch
except ImportError:  # pragma: no cover
    print('torch is not installed: skipping')
    sys.exit(77)

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402


def outcome(fn):
    """'ok' or the exception's type family and message."""
    try:
        fn()
        return 'ok'
    except RuntimeError as e:
        return 'RuntimeError: ' + getattr(e, 'message', str(e))


def both(scenario):
    """scenario(lib) for Gnn and torch."""
    return scenario(Gnn), scenario(torch)


class SideBySide(unittest.TestCase):
    def assertSame(self, scenario):
        gnn, ref = both(scenario)
        self.assertEqual(gnn, ref)


class VersionCounter(SideBySide):
    def test_counter_moves_like_torch(self):
        def run(lib):
            x = lib.ones(4)
            seen = [x._version]
            x.add_(1)
            x[0] = 1
            x.zero_()
            x.fill_(2)
            x.copy_(lib.zeros(4))
            x.mul_(3)
            seen.append(x._version)
            v = x[1:]           # views share the counter
            v.add_(1)
            x.detach().sub_(1)
            seen += [x._version, v._version]
            with lib.no_grad():
                x.add_(1)
            seen.append(x._version)
            seen.append(lib.ones(2)._version)     # creation is no write
            seen.append((x + 1)._version)
            return seen
        self.assertSame(run)

    def test_linear_input_modified(self):
        # the case: weight.grad was 4 instead of torch's error
        def run(lib):
            lin = lib.nn.Linear(3, 2)
            x = lib.ones(2, 3)
            y = lin(x)
            x.mul_(2)
            return outcome(lambda: y.sum().backward()), lin.weight.grad is None
        self.assertSame(run)

    def test_setitem_and_copy_on_saved_input(self):
        def run(lib):
            out = []
            for write in (lambda x: x.__setitem__(0, 10.0),
                          lambda x: x.copy_(lib.zeros(2, 3)),
                          lambda x: x.fill_(1.0),
                          lambda x: x.zero_()):
                w = lib.ones(3, 2, requires_grad=True)
                x = lib.ones(2, 3)
                y = x @ w
                write(x)
                out.append(outcome(lambda: y.sum().backward()))
            return out
        self.assertSame(run)

    def test_matmul_operand(self):
        def run(lib):
            a = lib.ones(3, 3, requires_grad=True)
            b = lib.ones(3, 3)
            y = a @ b
            b.add_(1)
            return outcome(lambda: y.sum().backward())
        self.assertSame(run)

    def test_saved_output_names_its_node(self):
        def run(lib):
            out = []
            for op in ('tanh', 'sigmoid', 'exp', 'relu'):
                x = lib.ones(2, 3, requires_grad=True)
                b = getattr(x * 1.0, op)()
                with lib.no_grad():
                    b[0] = 10.0
                out.append(outcome(lambda: b.sum().backward()))
            x = lib.ones(2, 3, requires_grad=True)
            a = x * 1.0
            b = a.exp()
            b.add_(1)         # recorded: still "output 0 of ExpBackward0"
            out.append(outcome(lambda: b.sum().backward()))
            return out
        self.assertSame(run)

    def test_saved_input_names_its_grad_fn_now(self):
        def run(lib):
            out = []
            x = lib.ones(2, 3, requires_grad=True)
            a = x + 0
            y = a * x
            a.add_(1)
            out.append(outcome(lambda: y.sum().backward()))
            a = x + 0
            y = a * x
            a.mul_(2)
            a.mul_(3)
            out.append(outcome(lambda: y.sum().backward()))
            a = x + 0
            y = a * x
            a.detach().add_(1)      # unrecorded: its producer
            out.append(outcome(lambda: y.sum().backward()))
            return out
        self.assertSame(run)

    def test_leaf_modified_after_use(self):
        def run(lib):
            w = lib.ones(2, 3, requires_grad=True)
            y = (w * w).sum()
            with lib.no_grad():
                w.zero_()
            return outcome(y.backward)
        self.assertSame(run)

    def test_only_what_a_gradient_needs_is_checked(self):
        # torch saves mul/matmul operands only for the other's gradient
        def run(lib):
            out = []
            lin = lib.nn.Linear(3, 2)
            y = lin(lib.ones(2, 3))
            with lib.no_grad():
                lin.weight.mul_(2)
            out.append(outcome(lambda: y.sum().backward()))
            a = lib.ones(3, requires_grad=True)
            b = lib.ones(3)
            y = a * b
            with lib.no_grad():
                a.add_(1)
            out.append(outcome(lambda: y.sum().backward()))
            x = lib.ones(2, 3, requires_grad=True)
            y = lin(x)
            with lib.no_grad():
                lin.weight.mul_(2)
            out.append(outcome(lambda: y.sum().backward()))
            a = x * 1
            y = a.relu()
            a.add_(1)             # relu saves its output, not its input
            out.append(outcome(lambda: y.sum().backward()))
            return out
        self.assertSame(run)

    def test_dtypes_in_the_message(self):
        def run(lib):
            out = []
            for dtype in (lib.float64, lib.int64):
                x = lib.ones(5, 3, requires_grad=True, dtype=lib.float64)
                s = lib.tensor([1, 2]).to(dtype) if dtype == lib.int64 else lib.ones(5, 3, dtype=dtype)
                y = x.index_select(0, s) if dtype == lib.int64 else x * s
                s.add_(1)
                out.append(outcome(lambda: y.sum().backward()))
            return out
        self.assertSame(run)

    def test_training_loop_with_optimizer(self):
        def run(lib):
            lib.manual_seed(0)
            model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
            opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
            x = lib.ones(5, 3)
            for _ in range(3):
                opt.zero_grad()
                loss = model(x).pow(2).mean()
                loss.backward()
                opt.step()
            versions = [p._version for p in model.parameters()]
            # a retained graph after a step: the weights it saved changed
            loss = model(lib.ones(5, 3, requires_grad=True)).sum()
            loss.backward(retain_graph=True)
            opt.step()
            return versions, outcome(loss.backward)
        self.assertSame(run)


class LeafInPlace(SideBySide):
    def test_refused_outside_no_grad(self):
        def run(lib):
            out = []
            for write in (lambda w: w.zero_(), lambda w: w.fill_(1.0),
                          lambda w: w.copy_(lib.ones(2, 3)), lambda w: w.uniform_(),
                          lambda w: w.normal_(), lambda w: w.add_(1),
                          lambda w: w.__setitem__(0, 1.0),
                          lambda w: w.__setitem__((0, 1), 1.0),
                          lambda w: w[1].mul_(2)):
                w = lib.ones(2, 3, requires_grad=True)
                out.append((outcome(lambda: write(w)), w._version, w.tolist()))
            return out
        self.assertSame(run)

    def test_parameters_refused_library_writes_work(self):
        def run(lib):
            lib.manual_seed(0)
            lin = lib.nn.Linear(3, 2)
            out = [outcome(lambda: lin.weight.zero_()),
                   outcome(lambda: lin.bias.fill_(0.5))]
            with lib.no_grad():
                lin.weight.fill_(0.25)
            src = lib.nn.Linear(3, 2)
            lin.load_state_dict(src.state_dict())               # untracked copies
            out.append(lin.weight.tolist() == src.weight.tolist())
            lib.nn.init.uniform_(lin.weight)                    # nn.init: no_grad
            lib.nn.init.constant_(lin.bias, 0.0)
            out.append(lin.bias.tolist())
            lin.weight.data = lib.zeros(2, 3)                   # .data: untracked
            out.append(lin.weight.tolist())
            return out
        self.assertSame(run)

    def test_inplace_activation_on_leaf(self):
        def run(lib):
            out = []
            for f in (lambda t: lib.nn.functional.relu(t, inplace=True),
                      lambda t: lib.nn.functional.leaky_relu(t, 0.1, inplace=True),
                      lambda t: lib.nn.functional.silu(t, inplace=True)):
                w = lib.ones(3, requires_grad=True)
                out.append(outcome(lambda: f(w)))
                x = lib.tensor([2.0, -3.0, 1.0], requires_grad=True)
                y = x * 1.0
                f(y).sum().backward()
                out.append([round(v, 4) for v in x.grad.tolist()])
            return out
        self.assertSame(run)


if __name__ == '__main__':
    unittest.main(verbosity=2)
