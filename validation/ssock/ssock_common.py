"""Helpers of the paper-001 (SSOCK) drivers: run a scenario even when the run reports failure
(a time-out is a result here), and read set-up times and connect failures off the trace."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import ROOT, pyplot, tsunagi_binary, write_csv  # noqa: E402,F401

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


def plan_supported(plan):
    """Whether this build knows protocol.plan = plan (the relay plan comes with the relay role).
    Loads a scenario whose ping-pong rank does not exist: the loader reads the plan first, so
    the error says which of the two is wrong, and nothing runs."""
    probe = subprocess.run([tsunagi_binary(), "run", os.path.join(ROOT, "scenarios/papers/ssock-11-small.toml"),
                            "--set", f"protocol.plan={plan}", "--set", "workload.kind=pingpong",
                            "--set", "workload.pingpong.ping=99999", "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return f'unknown plan "{plan}"' not in probe.stderr


def connected_ns(result, events):
    """Time to full connectivity: overlay.connected_ns when the runner reports it, else the
    latest 'routes' event (a node's static connections settled), else None."""
    overlay = (result or {}).get("overlay", {})
    if "connected_ns" in overlay:
        return overlay["connected_ns"]
    times = [e["t_ns"] for e in events if e["kind"] == "routes"]
    return max(times) if times else None


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


def parse_args(doc, sizes):
    """--out (where CSV and PNG go, default validation/ssock) and --sizes; makes --out."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "validation/ssock"))
    parser.add_argument("--sizes", default=sizes)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    args.sizes = [int(s) for s in args.sizes.split(",")]
    return args


def plans():
    """["direct", "relay"], or ["direct"] in a build without the relay plan (said on stdout)."""
    if plan_supported("relay"):
        return ["direct", "relay"]
    print("protocol.plan=relay is not in this build: direct runs only")
    return ["direct"]
