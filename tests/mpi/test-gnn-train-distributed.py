#!/usr/bin/env python3
"""gnn-train --distributed under mpirun (suite 'mpi').

    test-gnn-train-distributed.py RUN-MPI.PY BUILD/tools/gnn-train

For the MLP and the CNN: 2 ranks with batch 32 end with the weights of one
rank with batch 64 (the global batch), within float tolerance; only rank 0
prints and writes the checkpoint, whose keys are the bare model's.
"""
import importlib.util
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

import numpy as np

spec = importlib.util.spec_from_file_location('run_mpi', sys.argv[1])
run_mpi = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_mpi)
TRAIN = sys.argv[2]
DATA = '/usr/share/datasets/fashion-mnist'
failures = 0


def check(cond, what):
    global failures
    print(('ok - ' if cond else 'not ok - ') + what, flush=True)
    failures += not cond


def read_safetensors(path):
    with open(path, 'rb') as f:
        blob = f.read()
    (n,) = struct.unpack('<Q', blob[:8])
    header = json.loads(blob[8:8 + n])
    header.pop('__metadata__', None)
    types = {'F32': np.float32, 'I64': np.int64}
    out = {}
    for key, info in header.items():
        start, end = info['data_offsets']
        out[key] = np.frombuffer(blob[8 + n + start:8 + n + end], dtype=types[info['dtype']])
    return out


def train(np_, model, batch, limit, checkpoint, *extra):
    cmd = run_mpi.mpirun_command(np_, [TRAIN, '--distributed', '--model', model, '--limit', str(limit),
                                       '--batch-size', str(batch), '--workers', '1',
                                       '--checkpoint', checkpoint] + list(extra))
    proc = subprocess.run(cmd, env=run_mpi.mpi_env(), capture_output=True, text=True, timeout=120)
    print(proc.stdout)
    if proc.returncode != 0:
        print(proc.stderr)
    return proc


def check_mid_epoch_resume(tmp):
    """2 ranks interrupted after 5 batches (rank 0 checkpoints every 3),
    resumed on 2 ranks: the loss curve and the weights of the uninterrupted
    2-rank run, bit for bit."""
    mid, resumed, straight = (os.path.join(tmp, n + '.st') for n in ('mid', 'resumed', 'straight'))
    common = ('--epochs', '2', '--seed', '3')
    p = train(2, 'mlp', 32, 512, mid, *common, '--checkpoint-every', '3', '--max-batches', '5')
    check(p.returncode == 0 and 'stopped after 5 batches' in p.stdout, 'interrupted 2-rank run exits 0')
    p = train(2, 'mlp', 32, 512, resumed, '--resume', mid, '--epochs', '2')
    check(p.returncode == 0 and 'and part of the next' in p.stdout, 'resumed mid-epoch on 2 ranks')
    got = re.findall(r'epoch \d/2: train loss [0-9.]+', p.stdout)
    p = train(2, 'mlp', 32, 512, straight, *common)
    want = re.findall(r'epoch \d/2: train loss [0-9.]+', p.stdout)
    check(len(want) == 2 and got == want, 'same loss curve (%s vs %s)' % (got, want))
    a, b = read_safetensors(resumed), read_safetensors(straight)
    check(a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a),
          'resumed 2-rank run ends with the uninterrupted weights, bit for bit')


def main():
    if not os.path.isdir(DATA):
        print('SKIP: %s is missing (install dataset-fashion-mnist)' % DATA)
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        for model, limit in (('mlp', 512), ('cnn', 256)):
            two, one = os.path.join(tmp, model + '-2.st'), os.path.join(tmp, model + '-1.st')
            p2 = train(2, model, 32, limit, two)
            p1 = train(1, model, 64, limit, one)
            check(p2.returncode == 0 and p1.returncode == 0, '%s: both runs succeed' % model)
            if p2.returncode or p1.returncode:
                continue
            check(p2.stdout.count('checkpoint: ') == 1, '%s: only rank 0 reports' % model)
            check('distributed over 2 ranks' in p2.stdout, '%s: 2 ranks' % model)
            a, b = read_safetensors(two), read_safetensors(one)
            weights = [k for k in a if k.startswith('model.')]
            check(weights and not any('module.' in k for k in weights),
                  '%s: checkpoint keys are the bare model\'s' % model)
            check(sorted(a) == sorted(b), '%s: same tensors' % model)
            worst = max(float(np.max(np.abs(a[k].astype(np.float64) - b[k]))) for k in weights)
            print('# %s: largest weight difference 2 ranks x 32 vs 1 rank x 64: %.3g' % (model, worst))
            check(worst < 1e-5, '%s: weights equal the global-batch run within 1e-5' % model)
        check_mid_epoch_resume(tmp)
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
