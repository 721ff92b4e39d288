#!/usr/bin/env python3
"""Benchmark: switched clusters of 1,000 and 2,000 processes through inference, plan, routing
and a message workload on SimGrid. Prints and writes docs/benchmarks-latest.csv with wall time,
peak memory (max RSS of the run) and RTT probe count.

Usage: tools/bench.py [--sizes 1000,2000] [--backend simgrid]"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "scenarios", "bench", "switched-1k.toml")


def run_one(binary, processes, backend):
    out = os.path.join(ROOT, "out", "bench", f"{backend}-{processes}")
    hosts_per_leaf = processes // 25
    cmd = [binary, "run", SCENARIO, "--backend", backend, "--out", out, "--quiet",
           "--set", f"network.tree.hosts_per_leaf={hosts_per_leaf}"]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    start = time.monotonic()
    # A fresh child per run, so ru_maxrss of the children is this run's peak.
    pid = os.fork()
    if pid == 0:
        os.execv(binary, cmd)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"run failed with status {status}")
    with open(os.path.join(out, "result.json")) as f:
        r = json.load(f)
    return {
        "backend": backend, "processes": r["processes"], "wall_s": round(wall, 2),
        "peak_rss_mb": round(usage.ru_maxrss / 1024.0, 1),
        "rtt_probes": r["inference"]["rtt_probes"],
        "groups_correct": r["inference"]["groups_correct"],
        "max_connections": r["connections"]["max_per_node"],
        "simulated_s": r.get("simulated_end_s"),
        "verified": r["workload"]["verified"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,2000")
    ap.add_argument("--backend", default="simgrid")
    args = ap.parse_args()
    binary = os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi"))
    rows = [run_one(binary, int(n), args.backend) for n in args.sizes.split(",")]
    keys = list(rows[0].keys())
    with open(os.path.join(ROOT, "docs", "benchmarks-latest.csv"), "w") as f:
        f.write(",".join(keys) + "\n")
        for row in rows:
            f.write(",".join(str(row[k]) for k in keys) + "\n")
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
