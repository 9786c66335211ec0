#!/usr/bin/python3
# test_hook_results.py: a forward pre-hook or forward hook written in Python
# that returns something other than None, a tensor (or, for a pre-hook, a
# 1-tuple of one) makes the call raise TypeError on every call path — it
# was printed by the binding and ignored, the call going on with the
# original input (issue 31 item 13; fixed once before and it came back).
# Side by side with torch where torch defines the outcome: a C layer given
# junk raises TypeError there too; the valid replacements give torch's
# values.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

JUNK = ['junk', 5, [1.0, 2.0], {'x': 1}, object(), ('junk',)]


class Doubler(Gnn.nn.Module):
    def forward(self, x):
        return x * 2.0


class Wrapper(Gnn.nn.Module):
    """A Python forward calling a C child: the child's hooks run inside."""
    def __init__(self):
        super().__init__()
        self.inner = Gnn.nn.Linear(2, 2)

    def forward(self, x):
        return self.inner(x)


def paths():
    """(name, module whose hooks get the junk, the call to make)."""
    x = Gnn.ones(1, 2)
    lin = Gnn.nn.Linear(2, 2)
    yield 'C layer, module(x)', lin, lambda: lin(x)
    lin2 = Gnn.nn.Linear(2, 2)
    yield 'C layer, Gnn.Module.call', lin2, lambda: Gnn.Module.call(lin2, x)
    py = Doubler()
    yield 'Python module', py, lambda: py(x)
    seq = Gnn.nn.Sequential(Gnn.nn.Linear(2, 2), Gnn.nn.ReLU())
    yield 'Sequential child', seq[0], lambda: seq(x)
    wrapper = Wrapper()
    yield 'child of a Python forward', wrapper.inner, lambda: wrapper(x)
    outer = Gnn.nn.Sequential(Wrapper())
    yield 'Python module inside Sequential', outer[0], lambda: outer(x)


class JunkRaises(unittest.TestCase):
    def check(self, register, kind):
        for name, module, call in paths():
            for junk in JUNK:
                with self.subTest(path=name, junk=repr(junk)):
                    handle = register(module, junk)
                    try:
                        # a raw C call (Gnn.Module.call) cannot re-raise the
                        # Python exception: its GLib.Error carries the text
                        with self.assertRaisesRegex((TypeError, GLib.Error),
                                                    'TypeError|%s of %s must return None'
                                                    % (kind, type(module).__name__)) as caught:
                            call()
                    finally:
                        handle.remove()
                    self.assertIn('%s of %s must return None' % (kind, type(module).__name__),
                                  str(caught.exception))
                    call()      # fine again without the hook

    def test_pre_hooks(self):
        self.check(lambda m, junk: m.register_forward_pre_hook(lambda mod, inp: junk),
                   'forward pre-hook')

    def test_forward_hooks(self):
        self.check(lambda m, junk: m.register_forward_hook(lambda mod, inp, out: junk),
                   'forward hook')

    def test_global_hooks(self):
        for register, kind in ((lambda: Gnn.Module.register_global_forward_pre_hook(
                                    lambda m, i: 'junk'), 'forward pre-hook'),
                               (lambda: Gnn.Module.register_global_forward_hook(
                                    lambda m, i, o: 'junk'), 'forward hook')):
            handle = register()
            try:
                with self.assertRaisesRegex(TypeError, kind):
                    Gnn.nn.Linear(2, 2)(Gnn.ones(1, 2))
            finally:
                handle.remove()

    def test_always_call_hook_after_a_failure(self):
        lin = Gnn.nn.Linear(2, 2)
        lin.register_forward_hook(lambda m, i, o: 'junk', always_call=True)
        with self.assertRaises(Exception):
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
