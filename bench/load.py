#!/usr/bin/env python3
# Build + load of a ~1 GiB model, Sequential(64 × Linear(4096, 1024)), from a
# file in the warm page cache: Gnn (bench-load: meta construction + loading
# by assignment of the memory-mapped safetensors file) vs torch 1.13's
# default path (construct with random init, torch.load of a torch.save file,
# load_state_dict) and its meta path (Linear(..., device='meta'), to_empty,
# torch.load, load_state_dict — 1.13 has neither `with torch.device('meta')`
# nor load_state_dict(assign=True), which came in 2.0/2.1). Best of
# --repeat runs; the files go to a temp dir and are removed. See
# bench/README.md.
#
#   /usr/bin/python3 bench/load.py [--build-dir build] [--dir /tmp] [--repeat 5]
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


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--build-dir', default='build')
    ap.add_argument('--dir', default=tempfile.gettempdir(), help='where the 1 GiB files go')
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--n', type=int, default=N, help='number of Linear layers')
    ap.add_argument('--no-build', action='store_true')
    args = ap.parse_args()

    driver = os.path.join(args.build_dir, 'bench', 'bench-load')
    if not args.no_build:
        subprocess.run(['ninja', '-C', args.build_dir, 'bench/bench-load'], check=True,
                       stdout=subprocess.DEVNULL)
    nbytes = args.n * (IN * OUT + OUT) * 4
    free = shutil.disk_usage(args.dir).free
    if free < 2.5 * nbytes:
        sys.exit('load.py: %s has %.1f GiB free, needs %.1f GiB' % (args.dir, free / 2**30,
                                                                  2.5 * nbytes / 2**30))

    import torch
    from torch import nn
    work = tempfile.mkdtemp(prefix='gnn-bench-load-', dir=args.dir)
    gnn_path = os.path.join(work, 'model.safetensors')
    pt_path = os.path.join(work, 'model.pt')
    try:
        subprocess.run([driver, 'save', gnn_path, str(args.n), str(IN), str(OUT)], check=True)
        with torch.no_grad():
            model = nn.Sequential(*[nn.Linear(IN, OUT) for _ in range(args.n)])
        torch.save(model.state_dict(), pt_path)
        del model
        for path in (gnn_path, pt_path):    # warm page cache for both
            subprocess.run('cat "%s" > /dev/null' % path, shell=True, check=True)

        g = parse_kv(subprocess.run([driver, 'load', gnn_path, str(args.n), str(IN), str(OUT),
                                     str(args.repeat)],
                                    check=True, capture_output=True, text=True).stdout)

        def torch_default():
            model = nn.Sequential(*[nn.Linear(IN, OUT) for _ in range(args.n)])
            model.load_state_dict(torch.load(pt_path))
            return model

        def torch_meta():
            model = nn.Sequential(*[nn.Linear(IN, OUT, device='meta') for _ in range(args.n)])
            model.to_empty(device='cpu')
            model.load_state_dict(torch.load(pt_path))
            return model

        def torch_meta_only():
            return nn.Sequential(*[nn.Linear(IN, OUT, device='meta') for _ in range(args.n)])

        t_default = best(torch_default, min(args.repeat, 3))
        t_meta = best(torch_meta, min(args.repeat, 3))
        t_meta_only = best(torch_meta_only, args.repeat)
        size_gib = os.path.getsize(gnn_path) / 2**30
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print('model: Sequential(%d × Linear(%d, %d)), %.2f GiB float32; torch %s, %d threads; '
          'warm page cache; best of %d' % (args.n, IN, OUT, size_gib, torch.__version__,
                                          torch.get_num_threads(), args.repeat))
    print()
    print('%-58s %10s %10s' % ('build + load', 'ms', 'vs Gnn'))
    ref = g['meta_assign']
    rows = [
        ('Gnn: meta construct + assign load (mmap, zero copy)', g['meta_assign']),
        ('Gnn: the same + read one byte of every page', g['meta_assign_touch']),
        ('Gnn: meta construct only', g['meta_only']),
        ('Gnn: normal construct + copy load (no new flags)', g['default']),
        ('torch: construct + torch.load + load_state_dict', t_default),
        ("torch: device='meta' + to_empty + torch.load + load", t_meta),
        ("torch: device='meta' construct only", t_meta_only),
    ]
    for name, t in rows:
        print('%-58s %10.2f %9.1f×' % (name, t * 1e3, t / ref))
    print()

    def target(name, value, goal, ok):
        print('%-58s %10.1f   target %s: %s' % (name, value, goal, 'pass' if ok else 'MISS'))
    target('Gnn meta+assign (ms)', ref * 1e3, '≤ 20', ref <= 0.020)
    target('torch default / Gnn meta+assign', t_default / ref, '≥ 50', t_default / ref >= 50)
    print('%-58s %10.1f' % ('torch meta path / Gnn meta+assign', t_meta / ref))
    print('%-58s %10.1f' % ('torch default / (Gnn meta+assign + touch every page)',
                            t_default / g['meta_assign_touch']))


if __name__ == '__main__':
    main()
