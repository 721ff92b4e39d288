#!/usr/bin/python3
"""How far the scalable method goes: scenarios/bench/switched-10k.toml (leader rounds, RTT tree,
directory on demand, topology plan, no workload) at growing sizes, each run stopped at a CPU-time
and a memory limit (issue 19 asks for 100,000 processes within 30 minutes and 16 GB, or a
measured account of what stops it).

For every size it records CPU time, peak RSS, and either the result (RTT probes, static
connections, simulated end) or, for a run stopped at a limit, the last progress line (simulated
time and inputs delivered so far). It then fits CPU time and peak RSS against the work the
completed runs did (power laws in N) and projects them to every stopped size, beside the work
such a size needs: the leader rounds' probes (about N x groups / 2) and the topology plan's
connection ends (N x (group size - 1 + groups - 1)), both read off the completed runs' results.

Usage: tools/bench_scale.py [--sizes 2000,4000,8000,100000] [--cpu-limit S] [--rss-limit-mb M]
                            [--out DIR]
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
SCENARIO = os.path.join(ROOT, "scenarios", "bench", "switched-10k.toml")
HOSTS_PER_LEAF = 40
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


def run_size(binary, n, cpu_limit, rss_limit_mb, out_dir):
    out = os.path.join(out_dir, f"switched-{n}")
    os.makedirs(out, exist_ok=True)
    cmd = [binary, "run", SCENARIO, "--set", f"network.tree.levels.1.fanout={n // 400}",
           "--out", out]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    log_path = os.path.join(out, "stderr.log")
    row = {"processes": n, "stopped_by": "", "cpu_s": 0.0, "peak_rss_mb": 0.0}
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
        row["rtt_probes"] = r["inference"]["rtt_probes"]
        row["connection_ends"] = 2 * r["connections"]["total"]
        row["simulated_s"] = r["simulated_end_s"]
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="2000,4000,8000,100000")
    ap.add_argument("--cpu-limit", type=float, default=1800.0, help="CPU seconds per run")
    ap.add_argument("--rss-limit-mb", type=float, default=16384.0)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "scale"))
    ap.add_argument("--tsunagi", default=os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi")))
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if any(n % 400 for n in sizes):
        sys.exit("sizes must be multiples of 400")
    rows = [run_size(args.tsunagi, n, args.cpu_limit, args.rss_limit_mb, args.out) for n in sizes]
    done = [r for r in rows if not r["stopped_by"]]
    for r in rows:
        r["groups_model"], r["probes_model"], r["ends_model"] = work_of(r["processes"])
    if len(done) >= 2:
        cpu_a, cpu_b = fit_power([r["processes"] for r in done], [r["cpu_s"] for r in done])
        rss_a, rss_b = fit_power([r["processes"] for r in done], [r["peak_rss_mb"] for r in done])
        for r in rows:
            r["cpu_projected_s"] = round(cpu_a * r["processes"] ** cpu_b)
            r["rss_projected_mb"] = round(rss_a * r["processes"] ** rss_b)
        print(f"fits over the completed runs: CPU ~ N^{cpu_b:.2f}, peak RSS ~ N^{rss_b:.2f}")
    os.makedirs(args.out, exist_ok=True)
    keys = list(dict.fromkeys(k for r in rows for k in r))  # every column, in first-seen order
    path = os.path.join(args.out, "scale.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    for r in rows:
        print(json.dumps(r))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
