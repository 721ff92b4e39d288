"""One program run measured from outside: wall time and the peak resident memory of its process
(shared by the benchmark commands in tools/)."""
import os
import signal
import sys
import time


def measured_run_cpu(cmd, timeout=None):
    """Runs cmd (argv, cmd[0] an executable path) in a fresh child, so the child's rusage is this
    run's alone. Returns (exit status, wall seconds, peak RSS in MB, CPU seconds). On a shared
    machine the wall time grows with the load, the CPU time (user + system) much less. With a
    timeout (seconds) the child is killed past it and TimeoutError raised."""
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execv(cmd[0], cmd)
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG if timeout else 0)
        if done:
            break
        if time.monotonic() - start > timeout:
            os.kill(pid, signal.SIGKILL)
            os.wait4(pid, 0)
            raise TimeoutError(f"{cmd[0]} still running after {timeout} s: stopped")
        time.sleep(0.2)
    return (status, time.monotonic() - start, usage.ru_maxrss / 1024.0,
            usage.ru_utime + usage.ru_stime)


def measured_run(cmd):
    """measured_run_cpu without the CPU time: (exit status, wall seconds, peak RSS in MB)."""
    return measured_run_cpu(cmd)[:3]
