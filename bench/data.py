#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn's DataLoader vs torch.utils.data.DataLoader: full passes over Fashion-MNIST.

Every configuration runs in its own process (so each has its own peak RSS):
Gnn through the C driver build/bench/bench-data (workers 0/1/2, threads and
processes), PyTorch through this script (`--torch-run W`: a Dataset returning
(image tensor, label tensor) over the same normalized float32 data, workers
0/1/2), and the floor: memcpy() of the same shuffled bytes into a batch
buffer. Prints samples/s, ratios and peak RSS in one table.

    /usr/bin/python3 bench/data.py [--build-dir build] [--passes 3] [--json FILE]

A benchmark, not a test: it reports pass/miss against the targets (>= 10x
PyTorch with 2 workers, within 1.5x of the memcpy floor) but never fails on a
timing.
"""

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import time

FASHION = '/usr/share/datasets/fashion-mnist'
BATCH = 64
# (mode, workers, persistent workers): fresh workers each pass show the
# start cost; persistent ones the steady state.
GNN_CONFIGS = [('threads', 0, False), ('threads', 1, False), ('threads', 2, False),
               ('threads', 4, False), ('processes', 1, False), ('processes', 2, False),
               ('processes', 4, False), ('spawn', 1, False), ('spawn', 2, False),
               ('processes', 2, True), ('spawn', 2, True)]
# (workers, multiprocessing_context, persistent_workers)
TORCH_CONFIGS = [(0, None, False), (1, None, False), (2, None, False), (4, None, False),
                 (1, 'spawn', False), (2, 'spawn', False), (2, None, True), (2, 'spawn', True)]
# --workers-sweep (issue 30 item 7): throughput at 0/1/2/4 workers, fresh
# workers every pass, Gnn's threads and forked processes against torch's
SWEEP_WORKERS = (0, 1, 2, 4)


class TorchFashion:
    """Module-level (spawn pickles the dataset and re-imports this script)."""

    def __init__(self, images, labels):
        self.images, self.labels = images, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--passes', type=int, default=3, help='timed passes per configuration, best kept')
    parser.add_argument('--json', metavar='FILE', help='also save the results as JSON')
    parser.add_argument('--no-build', action='store_true', help='do not run ninja on the driver first')
    parser.add_argument('--no-torch', action='store_true', help='skip PyTorch')
    parser.add_argument('--workers-sweep', action='store_true',
                        help='only the configurations with 0, 1, 2 and 4 fresh workers (threads, '
                             'processes, torch)')
    parser.add_argument('--torch-run', type=int, metavar='W', help=argparse.SUPPRESS)
    parser.add_argument('--torch-context', default=None, help=argparse.SUPPRESS)
    parser.add_argument('--torch-persistent', action='store_true', help=argparse.SUPPRESS)
    return parser.parse_args()


# --- the PyTorch side (one configuration per process) -------------------------

def torch_run(workers, passes, context=None, persistent=False):
    import numpy as np
    import torch
    from torch.utils.data import DataLoader

    def idx(path, offset):
        with gzip.open(path, 'rb') as f:
            return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)

    images = torch.from_numpy(idx(os.path.join(FASHION, 'train-images-idx3-ubyte.gz'), 16)
                              .reshape(-1, 28, 28).astype(np.float32) / 255.0)
    labels = torch.from_numpy(idx(os.path.join(FASHION, 'train-labels-idx1-ubyte.gz'), 8)
                              .astype(np.int64))

    loader = DataLoader(TorchFashion(images, labels), batch_size=BATCH, shuffle=True,
                        num_workers=workers, generator=torch.Generator().manual_seed(1),
                        multiprocessing_context=context, persistent_workers=persistent)
    times = []
    first_batch = None
    for _ in range(passes):
        start = time.perf_counter()
        n = 0
        for x, y in loader:
            assert x.shape[0] == y.shape[0]
            n += y.shape[0]
            if first_batch is None:
                first_batch = time.perf_counter() - start
        times.append(time.perf_counter() - start)
        assert n == len(labels)
    times.sort()
    print(json.dumps({
        'type': 'result', 'samples': len(labels), 'first_batch_seconds': first_batch,
        'config': 'torch-%s%s%d' % (context + '-' if context else '',
                                    'persistent-' if persistent else '', workers),
        'best_seconds': times[0], 'median_seconds': times[len(times) // 2],
        'samples_per_second': len(labels) / times[0],
        'maxrss_kib': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        'children_maxrss_kib': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        'torch': torch.__version__, 'torch_threads': torch.get_num_threads()}))


# --- the driver ---------------------------------------------------------------

def run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit('data.py: %s failed (exit %d):\n%s' % (' '.join(cmd), proc.returncode, proc.stderr))
    for line in proc.stdout.splitlines():
        obj = json.loads(line)
        if obj.get('type') == 'result':
            return obj
    sys.exit('data.py: no result from %s' % ' '.join(cmd))


def main():
    args = parse_args()
    if args.torch_run is not None:
        torch_run(args.torch_run, args.passes, args.torch_context, args.torch_persistent)
        return
    exe = os.path.join(args.build_dir, 'bench', 'bench-data')
    if not args.no_build:
        build = subprocess.run(['ninja', '-C', args.build_dir, 'bench/bench-data'],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if build.returncode != 0:
            sys.exit('data.py: building %s failed:\n%s' % (exe, build.stdout))
    if not os.path.exists(os.path.join(FASHION, 'train-images-idx3-ubyte.gz')):
        sys.exit('data.py: %s is missing (Debian package dataset-fashion-mnist)' % FASHION)

    load_before = os.getloadavg()[0]
    passes = ['--passes', str(args.passes)]
    results = {'memcpy': run([exe, '--memcpy'] + passes)}
    gnn_configs, torch_configs = GNN_CONFIGS, TORCH_CONFIGS
    if args.workers_sweep:
        gnn_configs = [c for c in GNN_CONFIGS if c[0] in ('threads', 'processes') and not c[2]
                       and c[1] in SWEEP_WORKERS]
        torch_configs = [c for c in TORCH_CONFIGS if c[1] is None and not c[2] and c[0] in SWEEP_WORKERS]
    for mode, workers, persistent in gnn_configs:
        r = run([exe, '--mode', mode, '--workers', str(workers)] +
                (['--persistent'] if persistent else []) + passes)
        results[r['config']] = r
    if not args.no_torch:
        for workers, context, persistent in torch_configs:
            r = run([sys.executable, os.path.abspath(__file__), '--torch-run', str(workers)] +
                    (['--torch-context', context] if context else []) +
                    (['--torch-persistent'] if persistent else []) + passes)
            results[r['config']] = r
    load_after = os.getloadavg()[0]

    floor = results['memcpy']['samples_per_second']
    print('Fashion-MNIST train: 60000 x 28x28 float32, batch %d, shuffle; best of %d passes; '
          'load average %.2f -> %.2f on %d CPUs' % (BATCH, args.passes, load_before, load_after,
                                                   os.cpu_count()))
    if 'torch-0' in results:
        print('PyTorch %s (%d threads)' % (results['torch-0']['torch'],
                                           results['torch-0']['torch_threads']))
    print()
    print('| configuration | samples/s | vs PyTorch (same workers) | memcpy floor / this '
          '| peak RSS MiB (main + largest worker) | first batch ms |')
    print('|---|---:|---:|---:|---:|---:|')
    for name, r in results.items():
        sps = r['samples_per_second']
        workers = name.rsplit('-', 1)[-1]
        kind = ('spawn-' if name.startswith('spawn') else '') + \
            ('persistent-' if '-persistent-' in name else '')
        torch_r = results.get('torch-' + kind + workers)
        vs = '%.1fx' % (sps / torch_r['samples_per_second']) \
            if torch_r and not name.startswith(('torch', 'memcpy')) else ''
        rss = '%.0f' % (r['maxrss_kib'] / 1024)
        if r.get('children_maxrss_kib'):
            rss += ' + %.0f' % (r['children_maxrss_kib'] / 1024)
        first = r.get('first_batch_seconds')
        print('| %s | %.0f | %s | %.2f | %s | %s |' % (name, sps, vs, floor / sps, rss,
                                                      '%.1f' % (first * 1e3) if first and first > 0 else ''))
    print()
    for mode in ('threads', 'processes'):
        r = results.get('%s-2' % mode)
        t = results.get('torch-2')
        if r and t:
            ratio = r['samples_per_second'] / t['samples_per_second']
            slow = floor / r['samples_per_second']
            print('target %s-2: >= 10x PyTorch: %.1fx %s; within 1.5x of memcpy: %.2fx %s'
                  % (mode, ratio, 'pass' if ratio >= 10 else 'miss',
                     slow, 'pass' if slow <= 1.5 else 'miss'))
    sp, pr = results.get('spawn-persistent-2'), results.get('processes-persistent-2')
    if sp and pr:
        ratio = sp['samples_per_second'] / pr['samples_per_second']
        print('target spawn-2 steady state (persistent workers, best pass) within 10%% of '
              'processes: %.2fx %s' % (ratio, 'pass' if ratio >= 0.9 else 'miss'))
    for workers in (1, 2):
        sp, ts = results.get('spawn-%d' % workers), results.get('torch-spawn-%d' % workers)
        if sp and ts and sp.get('first_batch_seconds') and ts.get('first_batch_seconds'):
            first = sp['first_batch_seconds']
            speedup = ts['first_batch_seconds'] / first
            print('target spawn-%d first batch: <= 50 ms: %.1f ms %s; >= 20x faster than torch '
                  'spawn: %.1fx %s' % (workers, first * 1e3, 'pass' if first <= 0.05 else 'miss',
                                      speedup, 'pass' if speedup >= 20 else 'miss'))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'load': [load_before, load_after], 'results': results}, f, indent=1)


if __name__ == '__main__':
    main()
