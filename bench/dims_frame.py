#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cost of gir/gnn/_dims.py's Python frame around dim-taking methods.

_dims.guard_all() wraps every introspected function with a dimension
argument in one Python function (turning a dimension GLib.Error into
torch's IndexError). This times a few small dim-taking calls through the
wrapper (what users call) and through the bare introspected function
(functools.wraps keeps it as __wrapped__), on tensors small enough that the
call overhead dominates, next to torch's same call.

    GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib PYTHONPATH=build/gir/python \\
        /usr/bin/python3 bench/dims_frame.py

A benchmark, not a test: it prints, it never fails on a timing.
"""

import os
import timeit

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402
import torch  # noqa: E402

N = 20000


def best(stmt, reps=5):
    return min(timeit.repeat(stmt, number=N, repeat=reps)) / N * 1e6


def main():
    torch.set_num_threads(1)
    x = Gnn.randn(4, 4)
    t = torch.randn(4, 4)
    rows = [
        ('sum(x, [1])', 'sum', lambda f: (lambda: f(x, [1], False)), lambda: t.sum(1)),
        ('softmax(x, 1)', 'softmax', lambda f: (lambda: f(x, 1)), lambda: t.softmax(1)),
        ('transpose(x, 0, 1)', 'transpose', lambda f: (lambda: f(x, 0, 1)), lambda: t.transpose(0, 1)),
        ('unsqueeze(x, 0)', 'unsqueeze', lambda f: (lambda: f(x, 0)), lambda: t.unsqueeze(0)),
    ]
    load = os.getloadavg()[0]
    print(f'load average (1 min) before: {load:.2f}; {N} calls, best of 5, µs per call\n')
    print(f'{"call":<20} {"wrapped":>8} {"bare":>8} {"frame":>8} {"torch":>8}')
    for label, name, make, torch_call in rows:
        wrapped = getattr(Gnn.Tensor, name)
        bare = getattr(wrapped, '__wrapped__', None)
        if bare is None:
            print(f'{label:<20} (not wrapped by _dims)')
            continue
        w = best(make(wrapped))
        b = best(make(bare))
        tt = best(torch_call)
        print(f'{label:<20} {w:>8.2f} {b:>8.2f} {w - b:>8.2f} {tt:>8.2f}')
    print(f'\nload average (1 min) after: {os.getloadavg()[0]:.2f}')


if __name__ == '__main__':
    main()
