#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs PyTorch: sgemm, elementwise and op throughput.

Times each operation with the C driver (build/bench/bench-tensor) and with
PyTorch in this process, by the same method, alternating the two sides, and
prints one table.

    /usr/bin/python3 bench/tensor.py [--build-dir build] [--json FILE]

This is a benchmark, not a test: it reports pass/miss against the targets but
never fails because of a timing.
"""

import argparse
import ctypes
import json
import os
import platform
import subprocess
import sys
import time

import benchlib

# (op, size) -> minimum Gnn/PyTorch ratio. sgemm 256², the in-place rows
# (add_, relu_: the kernels without allocating the result) and the
# reductions (sum, softmax over rows of 1024) are reported without a target.
TARGETS = {
    ('sgemm', 1024): 0.90,
    ('sgemm', 2048): 0.90,
    ('add', 16 << 20): 0.70,
    ('relu', 16 << 20): 0.70,
}

SGEMM_SIZES = [256, 1024, 2048]
ELEMS = 16 << 20
# The op rows of bench-tensor-ops.c: fixed shapes, size 0 (see run_torch_op).
OP_ROWS = ('cumsum', 'sort', 'topk', 'gather', 'scatter_add', 'bmm', 'logsumexp', 'einsum')
CASES = [('sgemm', n) for n in SGEMM_SIZES] + [(op, ELEMS) for op in ('add', 'relu', 'add_', 'relu_',
                                                                       'sum', 'softmax')] \
    + [(op, 0) for op in OP_ROWS]


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build',
                        help='meson build directory holding bench/bench-tensor (default: build)')
    parser.add_argument('--json', metavar='FILE', help='also save the results as JSON')
    parser.add_argument('--threads', type=int, default=None,
                        help='threads on both sides: the driver\'s --threads (Gnn\'s loops and '
                             'OpenBLAS) and torch.set_num_threads (default: each side\'s own)')
    parser.add_argument('--ops', metavar='OPS',
                        help='comma-separated operations to run (default: all of them)')
    parser.add_argument('--reps', type=int, default=5, help='timed repetitions (default 5)')
    parser.add_argument('--min-time', type=float, default=0.2,
                        help='minimum seconds per repetition (default 0.2)')
    parser.add_argument('--rounds', type=int, default=2,
                        help='alternating Gnn/PyTorch rounds, best kept (default 2)')
    parser.add_argument('--no-build', action='store_true',
                        help='do not run ninja on the driver first')
    args = parser.parse_args()
    if args.reps < 1 or args.rounds < 1 or args.min_time < 0:
        parser.error('--reps and --rounds must be at least 1, --min-time not negative')
    known = {op for op, _ in CASES}
    args.ops = args.ops.split(',') if args.ops else None
    if args.ops and not set(args.ops) <= known:
        parser.error('--ops: unknown %s (known: %s)' % (', '.join(sorted(set(args.ops) - known)),
                                                        ', '.join(dict.fromkeys(op for op, _ in CASES))))
    return args


def driver_path(args):
    return benchlib.driver_path(args, 'bench-tensor', 'tensor.py')


def run_driver(exe, args, op, size):
    """Runs bench-tensor on one case; returns (info dict, result dict)."""
    cmd = [exe, '--ops', op, '--reps', str(args.reps), '--min-time', str(args.min_time)]
    if args.threads:
        cmd += ['--threads', str(args.threads)]
    if op == 'sgemm':
        cmd += ['--sgemm-sizes', str(size)]
    elif op not in OP_ROWS:
        cmd += ['--elems', str(size)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f'tensor.py: {" ".join(cmd)} failed (exit {proc.returncode}):\n{proc.stderr}')
    info, result = {}, None
    for line in proc.stdout.splitlines():
        record = json.loads(line)
        if record['type'] == 'info':
            info = record
        elif record['type'] == 'result':
            result = record
    return info, result


def measure(fn, reps, min_time):
    """Same method as measure() in bench-tensor.c: seconds per call (best, median)."""
    return benchlib.measure(fn, reps, min_time, 100000)


def torch_op(torch, op):
    """The op rows with bench-tensor-ops.c's shapes: (label, unit, work, fn)."""
    u = lambda *shape: torch.rand(*shape) * 2 - 1  # noqa: E731
    if op == 'cumsum':
        a = u(1024, 4096)
        return '1024x4096', 'Gelem/s', a.numel(), lambda: torch.cumsum(a, 1)
    if op == 'sort':
        a = u(1024, 1024)
        return '1024x1024', 'Gelem/s', a.numel(), lambda: torch.sort(a, 1)
    if op == 'topk':
        a = u(1024, 4096)
        return '1024x4096,k16', 'Gelem/s', a.numel(), lambda: torch.topk(a, 16, 1)
    if op in ('gather', 'scatter_add'):
        a, idx, src = u(4096, 1024), torch.randint(0, 1024, (4096, 256)), u(4096, 256)
        if op == 'gather':
            return '4096x1024,256', 'Gelem/s', idx.numel(), lambda: torch.gather(a, 1, idx)
        return '4096x1024,256', 'Gelem/s', a.numel(), lambda: torch.scatter_add(a, 1, idx, src)
    if op == 'bmm':
        a, b = u(64, 128, 128), u(64, 128, 128)
        return '64x128x128', 'GFLOP/s', 2.0 * 64 * 128 ** 3, lambda: torch.bmm(a, b)
    if op == 'logsumexp':
        a = u(4096, 1024)
        return '4096x1024', 'Gelem/s', a.numel(), lambda: torch.logsumexp(a, 1)
    a, b = u(8, 8, 128, 64), u(8, 8, 128, 64)
    return 'bhqd,bhkd', 'GFLOP/s', 2.0 * 64 * 128 * 128 * 64, \
        lambda: torch.einsum('bhqd,bhkd->bhqk', a, b)


def run_torch(torch, args, op, size):
    """Times one case in PyTorch; returns a result dict shaped like the driver's."""
    torch.manual_seed(1234)
    with torch.no_grad():
        if op in OP_ROWS:
            label, unit, work, fn = torch_op(torch, op)
        elif op == 'sgemm':
            a = torch.rand(size, size) * 2 - 1
            b = torch.rand(size, size) * 2 - 1
            label, unit, work = f'{size}x{size}', 'GFLOP/s', 2.0 * size ** 3
            fn = lambda: torch.mm(a, b)  # noqa: E731
        else:
            a = torch.rand(size) * 2 - 1
            b = torch.rand(size) * 2 - 1
            label, unit = f'{size >> 20}M', 'GB/s'
            rows = a.view(-1, 1024)
            # bytes read + written per element: add 2 + 1 floats, relu and
            # softmax 1 + 1, sum 1
            work = {'add': 3.0, 'add_': 3.0, 'sum': 1.0}.get(op, 2.0) * 4 * size
            fn = {'add': lambda: torch.add(a, b),
                  'relu': lambda: torch.relu(a),
                  # in place: the kernels without result allocation
                  'add_': lambda: a.add_(b),
                  'relu_': lambda: torch.relu_(a),
                  'sum': lambda: torch.sum(a),
                  'softmax': lambda: torch.softmax(rows, 1)}[op]
        best, median, inner = measure(fn, args.reps, args.min_time)
    return {'op': op, 'size': size, 'size_label': label, 'unit': unit,
            'best': work / best / 1e9, 'median': work / median / 1e9,
            'best_seconds': best, 'median_seconds': median, 'inner': inner, 'reps': args.reps}


def torch_info(torch):
    try:
        # torch's libblas.so.3 is OpenBLAS on Debian; ask it directly.
        openblas = ctypes.CDLL('libopenblas.so.0')
        blas_threads = openblas.openblas_get_num_threads()
    except (OSError, AttributeError):
        blas_threads = None
    return {'torch_version': torch.__version__, 'torch_threads': torch.get_num_threads(),
            'torch_interop_threads': torch.get_num_interop_threads(),
            'torch_openblas_threads': blas_threads}


def set_torch_openblas_threads(n):
    try:
        ctypes.CDLL('libopenblas.so.0').openblas_set_num_threads(n)
    except (OSError, AttributeError):
        pass


def better(old, new):
    return new if old is None or new['best'] > old['best'] else old


def main():
    args = parse_args()
    exe = driver_path(args)
    load_before = os.getloadavg()[0]
    import torch  # after the build: a failed build should not wait for torch to load
    if args.threads:
        torch.set_num_threads(args.threads)
        # torch.set_num_threads leaves OpenBLAS (bmm, einsum's products) at
        # its own count; the driver sets both, so set both here too
        set_torch_openblas_threads(args.threads)
    cases = [c for c in CASES if args.ops is None or c[0] in args.ops]

    # Gnn and PyTorch alternate case by case (and swap order every round), so
    # load from other processes hits both sides alike; each side keeps its
    # best round.
    gnn_info, gnn_best, torch_best = {}, {}, {}
    for rnd in range(args.rounds):
        for op, size in cases:
            print(f'round {rnd + 1}/{args.rounds}: {op} {size}', file=sys.stderr, flush=True)
            sides = ['gnn', 'torch'] if rnd % 2 == 0 else ['torch', 'gnn']
            for side in sides:
                # OpenBLAS workers spin for a while after a call before they
                # sleep; let the other side's finish first.
                time.sleep(0.3)
                if side == 'gnn':
                    gnn_info, result = run_driver(exe, args, op, size)
                    gnn_best[op, size] = better(gnn_best.get((op, size)), result)
                else:
                    result = run_torch(torch, args, op, size)
                    torch_best[op, size] = better(torch_best.get((op, size)), result)
    tinfo = torch_info(torch)
    load_after = os.getloadavg()[0]

    rows = []
    for key in cases:
        g, t = gnn_best[key], torch_best[key]
        ratio = g['best'] / t['best']
        target = TARGETS.get(key)
        rows.append({'op': g['op'], 'size': g['size_label'], 'unit': g['unit'],
                     'gnn': g, 'torch': t, 'ratio': ratio, 'ratio_median': g['median'] / t['median'],
                     'target': target,
                     'status': None if target is None else ('pass' if ratio >= target else 'miss')})

    env = {k: os.environ[k] for k in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'GOTO_NUM_THREADS')
           if k in os.environ}
    print(f'Gnn {gnn_info.get("gnn_version")} vs PyTorch {tinfo["torch_version"]} on '
          f'{platform.machine()}, {os.cpu_count()} CPUs ({gnn_info.get("openblas_core")})')
    print(f'threads: Gnn {gnn_info.get("threads")}, OpenBLAS={gnn_info.get("openblas_threads")}; '
          f'PyTorch get_num_threads()={tinfo["torch_threads"]}, '
          f'OpenBLAS={tinfo["torch_openblas_threads"]}'
          + (f'; env {env}' if env else ''))
    print(f'best of {args.reps} repetitions (>= {args.min_time:g} s each, after warm-up) '
          f'and of {args.rounds} alternating rounds; result allocation included on both sides')
    # Other processes skew the numbers: say how busy the machine was.
    print(f'load average (1 min): {load_before:.2f} before, {load_after:.2f} after\n')

    header = f'{"operation":<11} {"size":>13} {"unit":>8} {"Gnn":>9} {"PyTorch":>9} ' \
             f'{"ratio":>7} {"median r.":>9} {"target":>7}  result'
    print(header)
    print('-' * len(header))
    for r in rows:
        target = f'>={r["target"]:.2f}' if r['target'] is not None else '-'
        print(f'{r["op"]:<11} {r["size"]:>13} {r["unit"]:>8} {r["gnn"]["best"]:>9.2f} '
              f'{r["torch"]["best"]:>9.2f} {r["ratio"]:>7.2f} {r["ratio_median"]:>9.2f} '
              f'{target:>7}  {r["status"] or ""}')
    print('\nratio = Gnn/PyTorch throughput (higher is better); "median r." uses medians.')

    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'machine': {'arch': platform.machine(), 'cpus': os.cpu_count(),
                                   'env': env, 'loadavg': [load_before, load_after]},
                       'gnn': gnn_info, 'torch': tinfo, 'reps': args.reps, 'rounds': args.rounds,
                       'min_time': args.min_time, 'rows': rows}, f, indent=2)
            f.write('\n')


if __name__ == '__main__':
    main()
