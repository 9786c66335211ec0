#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs PyTorch: one epoch of MLP training on Fashion-MNIST.

Runs build/tools/gnn-train (784-256-128-10 MLP, batch 64, SGD lr 0.01
momentum 0.9, 2 loader worker threads) and the same model, data, batch size,
optimizer and loss in PyTorch (a TensorDataset of the same normalized data,
torch's DataLoader with 2 worker processes), each in a child process, and
prints one table: seconds per epoch, test accuracy, peak RSS (ru_maxrss of
each child), the ratios, and the FLOP floor of the epoch.

    /usr/bin/python3 bench/train.py [--build-dir build] [--json FILE]

This is a benchmark, not a test: it reports pass/miss against the targets but
never fails because of a timing.
"""

import argparse
import gzip
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

import benchlib

DATA_DIR = '/usr/share/datasets/fashion-mnist'
PIXEL_MEAN, PIXEL_STD = 0.2860, 0.3530
LAYERS = [784, 256, 128, 10]
# Targets: Gnn / PyTorch
TARGET_TIME = 0.5
TARGET_RSS = 0.5
TARGET_ACCURACY_POINTS = 1.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build',
                        help='meson build directory holding tools/gnn-train (default: build)')
    parser.add_argument('--json', metavar='FILE', help='also save the results as JSON')
    parser.add_argument('--epochs', type=int, default=1, help='epochs per side (default 1; the table shows the last)')
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--lr', type=float, default=0.01)
    parser.add_argument('--workers', type=int, default=2, help='loader workers on both sides (default 2)')
    parser.add_argument('--blas-threads', type=int, default=1,
                        help='OpenBLAS threads of gnn-train and of the floors (default 1, gnn-train\'s default)')
    parser.add_argument('--torch-threads', type=int, default=0,
                        help='torch.set_num_threads of the PyTorch side (default: torch\'s own, one per CPU)')
    parser.add_argument('--seed', type=int, default=0, help='first seed (default 0)')
    parser.add_argument('--repeats', type=int, default=3,
                        help='runs per side with seeds seed, seed+1, ... (default 3): median time, '
                             'mean accuracy, largest peak RSS')
    parser.add_argument('--limit', type=int, default=0, help='train/test on the first N samples only')
    parser.add_argument('--data-dir', default=DATA_DIR)
    parser.add_argument('--no-build', action='store_true', help='do not run ninja first')
    parser.add_argument('--torch-child', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.epochs < 1 or args.batch_size < 1 or args.workers < 0 or args.limit < 0 or args.repeats < 1 \
            or args.torch_threads < 0:
        parser.error('bad --epochs, --batch-size, --workers, --limit or --repeats')
    return args


# --- the PyTorch side (runs in a child process) -------------------------------

def load_idx(path, limit):
    with gzip.open(path, 'rb') as f:
        data = f.read()
    import numpy as np
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], 'big') for i in range(ndim)]
    array = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)
    return array[:limit] if limit else array


def torch_child(args):
    """Trains like gnn-train does and prints one JSON line per epoch."""
    import numpy as np
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset

    def split(prefix):
        images = load_idx(os.path.join(args.data_dir, f'{prefix}-images-idx3-ubyte.gz'), args.limit)
        labels = load_idx(os.path.join(args.data_dir, f'{prefix}-labels-idx1-ubyte.gz'), args.limit)
        x = (images.reshape(len(images), -1).astype(np.float32) / 255.0 - PIXEL_MEAN) / PIXEL_STD
        return torch.from_numpy(x.astype(np.float32)), torch.from_numpy(labels.astype(np.int64))

    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    train_x, train_y = split('train')
    test_x, test_y = split('t10k')
    layers = []
    for i in range(len(LAYERS) - 1):
        layers.append(nn.Linear(LAYERS[i], LAYERS[i + 1]))
        if i + 2 < len(LAYERS):
            layers.append(nn.ReLU())
    model = nn.Sequential(*layers)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    generator = torch.Generator()
    generator.manual_seed(args.seed)
    loader = DataLoader(TensorDataset(train_x, train_y), batch_size=args.batch_size, shuffle=True,
                        num_workers=args.workers, generator=generator)
    for epoch in range(1, args.epochs + 1):
        model.train()
        start = time.perf_counter()
        total, loss_sum = 0, 0.0
        for x, y in loader:
            optimizer.zero_grad(set_to_none=True)
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            loss_sum += loss.item() * len(x)
            total += len(x)
        seconds = time.perf_counter() - start
        model.eval()
        correct = 0
        with torch.no_grad():
            for i in range(0, len(test_x), 1000):
                correct += (model(test_x[i:i + 1000]).argmax(1) == test_y[i:i + 1000]).sum().item()
        print(json.dumps({'epoch': epoch, 'seconds': seconds, 'samples': total,
                          'loss': loss_sum / max(total, 1),
                          'accuracy': 100.0 * correct / len(test_x),
                          'threads': torch.get_num_threads()}), flush=True)


# --- the parent -----------------------------------------------------------------

def run_measured(cmd, env=None):
    """Runs @cmd, returning (returncode, stdout, stderr, wall seconds, peak RSS MiB)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile('w+') as out, tempfile.TemporaryFile('w+') as err:
        pid = os.fork()
        if pid == 0:
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                if env is not None:
                    os.execve(cmd[0], cmd, env)
                os.execv(cmd[0], cmd)
            finally:
                os._exit(127)
        _, status, rusage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        # ru_maxrss is in KiB on Linux
        return os.waitstatus_to_exitcode(status), out.read(), err.read(), wall, rusage.ru_maxrss / 1024.0


def run_gnn(args, exe, seed, tmp):
    cmd = [os.path.abspath(exe), '--epochs', str(args.epochs), '--batch-size', str(args.batch_size),
           '--lr', str(args.lr), '--workers', str(args.workers), '--seed', str(seed),
           '--data-dir', args.data_dir, '--checkpoint', os.path.join(tmp, 'bench.safetensors'),
           '--blas-threads', str(args.blas_threads)]
    if args.limit:
        cmd += ['--limit', str(args.limit)]
    code, out, err, wall, rss = run_measured(cmd)
    if code != 0:
        sys.exit(f'train.py: {" ".join(cmd)} failed (exit {code}):\n{err}')
    times = [float(m.group(1)) for m in re.finditer(r'samples in ([0-9.]+) s', out)]
    accs = [float(m.group(1)) for m in re.finditer(r'test accuracy ([0-9.]+)%', out)]
    return {'seed': seed, 'seconds': times[-1], 'accuracy': accs[-1], 'rss_mib': rss, 'wall': wall}


def run_torch(args, seed):
    cmd = [sys.executable, os.path.abspath(__file__), '--torch-child', '--epochs', str(args.epochs),
           '--batch-size', str(args.batch_size), '--lr', str(args.lr), '--workers', str(args.workers),
           '--seed', str(seed), '--data-dir', args.data_dir, '--limit', str(args.limit),
           '--torch-threads', str(args.torch_threads)]
    code, out, err, wall, rss = run_measured(cmd)
    if code != 0:
        sys.exit(f'train.py: the PyTorch child failed (exit {code}):\n{err}')
    last = [json.loads(line) for line in out.splitlines() if line.startswith('{')][-1]
    return {'seed': seed, 'seconds': last['seconds'], 'accuracy': last['accuracy'], 'rss_mib': rss,
            'wall': wall, 'threads': last['threads']}


def gemm_flops_per_sample():
    """The GEMM arithmetic of one sample's training step: per layer x·Wᵀ and
    dyᵀ·x, and dy·W except for the first layer (the images need no
    gradient; neither side computes it)."""
    total = 0
    for i in range(len(LAYERS) - 1):
        weights = LAYERS[i] * LAYERS[i + 1]
        total += 2 * weights * (3 if i > 0 else 2)
    return total


def main():
    args = parse_args()
    if args.torch_child:
        torch_child(args)
        return
    if not os.path.exists(os.path.join(args.data_dir, 'train-images-idx3-ubyte.gz')):
        sys.exit(f'train.py: Fashion-MNIST not found in {args.data_dir} (install dataset-fashion-mnist)')
    exe = os.path.join(args.build_dir, 'tools', 'gnn-train')
    if not args.no_build:
        build = subprocess.run(['ninja', '-C', args.build_dir, 'tools/gnn-train', 'bench/bench-tensor'],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if build.returncode != 0:
            sys.exit(f'train.py: building failed:\n{build.stdout}')
    if not os.access(exe, os.X_OK):
        sys.exit(f'train.py: {exe} not found; run "meson setup {args.build_dir} && ninja -C {args.build_dir}"')

    load_before = os.getloadavg()
    runs = {'gnn': [], 'torch': [], 'gemms': []}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.repeats):
            seed = args.seed + rep
            # alternate which side goes first, so load drift hits both alike
            for side in (('gnn', 'torch') if rep % 2 == 0 else ('torch', 'gnn')):
                if side == 'gnn':
                    runs['gnn'].append(run_gnn(args, exe, seed, tmp))
                    # the GEMM floor right after each Gnn epoch: the VM's
                    # speed drifts, so floor and epoch are taken together
                    gemms = benchlib.bench_tensor(args.build_dir, args.blas_threads, 'mlp').get('mlp')
                    if gemms:
                        runs['gemms'].append(gemms['best_seconds'])
                else:
                    runs['torch'].append(run_torch(args, seed))
    load_after = os.getloadavg()

    def summary(side):
        rs = runs[side]
        return {'seconds': statistics.median(r['seconds'] for r in rs),
                'accuracy': statistics.fmean(r['accuracy'] for r in rs),
                'rss_mib': max(r['rss_mib'] for r in rs),
                'wall': statistics.median(r['wall'] for r in rs),
                'runs': rs}
    gnn, ref = summary('gnn'), summary('torch')
    ref['threads'] = runs['torch'][0]['threads']

    n_train = args.limit or 60000
    params = sum(LAYERS[i] * LAYERS[i + 1] + LAYERS[i + 1] for i in range(len(LAYERS) - 1))
    flops = gemm_flops_per_sample() * n_train
    steps = -(-n_train // args.batch_size)
    # The floors, with gnn-train's OpenBLAS threads: the arithmetic at the
    # sgemm 1024² peak (large square GEMMs: unreachable for a batch of 64),
    # and the time OpenBLAS itself takes for one step's GEMMs at this batch
    # size (bench-tensor --ops mlp) times the steps of the epoch.
    blas = benchlib.bench_tensor(args.build_dir, args.blas_threads, 'sgemm')
    blas_all = benchlib.bench_tensor(args.build_dir, os.cpu_count(), 'sgemm') if args.blas_threads != os.cpu_count() else blas
    peak = blas['sgemm']['best'] if 'sgemm' in blas else None
    peak_all = blas_all['sgemm']['best'] if 'sgemm' in blas_all else None
    floor = flops / (peak * 1e9) if peak else None
    floor_all = flops / (peak_all * 1e9) if peak_all else None
    step_gemms = statistics.median(runs['gemms']) if runs['gemms'] else None
    floor_gemms = step_gemms * steps if step_gemms else None

    time_ratio = gnn['seconds'] / ref['seconds']
    rss_ratio = gnn['rss_mib'] / ref['rss_mib']
    acc_diff = gnn['accuracy'] - ref['accuracy']

    def verdict(ok):
        return 'pass' if ok else 'MISS'

    print(f'# MLP {"-".join(map(str, LAYERS))} ({params} parameters), {n_train} samples, batch '
          f'{args.batch_size}, SGD lr {args.lr} momentum 0.9, {args.workers} loader workers, '
          f'gnn-train with {args.blas_threads} OpenBLAS thread(s); '
          f'{platform.machine()}, {os.cpu_count()} CPUs, torch threads {ref["threads"]}; '
          f'{args.repeats} run(s) per side, seeds {args.seed}..{args.seed + args.repeats - 1}')
    print(f'# load average {load_before[0]:.2f} before, {load_after[0]:.2f} after')
    for side, name in (('gnn', 'Gnn'), ('torch', 'PyTorch')):
        print(f'# {name} runs: ' + ', '.join(f'seed {r["seed"]}: {r["seconds"]:.2f} s {r["accuracy"]:.2f}%'
                                             for r in runs[side]))
    print()
    print('| metric | Gnn | PyTorch | Gnn / PyTorch | target | |')
    print('|---|---|---|---|---|---|')
    print(f'| seconds per epoch (median) | {gnn["seconds"]:.2f} | {ref["seconds"]:.2f} | {time_ratio:.2f} | '
          f'≤ {TARGET_TIME} | {verdict(time_ratio <= TARGET_TIME)} |')
    print(f'| peak RSS (MiB) | {gnn["rss_mib"]:.0f} | {ref["rss_mib"]:.0f} | {rss_ratio:.2f} | '
          f'≤ {TARGET_RSS} | {verdict(rss_ratio <= TARGET_RSS)} |')
    print(f'| test accuracy (%, mean) | {gnn["accuracy"]:.2f} | {ref["accuracy"]:.2f} | {acc_diff:+.2f} points | '
          f'± {TARGET_ACCURACY_POINTS} | {verdict(abs(acc_diff) <= TARGET_ACCURACY_POINTS)} |')
    print(f'| process wall time (s) | {gnn["wall"]:.2f} | {ref["wall"]:.2f} | {gnn["wall"] / ref["wall"]:.2f} | — | |')
    if floor:
        best = min(r['seconds'] for r in runs['gnn'])

        def at(f):
            return f'Gnn at {f / gnn["seconds"]:.0%} of it (best run {f / best:.0%})'
        print(f'| FLOP floor, {args.blas_threads} BLAS thread(s) (s) | {floor:.2f} | | {at(floor)} | — | |')
        if floor_all and floor_all != floor:
            print(f'| FLOP floor, {os.cpu_count()} BLAS threads (s) | {floor_all:.2f} | | {at(floor_all)} | — | |')
        if floor_gemms:
            # each Gnn epoch against the GEMM floor measured right after it
            paired = statistics.median(g * steps / r['seconds'] for g, r in zip(runs['gemms'], runs['gnn']))
            print(f'| OpenBLAS on the epoch\'s GEMMs (s) | {floor_gemms:.2f} | | Gnn at {paired:.0%} of it '
                  f'(median of the runs, each against its own floor) | ≥ 80% | {verdict(paired >= 0.8)} |')
        print()
        print(f'FLOP floor: the epoch\'s GEMM arithmetic ({gemm_flops_per_sample()} FLOP per sample: per layer '
              f'x·Wᵀ and dyᵀ·x, dy·W except for the first layer) × {n_train} samples = '
              f'{flops / 1e9:.1f} GFLOP at the sgemm 1024² peak of bench-tensor: {peak:.1f} GFLOP/s with '
              f'{args.blas_threads} thread(s)' + (f', {peak_all:.1f} with {os.cpu_count()}' if peak_all else '') + '.')
        if floor_gemms:
            print(f'OpenBLAS on the epoch\'s GEMMs: bench-tensor --ops mlp (one step\'s 8 GEMMs at batch '
                  f'{args.batch_size}, results allocated as in training), run after each Gnn epoch: median '
                  f'{step_gemms * 1e6:.0f} µs (runs ' + ', '.join(f'{t * 1e6:.0f}' for t in runs['gemms'])
                  + f') × {steps} steps.')
    results = {'gnn': gnn, 'torch': ref, 'time_ratio': time_ratio, 'rss_ratio': rss_ratio,
               'accuracy_points': acc_diff, 'flops': flops, 'sgemm_gflops': peak, 'floor_seconds': floor,
               'floor_all_threads_seconds': floor_all, 'gemm_floor_seconds': floor_gemms,
               'gemm_step_seconds': runs['gemms'],
               'blas_threads': args.blas_threads,
               'load_before': load_before, 'load_after': load_after, 'samples': n_train}
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=2)


if __name__ == '__main__':
    main()
