"""One program run measured from outside: wall time and the peak resident memory of its process
(shared by the benchmark commands in tools/)."""
import os
import sys
import time


def measured_run_cpu(cmd):
    """Runs cmd (argv, cmd[0] an executable path) in a fresh child, so the child's rusage is this
    run's alone. Returns (exit status, wall seconds, peak RSS in MB, CPU seconds). On a shared
    machine the wall time grows with the load, the CPU time (user + system) much less."""
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execv(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    return (status, time.monotonic() - start, usage.ru_maxrss / 1024.0,
            usage.ru_utime + usage.ru_stime)


def measured_run(cmd):
    """measured_run_cpu without the CPU time: (exit status, wall seconds, peak RSS in MB)."""
    return measured_run_cpu(cmd)[:3]
