#!/usr/bin/env bash
# medium = "shared" in namespaces is one medium, not a switch: lmmc-scaling's stencil on 2 and
# 8 nodes over one 10 Mbit/s segment. Every frame entering the bridge passes one IFB device
# shaped at the segment's rate, so the aggregate bandwidth stays at or below 1.25 MB/s however
# many nodes send (SimGrid 1.2, ns-3's CSMA 1.0); as a plain bridge it grew with the node count
# (3.2 MB/s at 2 nodes, 19.3 at 8; docs/lmmc.md, "Scaling").
source "$(dirname "$0")/lib.sh"
need_netns
for n in 2 8; do
  run_realnet "$SRC/scenarios/bench/lmmc-scaling.toml" --backend realnet --net netns --quiet \
    --set network.serial.nodes=$n --set 'network.serial.medium="shared"' --out "$WORK/shared-$n"
  [ "$RUN_STATUS" -eq 0 ] || { cat "$WORK/shared-$n/result.json" >&2; fail "$n nodes: run exited $RUN_STATUS"; }
  expect_json "$WORK/shared-$n/result.json" workload.verified true
done
python3 - "$WORK" "$(timing_checks && echo 1 || echo 0)" <<'PY' || fail "the shared segment is not one medium"
import json, sys
timing = sys.argv[2] == "1"  # lower bounds on a real rate: only under the "timing" label
rate = {n: json.load(open("%s/shared-%d/result.json" % (sys.argv[1], n)))["lmmc"]["aggregate_bytes_per_s"]
        for n in (2, 8)}
segment = 10e6 / 8
assert rate[8] <= 1.05 * segment and rate[2] <= 1.05 * segment, rate
assert rate[8] >= 0.5 * segment or not timing, rate  # the medium is used, not starved
assert rate[8] <= 1.3 * rate[2] or not timing, rate
print("ok: aggregate %.2f MB/s on 2 nodes, %.2f on 8 (segment %.2f)" %
      (rate[2] / 1e6, rate[8] / 1e6, segment / 1e6))
PY
