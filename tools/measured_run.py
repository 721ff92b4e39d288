"""One program run measured from outside: wall time and the peak resident memory of its process
(shared by the benchmark commands in tools/)."""
import os
import sys
import time


def measured_run_cpu(cmd):
    """measured_run, plus the child's CPU seconds (user + system): on a shared machine the wall
    time grows with the load, the CPU time much less. Returns (status, wall s, peak MB, cpu s)."""
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execv(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    return (status, time.monotonic() - start, usage.ru_maxrss / 1024.0,
            usage.ru_utime + usage.ru_stime)


def measured_run(cmd):
    """Runs cmd (argv, cmd[0] an executable path) in a fresh child, so the child's ru_maxrss is
    this run's peak alone. Returns (exit status, wall seconds, peak RSS in MB)."""
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execv(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    return status, time.monotonic() - start, usage.ru_maxrss / 1024.0
