#!/usr/bin/python3
"""The LMMC replacement policies measured through the simulator (docs/lmmc.md, "Ablation
through the simulator"): one command, a CSV and a plot.

    /usr/bin/python3 validation/lmmc/sim_ablation.py [--build build] [--out DIR] [-j N]
                                                      [--backend simgrid] [--max-frames 8]

Runs `tsunagi sweep` over scenarios/teaching/lmmc-ablation.toml (8-node serial hypercube, 8
ports per link end) for every pattern x policy x frames per link end, plus COMM with posted
sends (lookahead 4), then Belady's offline optimum on the same programs (lmmc_program_belady).
Writes DIR/ablation-sim.csv (pattern, policy, frames, fault_rate, aggregate_bytes_per_s) and
DIR/ablation-sim.png, and prints the table docs/lmmc.md quotes.
"""
import argparse
import collections
import csv
import os
import subprocess
import sys

PATTERNS = ["ring", "all_to_all", "stencil", "master_worker", "random"]
POLICIES = ["fifo", "lru", "clock", "comm"]
SCENARIO = "scenarios/teaching/lmmc-ablation.toml"
COLUMNS = "lmmc.fault_rate,lmmc.page_faults,lmmc.writes,lmmc.aggregate_bytes_per_s,lmmc.policy"


def quoted(names):
    return ",".join('"%s"' % n for n in names)


def sweep(args, out, extra):
    cmd = [os.path.join(args.build, "app", "tsunagi"), "sweep", SCENARIO,
           "--backend", args.backend, "-j", str(args.jobs), "--out", out,
           "--set", "workload.lmmc.pattern=" + quoted(PATTERNS),
           "--set", "workload.lmmc.frames=1..%d" % args.max_frames,
           "--columns", COLUMNS] + extra
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "sweep.csv")) as f:
        return list(csv.DictReader(f))


def scenario_value(key):
    """A number from the ablation scenario's [workload.lmmc] / [network.serial]."""
    import tomllib
    with open(SCENARIO, "rb") as f:
        doc = tomllib.load(f)
    table, name = key
    return doc[table[0]][table[1]][name]


def belady(args):
    rows = []
    nodes = scenario_value((("network", "serial"), "nodes"))
    procs = scenario_value((("workload", "lmmc"), "procs"))
    iterations = scenario_value((("workload", "lmmc"), "iterations"))
    tool = os.path.join(args.build, "validation", "lmmc", "lmmc_program_belady")
    for pattern in PATTERNS:
        text = subprocess.run([tool, pattern, str(nodes), str(procs), str(iterations),
                               str(args.max_frames), "1"], check=True, capture_output=True,
                              text=True).stdout
        for row in csv.DictReader(text.splitlines()):
            rows.append({"pattern": pattern, "policy": "belady", "frames": int(row["frames"]),
                         "fault_rate": int(row["belady_faults"]) / int(row["writes"]),
                         "aggregate_bytes_per_s": ""})
    return rows


def pick(row, suffix):
    if suffix in row:
        return row[suffix]
    for key, value in row.items():
        if key.endswith(suffix):
            return value
    raise KeyError(suffix)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/lmmc-sim-ablation")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--backend", default="simgrid")
    parser.add_argument("--max-frames", type=int, default=8)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    runs = [("", ["--set", "workload.lmmc.policy=" + quoted(POLICIES)]),
            (" q=4", ["--set", "workload.lmmc.policy=comm", "--set", "workload.lmmc.lookahead=4"])]
    for label, extra in runs:
        sub = os.path.join(args.out, "sweep" + label.strip().replace("=", ""))
        for r in sweep(args, sub, extra):
            if pick(r, "ok") not in ("true", "True", "1"):
                sys.exit("a run failed: %s" % r)
            rows.append({"pattern": pick(r, "workload.lmmc.pattern").strip('"'),
                         "policy": pick(r, "lmmc.policy") + label,
                         "frames": int(pick(r, "workload.lmmc.frames")),
                         "fault_rate": float(pick(r, "lmmc.fault_rate")),
                         "aggregate_bytes_per_s": float(pick(r, "lmmc.aggregate_bytes_per_s"))})
    rows += belady(args)
    path = os.path.join(args.out, "ablation-sim.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    table(rows, args.max_frames)
    plot(rows, os.path.join(args.out, "ablation-sim.png"))
    print("wrote", path, file=sys.stderr)


def table(rows, max_frames):
    labels = POLICIES + ["comm q=4", "belady"]
    by = {(r["pattern"], r["policy"], r["frames"]): r for r in rows}
    print("| pattern | frames | " + " | ".join(labels) + " | throughput lru → comm (MB/s) |")
    print("|---|---" + "|---" * len(labels) + "|---|")
    for pattern in PATTERNS:
        for frames in (2, 4, 6):
            if frames > max_frames:
                continue
            cells = ["%.3f" % by[(pattern, p, frames)]["fault_rate"] for p in labels]
            tput = "%.2f → %.2f" % (by[(pattern, "lru", frames)]["aggregate_bytes_per_s"] / 1e6,
                                    by[(pattern, "comm", frames)]["aggregate_bytes_per_s"] / 1e6)
            print("| %s | %d | %s | %s |" % (pattern, frames, " | ".join(cells), tput))


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, len(PATTERNS), figsize=(4 * len(PATTERNS), 7), sharex=True)
    series = collections.defaultdict(list)
    for r in rows:
        series[(r["pattern"], r["policy"])].append(r)
    for col, pattern in enumerate(PATTERNS):
        for policy in POLICIES + ["comm q=4", "belady"]:
            points = sorted(series[(pattern, policy)], key=lambda r: r["frames"])
            xs = [p["frames"] for p in points]
            style = ":" if policy == "belady" else "-"
            axes[0][col].plot(xs, [p["fault_rate"] for p in points], style, marker="o",
                              label=policy)
            if policy != "belady":
                axes[1][col].plot(xs, [p["aggregate_bytes_per_s"] / 1e6 for p in points], style,
                                  marker="o", label=policy)
        axes[0][col].set_title(pattern)
        axes[1][col].set_xlabel("link page frames per link end")
    axes[0][0].set_ylabel("page faults per write")
    axes[1][0].set_ylabel("aggregate throughput (MB/s)")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
