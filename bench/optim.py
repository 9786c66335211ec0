#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs PyTorch: one optimizer step over 1M float32 parameters.

Both sides step the same optimizer (torch's single-tensor implementation,
foreach=False, one thread; Gnn's update loops run on one thread) over one
parameter of 2**20 elements with a fixed gradient; the step is called from
Python on both sides (its cost is the update loop, microseconds of call
overhead aside). Prints the time per step and PyTorch / Gnn (above 1: Gnn is
faster), with the load average.

    /usr/bin/python3 bench/optim.py [--build-dir build]

Run it under cpulock. A benchmark, not a test: it never fails on a timing.
"""

import argparse
import os
import sys

import benchlib

N = 1 << 20
CASES = [
    ('SGD', dict(lr=0.01)),
    ('SGD', dict(lr=0.01, momentum=0.9, nesterov=True, weight_decay=1e-4)),
    ('Adam', dict(lr=1e-3)),
    ('AdamW', dict(lr=1e-3, amsgrad=True)),
    ('Adagrad', dict(lr=0.01)),
    ('Adadelta', dict()),
    ('Adamax', dict()),
    ('NAdam', dict()),
    ('RAdam', dict()),
    ('RMSprop', dict(momentum=0.9, centered=True)),
    ('Rprop', dict()),
    ('ASGD', dict()),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--reps', type=int, default=5)
    parser.add_argument('--min-time', type=float, default=0.2)
    args = parser.parse_args()
    build = os.path.abspath(args.build_dir)
    os.environ['GI_TYPELIB_PATH'] = os.path.join(build, 'gir')
    sys.path.insert(0, os.path.join(build, 'gir', 'python'))
    os.environ.setdefault('LD_LIBRARY_PATH', os.path.join(build, 'lib'))

    import numpy as np
    import torch
    import gi
    gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn

    torch.set_num_threads(1)
    with open('/proc/loadavg') as f:
        print('# load average: %s' % ' '.join(f.read().split()[:3]))
    print('%-64s %9s %9s %9s' % ('optimizer (1M float32)', 'Gnn ms', 'torch ms', 'torch/Gnn'))
    for name, kw in CASES:
        tp = torch.nn.Parameter(torch.ones(N))
        tp.grad = torch.full((N,), 1e-3)
        topt = getattr(torch.optim, name)([tp], foreach=False, **kw)
        gp = Gnn.nn.Parameter(Gnn.Tensor.from_numpy(np.ones(N, dtype=np.float32)))
        gp.grad = Gnn.Tensor.from_numpy(np.full(N, 1e-3, dtype=np.float32))
        gopt = getattr(Gnn.optim, name)([gp], **kw)
        g = benchlib.measure(gopt.step, args.reps, args.min_time, 10000)[0]
        t = benchlib.measure(topt.step, args.reps, args.min_time, 10000)[0]
        print('%-64s %9.3f %9.3f %9.2f' % ('%s %s' % (name, kw), g * 1e3, t * 1e3, t / g))


if __name__ == '__main__':
    main()
