#!/usr/bin/python3
# mlp.py: a small MLP written the way a PyTorch user writes one.
#
#   class Net(nn.Module):
#       def __init__(self):
#           super().__init__()
#           self.fc1 = nn.Linear(784, 128) ...
#
# Gnn.Module subclasses behave like nn.Module: assigning a module or a
# parameter to an attribute registers it (in the C library's registry, so C
# code, state dicts and repr() see it), model(x) runs the hooks and forward.
#
# Run with Debian's /usr/bin/python3 (PyGObject + numpy). Uninstalled:
#   GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib \
#   PYTHONPATH=build/gir/python /usr/bin/python3 examples/mlp.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

import numpy as np  # noqa: E402


class Net(Gnn.Module):
    def __init__(self, generator):
        # Like nn.Module, the registry exists only after super().__init__().
        super().__init__()
        # Constructor keywords are GObject properties (Gnn.Linear.new(784,
        # 128, True, generator) is the same). An explicit generator replaces
        # torch's global RNG: same seed, same weights in C, Python and JS.
        self.fc1 = Gnn.Linear(in_features=784, out_features=128, generator=generator)
        self.fc2 = Gnn.Linear(in_features=128, out_features=10, generator=generator)
        self.scale = 1.0   # a plain attribute: not registered, not in state_dict

    # forward is the module's general forward vfunc (it may take and
    # return anything, as torch's): C callers of gnn_module_call() or
    # gnn_module_call_args(), containers and hooks reach this Python code.
    def forward(self, x):
        x = x.flatten(1, -1)           # [N, 28, 28] -> [N, 784]
        x = self.fc1(x).relu()
        return self.fc2(x).log_softmax(1)


def main():
    model = Net(Gnn.Generator.new(0))

    # repr() prints what PyTorch prints for the same network.
    print(model)

    # named_parameters() yields (name, Parameter) pairs, in torch's order.
    for name, p in model.named_parameters():
        print('%-12s %s' % (name, p.shape))
    print('parameters:', sum(p.numel() for p in model.parameters()))

    # numpy in, numpy out.
    images = np.random.default_rng(0).random((4, 28, 28), dtype=np.float32)
    log_probs = model(Gnn.Tensor.from_numpy(images))
    probs = np.exp(log_probs.numpy())
    print('output', log_probs.shape, 'rows sum to', probs.sum(axis=1).round(4))

    # Library errors are GLib.Error with PyTorch's wording.
    try:
        model(Gnn.Tensor.from_numpy(np.zeros((4, 27, 27), dtype=np.float32)))
    except GLib.Error as e:
        print('error:', e.message)
    else:
        raise SystemExit('a wrong input shape was accepted')

    if not np.allclose(probs.sum(axis=1), 1, atol=1e-5):
        raise SystemExit('the output rows are not distributions')


if __name__ == '__main__':
    main()
