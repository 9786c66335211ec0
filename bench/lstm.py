#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Gnn vs PyTorch: an LSTM word language model and an LSTM cell at batch 1.

Runs build/bench/bench-lstm (Gnn) and the same models in PyTorch (torch
1.13), each in a child process with the same thread count
(OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and torch.set_num_threads all set;
bench-lstm calls gnn_set_num_threads with it), for each of --threads
(default 1 and 2), and prints one table:

- train: seconds per training step of PyTorch's examples/word_language_model
  "medium" model (Embedding(10000, 650), LSTM(650, 650, 2 layers, dropout
  0.5), dropouts 0.5, Linear(650, 10000)), sequence 35, batch 20,
  CrossEntropyLoss, backward, SGD step, hidden state carried (detached) from
  batch to batch; no gradient clipping on either side;
- forward: the same batches in eval mode without gradient recording;
- cell: one LSTMCell(1, 51) step at batch 1 with its state, no gradient
  recording (best of repetitions; the module call overhead shows here).

Ratios are Gnn / PyTorch times (lower is better). Targets (issue 25): the
training step ≤ 1.0, the batch-1 cell step ≤ 1/3 (3× faster).

    /usr/bin/python3 bench/lstm.py [--build-dir build] [--batches 5] [--threads 1 2]

This is a benchmark, not a test: it never fails on a timing.
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time

import benchlib

VOCAB, HIDDEN, SEQ, BATCH = 10000, 650, 35, 20
TARGETS = {'train': 1.0, 'forward': None, 'cell': 1 / 3}
TARGET_PEAK_RSS = 0.8  # Gnn's peak / PyTorch's (issue 30 item 5)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build-dir', default='build')
    parser.add_argument('--batches', type=int, default=5, help='training steps timed per run (default 5)')
    parser.add_argument('--threads', type=int, nargs='+', default=[1, 2],
                        help='thread counts to compare at (default 1 2)')
    parser.add_argument('--repeats', type=int, default=2, help='runs per side (default 2): the median is shown')
    parser.add_argument('--json', metavar='FILE', help='also save the results as JSON')
    parser.add_argument('--no-build', action='store_true', help='do not run ninja first')
    parser.add_argument('--torch-child', type=int, metavar='THREADS', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.batches < 1 or args.repeats < 1 or min(args.threads) < 1:
        parser.error('bad --batches, --threads or --repeats')
    return args


# --- the PyTorch side (a child process) -------------------------------------------

def tokens(rows, batch, vocab):
    """bench-lstm.c's fixed linear congruential token sequence."""
    x, out = 12345, []
    for _ in range(rows * batch):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append((x >> 33) % vocab)
    return out


def torch_child(args, threads):
    import torch
    from torch import nn

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    nb = args.batches
    data = torch.tensor(tokens(nb * SEQ + 1, BATCH, VOCAB)).view(nb * SEQ + 1, BATCH)
    embedding, drop = nn.Embedding(VOCAB, HIDDEN), nn.Dropout(0.5)
    lstm, decoder = nn.LSTM(HIDDEN, HIDDEN, 2, dropout=0.5), nn.Linear(HIDDEN, VOCAB)
    modules = nn.ModuleList([embedding, drop, lstm, decoder])
    optimizer = torch.optim.SGD(modules.parameters(), lr=20.0)
    criterion = nn.CrossEntropyLoss()
    state = [None]

    def forward(i):
        x, y = data[i * SEQ:(i + 1) * SEQ], data[i * SEQ + 1:(i + 1) * SEQ + 1]
        out, hidden = lstm(drop(embedding(x)), state[0])
        state[0] = tuple(h.detach() for h in hidden)
        return decoder(drop(out)).view(-1, VOCAB), y.reshape(-1)

    def train_step(i):
        optimizer.zero_grad(set_to_none=True)
        logits, y = forward(i)
        loss = criterion(logits, y)
        loss.backward()
        optimizer.step()
        return loss.item()

    modules.train()
    train_step(0)
    start = time.perf_counter()
    loss = sum(train_step(i) for i in range(nb)) / nb
    train_s = time.perf_counter() - start
    modules.eval()
    with torch.no_grad():
        forward(0)
        start = time.perf_counter()
        for i in range(nb):
            forward(i)
        fwd_s = time.perf_counter() - start
        cell = nn.LSTMCell(1, 51)
        x, h, c = torch.zeros(1, 1), torch.zeros(1, 51), torch.zeros(1, 51)
        cell_s = benchlib.measure(lambda: cell(x, (h, c)), 5, 0.2, 1000000)[0]
    print(json.dumps({'train': train_s / nb, 'forward': fwd_s / nb, 'cell': cell_s, 'loss': loss,
                      'threads': torch.get_num_threads()}), flush=True)


# --- the parent -----------------------------------------------------------------------

def child_env(threads):
    env = dict(os.environ)
    for name in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
        env[name] = str(threads)
    return env


def run_gnn(args, exe, threads):
    records, peak_mib = benchlib.run_child([exe, '--batches', str(args.batches)], child_env(threads),
                                           'lstm.py')
    info = next(r for r in records if r['type'] == 'info')
    result = {r['case']: r for r in records if r['type'] == 'result'}
    return {'train': result['train']['seconds'] / args.batches,
            'forward': result['forward']['seconds'] / args.batches,
            'cell': result['cell']['seconds'], 'loss': result['train']['loss'], 'threads': info['threads'],
            'peak_rss_mib': peak_mib}


def run_torch(args, threads):
    cmd = [sys.executable, os.path.abspath(__file__), '--torch-child', str(threads),
           '--batches', str(args.batches)]
    records, peak_mib = benchlib.run_child(cmd, child_env(threads), 'lstm.py')
    return dict(records[-1], peak_rss_mib=peak_mib)


def main():
    args = parse_args()
    if args.torch_child:
        torch_child(args, args.torch_child)
        return
    exe = os.path.abspath(benchlib.driver_path(args, 'bench-lstm', 'lstm.py'))

    load_before = os.getloadavg()
    results = {}
    for threads in args.threads:
        runs = {'gnn': [], 'torch': []}
        for rep in range(args.repeats):
            # alternate which side goes first, so load drift hits both alike
            for side in (('gnn', 'torch') if rep % 2 == 0 else ('torch', 'gnn')):
                runs[side].append(run_gnn(args, exe, threads) if side == 'gnn' else run_torch(args, threads))
        results[threads] = runs
    load_after = os.getloadavg()

    print(f'# LSTM language model (vocab {VOCAB}, 2 × LSTM {HIDDEN}, seq {SEQ}, batch {BATCH}, '
          f'{args.batches} steps timed) and LSTMCell(1, 51) at batch 1; {platform.machine()}, '
          f'{os.cpu_count()} CPUs')
    print(f'# load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; '
          f'{args.repeats} run(s) per side, medians')
    for threads, runs in results.items():
        for side, name in (('gnn', 'Gnn'), ('torch', 'PyTorch')):
            print(f'# {threads} thread(s), {name}: ' + ', '.join(
                f'train {r["train"]:.3f} s loss {r["loss"]:.3f}' for r in runs[side]))
    print()
    print('| case | threads | Gnn | PyTorch | Gnn / PyTorch | target | |')
    print('|---|---|---|---|---|---|---|')
    summary = {}
    for threads, runs in results.items():
        for case, name, unit, scale in (('train', 'LM training step', 'ms', 1e3),
                                        ('forward', 'LM forward (eval, no grad)', 'ms', 1e3),
                                        ('cell', 'LSTMCell(1, 51) step, batch 1', 'µs', 1e6)):
            g = statistics.median(r[case] for r in runs['gnn'])
            t = statistics.median(r[case] for r in runs['torch'])
            target = TARGETS[case]
            verdict = '' if target is None else ('pass' if g / t <= target else 'MISS')
            summary[f'{case}@{threads}'] = {'gnn': g, 'torch': t}
            print(f'| {name} | {threads} | {g * scale:.1f} {unit} | {t * scale:.1f} {unit} | {g / t:.2f} | '
                  f'{"—" if target is None else f"≤ {target:.2f}"} | {verdict} |')
        # the whole child's high-water mark: its training steps dominate it
        g = max(r['peak_rss_mib'] for r in runs['gnn'])
        t = max(r['peak_rss_mib'] for r in runs['torch'])
        summary[f'peak_rss@{threads}'] = {'gnn': g, 'torch': t}
        print(f'| peak RSS (VmHWM of the run: LM training, forward, cell) | {threads} | {g:.0f} MiB | '
              f'{t:.0f} MiB | {g / t:.2f} | ≤ {TARGET_PEAK_RSS:.2f} | '
              f'{"pass" if g / t <= TARGET_PEAK_RSS else "MISS"} |')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'results': results, 'summary': summary, 'batches': args.batches,
                       'load_before': load_before, 'load_after': load_after}, f, indent=2)


if __name__ == '__main__':
    main()
