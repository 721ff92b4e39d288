#!/usr/bin/python3
"""Paper 002, Fig. 8 (8 MB) and Fig. 9 (80 KB): multicast time against group size r, tsunagi's
multicast algorithms on SimGrid beside SimGrid SMPI's MPI_Bcast on the same Dragonfly.

Runs scenarios/papers/xc30-256.toml (or -multigroup) on SimGrid, runs (or reads) the SMPI
baseline of validation/multicast/smpi_baseline.sh on the same platform and network model, and
writes into build/validation/multicast (--out DIR; --update: over the committed copies, the CSV
beside this script, the PNG in docs/figures/):
  fig8_fig9_<platform>.csv   source,algorithm,mode,bytes,r,time_us
  fig8_fig9_<platform>.png   time vs r, 8 MB and 80 KB side by side
and prints the checks (issue 13's and issue 32's, below); it exits 1 when a check that holds
today fails (a regression), and lists the known misses without failing.

tsunagi's times (trimmed means over the scenario's repeats, simulated):
  mode "end_to_end": from the master's send to the root's last ack (paper 002's measure: the
                     master sends the whole message to the root, which then multicasts);
  mode "from_root":  from the root holding the message to its last ack, which is what an
                     MPI_Bcast from a root that already has the data measures. Written only for
                     the algorithms whose seed goes whole (binomial, topology): with a seed in
                     segments the root passes the message on before it holds all of it, and
                     the time after its last segment is no Bcast time (docs/multicast.md).
SMPI's modes (validation/multicast/smpi/README.md): static (Bcast on a communicator made
beforehand), changing (MPI_Comm_create_group + Bcast), create_group (the creation alone).

SMPI's side: run by smpi_baseline.sh (~5 min), or read from an smpi_bcast.csv: --smpi DIR (an
smpi_baseline.sh --out directory) or --smpi-csv FILE. validation/multicast/smpi_bcast_single.csv
is the committed one: the three algorithms at every r, static and changing, and every SMPI bcast
algorithm at r = 256 (smpi/README.md, "Every algorithm"); SMPI is deterministic, so it is an
input, not a result, and the `validation` test reads it instead of running SMPI again.

Paper 002's absolute time (issue 32): its 80 KB ring to 256 members took about 1.3 ms. With
--host-cost-us US a second run of that one point (scatter_ring, 80 KB, r = 256, the master's
hop included) is given a per-message host cost of US, half paid by the sender and half by the
receiver (protocol.costs.send_overhead, receive_overhead), and checked within 25 % of 1.3 ms.
The cost is an input and is printed as one. Without it the check is a known miss: the paper
prints no small-message figure to take the cost from (validation/README.md, "Paper 002").

Usage: validation/multicast/fig8_fig9.py [--platform single|multi] [--out DIR | --update]
           [--smpi DIR | --smpi-csv FILE] [--repeats N] [--smpi-repeats N] [--host-cost-us US]
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = {"single": "scenarios/papers/xc30-256.toml",
             "multi": "scenarios/papers/xc30-256-multigroup.toml"}
SIZES = {8388608: "8 MB", 81920: "80 KB"}
TSUNAGI_ALGORITHMS = ["auto", "binomial", "scatter_ring", "scatter_doubling", "topology",
                      "pipeline"]
SMPI_ALGORITHMS = ["binomial_tree", "scatter_rdb_allgather", "scatter_LR_allgather"]
WHOLE_SEED = {"binomial", "topology"}  # the algorithms whose seed goes whole


def tsunagi_rows(platform, repeats, out, existing=None):
    # One run, no `tsunagi sweep`: the grid (algorithm x size x r x repeat) is the scenario's
    # multicast workload, done inside that run; the SMPI baseline is no tsunagi run at all.
    sets = [f"workload.multicast.repeats={repeats}"] if repeats else []
    if existing:
        with open(os.path.join(existing, "result.json")) as f:
            result = json.load(f)
    else:
        result = common.run(SCENARIOS[platform], out, sets)
    if not result["ok"]:
        sys.exit(f"tsunagi run in {out} did not end ok: {result.get('problems')}")
    rows = []
    for row in result["multicast"]["series"]:
        if row["verified"] != row["runs"]:
            sys.exit(f"tsunagi: {row['verified']} of {row['runs']} multicasts verified: {row}")
        for mode, key in (("end_to_end", "completion_ns"), ("from_root", "from_root_ns")):
            if mode == "from_root" and set(row["chosen"]) - WHOLE_SEED:
                continue
            rows.append(("tsunagi", row["algorithm"], mode, row["bytes"], row["group_size"],
                         row[key] / 1000.0))
    return rows


def smpi_rows(platform, smpi_dir, smpi_csv, repeats, runs):
    if smpi_csv is None and smpi_dir is None:
        smpi_dir = os.path.join(runs, f"smpi-{platform}")
        cmd = [os.path.join(HERE, "smpi_baseline.sh"), "--out", smpi_dir, "--platform", platform,
               "--repeats", str(repeats)]
        print("+", " ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)
    rows = []
    with open(smpi_csv or os.path.join(smpi_dir, "smpi_bcast.csv")) as f:
        for rec in csv.DictReader(f):
            rows.append(("smpi", rec["algorithm"], rec["mode"], int(rec["bytes"]), int(rec["r"]),
                         float(rec["time_s"]) * 1e6))
    return rows


def lookup(rows, source, algorithm, mode, size, r):
    for row in rows:
        if row[:5] == (source, algorithm, mode, size, r):
            return row[5]
    sys.exit(f"missing: {source} {algorithm} {mode} {size} B r={r}")


def check(label, ours, theirs, limit):
    ratio = ours / theirs
    verdict = "met" if ratio <= limit else f"MISSED by {ratio / limit:.2f}x"
    print(f"  {label}: {ours:9.1f} us / {theirs:9.1f} us = {ratio:5.2f}x "
          f"(target <= {limit}x): {verdict}")
    return ratio <= limit


def smpi_fastest(rows, size, r, mode="static"):
    """(time, "a = b = ...") of SMPI's fastest bcast algorithms at this point (several SMPI
    selectors run the same algorithm: impi and mvapich2 are scatter_LR_allgather at 8 MB)."""
    times = {a: v for src, a, m, b, rr, v in rows
             if src == "smpi" and m == mode and b == size and rr == r}
    best = min(times.values())
    tied = sorted(a for a, v in times.items() if v <= best * (1 + 1e-6))
    tied.sort(key=lambda a: a not in SMPI_ALGORITHMS)  # the algorithm's own name first
    return best, " = ".join(tied)


# Checks that hold today: a failure is a regression and fails the run (and the validation test).
# Known misses are printed with their figures and do not fail (validation/README.md, paper 002).
KNOWN_MISSES = ("changing groups",)


def acceptance(rows):
    """Issue 13's targets at r = 256 and changing groups at every r; issue 32's: tsunagi's
    `auto` end to end at most SMPI's fastest bcast algorithm at 8 MB and 80 KB."""
    regressions = []
    top = max(r for *_, r, _ in rows)
    t = lambda alg, size, mode, r=top: lookup(rows, "tsunagi", alg, mode, size, r)  # noqa: E731
    s = lambda alg, size, r=top, m="static": lookup(rows, "smpi", alg, m, size, r)  # noqa: E731

    def expect(name, ok):
        if not ok and not name.startswith(KNOWN_MISSES):
            regressions.append(name)
        if not ok and name.startswith(KNOWN_MISSES):
            print(f"  (known miss: {name})")

    print("issue 32: tsunagi auto, end to end, against SMPI's fastest MPI_Bcast:")
    for size in SIZES:
        theirs, algorithm = smpi_fastest(rows, size, top)
        expect(f"{SIZES[size]} r={top} auto vs SMPI fastest",
               check(f"{SIZES[size]} r={top} auto vs SMPI {algorithm}",
                     t("auto", size, "end_to_end"), theirs, 1.0))
    mode = "end_to_end"
    print("issue 13, tsunagi end to end:")
    best8 = min(t(a, 8388608, mode) for a in TSUNAGI_ALGORITHMS)
    expect("8 MB vs binomial_tree", check(f"8 MB r={top} best multicast vs binomial_tree", best8,
                                          s("binomial_tree", 8388608), 0.5))
    expect("8 MB vs scatter_LR_allgather",
           check(f"8 MB r={top} best multicast vs scatter_LR_allgather", best8,
                 s("scatter_LR_allgather", 8388608), 1.1))
    expect("80 KB doubling vs rdb",
           check(f"80 KB r={top} scatter_doubling vs scatter_rdb_allgather",
                 t("scatter_doubling", 81920, mode), s("scatter_rdb_allgather", 81920), 1.1))
    # Paper 002's finding at 80 KB: its ring Mcast is slower than a doubling Bcast.
    ring, rdb = t("scatter_ring", 81920, mode), s("scatter_rdb_allgather", 81920)
    print(f"  80 KB r={top} paper 002's ring {ring:.1f} us, SMPI scatter_rdb {rdb:.1f} us: "
          + ("slower, as the paper found" if ring > rdb else "NOT slower"))
    expect("80 KB ring slower than rdb", ring > rdb)
    beaten = []
    for size in SIZES:
        for r in sorted({row[4] for row in rows}):
            ours = t("auto", size, mode, r)
            theirs = min(s(a, size, r, "changing") for a in SMPI_ALGORITHMS)
            if ours >= theirs:
                beaten.append(f"{SIZES[size]} r={r}: {ours:.1f} us >= {theirs:.1f} us")
    print("  changing groups: auto against the best create_group+Bcast at every r: "
          + ("below everywhere" if not beaten else "not below at " + "; ".join(beaten)))
    expect("changing groups", not beaten)
    print("like for like from the root (the binomial tree's seed goes whole):")
    for size in SIZES:
        expect(f"{SIZES[size]} binomial from the root vs binomial_tree",
               check(f"{SIZES[size]} r={top} binomial from the root vs binomial_tree",
                     t("binomial", size, "from_root"), s("binomial_tree", size), 1.05))
    if regressions:
        print("REGRESSION: " + "; ".join(regressions))
    return not regressions


PAPER_RING_80KB_256_US = 1300.0  # paper 002, section 5.3: "about 1.3 [ms]" to 256 nodes


def ring_with_host_cost(platform, cost_us, out):
    """(time_us of scatter_ring, 80 KB, r = 256 end to end, with the host cost), one run."""
    half = f"{cost_us / 2:.3f}us"
    sets = ['workload.multicast.algorithms=["scatter_ring"]', "workload.multicast.sizes=[81920]",
            "workload.multicast.group_sizes=[256]", "workload.multicast.repeats=1",
            f"protocol.costs.send_overhead={half}", f"protocol.costs.receive_overhead={half}"]
    result = common.run(SCENARIOS[platform], out, sets)
    if not result["ok"]:
        sys.exit(f"tsunagi run in {out} did not end ok: {result.get('problems')}")
    row = result["multicast"]["series"][0]
    return row["completion_ns"] / 1000.0


def paper_absolute(platform, cost_us, out):
    """Issue 32: the paper's absolute 80 KB ring time with a stated per-message host cost."""
    print("paper 002's absolute time, 80 KB ring to 256 (issue 32):")
    if cost_us is None:
        print("  (known miss: no per-message host cost given; paper 002 prints no small-message "
              "figure to take one from. --host-cost-us US runs it with a stated one)")
        return True
    ours = ring_with_host_cost(platform, cost_us, out)
    ratio = ours / PAPER_RING_80KB_256_US
    ok = 0.75 <= ratio <= 1.25
    print(f"  input: per-message host cost {cost_us} us (half at each end); "
          f"scatter_ring 80 KB r=256 end to end {ours:.1f} us / paper {PAPER_RING_80KB_256_US:.0f} "
          f"us = {ratio:.2f} (target 0.75-1.25): {'met' if ok else 'MISSED'}")
    return ok


def plot(rows, path):
    plt = common.pyplot()
    if plt is None:
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    styles = {"static": "-", "changing": "--"}
    for ax, (size, label) in zip(axes, SIZES.items()):
        scale, unit = (1000.0, "ms") if size > 1e6 else (1.0, "µs")
        for alg in TSUNAGI_ALGORITHMS:
            pts = sorted((r, v) for src, a, m, b, r, v in rows
                         if src == "tsunagi" and a == alg and m == "end_to_end" and b == size)
            ax.plot([p[0] for p in pts], [p[1] / scale for p in pts], marker="o",
                    label=f"tsunagi {alg}")
        pts = sorted((r, v) for src, a, m, b, r, v in rows
                     if src == "tsunagi" and a == "binomial" and m == "from_root" and b == size)
        ax.plot([p[0] for p in pts], [p[1] / scale for p in pts], ":", marker="o", color="black",
                label="tsunagi binomial, from the root's receipt")
        for alg in SMPI_ALGORITHMS:
            for mode, style in styles.items():
                pts = sorted((r, v) for src, a, m, b, r, v in rows
                             if src == "smpi" and a == alg and m == mode and b == size)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] / scale for p in pts], style, marker="x",
                            color="gray" if "binomial" in alg else None, alpha=0.7,
                            label=f"SMPI {alg} ({mode})")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("group size r")
        ax.set_ylabel(f"time ({unit}, simulated)")
        ax.set_title(f"{label}: master's send to last ack (tsunagi), Bcast (SMPI)")
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--platform", choices=SCENARIOS, default="single")
    parser.add_argument("--smpi", help="an existing smpi_baseline.sh --out directory")
    parser.add_argument("--tsunagi", help="an existing run directory of the scenario to read "
                        "instead of running it (its result.json)")
    parser.add_argument("--smpi-csv", help="an smpi_bcast.csv to read (e.g. the committed "
                        "validation/multicast/smpi_bcast_single.csv)")
    parser.add_argument("--repeats", type=int, default=0,
                        help="tsunagi repeats per point (default: the scenario's)")
    parser.add_argument("--smpi-repeats", type=int, default=3,
                        help="SMPI repeats per point (SMPI is deterministic; default 3)")
    parser.add_argument("--host-cost-us", type=float,
                        help="per-message host cost (us, half at each end) for the run of the "
                        "paper's absolute 80 KB ring time; none: that check is a known miss")
    common.add_output_options(parser)
    args = parser.parse_args()
    if args.smpi and args.smpi_csv:
        sys.exit("--smpi and --smpi-csv exclude each other")
    dest = common.output_dir(args, HERE, "multicast")
    runs = common.runs_dir(args, dest, "multicast")
    rows = (tsunagi_rows(args.platform, args.repeats, os.path.join(runs, f"tsunagi-{args.platform}"),
                         args.tsunagi)
            + smpi_rows(args.platform, args.smpi, args.smpi_csv, args.smpi_repeats, runs))
    base = os.path.join(dest, f"fig8_fig9_{args.platform}")
    common.write_csv(base + ".csv", ["source", "algorithm", "mode", "bytes", "r", "time_us"],
                     [(*row[:5], f"{row[5]:.3f}") for row in rows])
    plot(rows, common.figure_path(args, dest, f"fig8_fig9_{args.platform}.png"))
    accepted = acceptance(rows)
    absolute = paper_absolute(args.platform, args.host_cost_us,
                              os.path.join(runs, f"tsunagi-{args.platform}-host-cost"))
    sys.exit(0 if accepted and absolute else 1)


if __name__ == "__main__":
    main()
