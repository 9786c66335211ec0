#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs libtorch C++ vs PyTorch: the CNN of gnn-train --model cnn, training and forward-only.

Runs build/bench/bench-cnn (Gnn), build/bench/bench-libtorch cnn (the same in
torch's C++ API, when libtorch-dev was installed at configure time) and the
same model, data, batch size, loss and optimizer in PyTorch (torch 1.13: its convolutions go through oneDNN),
each in a child process with the same thread count (OPENBLAS_NUM_THREADS,
OMP_NUM_THREADS and torch.set_num_threads all set to --threads; bench-cnn
calls gnn_set_num_threads with it unless --openblas-pool), and prints
one table: seconds for --batches batches of training (zero_grad, forward,
CrossEntropyLoss, backward, SGD momentum step) and of forward passes (eval,
no grad), the per-epoch extrapolation (60000 / batch size batches), and
Gnn / PyTorch ratios.

    /usr/bin/python3 bench/cnn.py [--build-dir build] [--batches 200] [--threads 1]

The batches are the first --batches × --batch-size Fashion-MNIST training
images in order (no shuffling, no data loader: bench/data.py measures the
loaders). This is a benchmark, not a test: it never fails on a timing.
"""

import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import benchlib

DATA_DIR = '/usr/share/datasets/fashion-mnist'
PIXEL_MEAN, PIXEL_STD = 0.2860, 0.3530
N_TRAIN = 60000
TARGET_TIME = 0.5
# GEMM FLOPs per sample of (conv1, conv2, fc1, fc2): 2 × outputs × fan-in,
# the arithmetic of direct / im2col convolution (Winograd F(4×4, 3×3), which
# Gnn uses for conv2 at batch 64, needs 3.06× fewer multiplies on its 14×14
# maps, 16 tiles of 36: it can run below this "floor")
LAYER_FLOPS = (2 * 32 * 28 * 28 * 9, 2 * 64 * 14 * 14 * 32 * 9, 2 * 128 * 3136, 2 * 10 * 128)
# the backward doubles each layer (input and weight gradients) except conv1,
# whose input (the images) needs no gradient
FORWARD_FLOPS = sum(LAYER_FLOPS)
TRAIN_FLOPS = FORWARD_FLOPS + LAYER_FLOPS[0] + 2 * sum(LAYER_FLOPS[1:])


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--batches', type=int, default=200,
                        help='batches to time per pass (default 200; 0: the whole epoch)')
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--threads', type=int, default=1,
                        help='threads on both sides (OpenBLAS, OpenMP, torch; default 1)')
    parser.add_argument('--repeats', type=int, default=3, help='runs per side (default 3): the median is shown')
    parser.add_argument('--data-dir', default=DATA_DIR)
    parser.add_argument('--openblas-pool', action='store_true',
                        help="Gnn without gnn_set_num_threads: its products on OpenBLAS's own threads")
    parser.add_argument('--json', metavar='FILE', help='also save the results as JSON')
    parser.add_argument('--no-build', action='store_true', help='do not run ninja first')
    parser.add_argument('--torch-child', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.batches < 0 or args.batch_size < 1 or args.threads < 1 or args.repeats < 1:
        parser.error('bad --batches, --batch-size, --threads or --repeats')
    max_batches = N_TRAIN // args.batch_size
    args.batches = min(args.batches or max_batches, max_batches)
    return args


# --- the PyTorch side (a child process) -------------------------------------------

def load_images(args, n):
    import numpy as np
    with gzip.open(os.path.join(args.data_dir, 'train-images-idx3-ubyte.gz'), 'rb') as f:
        images = np.frombuffer(f.read(), dtype=np.uint8, offset=16).reshape(-1, 1, 28, 28)[:n]
    with gzip.open(os.path.join(args.data_dir, 'train-labels-idx1-ubyte.gz'), 'rb') as f:
        labels = np.frombuffer(f.read(), dtype=np.uint8, offset=8)[:n]
    x = (images.astype(np.float32) / 255.0 - PIXEL_MEAN) / PIXEL_STD
    return x.astype(np.float32), labels.astype(np.int64)


def torch_child(args):
    import torch
    from torch import nn

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    nb, bs = args.batches, args.batch_size
    x, y = load_images(args, nb * bs)
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    model = nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(inplace=True),
        nn.Conv2d(32, 64, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(inplace=True),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(inplace=True), nn.Linear(128, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()

    def train_step(i):
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x[i * bs:(i + 1) * bs]), y[i * bs:(i + 1) * bs])
        loss.backward()
        optimizer.step()
        return loss.item()

    model.train()
    train_step(0)
    start = time.perf_counter()
    loss = sum(train_step(i) for i in range(nb)) / nb
    train_s = time.perf_counter() - start
    model.eval()
    with torch.no_grad():
        model(x[:bs])
        start = time.perf_counter()
        for i in range(nb):
            model(x[i * bs:(i + 1) * bs])
        fwd_s = time.perf_counter() - start
    print(json.dumps({'train': train_s, 'forward': fwd_s, 'loss': loss,
                      'threads': torch.get_num_threads()}), flush=True)


# --- the parent -----------------------------------------------------------------------

def child_env(args):
    env = dict(os.environ)
    for name in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
        env[name] = str(args.threads)
    return env


def run(cmd, env):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f'cnn.py: {" ".join(cmd)} failed (exit {proc.returncode}):\n{proc.stderr}')
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith('{')]


def run_gnn(args, exe):
    records = run([exe, '--batches', str(args.batches), '--batch-size', str(args.batch_size),
                   '--data-dir', args.data_dir] + (['--openblas-pool'] if args.openblas_pool else []),
                  child_env(args))
    info = next(r for r in records if r['type'] == 'info')
    result = {r['case']: r for r in records if r['type'] == 'result'}
    return {'train': result['train']['seconds'], 'forward': result['forward']['seconds'],
            'loss': result['train']['loss'], 'threads': info['threads'],
            'openblas_threads': info['openblas_threads']}


def run_libtorch(args, exe):
    records = run([exe, 'cnn', '--batches', str(args.batches), '--batch-size', str(args.batch_size),
                   '--data-dir', args.data_dir], child_env(args))
    info = next(r for r in records if r['type'] == 'info')
    result = {r['case']: r for r in records if r['type'] == 'result'}
    return {'train': result['train']['seconds'], 'forward': result['forward']['seconds'],
            'loss': result['train']['loss'], 'threads': info['threads']}


def run_torch(args):
    cmd = [sys.executable, os.path.abspath(__file__), '--torch-child', '--batches', str(args.batches),
           '--batch-size', str(args.batch_size), '--threads', str(args.threads), '--data-dir', args.data_dir]
    return run(cmd, child_env(args))[-1]


def main():
    args = parse_args()
    if args.torch_child:
        torch_child(args)
        return
    if not os.path.exists(os.path.join(args.data_dir, 'train-images-idx3-ubyte.gz')):
        sys.exit(f'cnn.py: Fashion-MNIST not found in {args.data_dir} (install dataset-fashion-mnist)')
    exe = os.path.abspath(os.path.join(args.build_dir, 'bench', 'bench-cnn'))
    if not args.no_build:
        build = subprocess.run(['ninja', '-C', args.build_dir, 'bench/bench-cnn', 'bench/bench-tensor'],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if build.returncode != 0:
            sys.exit(f'cnn.py: building failed:\n{build.stdout}')

    for name in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS'):
        os.environ[name] = str(args.threads)
    peak = benchlib.bench_tensor(args.build_dir, args.threads, 'sgemm').get('sgemm', {}).get('best')

    cpp_exe = benchlib.libtorch_driver(args)
    load_before = os.getloadavg()
    sides = ['gnn'] + (['libtorch'] if cpp_exe else []) + ['torch']
    runs = {side: [] for side in sides}
    for rep in range(args.repeats):
        # alternate which side goes first, so load drift hits all alike
        for side in (sides if rep % 2 == 0 else sides[::-1]):
            runs[side].append(run_gnn(args, exe) if side == 'gnn' else
                              run_libtorch(args, cpp_exe) if side == 'libtorch' else run_torch(args))
    load_after = os.getloadavg()

    med = {side: {case: statistics.median(r[case] for r in runs[side]) for case in ('train', 'forward')}
           for side in runs}
    scale = (N_TRAIN // args.batch_size) / args.batches
    print(f'# CNN of gnn-train --model cnn, batch {args.batch_size}, {args.batches} batches timed '
          f'(epoch = {N_TRAIN // args.batch_size} batches: x{scale:.1f}); {platform.machine()}, '
          f'{os.cpu_count()} CPUs')
    gnn_run = runs["gnn"][0]
    print(f'# threads: Gnn {gnn_run["threads"]} ('
          + ("OpenBLAS's own threads for products" if args.openblas_pool else 'gnn_set_num_threads: one pool')
          + f', OpenBLAS {gnn_run["openblas_threads"]}), torch {runs["torch"][0]["threads"]} '
          f'(OPENBLAS_NUM_THREADS=OMP_NUM_THREADS={args.threads})')
    print('# libtorch C++: ' + (f'{cpp_exe}, torch.get_num_threads() {runs["libtorch"][0]["threads"]}'
                                if cpp_exe else 'not built (install libtorch-dev and reconfigure)'))
    print(f'# load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; '
          f'{args.repeats} run(s) per side, medians')
    for side, name in (('gnn', 'Gnn'), ('libtorch', 'libtorch C++'), ('torch', 'PyTorch')):
        if side not in runs:
            continue
        print(f'# {name} runs: ' + ', '.join(f'train {r["train"]:.2f} s forward {r["forward"]:.2f} s '
                                             f'loss {r["loss"]:.4f}' for r in runs[side]))
    print()
    print('| pass | Gnn s | libtorch C++ s | PyTorch s | Gnn epoch s | PyTorch epoch s | Gnn / PyTorch | '
          'Gnn / C++ | FLOP floor epoch s | target | |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    floors = {}
    for case, name, flops in (('forward', 'forward only (eval, no grad)', FORWARD_FLOPS),
                              ('train', 'training', TRAIN_FLOPS)):
        g, t = med['gnn'][case], med['torch'][case]
        ratio = g / t
        floors[case] = flops * N_TRAIN / (peak * 1e9) if peak else None
        floor = f'{floors[case]:.2f}' if peak else '—'
        target = f'≤ {TARGET_TIME}' if case == 'train' else '—'
        verdict = ('pass' if ratio <= TARGET_TIME else 'MISS') if case == 'train' else ''
        cpp = med['libtorch'][case] if 'libtorch' in med else None
        cpp_s, cpp_ratio = (f'{cpp:.3f}', f'{g / cpp:.2f}') if cpp else ('—', '—')
        print(f'| {name} | {g:.3f} | {cpp_s} | {t:.3f} | {g * scale:.2f} | {t * scale:.2f} | {ratio:.2f} | '
              f'{cpp_ratio} | {floor} | {target} | {verdict} |')
    if peak:
        print()
        print(f'FLOP floor: {FORWARD_FLOPS / 1e6:.2f} MFLOP per sample forward, {TRAIN_FLOPS / 1e6:.2f} '
              f'training, × {N_TRAIN} samples at the sgemm peak {peak:.1f} GFLOP/s (bench-tensor, 1024², '
              f'{args.threads} thread(s)); the training floor is {floors["train"] / (med["torch"]["train"] * scale):.2f}'
              f' × PyTorch\'s epoch (direct-convolution arithmetic; Gnn\'s Winograd conv2 needs 3.06× fewer multiplies).')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'runs': runs, 'median': med, 'batches': args.batches, 'batch_size': args.batch_size,
                       'threads': args.threads, 'sgemm_gflops': peak, 'floors': floors,
                       'load_before': load_before, 'load_after': load_after},
                      f, indent=2)


if __name__ == '__main__':
    main()
