#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs PyTorch: a DCGAN training step (generator + discriminator) and
the generator's forward.

Runs build/bench/bench-dcgan (Gnn, C) and the same model, batch, losses and
optimizers in PyTorch (torch 1.13: its convolutions, transposed ones
included, go through oneDNN), each in a child process with the same thread
count (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and torch.set_num_threads all
set to --threads; bench-dcgan calls gnn_set_num_threads with it), --repeats
times alternating the order, and prints one table of seconds per step
(medians) and Gnn / PyTorch ratios, with the load average.

    /usr/bin/python3 bench/dcgan.py [--build-dir build] [--steps 5] [--batch-size 64] [--threads 1]

The model is PyTorch's examples/dcgan at 64x64 (see bench-dcgan.c for the
two departures both sides share: ReLU for LeakyReLU in D, and
BCEWithLogitsLoss for Sigmoid + BCELoss). This is a benchmark, not a test:
it never fails on a timing.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

TARGET = 1.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--steps', type=int, default=5, help='timed training steps per run (default 5)')
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--threads', type=int, default=1,
                        help='threads on both sides (OpenBLAS, OpenMP, torch; default 1)')
    parser.add_argument('--repeats', type=int, default=3, help='runs per side (default 3): medians are shown')
    parser.add_argument('--json', metavar='FILE', help='also save the results as JSON')
    parser.add_argument('--no-build', action='store_true', help='do not run ninja first')
    parser.add_argument('--torch-child', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.steps < 1 or args.batch_size < 1 or args.threads < 1 or args.repeats < 1:
        parser.error('bad --steps, --batch-size, --threads or --repeats')
    return args


# --- the PyTorch side (a child process) -------------------------------------------

def torch_child(args):
    import torch
    from torch import nn

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    nz, ngf, ndf, nc, bs = 100, 64, 64, 3, args.batch_size

    def weights_init(m):
        if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
            nn.init.normal_(m.weight, 0.0, 0.02)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.normal_(m.weight, 1.0, 0.02)
            nn.init.zeros_(m.bias)

    netG = nn.Sequential(
        nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 8), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
        nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
        nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())
    netD = nn.Sequential(
        nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.ReLU(True),
        nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.ReLU(True),
        nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 4), nn.ReLU(True),
        nn.Conv2d(ndf * 4, ndf * 8, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 8), nn.ReLU(True),
        nn.Conv2d(ndf * 8, 1, 4, 1, 0, bias=False))
    netG.apply(weights_init)
    netD.apply(weights_init)
    criterion = nn.BCEWithLogitsLoss()
    optD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
    real = torch.rand(bs, nc, 64, 64) * 2 - 1
    noise = torch.randn(bs, nz, 1, 1)
    ones, zeros = torch.ones(bs), torch.zeros(bs)

    def train_step():
        netD.zero_grad(set_to_none=True)
        err_real = criterion(netD(real).view(-1), ones)
        err_real.backward()
        noise.normal_(0, 1)
        fake = netG(noise)
        err_fake = criterion(netD(fake.detach()).view(-1), zeros)
        err_fake.backward()
        optD.step()
        netG.zero_grad(set_to_none=True)
        err_g = criterion(netD(fake).view(-1), ones)
        err_g.backward()
        optG.step()
        return (err_real + err_fake).item(), err_g.item()

    netG.train()
    netD.train()
    train_step()
    start = time.perf_counter()
    for _ in range(args.steps):
        loss_d, loss_g = train_step()
    train_s = time.perf_counter() - start
    netG.eval()
    with torch.no_grad():
        netG(noise)
        start = time.perf_counter()
        for _ in range(args.steps):
            netG(noise)
        gen_s = time.perf_counter() - start
    print(json.dumps({'train': train_s, 'generate': gen_s, 'loss_d': loss_d, 'loss_g': loss_g,
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
        sys.exit(f'dcgan.py: {" ".join(cmd)} failed (exit {proc.returncode}):\n{proc.stderr}')
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith('{')]


def run_gnn(args, exe):
    records = run([exe, '--steps', str(args.steps), '--batch-size', str(args.batch_size)], child_env(args))
    info = next(r for r in records if r['type'] == 'info')
    result = {r['case']: r for r in records if r['type'] == 'result'}
    return {'train': result['train']['seconds'], 'generate': result['generate']['seconds'],
            'loss_d': result['train']['loss_d'], 'loss_g': result['train']['loss_g'],
            'threads': info['threads'], 'openblas_threads': info['openblas_threads']}


def run_torch(args):
    cmd = [sys.executable, os.path.abspath(__file__), '--torch-child', '--steps', str(args.steps),
           '--batch-size', str(args.batch_size), '--threads', str(args.threads)]
    return run(cmd, child_env(args))[-1]


def main():
    args = parse_args()
    if args.torch_child:
        torch_child(args)
        return
    exe = os.path.abspath(os.path.join(args.build_dir, 'bench', 'bench-dcgan'))
    if not args.no_build:
        build = subprocess.run(['ninja', '-C', args.build_dir, 'bench/bench-dcgan'],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if build.returncode != 0:
            sys.exit(f'dcgan.py: building failed:\n{build.stdout}')

    load_before = os.getloadavg()
    runs = {'gnn': [], 'torch': []}
    for rep in range(args.repeats):
        # alternate which side goes first, so load drift hits both alike
        for side in (('gnn', 'torch') if rep % 2 == 0 else ('torch', 'gnn')):
            runs[side].append(run_gnn(args, exe) if side == 'gnn' else run_torch(args))
    load_after = os.getloadavg()

    per_step = {side: {case: statistics.median(r[case] for r in runs[side]) / args.steps
                       for case in ('train', 'generate')} for side in runs}
    print(f'# DCGAN 64x64 (nz 100, ngf = ndf = 64), batch {args.batch_size}, {args.steps} steps per run; '
          f'{platform.machine()}, {os.cpu_count()} CPUs')
    print(f'# threads: Gnn {runs["gnn"][0]["threads"]} (gnn_set_num_threads: one pool, OpenBLAS '
          f'{runs["gnn"][0]["openblas_threads"]}), torch {runs["torch"][0]["threads"]} '
          f'(OPENBLAS_NUM_THREADS=OMP_NUM_THREADS={args.threads})')
    print(f'# load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; '
          f'{args.repeats} run(s) per side, medians')
    for side, name in (('gnn', 'Gnn'), ('torch', 'PyTorch')):
        print(f'# {name} runs (s per step): ' + ', '.join(
            f'train {r["train"] / args.steps:.3f} generate {r["generate"] / args.steps:.3f}' for r in runs[side]))
    print()
    print('| step | Gnn s | PyTorch s | Gnn / PyTorch | target | |')
    print('|---|---|---|---|---|---|')
    for case, name in (('train', 'training step (D real + fake, G)'), ('generate', 'generator forward (eval)')):
        g, t = per_step['gnn'][case], per_step['torch'][case]
        ratio = g / t
        target = f'≤ {TARGET}' if case == 'train' else '—'
        verdict = ('pass' if ratio <= TARGET else 'MISS') if case == 'train' else ''
        print(f'| {name} | {g:.3f} | {t:.3f} | {ratio:.2f} | {target} | {verdict} |')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'runs': runs, 'per_step': per_step, 'steps': args.steps, 'batch_size': args.batch_size,
                       'threads': args.threads, 'load_before': load_before, 'load_after': load_after},
                      f, indent=2)


if __name__ == '__main__':
    main()
