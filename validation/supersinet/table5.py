#!/usr/bin/python3
"""Paper 004, Table 5 side by side: runs supersinet-4 (indices workload) on the given backends
with the default and the tuned windows, and prints each directed pair's TCP, OH_64B, OH_64KB,
BW_64KB, BW_8MB and MB/s at 8 MB next to the paper's values, plus the Fig. 3/4 series
(message time and rate per size) as CSV.

Usage: validation/supersinet/table5.py [--tsunagi build/app/tsunagi] [--out out/supersinet]
                                       [--backends simgrid,ns3,realnet] [--profiles default,tuned]
                                       [--set key=value ...]
realnet runs in network namespaces (root); with the default windows (16-60 KB at 10-42 ms) its
run takes about as long as the links make it: ~25 min real for the paper's sizes, so
`--profiles tuned` leaves it out (the last column then shows "—").
"""
import argparse
import json
import pathlib
import subprocess
import sys

SITES = ["hokkaido", "tokyo", "kyoto", "kyushu"]
NAMES = {"hokkaido": "Hokkaido", "tokyo": "Tokyo", "kyoto": "Kyoto", "kyushu": "Kyushu"}
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


def run(tsunagi, backend, profile, out, extra):
    out.mkdir(parents=True, exist_ok=True)
    cmd = [tsunagi, "run", "scenarios/papers/supersinet-4.toml", "--backend", backend,
           "--out", str(out), "--quiet", "--set", f"network.wan.tcp_profile={profile}"]
    if backend == "realnet":  # namespaces; real time, so a long limit
        cmd += ["--net", "netns", "--timeout", "7200"]
    for item in extra:
        cmd += ["--set", item]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return json.loads((out / "result.json").read_text())


def fmt(value, digits=3):
    return "—" if value is None else f"{value:.{digits}f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tsunagi", default="build/app/tsunagi")
    parser.add_argument("--out", default="out/supersinet")
    parser.add_argument("--backends", default="simgrid,ns3")
    parser.add_argument("--profiles", default="default,tuned")
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    series = ["backend,profile,from,to,bytes,message_ns,MBps"]
    for backend in args.backends.split(","):
        results = {p: run(args.tsunagi, backend, p, out / f"{backend}-{p}", args.set)
                   for p in args.profiles.split(",")}
        main_profile = "tuned" if "tuned" in results else next(iter(results))
        print(f"\n### {backend}: Table 5 ({main_profile} windows), tsunagi / paper\n")
        print("| from → to | " + " | ".join(KEYS) + " | BW_8MB default |")
        print("|---|" + "---|" * (len(KEYS) + 1))
        default_pairs = {(p["from"], p["to"]): p
                         for p in results.get("default", {}).get("indices", {}).get("pairs", [])}
        for pair in results[main_profile]["indices"]["pairs"]:
            a, b = SITES[pair["from"]], SITES[pair["to"]]
            paper = PAPER[(a, b)]
            cells = []
            for i, key in enumerate(KEYS):
                digits = 1 if key == "MBps_8MB" else 3
                cells.append(f"{fmt(pair[key], digits)} / {paper[i]}")
            d = default_pairs.get((pair["from"], pair["to"]), {})
            print(f"| {NAMES[a]} → {NAMES[b]} | " + " | ".join(cells) +
                  f" | {fmt(d.get('BW_8MB'))} |")
        for profile, result in results.items():
            for pair in result["indices"]["pairs"]:
                for size in pair["sizes"]:
                    rate = size["bytes"] / (size["message_ns"] / 1e9) / 1e6
                    series.append(f"{backend},{profile},{SITES[pair['from']]},{SITES[pair['to']]},"
                                  f"{size['bytes']},{size['message_ns']},{rate:.3f}")
    (out / "fig34_series.csv").write_text("\n".join(series) + "\n")
    print(f"\nFig. 3/4 series: {out / 'fig34_series.csv'}")


if __name__ == "__main__":
    sys.exit(main())
