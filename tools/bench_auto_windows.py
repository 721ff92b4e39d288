#!/usr/bin/python3
"""Auto windows on long links (issue 32): the rate every pair of a 3-site WAN reaches with the
window the core chose, as a fraction of the 1 Gbit/s link.

For each RTT set (a-b, a-c, b-c) and backend, scenarios/bench/wan-3site.toml runs twice with
protocol.window = "auto": the indices workload's iperf-like transfer (made with the window the
core chose for that peer) carries S and then 3S bytes, and the pair's rate is 2S over the
difference of the two times, so slow start and the first byte's flight cancel (as
tests/cli/window_limits.sh). The chosen window and the measured path come from the trace.

Usage: tools/bench_auto_windows.py [--tsunagi build/app/tsunagi] [--backends ns3,realnet]
           [--rtts 4,17,33 --rtts 60,60,100] [--stream 32MB] [--out DIR] [--min 0.85]
Exit status 1 when a pair stays below --min. realnet needs root (namespaces)."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

LINK = 125e6  # 1 Gbit/s in bytes per second
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(SRC, "scenarios", "bench", "wan-3site.toml")
PAIRS = [("a", "b"), ("a", "c"), ("b", "c")]


def size_bytes(text):
    m = re.fullmatch(r"(\d+)(KB|MB)?", text)
    if not m:
        raise SystemExit(f"not a size: {text} (e.g. 32MB)")
    return int(m.group(1)) * {None: 1, "KB": 1024, "MB": 1 << 20}[m.group(2)]


def scenario_with(rtts, directory):
    """wan-3site.toml with the pairs' RTTs replaced (ms, in the order a-b, a-c, b-c)."""
    text = open(SCENARIO).read()
    for (x, y), ms in zip(PAIRS, rtts):
        pattern = r'(between = \["%s", "%s"\], rtt = ")[^"]*(")' % (x, y)
        text, n = re.subn(pattern, r"\g<1>%gms\g<2>" % ms, text)
        assert n == 1, (x, y)
    path = os.path.join(directory, "wan-3site-%s.toml" % "-".join("%g" % r for r in rtts))
    open(path, "w").write(text)
    return path


def run(tsunagi, scenario, backend, stream, out):
    cmd = [tsunagi, "run", scenario, "--backend", backend, "--out", out, "--quiet",
           "--set", "workload.indices.stream_bytes=%d" % stream]
    if backend == "realnet":
        cmd += ["--net", "netns"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    result = json.load(open(os.path.join(out, "result.json")))
    if not result.get("ok"):
        raise SystemExit(f"{out}: run not ok")
    windows = {}
    for line in open(os.path.join(out, "trace.jsonl")):
        event = json.loads(line)
        detail = event.get("detail", {})
        if event["kind"] == "window" and detail.get("measured"):
            rank = int(event["proc"].lstrip("r"))
            windows[(rank, detail["peer"])] = detail["timing"]
    elapsed = {(p["from"], p["to"]): p["tcp_elapsed_ns"] for p in result["indices"]["pairs"]}
    return windows, elapsed


def measure(args, rtts, backend, directory):
    scenario = scenario_with(rtts, directory)
    label = "%s-%s" % (backend, "-".join("%g" % r for r in rtts))
    one = run(args.tsunagi, scenario, backend, args.stream, os.path.join(args.out, label + "-1"))
    three = run(args.tsunagi, scenario, backend, 3 * args.stream,
                os.path.join(args.out, label + "-3"))
    rtt_of = {}
    for (x, y), ms in zip(PAIRS, rtts):
        i, j = "abc".index(x), "abc".index(y)
        rtt_of[(i, j)] = rtt_of[(j, i)] = ms
    rows = []
    for pair in sorted(one[1]):
        dt = (three[1][pair] - one[1][pair]) / 1e9
        rate = 2 * args.stream / dt if dt > 0 else float("nan")
        ms = rtt_of[pair]
        bdp = LINK * ms / 1e3
        # The window of the run with S (the 3S run decided its own, from its own probes).
        w1 = one[0].get(pair, {}).get("buffer_bytes", 0)
        w3 = three[0].get(pair, {}).get("buffer_bytes", 0)
        probed = one[0].get(pair, {}).get("bytes_per_second", 0)
        probes = "/".join("%.2f" % (r / LINK) for r in one[0].get(pair, {}).get("passes", []))
        rows.append((backend, ms, pair, bdp, w1, w3, probed, probes, rate))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tsunagi", default=os.path.join(SRC, "build", "app", "tsunagi"))
    p.add_argument("--backends", default="ns3,realnet")
    p.add_argument("--rtts", action="append", help="ms for a-b, a-c, b-c (repeatable)")
    p.add_argument("--stream", default="32MB", type=size_bytes)
    p.add_argument("--out", default=None)
    p.add_argument("--min", type=float, default=0.85)
    args = p.parse_args()
    rtt_sets = [[float(x) for x in s.split(",")] for s in (args.rtts or ["4,17,33"])]
    if any(len(s) != 3 for s in rtt_sets):
        raise SystemExit("--rtts takes three values: a-b, a-c, b-c in ms")
    args.out = args.out or tempfile.mkdtemp(prefix="bench-auto-windows-")
    print("| backend | RTT (ms) | pair | BDP (MB) | window S run (MB) | window 3S run (MB) "
          "| probed rate / link | passes / link | rate / link |")
    print("|---|---|---|---|---|---|---|---|---|")
    low = []
    with tempfile.TemporaryDirectory() as directory:
        for rtts in rtt_sets:
            for backend in args.backends.split(","):
                for backend_, ms, (i, j), bdp, w1, w3, probed, probes, rate in measure(
                        args, rtts, backend, directory):
                    fraction = rate / LINK
                    print(f"| {backend_} | {ms:g} | {i}->{j} | {bdp / 1e6:.2f} | {w1 / 1e6:.2f} "
                          f"| {w3 / 1e6:.2f} | {probed / LINK:.3f} | {probes} | {fraction:.3f} |",
                          flush=True)
                    if not fraction >= args.min:
                        low.append((backend_, ms, i, j, fraction))
    print(f"runs in {args.out}")
    for backend, ms, i, j, fraction in low:
        print(f"BELOW {args.min}: {backend} {ms:g} ms {i}->{j}: {fraction:.3f}")
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
