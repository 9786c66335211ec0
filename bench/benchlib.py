# SPDX-License-Identifier: LGPL-2.1-or-later
"""Helpers shared by the Gnn-vs-PyTorch benchmark scripts (module.py,
tensor.py): building/locating the C driver and timing a Python callable by
the same method as the C drivers' measure()."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def driver_path(args, driver, script):
    """Path of build/bench/<driver>, rebuilt first unless --no-build; exits
    with a message naming @script when it cannot be built or found."""
    exe = os.path.join(args.build_dir, 'bench', driver)
    if not args.no_build:
        # Rebuild first, so we never time a stale library.
        build = subprocess.run(['ninja', '-C', args.build_dir, 'bench/' + driver],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if build.returncode != 0:
            sys.exit(f'{script}: building {exe} failed:\n{build.stdout}')
    if not os.access(exe, os.X_OK):
        sys.exit(f'{script}: {exe} not found; run "meson setup {args.build_dir} && '
                 f'ninja -C {args.build_dir}" or pass --build-dir')
    return exe


def libtorch_driver(args):
    """Path of build/bench/bench-libtorch (the libtorch C++ side), rebuilt
    unless --no-build; None when it was not configured (no libtorch-dev)."""
    exe = os.path.join(args.build_dir, 'bench', 'bench-libtorch')
    configured = subprocess.run(['ninja', '-C', args.build_dir, '-t', 'query', 'bench/bench-libtorch'],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    if not configured:
        return None
    if not args.no_build:
        subprocess.run(['ninja', '-C', args.build_dir, 'bench/bench-libtorch'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True)
    return exe if os.access(exe, os.X_OK) else None


def run_child(cmd, env, script):
    """Runs @cmd with @env; returns (its JSON lines as dicts, its peak
    resident set in MiB). The peak is wait4's ru_maxrss, the kernel's VmHWM of
    the child (the largest of it and the descendants it waited for): the
    model, activations, scratch and every library the side loads (Python and
    torch's own for PyTorch). Exits naming @script when the child fails."""
    with tempfile.TemporaryFile('w+') as out, tempfile.TemporaryFile('w+') as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if code != 0:
            sys.exit(f'{script}: {" ".join(cmd)} failed (exit {code}):\n{err.read()}')
        records = [json.loads(line) for line in out.read().splitlines() if line.startswith('{')]
    return records, usage.ru_maxrss / 1024


def measure(fn, reps, min_time, max_inner):
    """Seconds per call of fn: (best, median, inner calls per repetition),
    `inner` calibrated to min_time and capped at max_inner."""
    def time_calls(inner):
        start = time.perf_counter()
        for _ in range(inner):
            fn()  # the result is dropped at once, as the C driver unrefs it
        return time.perf_counter() - start

    time_calls(1)  # first touch, lazy thread start-up
    once = time_calls(1)
    inner = 1 if once >= min_time else -(-min_time // max(once, 1e-9))
    inner = int(min(max(inner, 1), max_inner))
    time_calls(inner)  # warm-up repetition
    per_call = sorted(time_calls(inner) / inner for _ in range(reps))
    return per_call[0], statistics.median(per_call), inner


def parse_kv(text):
    """key=value words of a C driver's output, as floats."""
    return {k: float(v) for k, v in (line.split('=', 1) for line in text.split() if '=' in line)}


def best(fn, repeat):
    """The least wall time of @repeat calls of @fn."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def bench_tensor(build_dir, threads, ops):
    """Runs build/bench/bench-tensor on @ops (comma-separated) with @threads
    OpenBLAS threads (sgemm at 1024², 5 repetitions); returns {op: result
    dict}, empty when the driver is missing."""
    exe = os.path.join(build_dir, 'bench', 'bench-tensor')
    if not os.access(exe, os.X_OK):
        return {}
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads))
    proc = subprocess.run([exe, '--ops', ops, '--sgemm-sizes', '1024', '--reps', '5'],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    results = {}
    for line in proc.stdout.splitlines():
        record = json.loads(line)
        if record.get('type') == 'result':
            results[record['op']] = record
    return results
