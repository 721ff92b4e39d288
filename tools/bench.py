#!/usr/bin/python3
"""Benchmark: switched clusters of 1,000 and 2,000 processes through inference, plan, routing
and a message workload on SimGrid. Prints and writes benchmarks-latest.csv with wall time, peak
memory (max RSS of the run) and RTT probe count into build/bench/ (--out DIR), or over the
committed docs/benchmarks-latest.csv with --update.

With --scalable it runs scenarios/bench/switched-10k.toml instead (leader rounds, RTT tree,
directory on demand, no workload; 400 hosts per aggregation switch, so sizes are multiples of
400) and writes benchmarks-scalable-latest.csv, adding the tree's correctness and the
RTT probes as a share of N(N-1).

Usage: tools/bench.py [--sizes 1000,2000] [--backend simgrid] [--scalable] [--out DIR | --update]"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

from measured_run import measured_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "validation"))
from common import add_output_options, output_dir  # noqa: E402
SCENARIO = os.path.join(ROOT, "scenarios", "bench", "switched-1k.toml")
SCALABLE = os.path.join(ROOT, "scenarios", "bench", "switched-10k.toml")


def command(binary, processes, backend, scalable, out):
    if scalable:
        # 10 aggregation switches x F leaves x 40 hosts: F = N / 400.
        size = ["--set", f"network.tree.levels.1.fanout={processes // 400}"]
        scenario = SCALABLE
    else:
        size = ["--set", f"network.tree.hosts_per_leaf={processes // 25}"]
        scenario = SCENARIO
    return [binary, "run", scenario, "--backend", backend, "--out", out, "--quiet"] + size


def run_one(binary, processes, backend, scalable):
    # One measured run at a time, not `tsunagi sweep`: the benchmark's figures are each run's
    # peak memory (max RSS of the process, which a sweep does not record) and wall time, and a
    # sweep's parallel points would share the cores they measure.
    out = os.path.join(ROOT, "out", "bench", f"{backend}-{processes}{'-scalable' if scalable else ''}")
    cmd = command(binary, processes, backend, scalable, out)
    status, wall, peak_rss_mb = measured_run(cmd)
    if status != 0:
        sys.exit(f"run failed with status {status}")
    with open(os.path.join(out, "result.json")) as f:
        r = json.load(f)
    n = r["processes"]
    row = {
        "backend": backend, "processes": n, "wall_s": round(wall, 2),
        "peak_rss_mb": round(peak_rss_mb, 1),
        "rtt_probes": r["inference"]["rtt_probes"],
        "groups_correct": r["inference"]["groups_correct"],
        "max_connections": r["connections"]["max_per_node"],
        "simulated_s": r.get("simulated_end_s"),
    }
    if scalable:
        row["probe_share"] = round(r["inference"]["rtt_probes"] / (n * (n - 1)), 4)
        row["tree_correct"] = r["inference"].get("tree_correct")
        row["inference_end_s"] = r["inference"]["inference_end_ns"] / 1e9
    else:
        row["verified"] = r["workload"]["verified"]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,2000")
    ap.add_argument("--backend", default="simgrid")
    ap.add_argument("--scalable", action="store_true",
                    help="switched-10k.toml: scalable inference at N = multiples of 400")
    add_output_options(ap)
    args = ap.parse_args()
    dest = output_dir(args, os.path.join(ROOT, "docs"), "", under="bench")
    binary = os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi"))
    rows = [run_one(binary, int(n), args.backend, args.scalable) for n in args.sizes.split(",")]
    keys = list(rows[0].keys())
    name = "benchmarks-scalable-latest.csv" if args.scalable else "benchmarks-latest.csv"
    with open(os.path.join(dest, name), "w") as f:
        f.write(",".join(keys) + "\n")
        for row in rows:
            f.write(",".join(str(row[k]) for k in keys) + "\n")
    for row in rows:
        print(json.dumps(row))
    print(f"wrote {os.path.join(dest, name)}", file=sys.stderr)


if __name__ == "__main__":
    main()
