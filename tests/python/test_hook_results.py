#!/usr/bin/python3
# test_hook_results.py: what a forward pre-hook or forward hook written in
# Python returns is never printed and dropped by the binding (issue 31 item
# 13: it was, the call going on with the original input; fixed once before
# and it came back). On every call path the outcome is torch 1.13's: a
# pre-hook's result (a non-tuple made a 1-tuple) is what forward gets, so
# junk into a C layer raises TypeError; a forward hook's result is the
# call's output, whatever it is, and junk handed on to a C layer raises
# TypeError. A raw one-tensor C call (Gnn.Module.call) refuses an output
# that is not a tensor.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

JUNK = ['junk', 5, [1.0, 2.0], {'x': 1}, object(), ('junk',)]


def paths(lib):
    """(name, module whose hooks get the junk, the call to make) in Gnn or
    torch."""
    class Doubler(lib.nn.Module):
        def forward(self, x):
            return x * 2.0

    class Wrapper(lib.nn.Module):
        """A Python forward calling a C child: the child's hooks run inside."""
        def __init__(self):
            super().__init__()
            self.inner = lib.nn.Linear(2, 2)

        def forward(self, x):
            return self.inner(x)

    x = lib.ones(1, 2)
    lin = lib.nn.Linear(2, 2)
    yield 'C layer, module(x)', lin, lambda: lin(x)
    py = Doubler()
    yield 'Python module', py, lambda: py(x)
    seq = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU())
    yield 'Sequential child', seq[0], lambda: seq(x)
    wrapper = Wrapper()
    yield 'child of a Python forward', wrapper.inner, lambda: wrapper(x)
    outer = lib.nn.Sequential(Wrapper())
    yield 'Python module inside Sequential', outer[0], lambda: outer(x)


def outcome(call):
    """'TypeError', or the type of what the call returned."""
    try:
        result = call()
    except TypeError:
        return 'TypeError'
    return 'tensor' if isinstance(result, (Gnn.Tensor,) + ((torch.Tensor,) if torch else ())) \
        else type(result).__name__


def outcomes(lib, register):
    found = {}
    for name, module, call in paths(lib):
        for junk in JUNK:
            handle = register(module, junk)
            try:
                found[name, repr(junk)] = outcome(call)
            finally:
                handle.remove()
            found[name, repr(junk), 'after'] = outcome(call)   # fine again without it
    return found


def pre_hook(module, junk):
    return module.register_forward_pre_hook(lambda mod, inp: junk)


def forward_hook(module, junk):
    return module.register_forward_hook(lambda mod, inp, out: junk)


class JunkOnEveryPath(unittest.TestCase):
    def check(self, register):
        gnn = outcomes(Gnn, register)
        self.assertTrue(all(v == 'tensor' for k, v in gnn.items() if len(k) == 3))
        if torch is not None:
            self.assertEqual(gnn, outcomes(torch, register))
        return gnn

    def test_pre_hooks(self):
        found = self.check(pre_hook)
        # junk into a C layer: TypeError, never the original input
        self.assertEqual({v for k, v in found.items()
                          if len(k) == 2 and k[0] != 'Python module'}, {'TypeError'})

    def test_forward_hooks(self):
        found = self.check(forward_hook)
        self.assertEqual({v for k, v in found.items() if k[0] == 'Sequential child'},
                         {'TypeError', 'tensor'})
        self.assertEqual(found['C layer, module(x)', "'junk'"], 'str')

    def test_raw_c_call(self):
        for register, pattern in ((pre_hook, "must be Tensor, not str"),
                                  (forward_hook, "returned a str, not a Tensor")):
            lin = Gnn.nn.Linear(2, 2)
            handle = register(lin, 'junk')
            with self.assertRaisesRegex(GLib.Error, pattern):
                Gnn.Module.call(lin, Gnn.ones(1, 2))
            handle.remove()
            self.assertEqual(Gnn.Module.call(lin, Gnn.ones(1, 2)).shape, (1, 2))

    def test_global_hooks(self):
        handle = Gnn.nn.modules.module.register_module_forward_pre_hook(lambda m, i: 'junk')
        try:
            with self.assertRaisesRegex(TypeError, 'must be Tensor, not str'):
                Gnn.nn.Linear(2, 2)(Gnn.ones(1, 2))
        finally:
            handle.remove()
        handle = Gnn.nn.modules.module.register_module_forward_hook(lambda m, i, o: 'junk')
        try:
            self.assertEqual(Gnn.nn.Linear(2, 2)(Gnn.ones(1, 2)), 'junk')
        finally:
            handle.remove()

    def test_always_call_hook_after_a_failure(self):
        lin = Gnn.nn.Linear(2, 2)
        lin.register_forward_hook(lambda m, i, o: 'junk', always_call=True)
        with self.assertRaisesRegex(Exception, 'shapes cannot be multiplied'):
            lin(Gnn.ones(1, 3))     # the forward's own error comes first


@unittest.skipIf(torch is None, 'torch is not installed')
class LikeTorch(unittest.TestCase):
    def test_junk_into_a_layer(self):
        for lib in (Gnn, torch):
            lin = lib.nn.Linear(2, 2)
            lin.register_forward_pre_hook(lambda m, i: 'junk')
            with self.assertRaises(TypeError):
                lin(lib.ones(1, 2))

    def test_valid_replacements(self):
        def run(lib):
            out = []
            for pre in (lambda m, i: None, lambda m, i: i[0] * 3.0, lambda m, i: (i[0] + 1.0,)):
                lin = lib.nn.Linear(2, 2)
                with lib.no_grad():
                    lin.weight.copy_(lib.tensor([[1.0, 2.0], [3.0, -4.0]]))
                    lin.bias.fill_(0.5)
                lin.register_forward_pre_hook(pre)
                lin.register_forward_hook(lambda m, i, o: o - 1.0)
                out.append([round(v, 5) for v in lin(lib.ones(1, 2)).flatten().tolist()])
            return out
        self.assertEqual(run(Gnn), run(torch))


if __name__ == '__main__':
    unittest.main(verbosity=2)
