#!/usr/bin/env python3
"""Runs a program under mpirun for meson test (suite 'mpi').

    run-mpi.py NP [--expect-killed [--recovery]] PROGRAM ARGS...

Sets what mpirun needs in a container (running as root is allowed,
--oversubscribe so 3 ranks fit on 2 cores, no core binding, shared-memory
single copy off) and skips (exit 77) with a clear message only when mpirun
is missing. With --expect-killed the program's last rank kills itself
(SIGKILL) during a collective: the test passes when mpirun ends within 5 s
of the kill with a non-zero status. mpirun normally ends such a job
itself; with --recovery it lets the survivors run (--enable-recovery), so
the test checks Gnn's own guarantee: every surviving rank's wait fails with
a GError (the program prints "failed as expected") within the limit.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

KILL_LIMIT_S = 5.0


def mpirun_command(np, argv):
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        print("SKIP: mpirun not found (install openmpi-bin to run the MPI tests)")
        sys.exit(77)
    return [mpirun, "-np", str(np), "--oversubscribe", "--bind-to", "none",
            "--mca", "btl_vader_single_copy_mechanism", "none"] + argv


def mpi_env():
    env = dict(os.environ)
    env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Open MPI keeps allocations until exit on purpose; sanitizer runs of
    # the library check leaks in the C suites, not here.
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    return env


def main():
    args = sys.argv[1:]
    np = int(args.pop(0))
    expect_killed = recovery = False
    if args and args[0] == "--expect-killed":
        expect_killed = True
        args.pop(0)
    if args and args[0] == "--recovery":
        recovery = True
        args.pop(0)
    cmd = mpirun_command(np, (["--enable-recovery"] if recovery else []) + args)
    env = mpi_env()
    if not expect_killed:
        proc = subprocess.run(cmd, env=env, timeout=120)
        sys.exit(proc.returncode)

    with tempfile.TemporaryDirectory() as tmp:
        stamp = os.path.join(tmp, "killed-at")
        env["GNN_TEST_KILL_STAMP"] = stamp
        proc = subprocess.run(cmd, env=env, timeout=60, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        ended = time.time()
        print(proc.stdout)
        if not os.path.exists(stamp):
            print("FAIL: the last rank did not reach its kill point")
            sys.exit(1)
        with open(stamp) as f:
            killed = int(f.read()) / 1e6
    took = ended - killed
    print(f"mpirun exited with status {proc.returncode}, {took:.2f} s after the kill")
    if proc.returncode == 0 and not recovery:
        print("FAIL: the job succeeded although a rank was killed")
        sys.exit(1)
    if recovery:
        survivors = proc.stdout.count("the collective failed as expected")
        if survivors != np - 1:
            print(f"FAIL: {survivors} of {np - 1} surviving ranks reported the failure")
            sys.exit(1)
    if took > KILL_LIMIT_S:
        print(f"FAIL: the surviving ranks took {took:.2f} s (limit {KILL_LIMIT_S} s)")
        sys.exit(1)
    sys.exit(0)


if __name__ == "__main__":
    main()
