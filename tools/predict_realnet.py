#!/usr/bin/python3
"""How well SimGrid and ns-3 predict realnet-in-namespaces makespans (docs/calibration.md).

Runs every acceptance case on realnet (--net netns, root; the median of --repeats runs, since
realnet times are wall-clock-real and load inflates them) and on SimGrid and ns-3 with the same
scaled network (network.factors.latency_scale = the realnet run's latency scale), once without
and once with a costs file from `tsunagi calibrate`. Prints a table (and --csv FILE) of the
makespans, the predictions' ratios to realnet, and the median and worst |error| per column,
with the load average before and after.

  tools/predict_realnet.py --tsunagi build/app/tsunagi --costs costs.toml --csv table.csv
"""
import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pingpong(size):
    return ["--set", "workload.pingpong.message_bytes=%d" % size,
            "--set", "workload.pingpong.rounds=10"]


# (name, scenario, --set arguments, realnet latency scale: None = realnet's default). The
# scales: x50 (realnet's default) where microsecond links need it; x2000 for dragonfly-16,
# whose inference needs it to make SimGrid's decisions (docs/realnet.md); x1 where the links
# are milliseconds already (ssock-11-small) or a window must keep its real bandwidth-delay
# product (long-fat-pair, realnet's own default for a site WAN).
TWO = "scenarios/teaching/two-switches.toml"
CASES = [("pingpong %s" % label, TWO, pingpong(size), None)
         for label, size in [("1B", 1), ("1KiB", 1024), ("64KiB", 65536), ("1MiB", 1 << 20),
                             ("4MiB", 4 << 20)]] + [
    ("dragonfly-16 multicast", "scenarios/teaching/dragonfly-16.toml", [], 2000),
    ("lmmc-2node", "scenarios/papers/lmmc-2node.toml", [], None),
    ("ssock-11-small relay pingpong", "scenarios/papers/ssock-11-small.toml",
     ["--set", "workload.kind=pingpong", "--set", "workload.pingpong.ping=0",
      "--set", "workload.pingpong.pong=16", "--set", "workload.pingpong.message_bytes=1024",
      "--set", "workload.pingpong.rounds=10"], 1),
    ("long-fat-pair indices", "scenarios/teaching/long-fat-pair.toml", [], None),
]


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run(tsunagi, scenario, backend, args, out, extra):
    """One run; its result.json, or None when it failed (a failed run never counts)."""
    cmd = [tsunagi, "run", os.path.join(SRC, scenario), "--backend", backend,
           "--out", out, "-q"] + extra + args
    done = subprocess.run(cmd, capture_output=True, text=True)
    path = os.path.join(out, "result.json")
    if done.returncode != 0 or not os.path.exists(path):
        print("  FAILED (%d): %s\n  %s" % (done.returncode, " ".join(cmd),
                                          done.stderr.strip()[-400:]), file=sys.stderr)
        return None
    with open(path) as f:
        return json.load(f)


def reused(out):
    """--reuse: the result.json a --keep directory holds from an earlier ok run."""
    path = os.path.join(out, "result.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        result = json.load(f)
    return result if result.get("ok") else None


def makespan(result):
    if result is None or not result.get("ok"):
        return None
    return result["workload"].get("makespan_s")


def realnet_side(opts, case, work):
    """Median realnet makespan over the repeats, and the latency scale it ran at."""
    name, scenario, args, scale = case
    extra = ["--net", "netns"] + (["--latency-scale", str(scale)] if scale else [])
    spans, used = [], None
    for i in range(opts.repeats):
        out = "%s/rn-%d" % (work, i)
        result = reused(out) if opts.reuse else None
        result = result or run(opts.realnet_tsunagi, scenario, "realnet", args, out, extra)
        span = makespan(result)
        if span is not None:
            spans.append(span)
            used = result.get("latency_scale") or 1
        print("  realnet run %d: %s" % (i + 1, span), file=sys.stderr)
    return (statistics.median(spans) if spans else None), (used or scale or 1), len(spans)


def costs_args(tsunagi, costs, factors_only):
    """--costs FILE; or, with --factors-only (or a tsunagi without `run --costs`), only the
    file's [network.factors] as --set overrides, the host costs left out (and said)."""
    help_text = subprocess.run([tsunagi, "run", "--help"], capture_output=True, text=True).stdout
    if "--costs" in help_text and not factors_only:
        return ["--costs", os.path.abspath(costs)]
    print("predict_realnet: [network.factors] only, no host costs", file=sys.stderr)
    with open(costs, "rb") as f:
        factors = tomllib.load(f).get("network", {}).get("factors", {})
    out = []
    for key, value in factors.items():
        out += ["--set", "network.factors.%s=%s" % (key, value)]
    return out


def simulator_side(opts, case, scale, work):
    name, scenario, args, _ = case
    scaled = ["--set", "network.factors.latency_scale=%g" % scale]
    out = {}
    for backend, label in columns(opts):
        extra = [] if label == "before" else list(opts.costs_args)
        if label == "after+ss":
            extra += ["--set", "simgrid.slow_start=true"]
        result = run(opts.tsunagi, scenario, backend, args + scaled,
                     "%s/%s-%s" % (work, backend, label), extra)
        out[(backend, label)] = makespan(result)
    return out


def error(pred, real):
    return None if pred is None or not real else pred / real - 1


def columns(opts):
    """(backend, label): before; after (the costs file); on SimGrid also after+ss (the costs
    file and simgrid.slow_start, the flow model's TCP slow start) unless --no-slow-start."""
    out = []
    for b in opts.backends:
        out.append((b, "before"))
        if opts.costs_args:
            out.append((b, "after"))
            if b == "simgrid" and opts.slow_start:
                out.append((b, "after+ss"))
    return out


def print_table(opts, rows, loads):
    cols = columns(opts)
    head = "%-30s %12s" % ("case", "realnet s") + "".join(
        " %19s" % ("%s %s (ratio)" % c) for c in cols)
    print(head)
    for row in rows:
        line = "%-30s %12s" % (row["case"], "%.4f" % row["realnet"] if row["realnet"] else "FAILED")
        for c in cols:
            p = row[c]
            line += " %19s" % ("%.4f (%.2f)" % (p, p / row["realnet"])
                               if p is not None and row["realnet"] else "FAILED")
        print(line)
    for c in cols:
        errs = [abs(error(r[c], r["realnet"])) for r in rows if error(r[c], r["realnet"]) is not None]
        failed = len(rows) - len(errs)
        if errs:
            print("%s %s: median |error| %.1f %%, worst %.1f %% over %d cases%s" % (
                c[0], c[1], 100 * statistics.median(errs), 100 * max(errs), len(errs),
                ", %d failed" % failed if failed else ""))
    print("load average: %s before, %s after; realnet: median of %d runs per case" % (
        loads[0], loads[1], opts.repeats))


def write_csv(opts, rows, path):
    cols = columns(opts)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "latency_scale", "realnet_runs", "realnet_s"] +
                   ["%s_%s_s" % c for c in cols] + ["%s_%s_ratio" % c for c in cols])
        for r in rows:
            w.writerow([r["case"], r["scale"], r["runs"], r["realnet"]] + [r[c] for c in cols] +
                       [(r[c] / r["realnet"]) if r[c] is not None and r["realnet"] else ""
                        for c in cols])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tsunagi", default=os.path.join(SRC, "build/app/tsunagi"))
    ap.add_argument("--costs", help="costs file of tsunagi calibrate (else: before only)")
    ap.add_argument("--factors-only", action="store_true",
                    help="apply only the costs file's [network.factors], not its host costs")
    ap.add_argument("--no-slow-start", dest="slow_start", action="store_false",
                    help="no SimGrid column with simgrid.slow_start")
    ap.add_argument("--repeats", type=int, default=3, help="realnet runs per case (median)")
    ap.add_argument("--backends", default="simgrid,ns3")
    ap.add_argument("--cases", help="only the cases whose name contains this")
    ap.add_argument("--csv", help="also write the table here")
    ap.add_argument("--keep", help="keep the runs here (default: a temporary dir, removed)")
    ap.add_argument("--reuse", action="store_true",
                    help="take realnet results an earlier run left in --keep DIR")
    ap.add_argument("--realnet-tsunagi", help="the program for the realnet runs (default "
                    "--tsunagi): realnet ignores [network.factors], any build measures the same")
    opts = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("predict_realnet: realnet in namespaces needs root")
    opts.backends = [b for b in opts.backends.split(",") if b]
    opts.realnet_tsunagi = opts.realnet_tsunagi or opts.tsunagi
    if opts.reuse and not opts.keep:
        sys.exit("predict_realnet: --reuse needs --keep DIR")
    opts.costs_args = costs_args(opts.tsunagi, opts.costs, opts.factors_only) if opts.costs else []
    work = opts.keep or tempfile.mkdtemp(prefix="tsunagi-predict-")
    loads = [load_average(), None]
    rows = []
    try:
        for i, case in enumerate(CASES):
            if opts.cases and opts.cases not in case[0]:
                continue
            print("case %s" % case[0], file=sys.stderr)
            cdir = os.path.join(work, "case%d" % i)
            os.makedirs(cdir, exist_ok=True)
            real, scale, runs = realnet_side(opts, case, cdir)
            row = {"case": case[0], "realnet": real, "scale": scale, "runs": runs}
            row.update(simulator_side(opts, case, scale, cdir))
            rows.append(row)
    finally:
        if not opts.keep:
            shutil.rmtree(work, ignore_errors=True)
    loads[1] = load_average()
    print_table(opts, rows, loads)
    if opts.csv:
        write_csv(opts, rows, opts.csv)


if __name__ == "__main__":
    main()
