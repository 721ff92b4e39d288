#!/usr/bin/python3
"""Small messages on SimGrid against ns-3 (issue 34): what dating small messages in the adapter
(simgrid.uncontended_below, default 1024 B; docs/simgrid.md, "Small messages") changes in the
simulated times, next to the packet-level answer. Per scenario it runs

  tsunagi run FILE --set simgrid.uncontended_below=0   (every message a SimGrid flow: before)
  tsunagi run FILE                                      (the default: small messages dated)
  tsunagi run FILE --backend ns3                        (packet level)
  BASELINE run FILE; tsunagi compare BASELINE_OUT DEFAULT_OUT   (with --baseline)

and prints one Markdown row per phase (groups inferred, overlay connected, workload makespan,
simulated end) and one of CPU seconds, with the changes between them, and the exit status of
`tsunagi compare` (flows against dated, and the baseline binary against this one).

Usage: tools/bench_small_messages_ns3.py [--baseline BIN] [--out DIR] [--timeout S] [--no-ns3]
                                         [FILE ...]
       (default files: scenarios/teaching/*.toml and papers/{ssock-11-small,lmmc-2node,
       xc30-256}.toml; the binary from build/, or TSUNAGI=...)"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

from bench_simgrid_ns3 import run_into

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAPERS = ("ssock-11-small", "lmmc-2node", "xc30-256")
# (label, path in result.json, in nanoseconds)
PHASES = (("groups inferred", ("inference", "groups_end_ns")),
          ("overlay connected", ("overlay", "connected_ns")),
          ("workload makespan", ("workload", "makespan_ns")))


def default_files():
    files = sorted(glob.glob(os.path.join(ROOT, "scenarios", "teaching", "*.toml")))
    return files + [os.path.join(ROOT, "scenarios", "papers", f"{p}.toml") for p in PAPERS]


def run(binary, scenario, out, extra, timeout):
    """One run, its summary in OUT/summary.txt; (result.json or None, CPU seconds)."""
    os.makedirs(out, exist_ok=True)
    cmd = [binary, "run", scenario, "--quiet", "--out", out, *extra]
    with open(os.path.join(out, "summary.txt"), "w") as log:
        try:
            cpu = run_into(log, cmd, timeout)[3]
        except TimeoutError:
            return None, None
    try:
        with open(os.path.join(out, "result.json")) as f:
            return json.load(f), cpu
    except (OSError, ValueError):
        return None, cpu


def compare(tsunagi, a, b):
    with open(os.path.join(b, "compare.txt"), "a") as log:
        return subprocess.call([tsunagi, "compare", a, b], stdout=log, stderr=log)


def phase_ns(result, path):
    """A phase's time in ns, or None when the run has no such phase (or did not finish)."""
    value = result
    for key in path:
        value = (value or {}).get(key) if isinstance(value, dict) else None
    return value if isinstance(value, (int, float)) and value > 0 else None


def phases(result, cpu):
    """(label, value) of every phase of the run (ms of simulated time), then its CPU seconds."""
    rows = []
    for label, path in PHASES:
        value = phase_ns(result, path) if result else None
        rows.append((f"{label} (ms)", None if value is None else value / 1e6))
    rows.append(("simulated end (ms)", result["simulated_end_s"] * 1e3 if result else None))
    rows.append(("CPU (s)", cpu))
    return rows


def cell(value):
    return "—" if value is None else f"{value:.3f}"


def change(a, b):
    return "" if a is None or b is None else f"{(b - a) / a * 100:+.1f} %"


def print_scenario(name, runs, statuses):
    flows, dated, ns3 = (phases(*runs[k]) for k in ("flows", "dated", "ns3"))
    first = True
    for (label, f), (_, d), (_, n) in zip(flows, dated, ns3):
        if f is None and d is None and n is None:
            continue  # a phase the scenario does not have (no workload, no inference)
        head = f"{name} | {statuses}" if first else " | "
        print(f"| {head} | {label} | {cell(f)} | {cell(d)} | {change(f, d)} | {cell(n)} | "
              f"{change(n, f)} | {change(n, d)} |", flush=True)
        first = False


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--baseline", help="another tsunagi binary whose decisions this one's must make")
    ap.add_argument("--out", help="keep the runs here (default: a temporary directory)")
    ap.add_argument("--timeout", type=float, default=1800, help="give up on a run after S seconds")
    ap.add_argument("--no-ns3", action="store_true")
    args = ap.parse_args()
    tsunagi = os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi"))
    out = args.out or tempfile.mkdtemp(prefix="tsunagi-small-ns3.")
    print(f"output in {out}", file=sys.stderr)
    compared = "flows→dated, baseline→new" if args.baseline else "flows→dated"
    print(f"| scenario | compare {compared} | phase | SimGrid, every message a flow "
          "| SimGrid, small dated (default) | dated vs flows | ns-3 | flows vs ns-3 "
          "| dated vs ns-3 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for scenario in args.files or default_files():
        name = os.path.splitext(os.path.basename(scenario))[0]
        base = os.path.join(out, name)
        runs = {"flows": run(tsunagi, scenario, f"{base}-flows",
                             ["--set", "simgrid.uncontended_below=0"], args.timeout),
                "dated": run(tsunagi, scenario, f"{base}-dated", [], args.timeout),
                "ns3": (None, None) if args.no_ns3 else
                run(tsunagi, scenario, f"{base}-ns3", ["--backend", "ns3"], args.timeout)}
        statuses = f"exit {compare(tsunagi, f'{base}-flows', f'{base}-dated')}"
        if args.baseline:
            run(args.baseline, scenario, f"{base}-baseline", [], args.timeout)
            statuses += f", exit {compare(tsunagi, f'{base}-baseline', f'{base}-dated')}"
        print_scenario(name, runs, statuses)


if __name__ == "__main__":
    main()
