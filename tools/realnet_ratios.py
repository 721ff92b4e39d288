#!/usr/bin/python3
"""Wall-clock ratios of the realnet adapter against plain Asio in the three configurations of
issue 34: unpinned, both sides on one core (taskset -c 0), and beside two CPU hogs.

Runs `tsunagi-realnet-bench --sizes SIZES --each` RUNS times per configuration. The
configurations take turns (unpinned, pinned, hogs, unpinned, ...), so a change in what else runs
on the machine falls on all three alike instead of on the last one. Every run is itself paired
rounds (a block of the adapter's round trips and one of plain Asio's, back to back): its ratio is
the median of its pairs' ratios. The summary pools every pair of every run of a configuration:
the median of all pairs' ratios with its quartiles, and the median of the runs' medians, so one
run that landed in a noisy second decides nothing. Also printed: the machine (CPU model,
kernel), the load average before and after every run and how busy the CPUs were in the second
before it (hogs included), each run's lines, and Markdown tables for docs/realnet.md.

  tools/realnet_ratios.py [--build build] [--runs 3] [--sizes 64,1048576] [--pairs 21]
                          [--configs unpinned,pinned,hogs]

The hogs are two `sh -c 'while :; do :; done'` this script starts before each hogs run and
kills (by their pid) after it, also on Ctrl-C. Wall-clock figures mean something only on a
quiet machine: look at the load it prints.
"""
import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import time

HOG = ["sh", "-c", "while :; do :; done"]
# tsunagi-realnet-bench --each, on standard error, one line per pair:
# pair  3    1048576 BA adapter      412.0 plain      398.1 ratio   1.03
PAIR = re.compile(r"^pair\s+\d+\s+(\d+)\s+\w+\s+adapter\s+(\S+)\s+plain\s+(\S+)\s+ratio")
NAMES = {"unpinned": "unpinned", "pinned": "`taskset -c 0` (one core)",
         "hogs": "beside two CPU hogs"}


def cpu_model():
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def load():
    with open("/proc/loadavg") as average:
        return average.read().split()[0]


def busy():
    """How busy the CPUs were over the last second, in % of all of them (from /proc/stat): the
    load average lags by a minute, this says whether something else runs right now."""
    def sample():
        with open("/proc/stat") as stat:
            fields = [int(v) for v in stat.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]  # total, idle + iowait
    total0, idle0 = sample()
    time.sleep(1)
    total1, idle1 = sample()
    return f"{100 * (1 - (idle1 - idle0) / max(1, total1 - total0)):.0f} %"


def quartiles(values):
    """(q1, median, q3) as the bench computes them: the value at that fraction of the sorted
    values."""
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return at(0.25), at(0.5), at(0.75)


def run_bench(args, config):
    """One run: (command, load before, load after, its standard output, rows by size, the
    pairs' (adapter µs, plain µs) by size)."""
    command = [os.path.join(args.build, "realnet", "tsunagi-realnet-bench"), "--sizes",
               args.sizes, "--pairs", str(args.pairs), "--each"]
    if config == "pinned":
        command = ["taskset", "-c", "0"] + command
    hogs = [subprocess.Popen(HOG) for _ in range(2)] if config == "hogs" else []
    try:
        if hogs:
            time.sleep(1)  # the hogs running before the load is read
        before = f"{load()} ({busy()} busy)"
        result = subprocess.run(command, check=True, capture_output=True, text=True)
        after = load()
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    rows = {}
    for line in result.stdout.splitlines()[1:]:
        fields = line.split()
        # bytes adapter_us plain_us ratio adapter_MB/s plain_MB/s ratio_q1 ratio_q3
        if len(fields) == 8:
            rows[int(fields[0])] = (float(fields[1]), float(fields[2]), fields[3], fields[6],
                                    fields[7])
    pairs = {}
    for line in result.stderr.splitlines():
        match = PAIR.match(line)
        if match:
            size, adapter, plain = int(match.group(1)), float(match.group(2)), float(match.group(3))
            pairs.setdefault(size, []).append((adapter, plain))
    return " ".join(command), before, after, result.stdout, rows, pairs


def size_name(size):
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size >> 10} KiB"
    return f"{size} B"


def print_runs(sizes, results):
    print("| configuration | load before → after | " +
          " | ".join(f"{size_name(s)}: ratio [q1–q3] (adapter / plain µs)" for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for config, runs in results.items():
        for before, after, rows, _ in runs:
            cells = []
            for size in sizes:
                if size not in rows:
                    cells.append("-")
                    continue
                a, p, ratio, q1, q3 = rows[size]
                cells.append(f"{ratio} [{q1}–{q3}] ({a:g} / {p:g})")
            print(f"| {NAMES.get(config, config)} | {before} → {after} | " + " | ".join(cells) +
                  " |")


def print_pooled(sizes, results):
    """Per configuration and size: every pair of every run pooled (median ratio, quartiles,
    median round trips), and the median of the runs' own ratios."""
    print("| configuration | " + " | ".join(
        f"{size_name(s)}: pooled ratio [q1–q3], pairs; median of runs (adapter / plain µs)"
        for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for config, runs in results.items():
        cells = []
        for size in sizes:
            pairs = [pair for *_, by_size in runs for pair in by_size.get(size, [])]
            if not pairs:
                cells.append("-")
                continue
            q1, ratio, q3 = quartiles([a / p for a, p in pairs])
            of_runs = statistics.median(float(rows[size][2]) for _, _, rows, _ in runs
                                        if size in rows)
            adapter = statistics.median(a for a, _ in pairs)
            plain = statistics.median(p for _, p in pairs)
            cells.append(f"**{ratio:.2f}** [{q1:.2f}–{q3:.2f}], {len(pairs)}; {of_runs:.2f} "
                         f"({adapter:.1f} / {plain:.1f})")
        print(f"| {NAMES.get(config, config)} | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=21)
    parser.add_argument("--sizes", default="64,1048576")
    parser.add_argument("--configs", default="unpinned,pinned,hogs")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    configs = args.configs.split(",")
    print(f"# {cpu_model()}, {os.cpu_count()} CPUs, kernel {platform.release()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    results = {config: [] for config in configs}
    for run in range(args.runs):
        for config in configs:  # in turns: what else runs on the machine falls on all alike
            command, before, after, output, rows, pairs = run_bench(args, config)
            print(f"## {config} run {run + 1}: load {before} -> {after}: {command}")
            print(output, end="", flush=True)
            results[config].append((before, after, rows, pairs))
    print(f"\n# ended {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {load()}\n")
    print_runs(sizes, results)
    print()
    print_pooled(sizes, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
