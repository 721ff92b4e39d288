#!/usr/bin/python3
"""Paper 000 Fig. 5: integer sort time on 128 processes (64 dual-CPU hosts, 6 switches) for
shortcut cache sizes 0..16 on the topology-aware plan, against all-to-all ("all") and a random
half ("random", 64 connections). Runs scenarios/papers/kaneda-is-128.toml on SimGrid and writes
fig5_intsort.csv and fig5_intsort.png into build/validation/fig5 (--out DIR), or over the
committed copies with --update (the CSV in validation/kaneda/, the PNG in docs/figures/). Extra
arguments are key=value overrides applied to every run, e.g. workload.intsort.iterations=3."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = "scenarios/papers/kaneda-is-128.toml"


CACHES = (0, 1, 2, 4, 8, 16)
COLUMNS = ["workload.makespan_s", "workload.verified", "connections.max_per_node",
           "connections.mean_per_node", "connections.shortcuts_opened", "messages.relayed",
           "connections.max_closing_per_node"]


def sweeps(args, dest, extra):
    """The 8 configurations as two `tsunagi sweep` grids, since together they are no grid: the
    topology plan over the cache sizes, then "all" and "random" (random_k = 64) without a cache
    (a plan x cache grid would add 10 runs, among them the slowest). Yields (label, point)."""
    runs = common.runs_dir(args, dest, "fig5")
    topology = common.sweep(SCENARIO, os.path.join(runs, "topology"),
                            grid=[("protocol.shortcut_capacity", CACHES)],
                            sets=["protocol.plan=topology"] + extra, jobs=args.jobs,
                            columns=COLUMNS)
    for p in topology:
        yield f"cache {p['protocol.shortcut_capacity']}", p
    others = common.sweep(SCENARIO, os.path.join(runs, "all-random"),
                          grid=[("protocol.plan", ["all", "random"])],
                          sets=["protocol.random_k=64", "protocol.shortcut_capacity=0"] + extra,
                          jobs=args.jobs, columns=COLUMNS)
    for p in others:
        yield p["protocol.plan"], p


def load_rows(path):
    with open(path) as f:
        lines = f.read().strip().split("\n")[1:]
    rows = []
    for line in lines:
        c = line.split(",")
        rows.append((c[0], float(c[1]), c[2] == "True", int(c[3]), float(c[4]), int(c[5]), int(c[6]),
                     int(c[7])))
    return rows


def main():
    argv = sys.argv[1:]
    plot_only = "--plot-only" in argv
    if plot_only:
        argv.remove("--plot-only")
    dest, extra, args = common.parse_with_overrides(__doc__, HERE, "fig5", argv)
    png = common.figure_path(args, dest, "fig5_intsort.png")
    if plot_only:  # redraw from the CSV in the output directory
        return plot(load_rows(os.path.join(dest, "fig5_intsort.csv")), png)
    rows = []
    for label, p in sweeps(args, dest, extra):
        rows.append((label, *(p[c] for c in COLUMNS)))
        print(f"{label:10s} makespan {rows[-1][1]:.4f} s  verified {rows[-1][2]}  "
              f"max conn {rows[-1][3]}  closing {rows[-1][7]}  shortcuts {rows[-1][5]}  "
              f"relayed {rows[-1][6]}")
    header = ["config", "makespan_s", "verified", "max_connections", "mean_connections",
              "shortcuts_opened", "messages_relayed", "max_closing"]
    common.write_csv(os.path.join(dest, "fig5_intsort.csv"), header, rows)
    plot(rows, png)
    print(f"wrote {dest}/fig5_intsort.csv and {png}")


def plot(rows, png):
    plt = common.pyplot()
    if plt is None:
        return
    fig, ax1 = plt.subplots(figsize=(7, 3.8))
    labels = [r[0] for r in rows]
    ax1.bar(labels, [r[1] for r in rows], color="tab:blue")
    ax1.set_ylabel("integer sort time (simulated s)")
    ax2 = ax1.twinx()
    ax2.plot(labels, [r[4] for r in rows], color="tab:red", marker="o", label="mean open (peak)")
    ax2.set_ylabel("connections per process (mean of peaks)", color="tab:red")
    ax2.set_ylim(bottom=0)
    ax1.set_title("kaneda-is-128 on SimGrid")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main()
