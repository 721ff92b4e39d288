#!/usr/bin/python3
"""Counts per round trip of the realnet bench's two sides (issue 34): system calls by kind,
EAGAIN returns, epoll waits, page faults, context switches, bytes copied or filled and
allocations in user space, for both threads together and for each thread (sender, echo).

Each side runs alone (`tsunagi-realnet-bench --only SIDE`) with a few and with many round trips;
the difference divided by the difference in round trips is the cost of one round trip, without
the set-up. Counts, unlike wall-clock times, hardly depend on the machine's load, so they can be
taken on a busy machine (docs/realnet.md, "Counts per round trip").

  tools/realnet_counts.py [--build build] [--size 1048576] [--few 20] [--many 220] [--taskset 0]
                         [--repeats 5]

Columns: `adapter` and `plain` are both threads together (and `ratio` adapter / plain); then each
side's `sender` (the main thread: sends a message, waits for it back) and `echo` (answers).
System calls are counted by `perf trace -s` (the kernel's tracepoints); their EAGAIN returns and
the kinds of epoll waits by `strace -ff`, which stops the thread at every call and so changes how
often a wait finds work already there: `epoll_wait poll` are waits with a zero time-out (Asio
looking for more work before it runs a handler), `epoll_wait block` the others (where a thread
may sleep), `epoll_wait empty` waits that returned no event. `voluntary switches` are the thread
going to sleep (a blocking wait that had to wait); on one core (--taskset 0) every switch hands
the core to the other side.

Needs strace and perf (perf trace reads tracepoints: root, or perf_event_paranoid -1 and access
to tracefs) and the copy-count shim (build target tsunagi-copy-count).
"""
import argparse
import collections
import glob
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile

SYSCALLS = ["recvfrom", "recvmsg", "read", "sendto", "sendmsg", "writev", "write", "epoll_wait",
            "epoll_ctl", "ioctl", "futex"]
EPOLL_KINDS = ["epoll_wait poll", "epoll_wait block", "epoll_wait empty"]
PERF_EVENTS = ["page-faults", "context-switches", "cpu-migrations"]
COPIES = ["memcpy", "memmove", "memset"]
ALLOCATIONS = ["malloc", "calloc", "realloc"]
THREADS = ["sender", "echo"]
CALL = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)")
ERRNO = re.compile(r"= -1 (E[A-Z]+)")
EPOLL_TIMEOUT = re.compile(r",\s*(-?\d+)$")


def bench(args, side, rounds):
    pin = ["taskset", "-c", args.taskset] if args.taskset else []
    return pin + [os.path.join(args.build, "realnet", "tsunagi-realnet-bench"), "--only", side,
                  "--rounds", str(rounds), "--sizes", str(args.size)]


def perf_trace_counts(args, side, rounds):
    """Per thread: system calls by name, as `perf trace -s` counts them (the kernel's
    tracepoints: no stop at every call, so the threads keep their timing, which decides how
    often a wait finds work ready). The sender is the main thread: the smallest thread id."""
    with tempfile.NamedTemporaryFile(suffix=".perf-trace") as out:
        subprocess.run(["perf", "trace", "-s", "-o", out.name, "--"] + bench(args, side, rounds),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out.name, errors="replace") as summary:
            text = summary.read()
    threads = {}
    tid = None
    for line in text.splitlines():
        header = re.match(r"^\s*\S.*\((\d+)\), \d+ events", line)
        if header:
            tid = int(header.group(1))
            threads[tid] = collections.Counter()
            continue
        row = re.match(r"^\s+([a-z_0-9]+)\s+(\d+)\s+(\d+)\s", line)
        if row and tid is not None:
            threads[tid][row.group(1)] += int(row.group(2))
    counts = collections.Counter()
    for tid, calls in threads.items():
        thread = "sender" if tid == min(threads) else "echo"
        for name, n in calls.items():
            counts[(thread, name)] += n
    return counts


def strace_counts(args, side, rounds):
    """Per thread: EAGAIN returns by name ('name EAGAIN') and epoll waits by kind (what
    perf trace -s does not tell). strace -ff writes one file per thread, so no call is split in
    two; the main thread's (the sender's) is the one that starts with execve. strace stops the
    thread at every call, which changes how often a wait finds work already there: the calls
    themselves are counted by perf_trace_counts."""
    with tempfile.TemporaryDirectory() as directory:
        prefix = os.path.join(directory, "trace")
        subprocess.run(["strace", "-ff", "-qq", "-o", prefix] + bench(args, side, rounds),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        counts = collections.Counter()
        for path in glob.glob(prefix + ".*"):
            with open(path, errors="replace") as trace:
                lines = trace.read().splitlines()
            thread = "sender" if lines and lines[0].startswith("execve(") else "echo"
            for line in lines:
                call = CALL.match(line)
                if call is None:
                    continue
                name, arguments, result = call.groups()
                keys = []
                error = ERRNO.search(line)
                if error and error.group(1) == "EAGAIN":
                    keys.append(name + " EAGAIN")
                if name == "epoll_wait":
                    timeout = EPOLL_TIMEOUT.search(arguments)
                    keys.append("epoll_wait poll" if timeout and timeout.group(1) == "0"
                                else "epoll_wait block")
                    if result == "0":
                        keys.append("epoll_wait empty")
                for key in keys:
                    counts[(thread, key)] += 1
        return counts


def median_of_runs(measure):
    """`measure` repeated --repeats times, each count the median of the runs: each run's set-up
    differs (how many buffers the adapter fills before the pieces that arrive repeat themselves
    depends on timing), and one 64 KiB block more or less in one run's set-up moves a
    per-round-trip figure by 30-300 bytes and 0.1-1 page faults."""
    def repeated(args, side, rounds):
        runs = [measure(args, side, rounds) for _ in range(args.repeats)]
        keys = set().union(*runs)
        return collections.Counter({key: statistics.median(run[key] for run in runs)
                                    for key in keys})
    return repeated


@median_of_runs
def perf_counts(args, side, rounds):
    """perf stat's software events (both threads), and each thread's context switches and CPU
    time as it reports them (getrusage RUSAGE_THREAD; involuntary switches are other programs
    taking the CPU: the machine's load)."""
    result = subprocess.run(["perf", "stat", "-x", ",", "-e", ",".join(PERF_EVENTS)] +
                            bench(args, side, rounds), check=True, capture_output=True, text=True)
    counts = collections.Counter()
    for line in result.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2] in PERF_EVENTS and fields[0].isdigit():
            counts[("all", fields[2])] = int(fields[0])
        fields = line.split()
        if len(fields) == 10 and fields[0] == "thread-usage:" and fields[1] in THREADS:
            thread = fields[1]
            counts[(thread, "voluntary switches")] = int(fields[2])
            counts[(thread, "involuntary switches")] = int(fields[4])
            counts[(thread, "CPU us (user+sys)")] = float(fields[6]) + float(fields[8])
    return counts


@median_of_runs
def copy_counts(args, side, rounds):
    """Bytes through memcpy/memmove/memset and calls to malloc/calloc/realloc, per thread."""
    shim = os.path.join(args.build, "realnet", "libtsunagi-copy-count.so")
    result = subprocess.run(bench(args, side, rounds), check=True, capture_output=True, text=True,
                            env=dict(os.environ, LD_PRELOAD=os.path.abspath(shim)))
    counts = collections.Counter()
    for line in result.stderr.splitlines():
        fields = line.split()
        # copy-count: tN NAME CALLS calls BYTES bytes (t0: main thread, t1: the echo's)
        if len(fields) == 7 and fields[0] == "copy-count:" and fields[1] in ("t0", "t1"):
            thread = THREADS[int(fields[1][1:])]
            if fields[2] in COPIES:
                counts[(thread, fields[2] + " bytes")] = int(fields[5])
            else:
                counts[(thread, fields[2] + " calls")] = int(fields[3])
    return counts


def per_round_trip(args, side):
    """The counts of `many` round trips minus those of `few`, per round trip, by (thread, key);
    thread 'all' for both together."""
    rows = collections.Counter()
    for measure in (perf_trace_counts, strace_counts, perf_counts, copy_counts):
        few, many = measure(args, side, args.few), measure(args, side, args.many)
        for key in set(few) | set(many):
            rows[key] = (many[key] - few[key]) / (args.many - args.few)
    for thread in THREADS:
        rows[(thread, "syscalls (all)")] = sum(
            v for (t, k), v in rows.items() if t == thread and " " not in k)
    for (thread, key), value in list(rows.items()):
        if thread != "all":
            rows[("all", key)] += value
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--few", type=int, default=20)
    parser.add_argument("--many", type=int, default=220)
    parser.add_argument("--repeats", type=int, default=5,
                        help="runs of perf stat and of the copy-count shim per round-trip count, "
                        "of whose counts the median is taken (default 5)")
    parser.add_argument("--taskset", metavar="CPUS",
                        help="run the bench under taskset -c CPUS (0: both threads on one core, "
                        "where every wait that finds nothing sleeps and switches to the other)")
    args = parser.parse_args()
    sides = {side: per_round_trip(args, side) for side in ("adapter", "plain")}
    keys = [k for name in SYSCALLS for k in (name, name + " EAGAIN")
            ] + EPOLL_KINDS + ["syscalls (all)"]
    keys += PERF_EVENTS + ["voluntary switches", "involuntary switches"]
    keys += [c + " bytes" for c in COPIES] + [a + " calls" for a in ALLOCATIONS]
    keys += ["CPU us (user+sys)"]
    pinned = f", taskset -c {args.taskset}" if args.taskset else ""
    print(f"per round trip of {args.size} bytes ({args.many} - {args.few} round trips{pinned}); "
          "adapter and plain: both threads")
    columns = [("adapter", "all"), ("plain", "all"), None, ("adapter", "sender"),
               ("adapter", "echo"), ("plain", "sender"), ("plain", "echo")]
    titles = ["adapter", "plain", "ratio", "adapter sender", "adapter echo", "plain sender",
              "plain echo"]
    print(f"| {'count':<20} | " + " | ".join(f"{t:>14}" for t in titles) + " |")
    print(f"|{'-' * 22}|" + "|".join(f"{'-' * 15}:" for _ in titles) + "|")
    for key in keys:
        a, p = sides["adapter"][("all", key)], sides["plain"][("all", key)]
        if abs(a) < 0.05 and abs(p) < 0.05:
            continue
        cells = []
        for column in columns:
            if column is None:
                cells.append(f"{a / p:14.2f}" if abs(p) >= 0.05 else f"{'-':>14}")
                continue
            side, thread = column
            has = thread == "all" or (thread, key) in sides[side]
            cells.append(f"{sides[side][(thread, key)]:14.1f}" if has else f"{'-':>14}")
        print(f"| {key:<20} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
