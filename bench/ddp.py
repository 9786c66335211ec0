#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn DistributedDataParallel vs torch DDP (gloo), and all_reduce bandwidth.

Runs, in one go, under mpirun on this machine:
  * MLP (784-256-128-10) and CNN (the gnn-train models) SGD steps on
    synthetic Fashion-MNIST-shaped batches of 64 per rank: 1 rank without DDP,
    2 independent ranks without DDP (what this machine gives two processes
    that never communicate: the ceiling of any DDP) and 2 ranks with DDP, in
    Gnn (build/bench/bench-ddp) and in torch 1.13 (this script as a worker;
    gloo, the only backend of Debian's torch); every rank uses one
    BLAS/intra-op thread; each row is the best of --repeats runs, the runs
    of all rows interleaved;
  * all_reduce of float32 tensors from 1 KiB to 64 MiB on 2 ranks: Gnn's
    all_reduce + wait against MPI_Allreduce called directly (the engine's
    limit), as algbw = bytes / seconds.

    /usr/bin/python3 bench/ddp.py [--build-dir build] [--repeats 3] [--json FILE]

A benchmark, not a test: it reports pass/miss against the targets and never
fails because of a timing. Throughput is samples/s over all ranks.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402

TARGET_SPEEDUP = 1.8        # 2-rank / 1-rank samples/s
TARGET_VS_TORCH = 1.5       # Gnn DDP / torch DDP samples/s
TARGET_ALLREDUCE = 0.9      # Gnn / raw MPI bandwidth at >= 1 MiB
STEPS = {'mlp': 1000, 'cnn': 30}
BATCH = 64


def mpirun(np_, argv):
    exe = shutil.which('mpirun')
    if exe is None:
        sys.exit('ddp.py: mpirun not found (install openmpi-bin)')
    # Each rank bound to its core (mpirun's default for 2 ranks; unbound
    # ranks with their communication threads let the scheduler stack busy
    # threads on one core: runs then scatter by 2x). Open MPI picks its
    # shared-memory copy mechanism itself (CMA's single copy where the kernel
    # allows it; tests/mpi forces none for containers).
    cmd = [exe, '-np', str(np_), '--bind-to', 'core'] + argv
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
               OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1')
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        sys.exit('ddp.py: %s failed:\n%s%s' % (' '.join(argv), proc.stdout, proc.stderr))
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith('{')]


# --- torch worker (a rank of `mpirun python3 ddp.py --torch-worker ...`) -------

def torch_worker(model_name, steps, use_ddp, grad_view=False):
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.set_num_threads(1)
    rank = int(os.environ.get('OMPI_COMM_WORLD_RANK', '0'))
    world = int(os.environ.get('OMPI_COMM_WORLD_SIZE', '1'))
    nn = torch.nn
    if model_name == 'cnn':
        model = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(True),
                              nn.Conv2d(32, 64, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(True),
                              nn.Flatten(), nn.Linear(3136, 128), nn.ReLU(True), nn.Linear(128, 10))
        x = torch.randn(BATCH, 1, 28, 28)
    else:
        model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(True), nn.Linear(256, 128), nn.ReLU(True),
                              nn.Linear(128, 10))
        x = torch.randn(BATCH, 784)
    y = torch.tensor([(i * 7 + rank) % 10 for i in range(BATCH)])
    # Independent ranks (world > 1, no DDP) start together closely enough:
    # they import torch at the same time; rank 0's pace stands for each.
    if use_ddp:
        os.environ.setdefault('MASTER_ADDR', '127.0.0.1')
        dist.init_process_group('gloo', rank=rank, world_size=world)
        model = DDP(model, gradient_as_bucket_view=grad_view)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    start = 0.0
    for s in range(-3, steps):
        if s == 0:
            if use_ddp:
                dist.barrier()
            start = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        opt.step()
    if use_ddp:
        dist.barrier()
    secs = time.perf_counter() - start

    if rank == 0:
        print(json.dumps({'kind': 'train', 'model': model_name, 'ranks': world, 'ddp': use_ddp,
                          'steps': steps, 'seconds': secs, 'steps_per_s': steps / secs,
                          'samples_per_s': steps * BATCH * world / secs}), flush=True)


# --- the run ------------------------------------------------------------------

def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--torch-worker':
        torch_worker(sys.argv[2], int(sys.argv[3]), sys.argv[4] != 'plain', sys.argv[4] == 'ddp-view')
        return
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--no-build', action='store_true')
    parser.add_argument('--json', help='also write the results to FILE')
    parser.add_argument('--repeats', type=int, default=3, help='runs per row, best kept (default 3)')
    args = parser.parse_args()
    driver = benchlib.driver_path(args, 'bench-ddp', 'ddp.py')
    port = 29500 + os.getpid() % 1000

    def best(key, result):
        if key not in train or result['samples_per_s'] > train[key]['samples_per_s']:
            train[key] = result

    load_before = os.getloadavg()
    train = {}
    for _ in range(args.repeats):
        for model in ('mlp', 'cnn'):
            steps = str(STEPS[model])
            gnn = [driver, 'train', model, '--steps', steps, '--batch', str(BATCH)]
            best(('gnn', model, 1), mpirun(1, gnn + ['--no-ddp'])[0])
            best(('gnn', model, 'ind'), mpirun(2, gnn + ['--no-ddp'])[0])
            best(('gnn', model, 2), mpirun(2, gnn)[0])
            best(('gnn', model, 'view'), mpirun(2, gnn + ['--grad-view'])[0])
            worker = [sys.executable, os.path.abspath(__file__), '--torch-worker', model, steps]
            best(('torch', model, 1), mpirun(1, worker + ['plain'])[0])
            best(('torch', model, 'ind'), mpirun(2, worker + ['plain'])[0])
            os.environ['MASTER_PORT'] = str(port)
            port += 1
            best(('torch', model, 2), mpirun(2, ['-x', 'MASTER_PORT'] + worker + ['ddp'])[0])
            os.environ['MASTER_PORT'] = str(port)
            port += 1
            best(('torch', model, 'view'), mpirun(2, ['-x', 'MASTER_PORT'] + worker + ['ddp-view'])[0])
    allreduce = mpirun(2, [driver, 'allreduce'])

    print('\nTraining throughput, samples/s over all ranks (batch %d per rank, 1 thread per rank, '
          '%d cores; load average %.2f before)' % (BATCH, os.cpu_count(), load_before[0]))
    print('"2 indep." = 2 ranks that never communicate (the ceiling of DDP on this machine); '
          '"DDP view" = gradient_as_bucket_view=True;')
    print('speed-up = DDP / 1 rank; efficiency = DDP / 2 indep.')
    print('%-5s %-6s %9s %9s %9s %9s %9s %9s %11s' % ('model', 'lib', '1 rank', '2 indep.', '2 DDP',
                                                     'DDP view', 'speed-up', 'ceiling', 'efficiency'))
    summary = {}
    for model in ('mlp', 'cnn'):
        for lib in ('gnn', 'torch'):
            one, ind, ddp, view = (train[(lib, model, k)]['samples_per_s'] for k in (1, 'ind', 2, 'view'))
            summary.setdefault(model, {})[lib] = {'speedup': ddp / one, 'ceiling': ind / one,
                                                  'efficiency': ddp / ind, 'ddp': ddp,
                                                  'view_speedup': view / one, 'view': view}
            print('%-5s %-6s %9.0f %9.0f %9.0f %9.0f %8.2fx %8.2fx %10.0f%%' % (
                model, 'Gnn' if lib == 'gnn' else lib, one, ind, ddp, view, ddp / one, ind / one,
                100 * ddp / ind))
        summary[model]['gnn_speedup'] = summary[model]['gnn']['speedup']
        summary[model]['gnn_vs_torch_ddp'] = summary[model]['gnn']['ddp'] / summary[model]['torch']['ddp']
    print('\nall_reduce on 2 ranks (float32, SUM), algbw GB/s')
    print('"polled" = MPI_Iallreduce + MPI_Test on the caller (a thread-free design that keeps '
          'the timeout)')
    print('%10s %10s %14s %10s %8s %11s %10s %10s' % ('bytes', 'Gnn', 'MPI_Allreduce', 'polled',
                                                  'Gnn/MPI', 'polled/MPI', 'Gnn us', 'MPI us'))
    worst = None
    for r in allreduce:
        ratio = r['gnn_gbps'] / r['mpi_gbps']
        if r['bytes'] >= 1 << 20:
            worst = ratio if worst is None else min(worst, ratio)
        print('%10d %10.3f %14.3f %10.3f %7.2fx %10.2fx %10.1f %10.1f' % (
            r['bytes'], r['gnn_gbps'], r['mpi_gbps'], r['polled_gbps'], ratio,
            r['polled_gbps'] / r['mpi_gbps'], r['gnn_seconds'] * 1e6, r['mpi_seconds'] * 1e6))

    def verdict(ok):
        return 'pass' if ok else 'miss'
    print('\nTargets:')
    for model in ('mlp', 'cnn'):
        s = summary[model]
        print('  %s: 2-rank speed-up %.2fx (target >= %.1fx: %s); Gnn DDP / torch DDP %.2fx '
              '(target >= %.1fx: %s)' % (model, s['gnn_speedup'], TARGET_SPEEDUP,
                                         verdict(s['gnn_speedup'] >= TARGET_SPEEDUP),
                                         s['gnn_vs_torch_ddp'], TARGET_VS_TORCH,
                                         verdict(s['gnn_vs_torch_ddp'] >= TARGET_VS_TORCH)))
    print('  all_reduce >= 1 MiB: worst Gnn/MPI %.2fx (target >= %.2fx: %s)'
          % (worst, TARGET_ALLREDUCE, verdict(worst >= TARGET_ALLREDUCE)))
    for model in ('mlp', 'cnn'):
        g = summary[model]['gnn']
        print('  %s: this machine gives 2 independent ranks %.2fx of 1 rank; Gnn DDP reaches %.0f%% '
              'of that ceiling (%.2fx of 1 rank with gradient_as_bucket_view)'
              % (model, g['ceiling'], 100 * g['efficiency'], g['view_speedup']))
    print('  load average after: %.2f' % os.getloadavg()[0])
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'train': [dict(v, lib=k[0]) for k, v in train.items()],
                       'allreduce': allreduce, 'summary': summary}, f, indent=1)


if __name__ == '__main__':
    main()
