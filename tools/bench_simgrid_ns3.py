#!/usr/bin/python3
"""Benchmark (issue 34): the same scenario on SimGrid (flow level) and ns-3 (packet level), at
default settings, one run after the other from the same binary:

  tsunagi run scenarios/bench/switched-1k.toml --backend simgrid --quiet --out OUT/simgrid-0
  tsunagi run scenarios/bench/switched-1k.toml --backend ns3     --quiet --out OUT/ns3-0

Prints, per run, the CPU time (user + system of the run's own process: on a shared machine the
wall time grows with the load, the CPU time much less), wall time, peak RSS, the 1-minute load
average before the run, the simulated end and whether the run ended ok; then the ratio of ns-3's
CPU time to SimGrid's (issue 34's acceptance: at least 5 at default settings). A flow-level
simulator should be many times faster than a packet-level one: the ratio is how many. Each
run's own summary goes to its OUT/<backend>-<repeat>/summary.txt.

Usage: tools/bench_simgrid_ns3.py [--scenario FILE] [--set KEY=VALUE ...] [--repeat N]
                                  [--backends simgrid,ns3] [--out DIR] [--min-ratio R]
       (the binary from build/, or TSUNAGI=...)
A smaller cut: --set network.tree.hosts_per_leaf=12 (300 processes)."""
import argparse
import json
import os
import sys
import tempfile

from measured_run import measured_run_cpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "scenarios", "bench", "switched-1k.toml")


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_into(log, cmd, timeout=None):
    """measured_run_cpu with the run's summary (its stdout) written to `log`, so that the
    table stays readable."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(log.fileno(), 1)
    try:
        return measured_run_cpu(cmd, timeout)
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def run_backend(tsunagi, scenario, backend, overrides, out):
    """One measured run; its figures and the outcome read from result.json."""
    cmd = [tsunagi, "run", scenario, "--backend", backend, "--quiet", "--out", out]
    for override in overrides:
        cmd += ["--set", override]
    row = {"backend": backend, "load_before": load_average()}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "summary.txt"), "w") as log:
        status, row["wall_s"], row["rss_mb"], row["cpu_s"] = run_into(log, cmd)
    row["status"] = status
    try:
        with open(os.path.join(out, "result.json")) as f:
            result = json.load(f)
        row["simulated_end_s"] = result["simulated_end_s"]
        row["ok"] = result["ok"]
    except (OSError, KeyError, ValueError):
        row["simulated_end_s"], row["ok"] = None, False
    return row


def table_row(row):
    end = "—" if row["simulated_end_s"] is None else f"{row['simulated_end_s'] * 1e3:.3f} ms"
    outcome = "ok" if row["ok"] else f"not ok (exit status {row['status']})"
    return (f"| {row['backend']} | {row['cpu_s']:.2f} s | {row['wall_s']:.1f} s | "
            f"{row['rss_mb']:.0f} MB | {row['load_before']:.2f} | {end} | {outcome} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default=SCENARIO)
    ap.add_argument("--set", dest="overrides", action="append", default=[],
                    metavar="KEY=VALUE", help="a scenario override, given to both backends")
    ap.add_argument("--repeat", type=int, default=1, help="pairs of runs (each pair printed)")
    ap.add_argument("--backends", default="simgrid,ns3",
                    help="first the flow-level backend, then the one it is compared with")
    ap.add_argument("--out", help="keep the runs' output here (default: a temporary directory)")
    ap.add_argument("--min-ratio", type=float, default=0,
                    help="exit 1 when a pair's CPU ratio is below this (issue 34's: 5)")
    args = ap.parse_args()
    tsunagi = os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi"))
    backends = args.backends.split(",")
    if len(backends) != 2:
        sys.exit("--backends: two backends, e.g. simgrid,ns3")
    out = args.out or tempfile.mkdtemp(prefix="tsunagi-simgrid-ns3.")
    print(f"{os.path.basename(args.scenario)} {' '.join(args.overrides)}".rstrip(), flush=True)
    print("| backend | CPU (user + sys) | wall | peak RSS | load before | simulated end | run |")
    print("|---|---|---|---|---|---|---|")
    ratios, all_ok = [], True
    for repeat in range(args.repeat):
        rows = []
        for backend in backends:
            rows.append(run_backend(tsunagi, args.scenario, backend, args.overrides,
                                    os.path.join(out, f"{backend}-{repeat}")))
            print(table_row(rows[-1]), flush=True)
            all_ok = all_ok and rows[-1]["ok"]
        if rows[0]["cpu_s"] > 0:
            ratios.append(rows[1]["cpu_s"] / rows[0]["cpu_s"])
            print(f"CPU ratio {backends[1]} / {backends[0]}: {ratios[-1]:.1f}x", flush=True)
    print(f"output in {out}; load after: {load_average():.2f}")
    below = [r for r in ratios if r < args.min_ratio]
    sys.exit(0 if all_ok and ratios and not below else 1)


if __name__ == "__main__":
    main()
