#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs PyTorch: normal fills (issue 30: building VGG-11 is 133 M normal
draws) and building VGG-11 with torchvision's initialization.

For float32 and float64 and 1 and 2 threads on both sides: randn(n) (a new
tensor: the fill plus the first touch of its pages) and normal_() into an
existing tensor (the fill alone), n = 133 M float32 / 33 M float64, best of
--repeat; then vgg11() (random weights) on both sides. Prints seconds and
PyTorch / Gnn (above 1: Gnn is faster), with the load average before and
after.

    /usr/bin/python3 bench/normal_fill.py [--build-dir build] [--repeat 3]

Run it under cpulock. A benchmark, not a test: it never fails on a timing.
"""

import argparse
import os
import sys

import benchlib


def loadavg():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args()
    build = os.path.abspath(args.build_dir)
    lib = os.path.join(build, 'lib')
    if os.environ.get('LD_LIBRARY_PATH') != lib:
        # the loader reads LD_LIBRARY_PATH at start-up: run again with it
        os.environ['LD_LIBRARY_PATH'] = lib
        os.execv(sys.executable, [sys.executable] + sys.argv)
    os.environ['GI_TYPELIB_PATH'] = os.path.join(build, 'gir')
    sys.path.insert(0, os.path.join(build, 'gir', 'python'))

    import torch
    import torchvision
    import gnn
    import gnn.vision.models

    print('# load average before: %s' % loadavg())
    print('%-34s %7s %9s %9s %9s' % ('case', 'threads', 'Gnn s', 'torch s', 'torch/Gnn'))
    for threads in (1, 2):
        torch.set_num_threads(threads)
        gnn.set_num_threads(threads)
        for name, n, tdt, gdt in (('float32', 133_000_000, torch.float32, gnn.float32),
                                  ('float64', 33_000_000, torch.float64, gnn.float64)):
            tt, gt = torch.empty(n, dtype=tdt), gnn.empty(n, dtype=gdt)
            rows = (('randn(%dM) %s' % (n // 1_000_000, name),
                     lambda: gnn.randn(n, dtype=gdt), lambda: torch.randn(n, dtype=tdt)),
                    ('normal_() %s' % name, lambda: gt.normal_(), lambda: tt.normal_()))
            for label, g_fn, t_fn in rows:
                g_fn(), t_fn()       # first calls: lazy start-up
                g = benchlib.best(g_fn, args.repeat)
                t = benchlib.best(t_fn, args.repeat)
                print('%-34s %7d %9.3f %9.3f %9.2f' % (label, threads, g, t, t / g))
            del tt, gt
        g = benchlib.best(gnn.vision.models.vgg11, args.repeat)
        t = benchlib.best(torchvision.models.vgg11, args.repeat)
        print('%-34s %7d %9.3f %9.3f %9.2f' % ('vgg11() (133 M parameters)', threads, g, t, t / g))
    print('# load average after: %s' % loadavg())


if __name__ == '__main__':
    main()
