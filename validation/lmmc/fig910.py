#!/usr/bin/python3
"""Paper 003 Fig. 9/10 on the three backends (docs/lmmc.md, "Fig. 9/10"): one command, a CSV,
a plot and the table the docs quote.

    /usr/bin/python3 validation/lmmc/fig910.py [--build build] [--out DIR] [--repeats 3]
                                               [--copies 1] [--backends simgrid,ns3,realnet]
                                               [--latency-scale 1]

Runs scenarios/papers/lmmc-2node.toml (a ping-pong over one 20 Mbit/s serial link, one untimed
warm-up round trip, then 4 round trips per size) once on SimGrid and ns-3 (both deterministic)
and --repeats times in network namespaces (real TCP, real timers: every run differs). One way =
round trip / 2, as the paper derives it; "later" is the median of a size's later one ways in
its run, "first - later" the first message's excess over it (the core reports both: paired
within a run, so that a run slower as a whole moves both alike). For the namespaces the table
and the plot take the median over runs of each size's figures, the gap with a 95 % interval
for its median (order statistics: no assumption about the spread's shape); the CSV keeps every
run.

--copies K (namespaces only) runs every size on K ports of its own in each run, one after the
other, so that a run gives K first messages per size, not one: the first-message gap is a
single round trip, and at 32-64 KB one round trip spreads by +-0.3 ms, so the interval needs
many of them (docs/lmmc.md, "The first-message gap in namespaces").

--latency-scale goes to the namespaces only. Its default 1 keeps the scenario's 1 us: the serial
link is a delay line at every scale anyway (it holds every frame for its serialisation time,
which tbf alone did not), so 0 would only drop that microsecond.

Writes DIR/fig910.csv (backend, run, copy, bytes, later_one_way_us, first_minus_later_us) and
DIR/fig910.png (the small sizes of Fig. 9, the large ones of Fig. 10, and the first message's
excess per size with its interval).
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys

SCENARIO = "scenarios/papers/lmmc-2node.toml"
SIZES = [1, 16, 64, 256, 1024, 4096, 8192, 16384, 32768, 65536]  # the scenario's
SMALL_MAX = 1024  # Fig. 9 up to here, Fig. 10 from the next size on
LABEL = {"simgrid": "SimGrid", "ns3": "ns-3", "realnet": "namespaces"}
COLOUR = {"simgrid": "tab:blue", "ns3": "tab:green", "realnet": "tab:red"}


def copies_settings(sizes, copies):
    """--set options running every size on `copies` ports of its own (and the warm-up's)."""
    repeated = [size for size in sizes for _ in range(copies)]
    return ["--set", "workload.lmmc.sizes=[%s]" % ",".join(map(str, repeated)),
            "--set", "workload.lmmc.procs=%d" % len(repeated),
            "--set", "workload.lmmc.frames=%d" % (len(repeated) + 1)]


def series_rows(result_json, copies=1):
    """The ping-pong's series as rows (copy k = the k-th port of its size), in microseconds."""
    with open(result_json) as f:
        series = json.load(f)["lmmc"]["series"]
    seen = {}
    rows = []
    for s in series:
        copy = seen[s["bytes"]] = seen.get(s["bytes"], -1) + 1
        rows.append({"bytes": s["bytes"], "copy": copy,
                     "later_one_way_us": s["later_one_way_ns"] / 1e3,
                     "first_minus_later_us": s["first_minus_later_ns"] / 1e3})
    assert copy + 1 == copies, (copy, copies)
    return rows


def median_interval(values, z=1.96):
    """Median and a distribution-free ~95 % interval for it: the order statistics n/2 -+
    z sqrt(n)/2 (the binomial's normal approximation). Fewer than 6 values: their range."""
    xs = sorted(values)
    n = len(xs)
    if n < 6:
        return statistics.median(xs), xs[0], xs[-1]
    half = z * math.sqrt(n) / 2
    low = max(int(math.floor(n / 2 - half)), 0)
    high = min(int(math.ceil(n / 2 + half)), n - 1)
    return statistics.median(xs), xs[low], xs[high]


def run_once(args, backend, out):
    cmd = [os.path.join(args.build, "app", "tsunagi"), "run", SCENARIO, "--backend", backend,
           "--out", out, "--quiet"]
    copies = args.copies if backend == "realnet" else 1
    if backend == "realnet":
        cmd += ["--net", "netns", "--latency-scale", str(args.latency_scale)]
    if copies > 1:
        cmd += copies_settings(SIZES, copies)
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return series_rows(os.path.join(out, "result.json"), copies)


def by_size(rows):
    """One row per size: the median of the later one way, the gap's median and interval."""
    out = []
    for size in sorted({r["bytes"] for r in rows}):
        mine = [r for r in rows if r["bytes"] == size]
        gap, low, high = median_interval([r["first_minus_later_us"] for r in mine])
        out.append({"bytes": size, "n": len(mine),
                    "later_one_way_us": statistics.median(r["later_one_way_us"] for r in mine),
                    "first_minus_later_us": gap, "gap_low_us": low, "gap_high_us": high})
    return out


def plot(curves, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, small in zip(axes, (True, False)):
        for backend, rows in curves.items():
            rows = [r for r in rows if (r["bytes"] <= SMALL_MAX) == small]
            x = [r["bytes"] / (1 if small else 1024) for r in rows]
            later = [r["later_one_way_us"] / (1 if small else 1000) for r in rows]
            first = [(r["later_one_way_us"] + r["first_minus_later_us"]) / (1 if small else 1000)
                     for r in rows]
            ax.plot(x, later, "o-", color=COLOUR[backend], label=LABEL[backend] + " later")
            ax.plot(x, first, "s--", color=COLOUR[backend], alpha=0.6,
                    label=LABEL[backend] + " first")
        if small:
            ax.set(xscale="symlog", xlabel="message (bytes)", ylabel="one way (us)",
                   title="Fig. 9: small messages")
        else:
            ax.set(xlabel="message (KB)", ylabel="one way (ms)", title="Fig. 10: large messages")
        ax.grid(alpha=0.3)
    for backend, rows in curves.items():
        gap = [r["first_minus_later_us"] for r in rows]
        axes[2].errorbar([r["bytes"] for r in rows], gap, fmt="o-", color=COLOUR[backend],
                         capsize=3, label=LABEL[backend],
                         yerr=[[g - r["gap_low_us"] for g, r in zip(gap, rows)],
                               [r["gap_high_us"] - g for g, r in zip(gap, rows)]])
    axes[2].axhline(180, color="grey", linestyle=":", label="first_touch (180 us)")
    axes[2].set(xscale="log", xlabel="message (bytes)", ylabel="first - later one way (us)",
                title="first message's excess (95 % interval)")
    axes[2].grid(alpha=0.3)
    axes[2].legend(fontsize=7)
    axes[0].legend(fontsize=7)
    fig.suptitle("lmmc-2node: LMMC ping-pong over one 20 Mbit/s serial link")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/lmmc-fig910")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--backends", default="simgrid,ns3,realnet")
    parser.add_argument("--latency-scale", type=float, default=1.0)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    curves, table = {}, []
    for backend in args.backends.split(","):
        repeats = args.repeats if backend == "realnet" else 1
        rows = []
        for k in range(repeats):
            run = run_once(args, backend, os.path.join(args.out, "%s-%d" % (backend, k)))
            rows += [dict(backend=backend, run=k, **row) for row in run]
        table += rows
        curves[backend] = by_size(rows)
    with open(os.path.join(args.out, "fig910.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, ["backend", "run", "copy", "bytes", "later_one_way_us",
                                    "first_minus_later_us"])
        writer.writeheader()
        for row in table:
            writer.writerow({k: (round(v, 1) if isinstance(v, float) else v)
                             for k, v in row.items()})
    plot(curves, os.path.join(args.out, "fig910.png"))
    backends = list(curves)
    print("| bytes | " + " | ".join("%s later | %s first - later" % (LABEL[b], LABEL[b])
                                     for b in backends) + " |")
    print("|---" * (1 + 2 * len(backends)) + "|")
    for i, row in enumerate(curves[backends[0]]):
        cells = []
        for b in backends:
            r = curves[b][i]
            gap = "%.0f" % r["first_minus_later_us"]
            if r["n"] > 1:
                gap += " (%.0f..%.0f, n = %d)" % (r["gap_low_us"], r["gap_high_us"], r["n"])
            cells.append("%.1f | %s" % (r["later_one_way_us"], gap))
        print("| %d | %s |" % (row["bytes"], " | ".join(cells)))
    wire = 8 / 20e6 * 1e6  # us per byte at the link's 20 Mbit/s
    for b in backends:
        slope = small_slope(curves[b])
        print("%s: later one way from 1 B to 1 KB grows %.3f us/B (%.2f x size / rate)" %
              (LABEL[b], slope, slope / wire))


def small_slope(rows):
    """Least-squares slope (us per byte) of the later one way over the sizes up to 1 KB."""
    points = [(r["bytes"], r["later_one_way_us"]) for r in rows if r["bytes"] <= SMALL_MAX]
    mean_x = statistics.mean(x for x, _ in points)
    mean_y = statistics.mean(y for _, y in points)
    return (sum((x - mean_x) * (y - mean_y) for x, y in points) /
            sum((x - mean_x) ** 2 for x, _ in points))


if __name__ == "__main__":
    main()
