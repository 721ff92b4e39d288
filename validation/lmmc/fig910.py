#!/usr/bin/python3
"""Paper 003 Fig. 9/10 on the three backends (docs/lmmc.md, "Fig. 9/10"): one command, a CSV,
a plot and the table the docs quote.

    /usr/bin/python3 validation/lmmc/fig910.py [--build build] [--out DIR] [--repeats 3]
                                               [--backends simgrid,ns3,realnet]
                                               [--latency-scale 1]

Runs scenarios/papers/lmmc-2node.toml (a ping-pong over one 20 Mbit/s serial link, 4 round
trips per size) once on SimGrid and ns-3 (both deterministic) and --repeats times in network
namespaces (real TCP, real timers: every run differs). One way = round trip / 2, as the paper
derives it; "later" is the mean of a size's later round trips, "first - later" the first
message's excess. For the namespaces the table and the plot take the median over the runs of
each size's figures; the CSV keeps every run.

--latency-scale goes to the namespaces only. Its default 1 keeps the scenario's 1 us: the serial
link is a delay line at every scale anyway (it holds every frame for its serialisation time,
which tbf alone did not), so 0 would only drop that microsecond.

Writes DIR/fig910.csv (backend, run, bytes, later_one_way_us, first_minus_later_us) and
DIR/fig910.png (left: the small sizes of Fig. 9, right: the large ones of Fig. 10).
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

SCENARIO = "scenarios/papers/lmmc-2node.toml"
SMALL_MAX = 1024  # Fig. 9 up to here, Fig. 10 from the next size on
LABEL = {"simgrid": "SimGrid", "ns3": "ns-3", "realnet": "namespaces"}
COLOUR = {"simgrid": "tab:blue", "ns3": "tab:green", "realnet": "tab:red"}


def run_once(args, backend, out):
    cmd = [os.path.join(args.build, "app", "tsunagi"), "run", SCENARIO, "--backend", backend,
           "--out", out, "--quiet"]
    if backend == "realnet":
        cmd += ["--net", "netns", "--latency-scale", str(args.latency_scale)]
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "result.json")) as f:
        series = json.load(f)["lmmc"]["series"]
    return [{"bytes": s["bytes"], "later_one_way_us": s["later_one_way_ns"] / 1e3,
             "first_minus_later_us": s["first_minus_later_ns"] / 1e3} for s in series]


def median_by_size(runs):
    """One row per size: the median over runs of each figure (runs = list of row lists)."""
    sizes = [row["bytes"] for row in runs[0]]
    return [{"bytes": size,
             "later_one_way_us": statistics.median(r[i]["later_one_way_us"] for r in runs),
             "first_minus_later_us": statistics.median(r[i]["first_minus_later_us"] for r in runs)}
            for i, size in enumerate(sizes)]


def plot(curves, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
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
    axes[0].legend(fontsize=7)
    fig.suptitle("lmmc-2node: LMMC ping-pong over one 20 Mbit/s serial link")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/lmmc-fig910")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--backends", default="simgrid,ns3,realnet")
    parser.add_argument("--latency-scale", type=float, default=1.0)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    curves, table = {}, []
    for backend in args.backends.split(","):
        repeats = args.repeats if backend == "realnet" else 1
        runs = [run_once(args, backend, os.path.join(args.out, "%s-%d" % (backend, k)))
                for k in range(repeats)]
        for k, rows in enumerate(runs):
            table += [dict(backend=backend, run=k, **row) for row in rows]
        curves[backend] = median_by_size(runs)
    with open(os.path.join(args.out, "fig910.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, ["backend", "run", "bytes", "later_one_way_us",
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
        cells = ["%.1f | %.0f" % (curves[b][i]["later_one_way_us"],
                                  curves[b][i]["first_minus_later_us"]) for b in backends]
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
