#!/usr/bin/python3
"""Draws the LMMC paging study (docs/lmmc.md, "Ablation") and prints its key figures.

    /usr/bin/python3 validation/lmmc/plot_ablation.py ABLATION.csv OUT.png

ABLATION.csv is what `lmmc_ablation` wrote. One panel per workload: page-fault rate (faults per
write, mean over seeds, bars from the lowest to the highest seed) against link page frames, one
line per policy; COMM is drawn without posted sends (q=0) and with them (q=4, or whatever
lookahead the CSV holds). The markdown tables on stdout are the ones in docs/lmmc.md.
"""
import collections
import csv
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

WORKLOADS = ["ring", "all_to_all", "stencil", "master_worker", "random"]
STYLE = {  # label -> (colour, marker, line style)
    "fifo": ("tab:blue", "o", "-"),
    "lru": ("tab:orange", "s", "-"),
    "clock": ("tab:green", "^", "-"),
    "comm q=0": ("tab:purple", "D", "--"),
    "comm q=ahead": ("tab:red", "D", "-"),
    "belady": ("black", "", ":"),
}


def load(path):
    """(workload, label, frames) -> list of per-seed rows; plus the lookahead COMM ran with."""
    runs = collections.defaultdict(list)
    ahead = 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            label = row["policy"]
            if label == "comm":
                ahead = max(ahead, int(row["lookahead"]))
                label = "comm q=0" if row["lookahead"] == "0" else "comm q=ahead"
            elif row["lookahead"] != "0":
                continue  # fifo, lru, clock ignore posted sends: one line each
            runs[(row["workload"], label, int(row["frames"]))].append(row)
    return runs, ahead


def rates(rows):
    return [float(r["fault_rate"]) for r in rows]


def plot(runs, ahead, out):
    frames = sorted({k[2] for k in runs})
    fig, axes = plt.subplots(2, 3, figsize=(14, 8), sharey=True)
    for ax, workload in zip(axes.flat, WORKLOADS):
        for label, (colour, marker, style) in STYLE.items():
            ys = [rates(runs[(workload, label, n)]) for n in frames]
            mean = [statistics.mean(y) for y in ys]
            low = [m - min(y) for m, y in zip(mean, ys)]
            high = [max(y) - m for m, y in zip(mean, ys)]
            name = label.replace("ahead", str(ahead))
            ax.errorbar(frames, mean, yerr=[low, high], color=colour, marker=marker,
                        linestyle=style, label=name, capsize=2, markersize=4)
        ports = runs[(workload, "lru", frames[0])][0]["ports"]
        ax.set_title(f"{workload} ({ports} ports)")
        ax.set_xlabel("link page frames")
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("page faults per write")
    axes.flat[-1].axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    axes.flat[-1].legend(handles, labels, loc="center", title="policy")
    fig.suptitle("LMMC remote paging: fault rate by replacement policy (mean of seeds, min-max)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def table(runs, ahead, frames=(2, 4, 6)):
    labels = list(STYLE)
    names = [label.replace("ahead", str(ahead)) for label in labels]
    print("| workload | frames | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(labels))
    for workload in WORKLOADS:
        for n in frames:
            cells = [f"{statistics.mean(rates(runs[(workload, label, n)])):.3f}" for label in labels]
            print(f"| {workload} | {n} | " + " | ".join(cells) + " |")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    runs, ahead = load(sys.argv[1])
    plot(runs, ahead, sys.argv[2])
    table(runs, ahead)
    print(f"\nwrote {sys.argv[2]}")


if __name__ == "__main__":
    main()
