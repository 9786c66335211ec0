#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs libtorch C++ vs PyTorch: torchvision's ResNet-18, training and batch-1 inference.

Runs build/bench/bench-resnet (Gnn's gnn_vision_resnet18), build/bench/bench-libtorch
resnet (the same layout written against torch's C++ API; skipped when it was not
built) and torchvision.models.resnet18() in PyTorch, each in a child process with
the same thread count (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, torch.set_num_threads),
alternating which side goes first, and prints one table of median step times:

    /usr/bin/python3 bench/resnet.py [--build-dir build] [--threads 1 2] [--steps 5] [--repeats 2]

The cases: an SGD step (lr 0.01, momentum 0.9, CrossEntropyLoss, 1000 classes) at
batch 16 of 64×64 and at batch 8 of 224×224, and the forward of one 224×224 image in
eval mode without gradients. Targets (issue 30): training ≤ 1.0× PyTorch's time,
batch-1 inference ≤ 0.8×. A benchmark, not a test: it never fails on a timing.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import benchlib

# name -> (driver case, batch, size, label, target Gnn / PyTorch)
CASES = {
    'train16x64': ('train', 16, 64, 'training step, batch 16, 64×64', 1.0),
    'train8x224': ('train', 8, 224, 'training step, batch 8, 224×224', 1.0),
    'infer1x224': ('infer', 1, 224, 'inference, batch 1, 224×224', 0.8),
}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--cases', default=','.join(CASES), help='comma-separated (default: all)')
    parser.add_argument('--threads', type=int, nargs='+', default=[1, 2])
    parser.add_argument('--steps', type=int, default=5, help='timed steps per run after one untimed (default 5)')
    parser.add_argument('--repeats', type=int, default=2, help='runs per side (default 2); medians of the runs\' medians')
    parser.add_argument('--json', metavar='FILE')
    parser.add_argument('--no-build', action='store_true', help='do not run ninja first')
    parser.add_argument('--torch-child', metavar='CASE', help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.cases = [c for c in args.cases.split(',') if c]
    if any(c not in CASES for c in args.cases):
        parser.error(f'known cases: {", ".join(CASES)}')
    if args.steps < 1 or args.repeats < 1 or min(args.threads) < 1:
        parser.error('--steps, --repeats and --threads must be positive')
    return args


def torch_child(args):
    """The PyTorch side of one case, in its own process."""
    import torch
    import torchvision

    kind, batch, size, _, _ = CASES[args.torch_child]
    torch.set_num_threads(args.threads[0])
    torch.manual_seed(0)
    model = torchvision.models.resnet18()
    x = torch.randn(batch, 3, size, size)
    y = torch.arange(batch).mul(37).remainder(1000)
    times, losses = [], []
    if kind == 'train':
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        criterion = torch.nn.CrossEntropyLoss()
        model.train()
        for s in range(args.steps + 1):
            start = time.perf_counter()
            optimizer.zero_grad(set_to_none=True)
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            value = loss.item()
            if s:
                times.append(time.perf_counter() - start)
                losses.append(value)
    else:
        model.eval()
        with torch.no_grad():
            for s in range(args.steps + 1):
                start = time.perf_counter()
                model(x)
                if s:
                    times.append(time.perf_counter() - start)
    print(json.dumps({'type': 'result', 'best_seconds': min(times), 'median_seconds': statistics.median(times),
                      'loss': statistics.fmean(losses) if losses else 0.0,
                      'threads': torch.get_num_threads()}), flush=True)


def run(cmd, threads):
    """One child's last JSON line, with its peak resident set (wait4's ru_maxrss, the
    kernel's VmHWM: the model, the step's activations and every library the side loads,
    Python and torch's for PyTorch) as 'peak_rss_mib'."""
    env = dict(os.environ)
    for name in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
        env[name] = str(threads)
    records, peak_mib = benchlib.run_child(cmd, env, 'resnet.py')
    result = records[-1]
    result['peak_rss_mib'] = peak_mib
    return result


def side_cmd(side, args, case, threads, exes):
    kind, batch, size, _, _ = CASES[case]
    common = ['--case', kind, '--batch', str(batch), '--size', str(size), '--steps', str(args.steps)]
    if side == 'gnn':
        return [exes['gnn']] + common
    if side == 'libtorch':
        return [exes['libtorch'], 'resnet'] + common
    return [sys.executable, os.path.abspath(__file__), '--torch-child', case, '--threads', str(threads),
            '--steps', str(args.steps)]


def main():
    args = parse_args()
    if args.torch_child:
        torch_child(args)
        return
    bench = os.path.join(args.build_dir, 'bench')
    exes = {'gnn': os.path.abspath(os.path.join(bench, 'bench-resnet'))}
    if not args.no_build:
        targets = ['bench/bench-resnet']
        build = subprocess.run(['ninja', '-C', args.build_dir] + targets,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if build.returncode != 0:
            sys.exit(f'resnet.py: building failed:\n{build.stdout}')
    exes['libtorch'] = benchlib.libtorch_driver(args)
    sides = ['gnn'] + (['libtorch'] if exes['libtorch'] else []) + ['torch']

    load_before = os.getloadavg()
    results = {}
    for threads in args.threads:
        for case in args.cases:
            runs = {side: [] for side in sides}
            for rep in range(args.repeats):
                order = sides if rep % 2 == 0 else sides[::-1]
                for side in order:
                    print(f'{case} threads {threads} run {rep + 1}: {side}', file=sys.stderr, flush=True)
                    runs[side].append(run(side_cmd(side, args, case, threads, exes), threads))
            results[(case, threads)] = runs
    load_after = os.getloadavg()

    print(f'# ResNet-18 (torchvision layout, 1000 classes) on {platform.machine()}, {os.cpu_count()} CPUs; '
          f'{args.steps} timed steps per run after one untimed, {args.repeats} run(s) per side, medians')
    print(f'# load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} before, '
          f'{load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} after')
    if 'libtorch' not in sides:
        print('# libtorch C++: not built (install libtorch-dev and reconfigure)')
    print()
    print('| case | threads | Gnn ms | libtorch C++ ms | PyTorch ms | Gnn / PyTorch | Gnn / C++ | target | |')
    print('|---|---|---|---|---|---|---|---|---|')
    rows = []
    peaks = []
    for (case, threads), runs in results.items():
        med = {side: statistics.median(r['median_seconds'] for r in runs[side]) for side in runs}
        peak = {side: max(r['peak_rss_mib'] for r in runs[side]) for side in runs}
        peaks.append((CASES[case][3], threads, peak))
        _, _, _, label, target = CASES[case]
        ratio = med['gnn'] / med['torch']
        cpp = med.get('libtorch')
        rows.append({'case': case, 'threads': threads, 'median_seconds': med, 'ratio': ratio,
                     'peak_rss_mib': peak, 'runs': runs})
        cpp_ms = f'{cpp * 1e3:.1f}' if cpp else '—'
        cpp_ratio = f'{med["gnn"] / cpp:.2f}' if cpp else '—'
        print(f'| {label} | {threads} | {med["gnn"] * 1e3:.1f} | {cpp_ms} | {med["torch"] * 1e3:.1f} | '
              f'{ratio:.2f} | {cpp_ratio} | ≤ {target} | {"pass" if ratio <= target else "MISS"} |')
    print()
    print('Peak resident set of each side\'s process (MiB, the largest of its runs; target for training: '
          'Gnn ≤ 0.8× PyTorch)')
    print()
    print('| case | threads | Gnn MiB | libtorch C++ MiB | PyTorch MiB | Gnn / PyTorch | Gnn / C++ |')
    print('|---|---|---|---|---|---|---|')
    for label, threads, peak in peaks:
        cpp = peak.get('libtorch')
        cpp_mib = f'{cpp:.0f}' if cpp else '—'
        cpp_ratio = f'{peak["gnn"] / cpp:.2f}' if cpp else '—'
        print(f'| {label} | {threads} | {peak["gnn"]:.0f} | {cpp_mib} | {peak["torch"]:.0f} | '
              f'{peak["gnn"] / peak["torch"]:.2f} | {cpp_ratio} |')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'rows': rows, 'load_before': load_before, 'load_after': load_after,
                       'steps': args.steps, 'repeats': args.repeats}, f, indent=2)


if __name__ == '__main__':
    main()
