#!/usr/bin/env bash
# A path of several delay-line hops keeps its links' rate (docs/realnet.md, "Offloads on the
# delay line"): two-switches' r0 <-> r7 crosses 4 delay-line hops at 1 Gbit/s. A 4 MiB
# ping-pong in namespaces (x50) against SimGrid on the same scaled network with slow start:
# after the first two round trips (fresh windows) realnet's round trips are at most 1.25 x
# SimGrid's. With one frame per segment through the line they were 1.5-3 x (116-232 ms against
# 78). Timing label: a real rate against a bound.
source "$(dirname "$0")/lib.sh"
need_netns
S="$SRC/scenarios/teaching/two-switches.toml"
sizes=(--set workload.pingpong.message_bytes=4194304 --set workload.pingpong.rounds=6)
run_realnet "$S" --backend realnet --net netns --out "$WORK/real" -q "${sizes[@]}"
[ "$RUN_STATUS" -eq 0 ] || fail "realnet run failed ($RUN_STATUS)"
"$TSUNAGI" run "$S" --backend simgrid --out "$WORK/sim" -q "${sizes[@]}" \
  --set network.factors.latency_scale=50 --set simgrid.slow_start=true >/dev/null
python3 - "$WORK/real/result.json" "$WORK/sim/result.json" <<'PY'
import json, statistics, sys
real, sim = (json.load(open(p))["workload"]["details"]["round_trip_ns"] for p in sys.argv[1:])
ratio = statistics.median(real[2:]) / statistics.median(sim[2:])
print("round trips (ms): realnet", [round(x / 1e6, 1) for x in real],
      "SimGrid", [round(x / 1e6, 1) for x in sim])
if ratio > 1.25:
    sys.exit(f"FAIL: realnet's settled round trips are {ratio:.2f} x SimGrid's (at most 1.25)")
print(f"ok: 4 delay-line hops at their links' rate ({ratio:.2f} x SimGrid's round trip)")
PY
