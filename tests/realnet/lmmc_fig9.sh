#!/usr/bin/env bash
# Paper 003 Fig. 9 in network namespaces: lmmc-2node's small messages (1 B .. 1 KB, each in one
# frame) pay their serialisation time on the 20 Mbit/s serial link, so the later one way grows
# with size at the link's rate: the least-squares slope over the five sizes is within 20 % of
# 8 / rate (0.4 us per byte; SimGrid's slope), and 1 KB is at least 300 us above 1 B. With the
# serial link as tbf alone (a bucket of one frame sends the first frame after an idle gap at
# once) 1..256 B were flat at ~130 us and 1 KB took 234 us: a slope of ~0.1 us per byte.
# frames = procs + 1: the warm-up round trip has a port of its own, so nothing pages.
# The serial link is a rated delay line (docs/lmmc.md, "Fig. 9/10"); the median of three runs
# of 8 rounds per size evens out the scheduler's noise (single sizes move by tens of us).
source "$(dirname "$0")/lib.sh"
need_netns
SIZES="[1, 16, 64, 256, 1024]"
for run in 1 2 3; do
  run_realnet "$SRC/scenarios/papers/lmmc-2node.toml" --backend realnet --net netns \
    --latency-scale 1 --set "workload.lmmc.sizes=$SIZES" --set workload.lmmc.procs=5 \
    --set workload.lmmc.frames=6 --set workload.lmmc.rounds=8 --out "$WORK/run$run" --quiet
  [ "$RUN_STATUS" -eq 0 ] || { cat "$WORK/run$run/result.json" >&2; fail "realnet run exited $RUN_STATUS"; }
  expect_json "$WORK/run$run/result.json" workload.verified true
done
python3 - "$WORK" <<'PY' || fail "lmmc-2node's small messages in namespaces lack Fig. 9's slope"
import json, statistics, sys
runs = [{row["bytes"]: row["later_one_way_ns"] / 1e3
         for row in json.load(open("%s/run%d/result.json" % (sys.argv[1], k)))["lmmc"]["series"]}
        for k in (1, 2, 3)]
sizes = sorted(runs[0])
assert sizes == [1, 16, 64, 256, 1024], sizes
later = [statistics.median(run[size] for run in runs) for size in sizes]
mean_x, mean_y = statistics.mean(sizes), statistics.mean(later)
slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(sizes, later)) / \
        sum((x - mean_x) ** 2 for x in sizes)
wire = 8 / 20e6 * 1e6  # us per byte at 20 Mbit/s (scenarios/papers/lmmc-2node.toml)
print("later one way (us, median of 3):", ", ".join("%d B %.1f" % p for p in zip(sizes, later)))
print("slope %.3f us/B = %.2f x size / rate; offset at 1 B %.1f us" %
      (slope, slope / wire, later[0]))
assert 0.8 * wire <= slope <= 1.2 * wire, slope
assert later[-1] - later[0] >= 300, later
print("ok: small messages pay their serialisation time")
PY
