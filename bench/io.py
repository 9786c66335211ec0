#!/usr/bin/env python3
# Save/load of a ~1 GiB state dict (64 float32 tensors of 4096×1024):
# Gnn (safetensors, via bench-io) vs `cat file > /dev/null` vs torch.save /
# torch.load (Debian's torch 1.13). All loads are from a warm page cache (each
# file is read once before timing); best of --repeat runs. See bench/README.md.
#
#   /usr/bin/python3 bench/io.py [--build-dir build] [--dir /tmp] [--repeat 3]
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

N, ROWS, COLS = 64, 4096, 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--build-dir', default='build')
    ap.add_argument('--dir', default=tempfile.gettempdir(), help='where the 1 GiB files go')
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--n', type=int, default=N, help='number of tensors')
    ap.add_argument('--no-build', action='store_true')
    args = ap.parse_args()

    driver = os.path.join(args.build_dir, 'bench', 'bench-io')
    if not args.no_build:
        subprocess.run(['ninja', '-C', args.build_dir, 'bench/bench-io'], check=True,
                       stdout=subprocess.DEVNULL)
    nbytes = args.n * ROWS * COLS * 4
    free = shutil.disk_usage(args.dir).free
    if free < 2.5 * nbytes:
        sys.exit('io.py: %s has %.1f GiB free, needs %.1f GiB' % (args.dir, free / 2**30,
                                                                2.5 * nbytes / 2**30))

    import torch
    work = tempfile.mkdtemp(prefix='gnn-bench-io-', dir=args.dir)
    gnn_path = os.path.join(work, 'gnn.safetensors')
    pt_path = os.path.join(work, 'torch.pt')
    try:
        # --- save -------------------------------------------------------------
        # Saves are disk-bound and noisy: best of --repeat (each replaces the file).
        gnn_save = min(parse_kv(subprocess.run(
            [driver, 'save', gnn_path, str(args.n), str(ROWS), str(COLS)],
            check=True, capture_output=True, text=True).stdout)['save']   # includes fsync + rename
            for _ in range(args.repeat))

        sd = {'layers.%d.weight' % i: torch.full((ROWS, COLS), float(i)) for i in range(args.n)}

        def torch_save_fsync():
            torch.save(sd, pt_path)
            fd = os.open(pt_path, os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)
        torch_save_sync = best(torch_save_fsync, args.repeat)
        torch_save = best(lambda: torch.save(sd, pt_path), args.repeat)
        del sd

        # --- load (warm page cache) -------------------------------------------
        def cat(path):
            subprocess.run('cat "%s" > /dev/null' % path, shell=True, check=True)
        cat(gnn_path)
        cat(pt_path)
        cat_time = best(lambda: cat(gnn_path), args.repeat)
        out = subprocess.run([driver, 'load', gnn_path, str(args.repeat)],
                             check=True, capture_output=True, text=True).stdout
        g = parse_kv(out)
        torch_load = best(lambda: torch.load(pt_path), args.repeat)
        size_gib = os.path.getsize(gnn_path) / 2**30
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print('state dict: %d float32 tensors of %d×%d = %.2f GiB; threads: torch %d'
          % (args.n, ROWS, COLS, size_gib, torch.get_num_threads()))
    print()
    print('%-44s %10s %12s' % ('load (warm page cache)', 'seconds', 'GiB/s'))
    rows = [
        ('cat file > /dev/null', cat_time),
        ('Gnn load: mmap + validate + tensors', g['load']),
        ('Gnn load + touch every page', g['load_touch']),
        ('Gnn load + read every byte', g['load_read']),
        ('Gnn load with COPY flag', g['load_copy']),
        ('torch.load (torch.save file)', torch_load),
    ]
    for name, t in rows:
        print('%-44s %10.4f %12.2f' % (name, t, size_gib / t))
    print()
    print('%-44s %10s %12s' % ('save', 'seconds', 'GiB/s'))
    for name, t in [('Gnn save (temp file + fsync + rename)', gnn_save),
                    ('torch.save (no fsync)', torch_save),
                    ('torch.save + fsync', torch_save_sync)]:
        print('%-44s %10.4f %12.2f' % (name, t, size_gib / t))
    print()

    def target(name, value, goal, ok):
        print('%-44s %10.2f   target %s: %s' % (name, value, goal, 'pass' if ok else 'MISS'))
    r1 = g['load_touch'] / cat_time
    r2 = torch_load / g['load_touch']
    target('Gnn load+touch / cat', r1, '≤ 1.5', r1 <= 1.5)
    target('torch.load / Gnn load+touch (speed-up)', r2, '≥ 5', r2 >= 5)
    print('%-44s %10.2f' % ('Gnn load+read every byte / cat', g['load_read'] / cat_time))
    print('%-44s %10.2f' % ('torch.load / Gnn load+read every byte', torch_load / g['load_read']))
    print('%-44s %10.1f   (mmap only: no data read yet)' % ('torch.load / Gnn load', torch_load / g['load']))
    print('%-44s %10.2f' % ('Gnn save / (torch.save + fsync)', gnn_save / torch_save_sync))
    print('%-44s %10.2f' % ('Gnn save / torch.save', gnn_save / torch_save))


if __name__ == '__main__':
    main()
