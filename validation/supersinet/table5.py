#!/usr/bin/python3
"""Paper 004, Table 5 and Fig. 3/4: runs supersinet-4 (indices workload) on the given backends
with the default and the tuned windows, prints each directed pair's TCP, OH_64B, OH_64KB,
BW_64KB, BW_8MB and MB/s at 8 MB beside the paper's values, and checks what holds today.

Usage: validation/supersinet/table5.py [--backends simgrid,ns3,realnet] [--profiles default,tuned]
                                       [--out DIR | --update] [--set key=value ...]

Writes table5_<backend>.csv (tsunagi's values and the paper's, per directed pair) and
fig34_series.csv (message time and rate per size, every pair, both profiles) into the output
directory (build/validation/supersinet/ by default; with --update the committed copies beside
this script), and the Fig. 3/4 picture fig34_supersinet.png (docs/figures/ with --update).

Every run is given a per-message host cost (issue 32; --host-cost-us, 0 for none): by default
the median of what a 64 B message cost beyond RTT / 2 on the paper's six pairs without Tokyo
(Table 5's OH_64B there), split evenly into protocol.costs.send_overhead and receive_overhead.
It is printed with the tables. realnet does not add it (the machine pays its own).

Exits 1 when a check fails: (a) a regression, any value more than 5 % (and 0.02) away from the
committed table5_<backend>.csv; (b) the paper's findings that hold today (validation/README.md,
"Paper 004"): the fast pairs' 8 MB rate within 25 % of the paper's, small messages at RTT / 2,
the default windows flattening the rate and the tuned ones lifting it, OH_64B within 25 % on
the pairs into Tokyo (an output: no Tokyo figure is an input). Known misses (OH_64B from Tokyo:
no per-message cost gives the paper's three figures at once) are printed and do not fail.
realnet runs in network namespaces (root); with the default windows its run takes ~25 min real,
so `--profiles tuned` leaves that column out.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import common  # noqa: E402

SCENARIO = "scenarios/papers/supersinet-4.toml"
SITES = ["hokkaido", "tokyo", "kyoto", "kyushu"]
NAMES = {"hokkaido": "Hokkaido", "tokyo": "Tokyo", "kyoto": "Kyoto", "kyushu": "Kyushu"}
# Table 2 of the paper: round-trip times in ms between the sites (the scenario's site_rtt).
RTT_MS = {("hokkaido", "tokyo"): 17, ("hokkaido", "kyoto"): 30, ("hokkaido", "kyushu"): 42,
          ("tokyo", "kyoto"): 15, ("tokyo", "kyushu"): 27, ("kyoto", "kyushu"): 10}
# Table 5 of the paper (values after tuning): TCP, OH_64B, OH_64KB, BW_64KB, BW_8MB, MB/s.
PAPER = {
    ("hokkaido", "tokyo"): (0.089, 0.851, 0.655, 0.454, 0.924, 10.277),
    ("hokkaido", "kyoto"): (0.520, 0.973, 0.870, 0.058, 0.789, 51.309),
    ("hokkaido", "kyushu"): (0.398, 0.975, 0.900, 0.057, 0.997, 49.642),
    ("tokyo", "hokkaido"): (0.089, 0.483, 0.279, 0.194, 0.901, 10.028),
    ("tokyo", "kyoto"): (0.111, 0.116, 0.330, 0.208, 0.542, 7.518),
    ("tokyo", "kyushu"): (0.081, 0.178, 0.366, 0.175, 0.505, 5.127),
    ("kyoto", "hokkaido"): (0.520, 0.975, 0.873, 0.059, 0.798, 51.844),
    ("kyoto", "tokyo"): (0.111, 0.824, 0.611, 0.385, 0.995, 13.803),
    ("kyoto", "kyushu"): (0.549, 0.994, 0.770, 0.147, 0.789, 54.133),
    ("kyushu", "hokkaido"): (0.398, 0.975, 0.899, 0.056, 0.992, 49.347),
    ("kyushu", "tokyo"): (0.081, 0.844, 0.568, 0.272, 0.516, 5.233),
    ("kyushu", "kyoto"): (0.549, 0.991, 0.768, 0.147, 0.770, 52.869),
}
KEYS = ["TCP", "OH_64B", "OH_64KB", "BW_64KB", "BW_8MB", "MBps_8MB"]


def paper_host_cost_us():
    """The per-message host cost the runs are given (an input, issue 32): what a 64 B message
    cost beyond RTT/2 on the paper's six pairs without Tokyo, RTT/2 x (1/OH_64B - 1), their
    median. Tokyo's six pairs are the ones checked against the paper; none of their figures
    goes in."""
    costs = sorted((RTT_MS.get((a, b)) or RTT_MS[(b, a)]) / 2 * (1 / values[1] - 1) * 1000
                   for (a, b), values in PAPER.items() if "tokyo" not in (a, b))
    middle = len(costs) // 2
    return (costs[middle - 1] + costs[middle]) / 2


def host_cost_sets(cost_us):
    """One message's cost split evenly between its sender and its receiver (LogGP's o_s, o_r;
    the indices time a message as half a blocking round trip, so each message pays both)."""
    half = f"{cost_us / 2:.1f}us"
    return [f"protocol.costs.send_overhead={half}", f"protocol.costs.receive_overhead={half}"]
COLUMNS = ["from", "to"] + KEYS + ["BW_8MB_default"] + [f"paper_{k}" for k in KEYS]


def run(backend, profile, out, extra):
    cmd = [common.tsunagi_binary(), "run", os.path.join(common.ROOT, SCENARIO), "--backend",
           backend, "--out", out, "--quiet", "--set", f"network.wan.tcp_profile={profile}"]
    if backend == "realnet":  # namespaces; real time, so a long limit
        cmd += ["--net", "netns", "--timeout", "7200"]
    for item in extra:
        cmd += ["--set", item]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "result.json")) as f:
        return json.load(f)


def table_rows(results):
    """One row per directed pair: the main profile's indices (tuned when run), BW_8MB with the
    default windows, and the paper's Table 5 values."""
    main = results.get("tuned") or next(iter(results.values()))
    default = {(p["from"], p["to"]): p
               for p in results.get("default", {}).get("indices", {}).get("pairs", [])}
    rows = []
    for pair in main["indices"]["pairs"]:
        a, b = SITES[pair["from"]], SITES[pair["to"]]
        row = {"from": a, "to": b, **{k: pair[k] for k in KEYS}}
        row["BW_8MB_default"] = default.get((pair["from"], pair["to"]), {}).get("BW_8MB")
        row.update({f"paper_{k}": v for k, v in zip(KEYS, PAPER[(a, b)])})
        rows.append(row)
    return rows


def series_rows(backend, results):
    rows = []
    for profile, result in results.items():
        for pair in result["indices"]["pairs"]:
            for size in pair["sizes"]:
                rate = size["bytes"] / (size["message_ns"] / 1e9) / 1e6
                rows.append((backend, profile, SITES[pair["from"]], SITES[pair["to"]],
                             size["bytes"], size["message_ns"], f"{rate:.3f}"))
    return rows


def fmt(value, digits=3):
    return "—" if value is None else f"{value:.{digits}f}"


def print_table(backend, rows, profile):
    print(f"\n### {backend}: Table 5 ({profile} windows), tsunagi / paper\n")
    print("| from → to | " + " | ".join(KEYS) + " | BW_8MB default |")
    print("|---|" + "---|" * (len(KEYS) + 1))
    for row in rows:
        cells = [f"{fmt(row[k], 1 if k == 'MBps_8MB' else 3)} / {row['paper_' + k]}" for k in KEYS]
        print(f"| {NAMES[row['from']]} → {NAMES[row['to']]} | " + " | ".join(cells) +
              f" | {fmt(row['BW_8MB_default'])} |")


def write_table(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row[k] is None else row[k]) for k in COLUMNS})


def read_table(path):
    with open(path, newline="") as f:
        return {(r["from"], r["to"]): r for r in csv.DictReader(f)}


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    from table5_checks import regressions, paper_checks  # noqa: E402
    from table5_plot import plot  # noqa: E402

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="simgrid,ns3")
    parser.add_argument("--profiles", default="default,tuned")
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--host-cost-us", type=float, default=paper_host_cost_us(),
                        help="per-message host cost in us, half at each end (default: from the "
                        "paper's pairs without Tokyo, %(default).1f us)")
    common.add_output_options(parser)
    args = parser.parse_args()
    print(f"input: per-message host cost {args.host_cost_us:.1f} us "
          f"({' '.join(host_cost_sets(args.host_cost_us))})"
          + (" = the median over the paper's six pairs without Tokyo of RTT/2 x (1/OH_64B - 1)"
             if args.host_cost_us == paper_host_cost_us() else " (given)"))
    sets = (host_cost_sets(args.host_cost_us) if args.host_cost_us > 0 else []) + args.set
    dest = common.output_dir(args, HERE, "supersinet")
    runs = common.runs_dir(args, dest, "supersinet")
    failures, series = [], []
    for backend in args.backends.split(","):
        results = {p: run(backend, p, os.path.join(runs, f"{backend}-{p}"), sets)
                   for p in args.profiles.split(",")}
        rows = table_rows(results)
        print_table(backend, rows, "tuned" if "tuned" in results else next(iter(results)))
        committed = os.path.join(HERE, f"table5_{backend}.csv")
        if not args.update and not args.set and os.path.exists(committed):
            failures += regressions(backend, rows, read_table(committed))
        backend_series = series_rows(backend, results)
        failures += paper_checks(backend, rows, backend_series, RTT_MS)
        write_table(os.path.join(dest, f"table5_{backend}.csv"), rows)
        series += backend_series
    common.write_csv(os.path.join(dest, "fig34_series.csv"),
                     ["backend", "profile", "from", "to", "bytes", "message_ns", "MBps"], series)
    plot(series, common.figure_path(args, dest, "fig34_supersinet.png"))
    print(f"\n{len(failures)} check(s) failed" + "".join(f"\n  {f}" for f in failures))
    sys.exit(1 if failures else 0)
