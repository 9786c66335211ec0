#!/usr/bin/python3
# test_module_call_args_vs_torch.py: the same module and hook programs in
# torch 1.13 and Gnn — modules called with several inputs, None, keywords
# and numbers, returning tuples and dicts; pre-hooks replacing the
# arguments, hooks replacing the output, global hooks, hooks removed
# during a call, Sequential passing tuples on — give the same hook call
# order, the same argument tuples seen, the same outputs and the same
# errors. Everything Gnn does here runs through C (gnn_module_call_args).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import types
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

import gnn.nn.modules.module as gnn_module  # noqa: E402
import torch  # noqa: E402
import torch.nn.modules.module as torch_module  # noqa: E402


def gnn_backend():
    return types.SimpleNamespace(
        name='gnn', nn=Gnn.nn, Module=Gnn.Module, tensor=Gnn.tensor, is_tensor=lambda v: isinstance(v, Gnn.Tensor),
        to_list=lambda t: [round(v, 5) for v in t.to_doubles()],
        global_pre_hook=gnn_module.register_module_forward_pre_hook,
        global_hook=gnn_module.register_module_forward_hook,
        no_grad=Gnn.no_grad)


def torch_backend():
    return types.SimpleNamespace(
        name='torch', nn=torch.nn, Module=torch.nn.Module, tensor=torch.tensor,
        is_tensor=torch.is_tensor,
        to_list=lambda t: [round(v, 5) for v in t.reshape(-1).tolist()],
        global_pre_hook=torch_module.register_module_forward_pre_hook,
        global_hook=torch_module.register_module_forward_hook,
        no_grad=torch.no_grad)


def plain(B, value):
    """A comparable form of what a call returned or a hook saw."""
    if B.is_tensor(value):
        return ('tensor', B.to_list(value))
    if isinstance(value, tuple):
        return tuple(plain(B, v) for v in value)
    if isinstance(value, list):
        return [plain(B, v) for v in value]
    if isinstance(value, dict):
        return {k: plain(B, v) for k, v in value.items()}
    if isinstance(value, (B.Module,)):
        return ('module', type(value).__name__)
    return (type(value).__name__, value)


def make_modules(B):
    class Toy(B.Module):
        """forward(x, h=None, scale=1.0) -> (y, (y, {'scale': scale}))"""

        def forward(self, x, h=None, scale=1.0):
            y = x * scale
            if h is not None:
                y = y + h
            return y, (y, {'scale': scale})

    class First(B.Module):
        def forward(self, pair):
            return pair[0]

    class Mixed(B.Module):
        """Several kinds of arguments; returns what it got, so the
        conversion both ways is visible."""

        def forward(self, *args, **kwargs):
            return args, kwargs

    def linear():
        lin = B.nn.Linear(2, 2)
        with B.no_grad():
            lin.weight.copy_(B.tensor([[1.0, 2.0], [3.0, 4.0]]))
            lin.bias.copy_(B.tensor([0.5, -0.5]))
        return lin
    return types.SimpleNamespace(Toy=Toy, First=First, Mixed=Mixed, linear=linear)


def run_both(test, program):
    """Runs program(B, M, log) on both backends; returns (gnn, torch) results."""
    results = []
    for B in (gnn_backend(), torch_backend()):
        log = []
        out = program(B, make_modules(B), log)
        results.append((plain(B, out), [plain(B, entry) for entry in log]))
    test.assertEqual(results[0], results[1])
    return results


def error_of(func):
    try:
        func()
    except BaseException as e:   # noqa: B902 - the kind is what is compared
        return e
    return None


class TestCallShapesVsTorch(unittest.TestCase):
    def test_shapes_of_arguments_and_outputs(self):
        def program(B, M, log):
            toy = M.Toy()
            x = B.tensor([1.0, 2.0])
            return [toy(x), toy(x, x), toy(x, None, 3.0), toy(x, scale=2), toy(x=x, h=x, scale=0.5)]
        run_both(self, program)

    def test_values_cross_both_ways(self):
        def program(B, M, log):
            mixed = M.Mixed()
            x = B.tensor([1.0])
            return mixed(x, None, True, 3, 2.5, 'mean', (x, (None, 1)), [x, 'a'], {'k': x},
                         mode='sum', hx=(x, x), options={'a': [1, 2]})
        run_both(self, program)

    def test_python_objects_cross_as_themselves(self):
        marker = object()
        big = 1 << 80
        for B in (gnn_backend(), torch_backend()):
            mixed = make_modules(B).Mixed()
            args, kwargs = mixed(marker, big, fn=len, s={1, 2}, d={1: 'x'})
            self.assertIs(args[0], marker)
            self.assertEqual(args[1], big)
            self.assertIs(kwargs['fn'], len)
            self.assertEqual(kwargs['s'], {1, 2})
            self.assertEqual(kwargs['d'], {1: 'x'})

    def test_modules_as_arguments(self):
        def program(B, M, log):
            mixed = M.Mixed()
            lin = M.linear()
            args, kwargs = mixed(lin, activation=lin)
            return [args[0] is lin, kwargs['activation'] is lin]
        run_both(self, program)

    def test_c_layer_argument_errors(self):
        for call in (lambda B, lin, x: lin(x, x), lambda B, lin, x: lin(x, extra=1),
                     lambda B, lin, x: lin(), lambda B, lin, x: lin(x, input=x)):
            errors = []
            for B in (gnn_backend(), torch_backend()):
                lin = make_modules(B).linear()
                errors.append(error_of(lambda: call(B, lin, B.tensor([1.0, 2.0]))))
            g, t = errors
            self.assertIsInstance(g, TypeError)
            self.assertIsInstance(g, GLib.Error)     # still the library's error
            self.assertIsInstance(t, TypeError)
            self.assertEqual(str(g), str(t))

    def test_c_layer_by_keyword(self):
        def program(B, M, log):
            return M.linear()(input=B.tensor([1.0, 1.0]))
        run_both(self, program)

    def test_python_forward_argument_errors(self):
        for call in (lambda toy, x: toy(), lambda toy, x: toy(x, x, 1.0, 2),
                     lambda toy, x: toy(x, y=x), lambda toy, x: toy(x, x=x)):
            errors = []
            for B in (gnn_backend(), torch_backend()):
                errors.append(error_of(lambda: call(make_modules(B).Toy(), B.tensor([1.0]))))
            self.assertIs(type(errors[0]), TypeError)
            self.assertEqual(str(errors[0]), str(errors[1]))


class TestHooksVsTorch(unittest.TestCase):
    def test_hooks_see_torchs_tuples_in_order(self):
        def program(B, M, log):
            toy = M.Toy()
            x = B.tensor([1.0, 2.0])
            toy.register_forward_pre_hook(lambda m, args: log.append(('pre', args)))
            toy.register_forward_hook(lambda m, args, out: log.append(('hook', args, out)))
            return [toy(x), toy(x, x, scale=0.5), toy(x=x)]
        run_both(self, program)

    def test_pre_hook_replacements(self):
        def program(B, M, log):
            toy = M.Toy()
            x = B.tensor([1.0, 2.0])
            handles = [toy.register_forward_pre_hook(lambda m, args: (args[0] * 10, args[0])),
                       toy.register_forward_pre_hook(lambda m, args: log.append(args)),
                       toy.register_forward_pre_hook(lambda m, args: None)]
            outs = [toy(x)]
            handles[0].remove()
            # a non-tuple replacement becomes a 1-tuple (torch 1.13's _call_impl)
            toy.register_forward_pre_hook(lambda m, args: args[0] + 100)
            toy.register_forward_pre_hook(lambda m, args: log.append(args))
            outs.append(toy(x, x))
            return outs
        run_both(self, program)

    def test_hook_replaces_output(self):
        def program(B, M, log):
            toy = M.Toy()
            x = B.tensor([1.0, 2.0])
            toy.register_forward_hook(lambda m, args, out: {'y': out[0], 'n': len(args)})
            toy.register_forward_hook(lambda m, args, out: log.append(out))
            lin = M.linear()
            lin.register_forward_hook(lambda m, args, out: (out, out.sum()))
            return [toy(x, x), lin(x)]
        run_both(self, program)

    def test_global_hooks_first_on_every_module(self):
        def program(B, M, log):
            toy, lin = M.Toy(), M.linear()
            x = B.tensor([1.0, 2.0])
            toy.register_forward_pre_hook(lambda m, args: log.append(('pre', type(m).__name__)))
            toy.register_forward_hook(lambda m, args, out: log.append(('hook', type(m).__name__)))
            handles = [B.global_pre_hook(lambda m, args: log.append(('gpre', type(m).__name__, args))),
                       B.global_hook(lambda m, args, out: log.append(('ghook', type(m).__name__, out)))]
            try:
                return [toy(x, h=x), lin(x)]
            finally:
                for h in handles:
                    h.remove()
        run_both(self, program)

    def test_global_pre_hook_replaces_arguments(self):
        def program(B, M, log):
            toy = M.Toy()
            x = B.tensor([1.0, 2.0])
            handle = B.global_pre_hook(lambda m, args: (args[0] * 2,) + tuple(args[1:]))
            try:
                return toy(x, x)
            finally:
                handle.remove()
        run_both(self, program)

    def test_removal_during_call(self):
        def program(B, M, log):
            toy = M.Toy()
            x = B.tensor([1.0])
            handles = {}

            def remover(m, args):
                log.append('remover')
                handles['victim'].remove()
                handles['hook'].remove()
            toy.register_forward_pre_hook(remover)
            handles['victim'] = toy.register_forward_pre_hook(lambda m, args: log.append('victim'))
            handles['hook'] = toy.register_forward_hook(lambda m, args, out: log.append('hook'))
            toy(x)
            toy(x)
            return None
        run_both(self, program)

    def test_sequential_passes_tuples_on(self):
        def program(B, M, log):
            toy, first, lin = M.Toy(), M.First(), M.linear()
            for m in (toy, first, lin):
                m.register_forward_pre_hook(lambda m, args: log.append((type(m).__name__, args)))
            seq = B.nn.Sequential(toy, first, lin)
            seq.register_forward_hook(lambda m, args, out: log.append(('seq', args, out)))
            ends_in_tuple = B.nn.Sequential(lin, toy)
            x = B.tensor([1.0, 2.0])
            return [seq(x), ends_in_tuple(x)]
        run_both(self, program)

    def test_python_subclass_of_a_container_chains_up(self):
        def program(B, M, log):
            class Scaled(B.nn.Sequential):
                def forward(self, x, scale=1.0):
                    return super().forward(x) * scale
            seq = Scaled(M.linear())
            seq.register_forward_pre_hook(lambda m, args: log.append(args))
            return seq(B.tensor([1.0, 2.0]), 3.0)
        run_both(self, program)


class TestJunkFromPreHooks(unittest.TestCase):
    """A pre-hook returning junk reaches forward as its argument, which
    refuses it with a TypeError, on every call path (issue 31 item 13)."""

    def check(self, build, call, junk='junk'):
        errors = []
        for B in (gnn_backend(), torch_backend()):
            M = make_modules(B)
            module, hooked = build(B, M)
            hooked.register_forward_pre_hook(lambda m, args: junk)
            errors.append(error_of(lambda: call(B, module)))
        g, t = errors
        self.assertIsInstance(t, TypeError)
        self.assertIsInstance(g, TypeError, g)
        # torch names the functional (linear()), Gnn the module's forward
        self.assertEqual(str(g).split('(): ', 1)[-1], str(t).split('(): ', 1)[-1])
        return g

    def test_fast_path(self):
        g = self.check(lambda B, M: (M.linear(),) * 2, lambda B, m: m(B.tensor([1.0, 2.0])))
        self.assertEqual(str(g), "Linear.forward(): argument 'input' (position 1) must be Tensor, not str")

    def test_general_path(self):
        def build(B, M):
            lin = M.linear()
            return lin, lin
        # junk replaces the positionals; input= still comes by keyword
        errors = []
        for B in (gnn_backend(), torch_backend()):
            module, hooked = build(B, make_modules(B))
            hooked.register_forward_pre_hook(lambda m, args: 'junk')
            errors.append(error_of(lambda: module(input=B.tensor([1.0, 2.0]))))
        self.assertIsInstance(errors[0], TypeError)
        self.assertEqual(str(errors[0]), str(errors[1]))

    def test_not_convertible_junk(self):
        self.check(lambda B, M: (M.linear(),) * 2, lambda B, m: m(B.tensor([1.0, 2.0])), junk=object())

    def test_inside_sequential(self):
        def build(B, M):
            lin = M.linear()
            return B.nn.Sequential(M.linear(), lin), lin
        self.check(build, lambda B, m: m(B.tensor([1.0, 2.0])))

    def test_with_a_global_hook(self):
        errors = []
        for B in (gnn_backend(), torch_backend()):
            lin = make_modules(B).linear()
            handle = B.global_pre_hook(lambda m, args: 'junk')
            try:
                errors.append(error_of(lambda: lin(B.tensor([1.0, 2.0]))))
            finally:
                handle.remove()
        self.assertIsInstance(errors[0], TypeError)
        self.assertEqual(str(errors[0]).split('(): ', 1)[-1], str(errors[1]).split('(): ', 1)[-1])


class TestExceptionsThroughC(unittest.TestCase):
    """Exceptions raised by Python code in a general call come out as
    themselves (control-flow ones too), through C's call path."""

    def check(self, exc_type, where):
        class Boom(Gnn.Module):
            def forward(self, x, y):
                if where == 'forward':
                    raise exc_type('from forward')
                return x

        m = Boom()
        if where == 'pre':
            m.register_forward_pre_hook(lambda mod, args: (_ for _ in ()).throw(exc_type('from pre')))
        elif where == 'hook':
            m.register_forward_hook(lambda mod, args, out: (_ for _ in ()).throw(exc_type('from hook')))
        seq = Gnn.nn.Sequential(Gnn.nn.Identity(), Gnn.nn.Identity())
        x = Gnn.tensor([1.0])
        with self.assertRaises(exc_type) as cm:
            m(x, x)
        self.assertEqual(str(cm.exception), 'from %s' % where)
        # through containers too: Sequential's child calling m(x, x)
        outer = Gnn.nn.Sequential(seq, _Pair(), _Unpack(m))
        with self.assertRaises(exc_type):
            outer(x)

    def test_value_error(self):
        for where in ('forward', 'pre', 'hook'):
            self.check(ValueError, where)

    def test_keyboard_interrupt_and_system_exit(self):
        for exc_type in (KeyboardInterrupt, SystemExit):
            for where in ('forward', 'pre', 'hook'):
                self.check(exc_type, where)


class _Pair(Gnn.Module):
    def forward(self, x):
        return x, x


class _Unpack(Gnn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, pair):
        return self.inner(*pair)


class TestGnnOnly(unittest.TestCase):
    """torch 2's with_kwargs and always_call, which torch 1.13 lacks."""

    def test_pre_hook_with_kwargs(self):
        toy = make_modules(gnn_backend()).Toy()
        seen = []

        def hook(m, args, kwargs):
            seen.append((len(args), dict(kwargs)))
            return args, {'scale': 10.0}
        toy.register_forward_pre_hook(hook, with_kwargs=True)
        y, _ = toy(Gnn.tensor([1.0]), scale=2.0)
        self.assertEqual(y.item(), 10.0)
        self.assertEqual(seen, [(1, {'scale': 2.0})])

    def test_pre_hook_with_kwargs_bad_result(self):
        toy = make_modules(gnn_backend()).Toy()
        toy.register_forward_pre_hook(lambda m, a, k: 5, with_kwargs=True)
        with self.assertRaises(RuntimeError) as cm:
            toy(Gnn.tensor([1.0]))
        self.assertEqual(str(cm.exception), 'forward pre-hook must return None or a tuple of '
                         '(new_args, new_kwargs), but got 5.')

    def test_forward_hook_with_kwargs(self):
        toy = make_modules(gnn_backend()).Toy()
        seen = []
        toy.register_forward_hook(lambda m, a, k, out: seen.append(k), with_kwargs=True)
        toy(Gnn.tensor([1.0]), scale=3.0)
        self.assertEqual(seen, [{'scale': 3.0}])

    def test_always_call_on_failure(self):
        toy = make_modules(gnn_backend()).Toy()
        seen = []
        toy.register_forward_hook(lambda m, a, out: seen.append(('always', a, out)), always_call=True)
        toy.register_forward_hook(lambda m, a, out: seen.append('normal'))
        with self.assertRaises(TypeError):
            toy()
        self.assertEqual(seen, [('always', (), None)])

    def test_global_always_call(self):
        seen = []
        handle = Gnn.register_module_forward_hook(lambda m, a, out: seen.append(out), always_call=True)
        try:
            with self.assertRaises(TypeError):
                make_modules(gnn_backend()).Toy()()
        finally:
            handle.remove()
        self.assertEqual(seen, [None])

    def test_unpacking_module_calls_children_with_several_inputs(self):
        toy = make_modules(gnn_backend()).Toy()
        seen = []
        toy.register_forward_pre_hook(lambda m, args: seen.append(len(args)))
        y, _ = Gnn.nn.Sequential(_Pair(), _Unpack(toy))(Gnn.tensor([2.0]))
        self.assertEqual((y.item(), seen), (4.0, [2]))

    def test_c_call_args_from_python(self):
        toy = make_modules(gnn_backend()).Toy()
        x = Gnn.tensor([1.0])
        out = toy.call_args(Gnn.Value.from_python((x,)), Gnn.Value.from_python({'scale': 4.0}))
        self.assertEqual(out.to_python()[0].item(), 4.0)
        self.assertEqual(repr(Gnn.Value.from_python((1, None))), 'Gnn.Value((1, None))')


if __name__ == '__main__':
    unittest.main()
