#!/usr/bin/python3
"""Wall-clock ratios of the realnet adapter against plain Asio in the three configurations of
issue 34: unpinned, both sides on one core (taskset -c 0), and beside two CPU hogs.

Runs `tsunagi-realnet-bench --sizes SIZES` RUNS times per configuration (paired rounds: each
run's ratio is the median of its pairs' ratios, with quartiles) and prints the machine (CPU
model, kernel), the load average before and after every run (and how busy the CPUs were in the
second before it, hogs included), each run's lines and a Markdown table for docs/realnet.md
("Small messages").

  tools/realnet_ratios.py [--build build] [--runs 3] [--sizes 64,1048576]
                          [--configs unpinned,pinned,hogs]

The hogs are two `sh -c 'while :; do :; done'` this script starts and kills (by their pid) when
the configuration's runs end, also on Ctrl-C. Wall-clock figures mean something only on a quiet
machine: look at the load it prints.
"""
import argparse
import os
import platform
import subprocess
import sys
import time

HOG = ["sh", "-c", "while :; do :; done"]


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


def run_bench(args, pinned):
    command = [os.path.join(args.build, "realnet", "tsunagi-realnet-bench"), "--sizes",
               args.sizes]
    if pinned:
        command = ["taskset", "-c", "0"] + command
    before = f"{load()} ({busy()} busy)"
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    after = load()
    rows = {}
    for line in output.splitlines()[1:]:
        fields = line.split()
        # bytes adapter_us plain_us ratio adapter_MB/s plain_MB/s ratio_q1 ratio_q3
        if len(fields) == 8:
            rows[int(fields[0])] = (float(fields[1]), float(fields[2]), fields[3], fields[6],
                                    fields[7])
    return " ".join(command), before, after, output, rows


def size_name(size):
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size >> 10} KiB"
    return f"{size} B"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="64,1048576")
    parser.add_argument("--configs", default="unpinned,pinned,hogs")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"# {cpu_model()}, {os.cpu_count()} CPUs, kernel {platform.release()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    results = {}
    for config in args.configs.split(","):
        hogs = []
        try:
            if config == "hogs":
                hogs = [subprocess.Popen(HOG) for _ in range(2)]
                time.sleep(1)
            for run in range(args.runs):
                command, before, after, output, rows = run_bench(args, config == "pinned")
                print(f"## {config} run {run + 1}: load {before} -> {after}: {command}")
                print(output, end="", flush=True)
                results.setdefault(config, []).append((before, after, rows))
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
    names = {"unpinned": "unpinned", "pinned": "`taskset -c 0` (one core)",
             "hogs": "beside two CPU hogs"}
    print()
    print("| configuration | load before → after | " +
          " | ".join(f"{size_name(s)}: ratio [q1–q3] (adapter / plain µs)" for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for config, runs in results.items():
        for before, after, rows in runs:
            cells = []
            for size in sizes:
                if size not in rows:
                    cells.append("-")
                    continue
                a, p, ratio, q1, q3 = rows[size]
                cells.append(f"{ratio} [{q1}–{q3}] ({a:g} / {p:g})")
            print(f"| {names.get(config, config)} | {before} → {after} | " + " | ".join(cells) +
                  " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
