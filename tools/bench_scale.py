#!/usr/bin/python3
"""How far the scalable method goes (issues 19 and 30): scenarios/bench/switched-100k.toml
(root -> 10 aggregation -> N/400 leaves -> 40 hosts; inference, connection set-up, a verified
ping-pong between the two farthest ranks) at growing sizes, each run stopped at a CPU-time and a
memory limit.

For every size it records CPU time (user + sys), peak RSS, wall time, the machine's load, and
either the result (RTT probes in all and per process, connection ends, the simulated end of
inference + set-up, the workload verified) or, for a run stopped at a limit, the last progress
line (simulated time and inputs delivered so far). The simulated end of inference + set-up is
the run's simulated end minus the workload's makespan (the workload starts once every rank's
connections are up; what follows it, the shutdown, is a few message latencies).

It then fits power laws in N over the completed runs between --fit-from and --fit-to (2,000 to
32,000 by default) and prints issue 30's acceptance, one line each:
  CPU and peak RSS grow at most as N^1.2; the simulated time of inference + set-up at most as
  N^0.5 and under 5 s at 100,000 (measured there, or projected by the fit); at most 50 RTT
  probes per process at every size.
It projects CPU and RSS to every stopped size, beside the work such a size needs in the leader
rounds + topology plan layout (about N x groups / 2 probes, N x (group size - 1 + groups - 1)
connection ends). The rows go to scale.csv in --out.

Usage: tools/bench_scale.py [--sizes 2000,4000,8000,16000,32000] [--cpu-limit S]
                            [--rss-limit-mb M] [--out DIR] [--scenario FILE] [--set KEY=VALUE]...
Sizes are multiples of 400 (10 aggregation switches x N/400 leaves x 40 hosts).
"""
import argparse
import csv
import json
import math
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "scenarios", "bench", "switched-100k.toml")
HOSTS_PER_LEAF = 40
# Issue 30's acceptance: exponents over 2,000-32,000 processes, figures at 100,000.
MAX_CPU_RSS_EXPONENT = 1.2
MAX_SETUP_EXPONENT = 0.5
MAX_SETUP_AT_100K_S = 5.0
MAX_PROBES_PER_PROCESS = 50
PROGRESS = re.compile(r"t=([0-9.]+) s, ([0-9]+) inputs")


def proc_usage(pid):
    """(CPU seconds, resident MB) of a live process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    with open(f"/proc/{pid}/status") as f:
        rss_kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return cpu, rss_kb / 1024.0


def last_progress(path):
    """(simulated s, inputs) of the last progress line the run wrote to stderr, or (None, None)."""
    found = (None, None)
    with open(path, errors="replace") as f:
        for line in f:
            m = PROGRESS.search(line)
            if m:
                found = (float(m.group(1)), int(m.group(2)))
    return found


def load_average():
    """The 1-minute load average: the machine is shared, so every figure carries it."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_size(binary, scenario, overrides, n, cpu_limit, rss_limit_mb, out_dir):
    out = os.path.join(out_dir, f"switched-{n}")
    os.makedirs(out, exist_ok=True)
    cmd = [binary, "run", scenario, "--set", f"network.tree.levels.1.fanout={n // 400}", "--out", out]
    for o in overrides:
        cmd += ["--set", o]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    log_path = os.path.join(out, "stderr.log")
    row = {"processes": n, "stopped_by": "", "cpu_s": 0.0, "peak_rss_mb": 0.0,
           "load_start": load_average()}
    start = time.monotonic()
    with open(log_path, "w") as log:
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
        while True:
            done, status, usage = os.wait4(child.pid, os.WNOHANG)
            if done:
                break
            try:
                cpu, rss = proc_usage(child.pid)
            except (FileNotFoundError, ProcessLookupError, StopIteration):
                time.sleep(0.2)
                continue
            row["cpu_s"], row["peak_rss_mb"] = cpu, max(row["peak_rss_mb"], rss)
            if cpu > cpu_limit or rss > rss_limit_mb:
                row["stopped_by"] = "cpu" if cpu > cpu_limit else "memory"
                child.send_signal(signal.SIGKILL)
                _, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(1.0)
        child.returncode = status  # reaped here: keep Popen from waiting for it again
    row["wall_s"] = round(time.monotonic() - start, 1)
    row["load_end"] = load_average()
    row["cpu_s"] = round(max(row["cpu_s"], usage.ru_utime + usage.ru_stime), 1)
    row["peak_rss_mb"] = round(max(row["peak_rss_mb"], usage.ru_maxrss / 1024.0), 1)
    row["simulated_s"], row["inputs"] = last_progress(log_path)
    if not row["stopped_by"]:
        if status != 0:
            sys.exit(f"{n} processes: the run failed (status {status}); see {log_path}")
        with open(os.path.join(out, "result.json")) as f:
            r = json.load(f)
        row["ok"] = r["ok"]
        row["groups"] = r["inference"]["groups_count"]
        row["groups_correct"] = r["inference"].get("groups_correct")
        row["tree_correct"] = r["inference"].get("tree_correct")
        row["rtt_probes"] = r["inference"]["rtt_probes"]
        row["probes_per_process"] = round(r["inference"]["rtt_probes"] / n, 2)
        row["connection_ends"] = 2 * r["connections"]["total"]
        row["simulated_s"] = r["simulated_end_s"]
        workload = r.get("workload") or {}
        row["workload_verified"] = workload.get("verified")
        makespan = workload.get("makespan_s") or 0.0
        row["setup_simulated_s"] = round(r["simulated_end_s"] - makespan, 9)
    return row


def fit_power(xs, ys):
    """Least squares of log y = log a + b log x: returns (a, b)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    b = sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sum((x - mx) ** 2 for x in lx)
    return math.exp(my - b * mx), b


def work_of(n):
    """What the scalable method does at n processes in this scenario's layout: groups (leaves),
    the leader rounds' probes (each round's leader probes the ranks still unassigned: about
    n x groups / 2, plus the tree's groups x (groups - 1)) and the topology plan's connection
    ends (each rank: its group's other members and one rank of every other group)."""
    groups = n // HOSTS_PER_LEAF
    probes = n * groups // 2 + groups * (groups - 1)
    ends = n * (HOSTS_PER_LEAF - 1 + groups - 1)
    return groups, probes, ends


def fit_row_key(rows, key):
    """(a, b) of key ~ a N^b over rows that have a positive key, or None with fewer than two."""
    pts = [(r["processes"], r[key]) for r in rows if r.get(key)]
    if len(pts) < 2:
        return None
    return fit_power([p[0] for p in pts], [p[1] for p in pts])


def verdict(ok):
    return "yes" if ok else "NO"


def print_acceptance(rows, fit_rows, fit_range):
    """Issue 30's acceptance, one line per criterion, from the fits and the measured rows."""
    lo, hi = fit_range
    sizes = ", ".join(f"{r['processes']:,}" for r in fit_rows) or "none"
    print(f"acceptance (fits over the completed runs of {lo:,}-{hi:,} processes: {sizes}):")
    for key, label, bound in (("cpu_s", "CPU (user+sys)", MAX_CPU_RSS_EXPONENT),
                              ("peak_rss_mb", "peak RSS", MAX_CPU_RSS_EXPONENT),
                              ("setup_simulated_s", "simulated inference + set-up", MAX_SETUP_EXPONENT)):
        fit = fit_row_key(fit_rows, key)
        if fit is None:
            print(f"  {label}: fewer than two completed runs, no fit")
            continue
        print(f"  {label} ~ N^{fit[1]:.2f} (at most N^{bound}: {verdict(fit[1] <= bound)})")
    at_100k = [r for r in rows if r["processes"] == 100000 and r.get("setup_simulated_s")]
    fit = fit_row_key(fit_rows, "setup_simulated_s")
    if at_100k:
        value, how = at_100k[0]["setup_simulated_s"], "measured"
    elif fit is not None:
        value, how = fit[0] * 100000 ** fit[1], "projected by the fit"
    else:
        value = None
    if value is not None:
        print(f"  simulated inference + set-up at 100,000: {value:.3f} s, {how} "
              f"(under {MAX_SETUP_AT_100K_S} s: {verdict(value < MAX_SETUP_AT_100K_S)})")
    probes = [r for r in rows if r.get("probes_per_process") is not None]
    if probes:
        worst = max(probes, key=lambda r: r["probes_per_process"])
        print(f"  RTT probes per process: at most {worst['probes_per_process']} "
              f"(at {worst['processes']:,}; at most {MAX_PROBES_PER_PROCESS} at every size: "
              f"{verdict(worst['probes_per_process'] <= MAX_PROBES_PER_PROCESS)})")
    for r in rows:
        if r.get("stopped_by"):
            print(f"  {r['processes']:,} processes: stopped by the {r['stopped_by']} limit")
        elif not r.get("ok") or r.get("workload_verified") is False:
            print(f"  {r['processes']:,} processes: NOT ok (see its result.json)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="2000,4000,8000,16000,32000")
    ap.add_argument("--cpu-limit", type=float, default=1800.0, help="CPU seconds per run")
    ap.add_argument("--rss-limit-mb", type=float, default=12288.0)
    ap.add_argument("--fit-from", type=int, default=2000, help="smallest size in the fits")
    ap.add_argument("--fit-to", type=int, default=32000, help="largest size in the fits")
    ap.add_argument("--scenario", default=SCENARIO)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="another override for every run (as tsunagi run --set)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "scale"))
    ap.add_argument("--tsunagi", default=os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi")))
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if any(n % 400 for n in sizes):
        sys.exit("sizes must be multiples of 400")
    rows = [run_size(args.tsunagi, args.scenario, args.set, n, args.cpu_limit, args.rss_limit_mb, args.out)
            for n in sizes]
    done = [r for r in rows if not r["stopped_by"]]
    fit_rows = [r for r in done if args.fit_from <= r["processes"] <= args.fit_to]
    for r in rows:
        r["groups_model"], r["probes_model"], r["ends_model"] = work_of(r["processes"])
    cpu_fit, rss_fit = fit_row_key(fit_rows, "cpu_s"), fit_row_key(fit_rows, "peak_rss_mb")
    if cpu_fit and rss_fit:
        for r in rows:
            r["cpu_projected_s"] = round(cpu_fit[0] * r["processes"] ** cpu_fit[1])
            r["rss_projected_mb"] = round(rss_fit[0] * r["processes"] ** rss_fit[1])
    os.makedirs(args.out, exist_ok=True)
    keys = list(dict.fromkeys(k for r in rows for k in r))  # every column, in first-seen order
    path = os.path.join(args.out, "scale.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    for r in rows:
        print(json.dumps(r))
    print_acceptance(rows, fit_rows, (args.fit_from, args.fit_to))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
