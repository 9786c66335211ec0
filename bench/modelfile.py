#!/usr/bin/env python3
# Torch's files and model files, ~1 GiB: Sequential(64 × Linear(4096, 1024))
# in the warm page cache.
#
# 1. Loading torch.save's .pth of the state dict into a built model: Gnn
#    from C (bench-modelfile: the restricted unpickler, the zip mapped, the
#    values copied into the model — and the zero-copy ASSIGN path into a
#    model built on the meta device) vs torch 1.13's torch.load +
#    load_state_dict, and `cat FILE > /dev/null` as the floor. Targets: Gnn's
#    copy ≥ 5× faster than torch, ≤ 1.5× cat.
# 2. Building + loading a model file of that size with nothing but the file
#    (gnn_module_load_model, assignment of the mapped file): target ≤ 20 ms.
#
# One run, best of --repeat, the files in a temporary folder removed after.
# The header gives the load average before and after.
#
#   /usr/bin/python3 bench/modelfile.py [--build-dir build] [--dir /tmp] [--repeat 5]
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import best, parse_kv  # noqa: E402

N, IN, OUT = 64, 4096, 1024


def loadavg():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--build-dir', default='build')
    ap.add_argument('--dir', default=tempfile.gettempdir(), help='where the 1 GiB files go')
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--n', type=int, default=N, help='number of Linear layers')
    ap.add_argument('--no-build', action='store_true')
    args = ap.parse_args()

    driver = os.path.join(args.build_dir, 'bench', 'bench-modelfile')
    if not args.no_build:
        subprocess.run(['ninja', '-C', args.build_dir, 'bench/bench-modelfile'], check=True,
                       stdout=subprocess.DEVNULL)
    nbytes = args.n * (IN * OUT + OUT) * 4
    if shutil.disk_usage(args.dir).free < 2.5 * nbytes:
        sys.exit('modelfile.py: %s needs %.1f GiB free' % (args.dir, 2.5 * nbytes / 2**30))

    import torch
    from torch import nn
    load_before = loadavg()
    work = tempfile.mkdtemp(prefix='gnn-bench-modelfile-', dir=args.dir)
    pth = os.path.join(work, 'model.pth')
    model_file = os.path.join(work, 'model.safetensors')
    try:
        with torch.no_grad():
            model = nn.Sequential(*[nn.Linear(IN, OUT) for _ in range(args.n)])
        torch.save(model.state_dict(), pth)
        subprocess.run([driver, 'save-model', model_file, str(args.n), str(IN), str(OUT)],
                       check=True)

        def cat(path):
            subprocess.run('cat "%s" > /dev/null' % path, shell=True, check=True)
        for path in (pth, model_file):   # warm page cache
            cat(path)

        g = parse_kv(subprocess.run([driver, 'torch', pth, str(args.n), str(IN), str(OUT),
                                     str(args.repeat)],
                                    check=True, capture_output=True, text=True).stdout)
        g.update(parse_kv(subprocess.run([driver, 'model', model_file, str(args.repeat)],
                                         check=True, capture_output=True, text=True).stdout))

        def torch_load():
            model.load_state_dict(torch.load(pth))
        t_torch = best(torch_load, min(args.repeat, 3))
        t_cat = best(lambda: cat(pth), args.repeat)
        size_gib = os.path.getsize(pth) / 2**30
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print('model: Sequential(%d × Linear(%d, %d)), %.2f GiB float32; torch %s, %d threads; '
          'warm page cache; best of %d' % (args.n, IN, OUT, size_gib, torch.__version__,
                                          torch.get_num_threads(), args.repeat))
    print('load average: %s before, %s after' % (load_before, loadavg()))
    print()
    print('%-62s %9s %10s %9s' % ('1. torch .pth state dict into a built model', 'ms',
                                  'vs torch', 'vs cat'))
    rows = [
        ('Gnn (C): gnn_module_load, values copied into the model', g['torch_copy']),
        ('Gnn (C): meta-built model + ASSIGN (zero copy)', g['torch_assign']),
        ('Gnn (C): the same + read one byte of every page', g['torch_assign_touch']),
        ('torch: torch.load + load_state_dict', t_torch),
        ('cat FILE > /dev/null', t_cat),
    ]
    for name, t in rows:
        print('%-62s %9.1f %9.2f× %8.2f×' % (name, t * 1e3, t_torch / t, t / t_cat))
    print()
    print('%-62s %9s' % ('2. model file: build + load from the file alone', 'ms'))
    for name, t in (('Gnn (C): gnn_module_load_model (assign, mapped)', g['model_assign']),
                    ('Gnn (C): the same + read one byte of every page', g['model_assign_touch']),
                    ('Gnn (C): gnn_module_load_model (COPY)', g['model_copy'])):
        print('%-62s %9.2f' % (name, t * 1e3))
    print()

    def target(name, value, goal, ok):
        print('%-62s %9.2f   target %s: %s' % (name, value, goal, 'pass' if ok else 'MISS'))
    target('torch / Gnn copy (×)', t_torch / g['torch_copy'], '≥ 5', t_torch / g['torch_copy'] >= 5)
    target('Gnn copy / cat (×)', g['torch_copy'] / t_cat, '≤ 1.5', g['torch_copy'] / t_cat <= 1.5)
    target('model file build + load (ms)', g['model_assign'] * 1e3, '≤ 20',
           g['model_assign'] <= 0.020)


if __name__ == '__main__':
    main()
