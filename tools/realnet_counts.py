#!/usr/bin/python3
"""Counts per round trip of the realnet bench's two sides (issue 34): system calls by kind,
EAGAIN returns, page faults, context switches and bytes copied or filled in user space.

Each side runs alone (`tsunagi-realnet-bench --only SIDE`) with a few and with many round trips;
the difference divided by the difference in round trips is the cost of one round trip, both
threads (sender and echo) together, without the set-up. Counts, unlike wall-clock times, hardly
depend on the machine's load, so they can be taken on a busy machine (docs/realnet.md).

  tools/realnet_counts.py [--build build] [--size 1048576] [--few 20] [--many 220]

Needs strace and perf (perf stat's software events; perf_event_paranoid <= 2 is enough) and
the copy-count shim (build target tsunagi-copy-count).
"""
import argparse
import collections
import os
import re
import resource
import subprocess
import sys
import tempfile

SYSCALLS = ["recvfrom", "recvmsg", "read", "sendto", "sendmsg", "writev", "write", "epoll_wait",
            "epoll_ctl", "ioctl", "futex"]
PERF_EVENTS = ["page-faults", "context-switches", "cpu-migrations"]
CALL = re.compile(r"^\d+\s+(\w+)\(")
RESUMED = re.compile(r"^\d+\s+<\.\.\. (\w+) resumed>")
ERRNO = re.compile(r"= -1 (E[A-Z]+)")


def bench(args, side, rounds):
    return [os.path.join(args.build, "realnet", "tsunagi-realnet-bench"), "--only", side,
            "--rounds", str(rounds), "--sizes", str(args.size)]


def strace_counts(args, side, rounds):
    """System calls by name, and EAGAIN returns by name (as 'name EAGAIN')."""
    with tempfile.NamedTemporaryFile(suffix=".strace") as out:
        subprocess.run(["strace", "-f", "-qq", "-o", out.name] + bench(args, side, rounds),
                       check=True, stdout=subprocess.DEVNULL)
        counts = collections.Counter()
        with open(out.name, errors="replace") as trace:
            for line in trace:
                resumed = RESUMED.match(line)
                call = CALL.match(line)
                name = resumed.group(1) if resumed else call.group(1) if call else None
                if name is None:
                    continue
                if not resumed:
                    counts[name] += 1
                error = ERRNO.search(line)
                if error and error.group(1) == "EAGAIN":
                    counts[name + " EAGAIN"] += 1
        return counts


def perf_counts(args, side, rounds):
    """perf stat's software events, and the run's context switches and CPU time as getrusage
    sees them (involuntary switches are other programs taking the CPU: the machine's load)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(["perf", "stat", "-x", ",", "-e", ",".join(PERF_EVENTS)] +
                            bench(args, side, rounds), check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    counts = collections.Counter()
    counts["voluntary switches"] = after.ru_nvcsw - before.ru_nvcsw
    counts["involuntary switches"] = after.ru_nivcsw - before.ru_nivcsw
    counts["CPU us (user+sys)"] = 1e6 * (after.ru_utime + after.ru_stime -
                                         before.ru_utime - before.ru_stime)
    for line in result.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2] in PERF_EVENTS and fields[0].isdigit():
            counts[fields[2]] = int(fields[0])
    return counts


def copy_counts(args, side, rounds):
    """Bytes through memcpy/memmove/memset."""
    shim = os.path.join(args.build, "realnet", "libtsunagi-copy-count.so")
    result = subprocess.run(bench(args, side, rounds), check=True, capture_output=True, text=True,
                            env=dict(os.environ, LD_PRELOAD=os.path.abspath(shim)))
    counts = collections.Counter()
    for line in result.stderr.splitlines():
        fields = line.split()
        if len(fields) == 6 and fields[0] == "copy-count:":
            counts[fields[1] + " bytes"] = int(fields[4])
    return counts


def per_round_trip(args, side):
    """The counts of `many` round trips minus those of `few`, per round trip."""
    rows = collections.Counter()
    for measure in (strace_counts, perf_counts, copy_counts):
        few, many = measure(args, side, args.few), measure(args, side, args.many)
        for key in set(few) | set(many):
            rows[key] = (many[key] - few[key]) / (args.many - args.few)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--few", type=int, default=20)
    parser.add_argument("--many", type=int, default=220)
    args = parser.parse_args()
    sides = {side: per_round_trip(args, side) for side in ("adapter", "plain")}
    keys = [k for name in SYSCALLS for k in (name, name + " EAGAIN")]
    keys += ["syscalls (all)"] + PERF_EVENTS + ["voluntary switches", "involuntary switches"]
    keys += ["memcpy bytes", "memmove bytes", "memset bytes", "CPU us (user+sys)"]
    for rows in sides.values():
        rows["syscalls (all)"] = sum(v for k, v in rows.items()
                                     if " " not in k and k not in PERF_EVENTS)
    print(f"per round trip of {args.size} bytes ({args.many} - {args.few} round trips), "
          "both threads")
    print(f"| {'count':<20} | {'adapter':>12} | {'plain':>12} | {'ratio':>6} |")
    print(f"|{'-' * 22}|{'-' * 13}:|{'-' * 13}:|{'-' * 7}:|")
    for key in keys:
        a, p = sides["adapter"][key], sides["plain"][key]
        if abs(a) < 0.05 and abs(p) < 0.05:
            continue
        ratio = f"{a / p:6.2f}" if abs(p) >= 0.05 else "     -"
        print(f"| {key:<20} | {a:12.1f} | {p:12.1f} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
