# Python subclasses of built-in layers, side by side with torch 1.13: a
# subclass of Conv1d/2d/3d, BatchNorm, LayerNorm, Embedding, RNN/LSTM/GRU,
# MultiheadAttention and TransformerEncoderLayer overrides forward and
# calls super().forward(...); the output, the gradients of the input and of
# every parameter, the state_dict keys and the repr are torch's, and a C
# container and the hooks reach the override. Containers subclassed the
# same way (Sequential, and a subclass of a subclass) too.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import numpy as np
import torch

import gnn
import gnn.nn


def G(t):
    return gnn.from_numpy(t.detach().numpy().copy())


def N(t):
    return t.detach().numpy()


def first(out):
    return out[0] if isinstance(out, tuple) else out


# (name, constructor arguments, input shapes, integer input)
CASES = [
    ('Conv1d', (2, 3, 2), [(2, 2, 5)], False),
    ('Conv2d', (2, 3, 2), [(2, 2, 4, 4)], False),
    ('Conv3d', (2, 3, 2), [(1, 2, 3, 3, 3)], False),
    ('BatchNorm1d', (2,), [(3, 2)], False),
    ('BatchNorm2d', (2,), [(2, 2, 3, 3)], False),
    ('BatchNorm3d', (2,), [(2, 2, 2, 2, 2)], False),
    ('LayerNorm', (4,), [(2, 4)], False),
    ('Embedding', (5, 3), [(2, 2)], True),
    ('RNN', (4, 3), [(2, 1, 4)], False),
    ('LSTM', (4, 3), [(2, 1, 4)], False),
    ('GRU', (4, 3), [(2, 1, 4)], False),
    ('MultiheadAttention', (4, 2), [(2, 1, 4)] * 3, False),
    ('TransformerEncoderLayer', (4, 2, 8, 0.0), [(2, 1, 4)], False),
]


def subclass(nn, name):
    """class Scaled<name>(nn.<name>) whose forward doubles the first output
    of super().forward(...) and counts its calls."""
    base = getattr(nn, name)

    def __init__(self, *args):
        super(cls, self).__init__(*args)
        self.calls = 0

    def forward(self, *inputs):
        self.calls += 1
        out = super(cls, self).forward(*inputs)
        if isinstance(out, tuple):
            return (out[0] * 2.0,) + tuple(out[1:])
        return out * 2.0

    cls = type('Scaled' + name, (base,), {'__init__': __init__, 'forward': forward})
    return cls


class TestPythonSubclassOfBuiltinLayer(unittest.TestCase):

    def check(self, name, args, shapes, integer):
        torch.manual_seed(0)
        t = subclass(torch.nn, name)(*args)
        g = subclass(gnn.nn, name)(*args)
        self.assertEqual(list(t.state_dict()), list(g.state_dict()))
        g.load_state_dict({k: G(v) for k, v in t.state_dict().items()})
        self.assertEqual(repr(t), repr(g))
        if integer:
            xs = [torch.randint(0, args[0], s) for s in shapes]
        else:
            xs = [torch.randn(*s, requires_grad=True) for s in shapes]
        gxs = [G(x) for x in xs]
        if not integer:
            for gx in gxs:
                gx.requires_grad_(True)
        seen = []
        g.register_forward_hook(lambda m, a, out: seen.append(type(out).__name__))
        tout, gout = first(t(*xs)), first(g(*gxs))
        self.assertEqual((t.calls, g.calls), (1, 1))
        self.assertEqual(len(seen), 1)
        np.testing.assert_allclose(N(gout), N(tout), rtol=1e-5, atol=1e-6)
        tout.sum().backward()
        gout.sum().backward()
        if not integer:
            np.testing.assert_allclose(N(gxs[0].grad), N(xs[0].grad), rtol=1e-5, atol=1e-6)
        tgrads = {k: p.grad for k, p in t.named_parameters()}
        for k, p in g.named_parameters():
            np.testing.assert_allclose(N(p.grad), N(tgrads[k]), rtol=1e-5, atol=1e-6, err_msg=k)
        # a C container reaches the override
        seq = gnn.nn.Sequential(g)
        if len(gxs) == 1:
            first(seq(gxs[0]))
            self.assertEqual(g.calls, 2)

    def test_layers(self):
        for name, args, shapes, integer in CASES:
            with self.subTest(layer=name):
                self.check(name, args, shapes, integer)


class TestSubclassOfContainer(unittest.TestCase):

    def both(self, program):
        outs = []
        for nn, tensor in ((torch.nn, torch.tensor), (gnn.nn, gnn.tensor)):
            torch.manual_seed(0)
            lin = torch.nn.Linear(2, 2)
            if nn is gnn.nn:
                g = gnn.nn.Linear(2, 2)
                g.load_state_dict({k: G(v) for k, v in lin.state_dict().items()})
                lin = g
            outs.append(program(nn, tensor, lin))
        np.testing.assert_allclose(N(outs[1]), N(outs[0]), rtol=1e-6)

    def test_sequential_super_forward(self):
        def program(nn, tensor, lin):
            class Scaled(nn.Sequential):
                def forward(self, x):
                    return super().forward(x) * 3.0
            return Scaled(lin, nn.ReLU())(tensor([[1.0, -2.0]]))
        self.both(program)

    def test_subclass_of_a_subclass(self):
        def program(nn, tensor, lin):
            class Scaled(nn.Sequential):
                def forward(self, x):
                    return super().forward(x) * 3.0

            class Shifted(Scaled):
                def forward(self, x):
                    return super().forward(x + 1.0) - 1.0
            return Shifted(lin)(tensor([[1.0, -2.0]]))
        self.both(program)

    def test_subclass_inside_a_container(self):
        def program(nn, tensor, lin):
            class Scaled(nn.Sequential):
                def forward(self, x):
                    return super().forward(x) * 3.0
            return nn.Sequential(Scaled(lin), Scaled(nn.Tanh()))(tensor([[1.0, -2.0]]))
        self.both(program)

    def test_subclass_with_init_of_its_own(self):
        def program(nn, tensor, lin):
            class Block(nn.Sequential):
                def __init__(self, layer):
                    super().__init__(layer, nn.ReLU())
                    self.scale = 2.0

                def forward(self, x):
                    return super().forward(x) * self.scale
            return Block(lin)(tensor([[1.0, -2.0]]))
        self.both(program)

    def test_forward_from_a_mixin(self):
        def program(nn, tensor, lin):
            class Doubling:
                def forward(self, x):
                    return super().forward(x) * 2.0

            class Net(Doubling, nn.Sequential):
                pass
            return nn.Sequential(Net(lin))(tensor([[1.0, -2.0]]))
        self.both(program)

    def test_module_list_iteration_in_forward(self):
        def program(nn, tensor, lin):
            class Seq(nn.Sequential):
                def forward(self, x):
                    for m in self:
                        x = m(x)
                    return super().forward(x)
            return Seq(lin)(tensor([[1.0, -2.0]]))
        self.both(program)


if __name__ == '__main__':
    unittest.main()
