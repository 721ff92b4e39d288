#!/usr/bin/python3
"""Benchmark (issue 19): tsunagi on SimGrid against a hand-written S4U program moving the same
messages. For each size N it runs, one after the other,

  tsunagi run scenarios/bench/connectivity-all.toml --set network.tree.levels.0.fanout=N/20
  raw_s4u_connectivity --idiom I scenarios/bench/connectivity-all.toml network.tree.levels.0.fanout=N/20

(every rank connects to every other, authenticates the connection and exchanges 1 KiB each way;
sim/simgrid/bench/raw_s4u_connectivity.cpp says which messages the baseline moves; with
--workload-only it moves the first baseline's subset: SYN, SYN-ACK, the message and its answer,
no authentication) and prints wall time, peak RSS, the ratio of the wall times, the CPU times
(user + system) and their ratio, and the machine's 1-minute load average before each of the two
runs (the machine is shared: under load the wall time grows, the CPU time much less). Writes
docs/benchmarks-ratio-latest.csv.

The baseline's idiom (sim/simgrid/bench/raw_s4u_transport.hpp): per-transfer (the default, the
fair one: transfers settled as tsunagi's adapter settles them), per-transfer-waited (the adapter's
way before send handles: each put waited for), per-transfer-unwaited (no SimGrid list walk, every
transfer of the run kept alive) or wait-all (the naive S4U idiom, whose own cost grows with
everything a rank has sent).

Usage: tools/bench_simgrid_ratio.py [--sizes 100,200,400,1000] [--repeat 1] [--timeout S]
                                   [--idiom per-transfer] [--workload-only]
       (binaries from build/, or TSUNAGI=... RAW_S4U=...)"""
import argparse
import json
import os
import sys

from measured_run import measured_run_cpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "scenarios", "bench", "connectivity-all.toml")
HOSTS_PER_LEAF = 20


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def timed(cmd, timeout):
    """measured_run_cpu with a wall-clock limit (TimeoutError when the run did not finish)."""
    status, wall, rss, cpu = measured_run_cpu(cmd, timeout or None)
    if status != 0:
        sys.exit(f"{cmd[0]} failed with status {status}")
    return wall, rss, cpu


def run_size(tsunagi, raw, n, timeout, baseline_flags):
    size = f"network.tree.levels.0.fanout={n // HOSTS_PER_LEAF}"
    out = os.path.join(ROOT, "out", "bench", f"connectivity-{n}")
    row = {"processes": n, "baseline": " ".join(baseline_flags), "load_before": load_average()}
    row["tsunagi_wall_s"], row["tsunagi_rss_mb"], row["tsunagi_cpu_s"] = timed(
        [tsunagi, "run", SCENARIO, "--set", size, "--out", out, "--quiet"], timeout)
    with open(os.path.join(out, "result.json")) as f:
        result = json.load(f)
    row["pairs_connected"] = result["relay"]["pairs_connected"]
    row["load_between"] = load_average()
    try:
        row["raw_wall_s"], row["raw_rss_mb"], row["raw_cpu_s"] = timed(
            [raw, *baseline_flags, SCENARIO, size], timeout)
        row["raw_stopped"] = False
    except TimeoutError:
        # The baseline outlived the limit: tsunagi's figures stand, the wall ratio is a bound.
        row["raw_wall_s"], row["raw_rss_mb"], row["raw_cpu_s"] = timeout, 0.0, 0.0
        row["raw_stopped"] = True
    row["ratio"] = row["tsunagi_wall_s"] / row["raw_wall_s"]
    row["cpu_ratio"] = row["tsunagi_cpu_s"] / row["raw_cpu_s"] if row["raw_cpu_s"] else 0.0
    for key in ("tsunagi_wall_s", "raw_wall_s", "ratio", "tsunagi_cpu_s", "raw_cpu_s", "cpu_ratio",
                "tsunagi_rss_mb", "raw_rss_mb"):
        row[key] = round(row[key], 2)
    return row


def table_row(row):
    """One Markdown row; a stopped baseline shows its limit and the ratio as a bound."""
    stopped = row["raw_stopped"]
    raw_wall = f"> {row['raw_wall_s']} s (stopped)" if stopped else f"{row['raw_wall_s']} s"
    ratio = f"< {row['ratio']}x" if stopped else f"{row['ratio']}x"
    raw_cpu = "?" if stopped else f"{row['raw_cpu_s']} s"
    cpu_ratio = "?" if stopped else f"{row['cpu_ratio']}x"
    raw_rss = "?" if stopped else f"{row['raw_rss_mb']:.0f} MB"
    return (f"| {row['processes']:,} | {row['tsunagi_wall_s']} s | {raw_wall} | {ratio} | "
            f"{row['tsunagi_cpu_s']} s | {raw_cpu} | {cpu_ratio} | {row['tsunagi_rss_mb']:.0f} MB | "
            f"{raw_rss} | {row['load_before']:.2f}, {row['load_between']:.2f} |")


def write_csv(rows):
    with open(os.path.join(ROOT, "docs", "benchmarks-ratio-latest.csv"), "w") as f:
        keys = list(rows[0].keys())
        f.write(",".join(keys) + "\n")
        for row in rows:
            f.write(",".join(str(row[k]) for k in keys) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100,200,400,1000")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each size (all printed)")
    ap.add_argument("--timeout", type=float, default=0, help="give up on a run after S seconds")
    ap.add_argument("--idiom", default="per-transfer",
                    choices=["per-transfer", "per-transfer-waited", "per-transfer-unwaited",
                             "wait-all"],
                    help="how the baseline moves messages through SimGrid")
    ap.add_argument("--workload-only", action="store_true",
                    help="baseline moves SYN, SYN-ACK, message and answer only (no authentication)")
    args = ap.parse_args()
    tsunagi = os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi"))
    raw = os.environ.get("RAW_S4U",
                         os.path.join(ROOT, "build", "sim", "simgrid", "raw_s4u_connectivity"))
    baseline_flags = ["--idiom", args.idiom] + (["--workload-only"] if args.workload_only else [])
    print(f"baseline: raw_s4u_connectivity {' '.join(baseline_flags)}", flush=True)
    rows = []
    print("| processes | tsunagi wall | raw S4U wall | ratio | tsunagi CPU | raw S4U CPU | CPU ratio |"
          " tsunagi peak RSS | raw peak RSS | load (1 min) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        if n % HOSTS_PER_LEAF:
            sys.exit(f"--sizes: {n} is not a multiple of {HOSTS_PER_LEAF} (hosts per leaf)")
        for _ in range(args.repeat):
            try:
                row = run_size(tsunagi, raw, n, args.timeout, baseline_flags)
            except TimeoutError:
                print(f"| {n:,} | > {args.timeout:.0f} s (tsunagi stopped) | | | | | | | | "
                      f"{load_average():.2f} |", flush=True)
                continue
            rows.append(row)
            write_csv(rows)  # after every size: a run stopped halfway keeps what it measured
            print(table_row(row), flush=True)


if __name__ == "__main__":
    main()
