#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs PyTorch: TransformerEncoder (6 layers, d_model 512, 8 heads,
dim_feedforward 2048, seq 128, batch 16) forward and training step, and the
batch-1 inference of one encoder layer.

Each side runs in a child process with the same thread count
(OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, torch.set_num_threads and
gnn.set_num_threads all --threads). Gnn runs through its Python package
(`import gnn as torch`: the same program as torch's; every forward,
backward and step is one call into C). Cases:

- forward: eval mode, no grad, the whole encoder on (128, 16, 512);
- train: zero_grad, forward (train mode, dropout 0.1), loss mean(out²),
  backward, SGD step;
- layer-b1: eval, no grad, one TransformerEncoderLayer(512, 8) on
  (16, 1, 512) — the per-call overhead of a real layer.

Prints the median seconds per call of each side, the ratio Gnn / PyTorch
(lower is better) and the load average. A benchmark, not a test.

    /usr/bin/python3 bench/transformer.py [--build-dir build] [--threads 1] [--repeats 3]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

TARGETS = {'forward': 1.0, 'train': 1.0, 'layer-b1': 1 / 3}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--repeats', type=int, default=3, help='runs per side (median shown)')
    parser.add_argument('--steps', type=int, default=3, help='timed calls of the big cases per run')
    parser.add_argument('--child', choices=('gnn', 'torch'), help=argparse.SUPPRESS)
    return parser.parse_args()


def child(args):
    if args.child == 'gnn':
        import gnn as torch
        import gnn.nn as nn
    else:
        import torch
        import torch.nn as nn
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(512, 8, 2048, 0.1)
    model = nn.TransformerEncoder(layer, 6)
    x = torch.randn(128, 16, 512)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
    result = {}

    def timed(fn, n):
        fn()
        start = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - start) / n

    def train_step():
        optimizer.zero_grad()
        out = model(x)
        loss = (out * out).mean()
        loss.backward()
        optimizer.step()

    model.train()
    result['train'] = timed(train_step, args.steps)
    model.eval()
    with torch.no_grad():
        result['forward'] = timed(lambda: model(x), args.steps)
        one = nn.TransformerEncoderLayer(512, 8)
        one.eval()
        x1 = torch.randn(16, 1, 512)
        result['layer-b1'] = timed(lambda: one(x1), 200)
    print(json.dumps(result), flush=True)


def run_side(args, side):
    env = dict(os.environ)
    for name in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
        env[name] = str(args.threads)
    if side == 'gnn':
        b = os.path.abspath(args.build_dir)
        env.update(GI_TYPELIB_PATH=os.path.join(b, 'gir'), LD_LIBRARY_PATH=os.path.join(b, 'lib'),
                   PYTHONPATH=os.path.join(b, 'gir', 'python'))
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), '--child', side,
                           '--threads', str(args.threads), '--steps', str(args.steps)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f'transformer.py: the {side} side failed:\n{proc.stderr}')
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    args = parse_args()
    if args.child:
        child(args)
        return
    load_before = os.getloadavg()
    runs = {'gnn': [], 'torch': []}
    for rep in range(args.repeats):
        for side in (('gnn', 'torch') if rep % 2 == 0 else ('torch', 'gnn')):
            runs[side].append(run_side(args, side))
    load_after = os.getloadavg()
    print(f'# TransformerEncoder 6 x (512, 8 heads, ff 2048), seq 128, batch 16; {platform.machine()}, '
          f'{os.cpu_count()} CPUs, {args.threads} thread(s) each side')
    print(f'# load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; '
          f'{args.repeats} run(s) per side, medians')
    print()
    print('| case | Gnn s | PyTorch s | Gnn / PyTorch | target |')
    print('|------|-------|-----------|---------------|--------|')
    for case, target in TARGETS.items():
        g = statistics.median(r[case] for r in runs['gnn'])
        t = statistics.median(r[case] for r in runs['torch'])
        ok = 'met' if g / t <= target else 'missed'
        print(f'| {case} | {g:.4f} | {t:.4f} | {g / t:.2f} | ≤ {target:.2f} ({ok}) |')


if __name__ == '__main__':
    main()
