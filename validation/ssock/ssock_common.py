"""Helpers of the paper-001 (SSOCK) drivers: run a scenario even when the run reports failure
(a time-out is a result here), and read set-up times and connect failures off the trace."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import (ROOT, add_jobs_option, add_output_options, figure_path, output_dir, pyplot,  # noqa: E402,F401
                    sweep, tsunagi_binary, write_csv)

CLUSTERS_8 = ["chiba", "hiro", "hongo", "keio", "kototoi", "kyushu", "mirai", "okubo"]
CLUSTERS_11 = ["chiba", "hiro", "hongo", "imade", "keio", "kototoi", "kyoto", "kyushu", "logos",
               "mirai", "okubo"]
SYN_TIMINGS = {"linux": ("1s", 6), "paper": ("3s", 5)}


def run_any(scenario, out_dir, sets=()):
    """Runs one scenario; returns (result dict or None, trace events). A failed run (exit code
    != 0) still has its result.json and trace when the backend got to the end."""
    cmd = [tsunagi_binary(), "run", os.path.join(ROOT, scenario), "--backend", "simgrid",
           "--out", out_dir, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    result_path = os.path.join(out_dir, "result.json")
    if not os.path.exists(result_path):
        print(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "no output",
              file=sys.stderr)
        return None, []
    with open(result_path) as f:
        result = json.load(f)
    events = []
    trace = os.path.join(out_dir, "trace.jsonl")
    if os.path.exists(trace):
        with open(trace) as f:
            events = [json.loads(line) for line in f if line.strip()]
    return result, events


def connected_ns(result):
    """Time to full connectivity: overlay.connected_ns (the last node's connects settled)."""
    return ((result or {}).get("overlay") or {}).get("connected_ns")


def connect_failures(events):
    """(count, latest time) of connect_failed events by reason."""
    out = {}
    for e in events:
        if e["kind"] != "connect_failed":
            continue
        reason = e["detail"].get("reason", "?")
        count, latest = out.get(reason, (0, 0))
        out[reason] = (count + 1, max(latest, e["t_ns"]))
    return out


def parse_args(doc, sizes, sweeps=False):
    """--out / --update (where CSV, PNG and the runs go: build/validation/ssock by default,
    validation/ssock with --update, common.py), --sizes, and -j for drivers that sweep."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    add_output_options(parser)
    if sweeps:
        add_jobs_option(parser)
    parser.add_argument("--sizes", default=sizes)
    args = parser.parse_args()
    args.out = output_dir(args, os.path.join(ROOT, "validation", "ssock"), "ssock")
    args.sizes = [int(s) for s in args.sizes.split(",")]
    return args


# Plain sockets (every process connects to every other, routing = direct) and the relay plan.
PLANS = ["direct", "relay"]
