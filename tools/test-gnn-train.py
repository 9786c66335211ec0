#!/usr/bin/python3
"""Test of gnn-train (suite 'tools'): trains on a small subset, checks the
printed accuracy line and the checkpoint, resumes from it, checks that the
resumed run ends with exactly the weights of an uninterrupted one, and that
errors (missing dataset, bad options, bad checkpoint) give one message and
exit status 1.

    test-gnn-train.py BUILD/tools/gnn-train
"""
import json
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile

DATA = "/usr/share/datasets/fashion-mnist"
LIMIT = "640"

failures = 0


def check(cond, what):
    global failures
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failures += 1


def run(*args):
    return subprocess.run([TRAIN, *args], capture_output=True, text=True, timeout=120)


def read_safetensors(path):
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = blob[8 + n:]
    tensors = {k: data[v["data_offsets"][0]:v["data_offsets"][1]] for k, v in header.items()}
    return tensors, meta


TRAIN = sys.argv[1]
if not os.path.exists(os.path.join(DATA, "train-images-idx3-ubyte.gz")):
    print("1..0 # SKIP dataset-fashion-mnist is not installed")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp:
    ck1 = os.path.join(tmp, "one.safetensors")
    ck2 = os.path.join(tmp, "resumed.safetensors")
    ck_straight = os.path.join(tmp, "straight.safetensors")

    # 1 epoch on a subset
    r = run("--limit", LIMIT, "--epochs", "1", "--checkpoint", ck1, "--seed", "3")
    check(r.returncode == 0, "gnn-train --limit %s exits 0 (stderr: %s)" % (LIMIT, r.stderr.strip()))
    m = re.search(r"epoch 1/1: test accuracy ([0-9.]+)% \((\d+)/(\d+)", r.stdout)
    check(m is not None, "prints a test accuracy line")
    if m:
        check(int(m.group(3)) == int(LIMIT), "evaluates on the first --limit test images")
        check(float(m.group(1)) > 30.0, "learns something in one small epoch (%s%%)" % m.group(1))
    check(re.search(r"epoch 1/1: train loss [0-9.]+, %s samples" % LIMIT, r.stdout) is not None,
          "prints the train loss and samples per epoch")
    check(os.path.exists(ck1), "writes the checkpoint")
    tensors, meta = read_safetensors(ck1)
    check(meta.get("gnn-train.epoch") == "1" and meta.get("gnn-train.model") == "mlp",
          "the checkpoint's metadata has the epoch and model")
    check("model.0.weight" in tensors and "model.4.bias" in tensors, "the checkpoint has the model")
    check(any(k.startswith("optimizer.state.") and k.endswith("momentum_buffer") for k in tensors),
          "the checkpoint has the SGD momentum buffers")

    # resume for a second epoch
    r = run("--resume", ck1, "--epochs", "2", "--checkpoint", ck2)
    check(r.returncode == 0, "resuming exits 0 (stderr: %s)" % r.stderr.strip())
    check("resumed from" in r.stdout, "says it resumed")
    check("epoch 1/2" not in r.stdout and re.search(r"epoch 2/2: test accuracy", r.stdout) is not None,
          "trains only epoch 2")

    # the same 2 epochs without interruption give the same weights, bit for bit
    r = run("--limit", LIMIT, "--epochs", "2", "--checkpoint", ck_straight, "--seed", "3")
    check(r.returncode == 0, "2 epochs straight exit 0")
    a, _ = read_safetensors(ck2)
    b, _ = read_safetensors(ck_straight)
    check(a.keys() == b.keys() and all(a[k] == b[k] for k in a), "resuming is exact (same tensors)")

    # mid-epoch: interrupted after 7 batches (checkpoints every 4), resumed in
    # another worker count: the same per-epoch losses and weights, bit for bit
    ck_mid = os.path.join(tmp, "mid.safetensors")
    r = run("--limit", LIMIT, "--epochs", "2", "--checkpoint", ck_mid, "--seed", "3",
            "--checkpoint-every", "4", "--max-batches", "7")
    check(r.returncode == 0 and "stopped after 7 batches" in r.stdout, "an interrupted run exits 0")
    _, meta = read_safetensors(ck_mid)
    check(meta.get("gnn-train.epoch") == "0" and "'batches': <int64 4>" in meta.get("gnn-train.loader-state", ""),
          "the mid-epoch checkpoint holds the loader state after 4 batches")
    r = run("--resume", ck_mid, "--epochs", "2", "--checkpoint", ck2, "--workers", "0")
    check(r.returncode == 0 and "and part of the next" in r.stdout,
          "resuming mid-epoch exits 0 (stderr: %s)" % r.stderr.strip())
    losses = re.findall(r"epoch \d/2: train loss [0-9.]+", r.stdout)
    r_straight = run("--limit", LIMIT, "--epochs", "2", "--checkpoint", ck_straight, "--seed", "3",
                     "--checkpoint-every", "4")
    want = re.findall(r"epoch \d/2: train loss [0-9.]+", r_straight.stdout)
    check(len(want) == 2 and losses == want, "the same loss curve (%s vs %s)" % (losses, want))
    a, _ = read_safetensors(ck2)
    b, _ = read_safetensors(ck_straight)
    check(a.keys() == b.keys() and all(a[k] == b[k] for k in a), "resuming mid-epoch is exact")

    # on a pipe: plain progress lines (every batch with --progress-interval 0)
    # with samples/s and the epoch's ETA; none in a short run by default
    ck_tmp = os.path.join(tmp, "progress.safetensors")
    r = run("--limit", LIMIT, "--epochs", "1", "--checkpoint", ck_tmp, "--seed", "3",
            "--progress-interval", "0")
    lines = re.findall(r"^epoch 1/1: batch (\d+)/10 \((\d+)%\), (\d+) samples, loss [0-9.]+, "
                       r"\d+ samples/s, ETA (\d+:\d\d)$", r.stdout, re.M)
    check(r.returncode == 0 and [int(b) for b, _, _, _ in lines] == list(range(1, 11)),
          "a progress line per batch when stdout is a pipe (%d lines)" % len(lines))
    check(lines and lines[-1][1] == "100" and lines[-1][2] == LIMIT and lines[-1][3] == "0:00",
          "the last line: 100%, every sample, ETA 0:00")
    check("\r" not in r.stdout, "no terminal redraws on a pipe")
    r = run("--limit", LIMIT, "--epochs", "1", "--checkpoint", ck_tmp, "--seed", "3")
    check(r.returncode == 0 and "batch 1/10" not in r.stdout, "default interval: 10 s")
    r = run("--progress-interval", "-1")
    check(r.returncode == 1 and "--progress-interval" in r.stderr, "bad --progress-interval: exit 1")

    # SIGINT / SIGTERM mid-epoch (after batch 3, held there by --pause-after):
    # a checkpoint of the 3 batches, exit 128 + signal, and the resumed run
    # ends with the weights of the uninterrupted one, bit for bit
    for sig, name in ((signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM")):
        ck_sig = os.path.join(tmp, "signal-%s.safetensors" % name)
        proc = subprocess.Popen([TRAIN, "--limit", LIMIT, "--epochs", "2", "--checkpoint", ck_sig,
                                 "--seed", "3", "--pause-after", "3"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if "paused after 3 batches" in line:
                proc.send_signal(sig)
                break
        out, err = proc.communicate(timeout=120)
        check(proc.returncode == 128 + sig, "%s: exit %d (got %s, stderr: %s)"
              % (name, 128 + sig, proc.returncode, err.strip()))
        check("interrupted by %s after batch 3/10 of epoch 1: checkpoint %s" % (name, ck_sig) in out,
              "%s: says where it stopped and where the checkpoint is" % name)
        _, meta = read_safetensors(ck_sig)
        check(meta.get("gnn-train.epoch") == "0"
              and "'batches': <int64 3>" in meta.get("gnn-train.loader-state", ""),
              "%s: the checkpoint holds the 3 batches done" % name)
        ck_after = os.path.join(tmp, "after-%s.safetensors" % name)
        r = run("--resume", ck_sig, "--epochs", "2", "--checkpoint", ck_after)
        check(r.returncode == 0, "%s: resuming exits 0 (stderr: %s)" % (name, r.stderr.strip()))
        a, _ = read_safetensors(ck_after)
        b, _ = read_safetensors(ck_straight)
        check(a.keys() == b.keys() and all(a[k] == b[k] for k in a),
              "%s: resuming after the signal is exact" % name)

    # errors: one line on stderr, exit 1
    r = run("--data-dir", os.path.join(tmp, "nowhere"), "--limit", "64")
    check(r.returncode == 1 and "Fashion-MNIST not found" in r.stderr, "missing dataset: exit 1 with a message")
    r = run("--model", "resnet")
    check(r.returncode == 1 and "--model must be mlp or cnn" in r.stderr, "bad --model: exit 1")
    r = run("--epochs", "zero")
    check(r.returncode == 1 and "gnn-train:" in r.stderr, "unparsable --epochs: exit 1")
    bad = os.path.join(tmp, "bad.safetensors")
    with open(bad, "wb") as f:
        f.write(b"not a safetensors file")
    r = run("--resume", bad)
    check(r.returncode == 1 and "cannot resume" in r.stderr, "bad checkpoint: exit 1")
    r = run("--resume", ck1, "--model", "cnn")
    check(r.returncode == 1 and "cannot resume it with --model cnn" in r.stderr,
          "mismatched checkpoint: exit 1")
    check("Traceback" not in r.stderr and "CRITICAL" not in r.stderr, "no crash output")

sys.exit(1 if failures else 0)
