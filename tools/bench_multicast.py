#!/usr/bin/python3
"""Benchmark (issue 13): 256 ranks, 100 multicasts of 8 MB on SimGrid, beside SimGrid SMPI's
MPI_Bcast moving the same traffic on the same Dragonfly (validation/multicast/smpi_baseline.sh
--benchmark: 100 x MPI_Bcast of 8 MB to 256 ranks with binomial_tree and scatter_LR_allgather).

tsunagi runs scenarios/papers/xc30-256.toml with one group of r = 256, 8,388,608 bytes and 100
repeats, once per algorithm (binomial, scatter_ring: the two SMPI algorithms' counterparts).
Its run also includes what SMPI has no part of: start-up, RTT inference of the 257 processes,
the overlay's connections and the master's 8 MB to the root of each multicast; both programs
verify (tsunagi: chunk coverage at 8 MB; SMPI: nothing at 8 MB, shared buffers).

SMPI's peak RSS counts its shared-malloc buffer once per rank that maps it (256 mappings of one
8 MB block), so its proportional set size (PSS, sampled by smpi_baseline.sh) is what it really
holds; the memory ratio is tsunagi's peak RSS over SMPI's peak PSS.

Prints a table (wall seconds, peak memory, simulated times, ratios tsunagi / SMPI) and writes
benchmarks-multicast-latest.csv into build/bench/ (--out DIR), or over the committed
docs/benchmarks-multicast-latest.csv with --update. Run it while nothing else builds (2 cores).

Usage: tools/bench_multicast.py [--repeats 100] [--smpi-dir DIR] [--out DIR | --update]"""
import argparse
import csv
import json
import os
import subprocess
import sys

from measured_run import measured_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "validation"))
from common import add_output_options, output_dir  # noqa: E402
SCENARIO = os.path.join(ROOT, "scenarios", "papers", "xc30-256.toml")
PAIRS = [("binomial", "binomial_tree"), ("scatter_ring", "scatter_LR_allgather")]


def run_tsunagi(binary, algorithm, repeats):
    # Measured one at a time, not through `tsunagi sweep`, as in tools/bench.py: peak memory and
    # wall time of each run are the figures, beside SMPI runs that are no tsunagi runs.
    out = os.path.join(ROOT, "out", "bench", f"multicast-{algorithm}")
    cmd = [binary, "run", SCENARIO, "--out", out, "--quiet",
           "--set", f"workload.multicast.repeats={repeats}",
           "--set", "workload.multicast.sizes=[8388608]",
           "--set", "workload.multicast.group_sizes=[256]",
           "--set", f'workload.multicast.algorithms=["{algorithm}"]']
    status, wall, peak_rss_mb = measured_run(cmd)
    if status != 0:
        sys.exit(f"tsunagi run failed with status {status}: see {out}")
    with open(os.path.join(out, "result.json")) as f:
        result = json.load(f)
    row = result["multicast"]["series"][0]
    if not result["ok"] or row["verified"] != repeats:
        sys.exit(f"tsunagi run not ok or not verified: {out}/result.json")
    return {"wall_s": wall, "peak_rss_mb": peak_rss_mb,
            "simulated_s": result["simulated_end_s"],
            "multicast_ms": row["completion_ns"] / 1e6, "from_root_ms": row["from_root_ns"] / 1e6}


def run_smpi(smpi_dir):
    if smpi_dir is None:
        smpi_dir = os.path.join(ROOT, "out", "bench", "smpi-multicast")
        cmd = [os.path.join(ROOT, "validation", "multicast", "smpi_baseline.sh"), "--benchmark",
               "--out", smpi_dir]
        print("+", " ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)
    runs = {}
    with open(os.path.join(smpi_dir, "smpi_measure.csv")) as f:
        for rec in csv.DictReader(f):
            runs[rec["algorithm"]] = {"wall_s": float(rec["wall_s"]),
                                      "peak_rss_mb": float(rec["max_rss_kb"]) / 1024.0,
                                      "peak_pss_mb": float(rec["peak_pss_kb"]) / 1024.0}
    with open(os.path.join(smpi_dir, "smpi_bcast.csv")) as f:
        for rec in csv.DictReader(f):
            if rec["algorithm"] in runs and rec["mode"] == "static":
                runs[rec["algorithm"]]["multicast_ms"] = float(rec["time_s"]) * 1e3
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=100)
    parser.add_argument("--smpi-dir", help="an existing smpi_baseline.sh --benchmark --out DIR")
    add_output_options(parser)
    args = parser.parse_args()
    dest = output_dir(args, os.path.join(ROOT, "docs"), "", under="bench")
    binary = os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi"))
    smpi = run_smpi(args.smpi_dir)
    header = ["algorithm", "smpi_algorithm", "tsunagi_wall_s", "smpi_wall_s", "wall_ratio",
              "tsunagi_peak_rss_mb", "smpi_peak_rss_mb", "smpi_peak_pss_mb",
              "memory_ratio_to_pss", "tsunagi_multicast_ms",
              "tsunagi_from_root_ms", "smpi_bcast_ms"]
    rows = []
    for ours, theirs in PAIRS:
        t = run_tsunagi(binary, ours, args.repeats)
        s = smpi[theirs]
        rows.append([ours, theirs, f"{t['wall_s']:.1f}", f"{s['wall_s']:.1f}",
                     f"{t['wall_s'] / s['wall_s']:.2f}", f"{t['peak_rss_mb']:.0f}",
                     f"{s['peak_rss_mb']:.0f}", f"{s['peak_pss_mb']:.0f}",
                     f"{t['peak_rss_mb'] / s['peak_pss_mb']:.2f}",
                     f"{t['multicast_ms']:.3f}", f"{t['from_root_ms']:.3f}",
                     f"{s['multicast_ms']:.3f}"])
    path = os.path.join(dest, "benchmarks-multicast-latest.csv")
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(row) + "\n")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for line in [header] + rows:
        print("  ".join(v.rjust(w) for v, w in zip(line, widths)))
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
