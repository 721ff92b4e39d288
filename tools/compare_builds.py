#!/usr/bin/python3
"""Decisions unchanged across a code change: run every scenario of the repo with two builds and
`tsunagi compare` the traces.

    tools/compare_builds.py --old /path/to/old/build --new build --work /tmp/cmp \
        --backends simgrid,ns3

Each scenario runs with the same seed under both builds (the old build's outputs are reused when
WORK already holds them, so a baseline is made once); `tsunagi compare OLD NEW` must exit 0.
Scenarios too large for a backend run at a stated smaller size (SIZE_OVERRIDES) so that every
file is exercised on every backend; the table says which. Exit status: 0 when every comparison
exited 0 and every run ended the same way under both builds, 1 otherwise.
"""
import argparse
import pathlib
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent

# Sizes a backend cannot finish in minutes on a 2-core machine: run them smaller, and say so.
SIZE_OVERRIDES = {
    ("switched-100k", "ns3"): ["--set", "network.tree.levels.1.fanout=5"],  # 2,000 processes
    ("switched-10k", "ns3"): ["--set", "network.tree.levels.1.fanout=5"],  # 2,000 processes
    # Paper 002's series on ns-3: every algorithm and group size, the 80 KB point once (the
    # 8 MB point, 3 repeats, takes over 30 minutes of packets).
    ("xc30-256", "ns3"): ["--set", "workload.multicast.sizes=[81920]",
                          "--set", "workload.multicast.repeats=1"],
    ("xc30-256-multigroup", "ns3"): ["--set", "workload.multicast.sizes=[81920]",
                                     "--set", "workload.multicast.repeats=1"],
}
# Realnet settings of the default suite's compare tests (tests/realnet/CMakeLists.txt):
# dragonfly-16's router steps tie, so its delay lines run at x2000 to keep noise below a step.
REALNET_ARGS = {"dragonfly-16": ["--latency-scale", "2000"]}

# The realnet scenarios of the default test suite (tests/realnet/CMakeLists.txt).
REALNET_DEFAULT = ["teaching/two-switches", "teaching/two-level-32", "papers/ssock-11-small",
                   "teaching/dragonfly-16", "teaching/lmmc-hypercube-8", "papers/lmmc-2node"]


def scenario_files(selected):
    files = sorted((REPO / "scenarios").glob("*/*.toml"))
    files += sorted((REPO / "validation").glob("*/*.toml"))
    if selected:
        files = [f for f in files if any(s in str(f) for s in selected)]
    return files


def run(build, scenario, backend, out, timeout):
    """Run one scenario; returns (exit code, wall seconds). Reuses a finished earlier run."""
    done = out / "result.json"
    if done.exists():
        return int((out / "exit_code").read_text()), 0.0
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [str(build / "app" / "tsunagi"), "run", str(scenario), "--backend", backend,
           "--out", str(out), "--quiet"]
    cmd += SIZE_OVERRIDES.get((scenario.stem, backend), [])
    if backend == "realnet":
        cmd += ["--realnet-bin", str(build / "realnet")] + REALNET_ARGS.get(scenario.stem, [])
    start = time.monotonic()
    try:
        code = subprocess.run(cmd, stdout=subprocess.DEVNULL, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        code = 124
    out.mkdir(parents=True, exist_ok=True)
    (out / "exit_code").write_text(str(code))
    return code, time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, type=pathlib.Path, help="build dir of the old code")
    parser.add_argument("--new", type=pathlib.Path,
                        help="build dir of the new code (without it: make the old outputs only)")
    parser.add_argument("--work", required=True, type=pathlib.Path, help="where outputs go")
    parser.add_argument("--backends", default="simgrid,ns3")
    parser.add_argument("--only", nargs="*", help="scenario path fragments to keep")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    args = parser.parse_args()

    rows, failed = [], False
    for backend in args.backends.split(","):
        files = scenario_files(args.only)
        if backend == "realnet":
            files = [f for f in files if any(str(f).endswith(s + ".toml") for s in REALNET_DEFAULT)]
        for scenario in files:
            name = f"{scenario.parent.name}-{scenario.stem}-{backend}"
            old_code, _ = run(args.old.resolve(), scenario, backend, args.work / "old" / name,
                              args.timeout)
            if args.new is None:
                print(f"{name:45} old={old_code}", flush=True)
                continue
            new_code, wall = run(args.new.resolve(), scenario, backend, args.work / "new" / name,
                                 args.timeout)
            compare = subprocess.run(
                [str(args.new / "app" / "tsunagi"), "compare", str(args.work / "old" / name),
                 str(args.work / "new" / name)], capture_output=True, text=True)
            sized = "smaller" if (scenario.stem, backend) in SIZE_OVERRIDES else ""
            ok = compare.returncode == 0 and old_code == new_code
            failed |= not ok
            rows.append((name, old_code, new_code, compare.returncode, f"{wall:.0f}", sized))
            print(f"{name:45} old={old_code} new={new_code} compare={compare.returncode} "
                  f"{wall:6.0f} s {sized}", flush=True)
            if compare.returncode != 0:
                print(compare.stdout + compare.stderr, file=sys.stderr)
    print(f"{len(rows)} comparisons, {sum(1 for r in rows if r[3] == 0)} exit 0")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
