#!/usr/bin/env bash
# simgrid.slow_start (docs/simgrid.md, "Slow start"): the flow model with TCP's slow start
# against ns-3's real TCP. Two-switches' r0 <-> r7, 64 KiB, latencies x50 (an 11 ms round trip,
# longer than 64 KiB takes at 1 Gbit/s, so a fresh window shows). Checks: without the option the
# first round trips pay no window; with it the first two pay round trips of waiting; from the
# third both are the same; and every round trip with it within 10 % of ns-3's (without it the
# first is 3x off).
source "$(dirname "$0")/lib.sh"
common=(--quiet --set network.factors.latency_scale=50 --set workload.pingpong.message_bytes=65536
        --set workload.pingpong.rounds=6)
scenario="$SRC/scenarios/teaching/two-switches.toml"
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/flow" "${common[@]}" >/dev/null
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/slow" "${common[@]}" \
  --set simgrid.slow_start=true >/dev/null
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/ns3" "${common[@]}" >/dev/null
for run in flow slow ns3; do expect_json "$WORK/$run/result.json" ok true; done
python3 - "$WORK" <<'PY'
import json, sys
rt = {r: json.load(open(f"{sys.argv[1]}/{r}/result.json"))["workload"]["details"]["round_trip_ns"]
      for r in ("flow", "slow", "ns3")}
print("round trips (ms):", {r: [round(x / 1e6, 1) for x in v] for r, v in rt.items()})
rtt = 11e6  # 2 x (5 + 50 + 50 + 5 us) x 50
fails = []
# A fresh 64 KiB message needs rounds of 14,480 and 28,960 bytes before its last: two waits of
# nearly one RTT each, in each direction of the first two round trips (the shortcut's
# directions start fresh one after the other).
if rt["slow"][0] - rt["flow"][0] < 2 * 0.9 * rtt:
    fails.append("round 1 paid less than two round trips of window")
if rt["slow"][1] - rt["flow"][1] < 0.9 * rtt:
    fails.append("round 2 paid less than one round trip of window")
for i in range(2, len(rt["flow"])):
    if abs(rt["slow"][i] / rt["flow"][i] - 1) > 0.01:
        fails.append(f"round {i + 1}: a grown window still costs ({rt['slow'][i]} vs {rt['flow'][i]})")
for i, (s, n) in enumerate(zip(rt["slow"], rt["ns3"])):
    if abs(s / n - 1) > 0.10:
        fails.append(f"round {i + 1}: SimGrid with slow start {s} ns, ns-3 {n} ns: over 10 %")
if fails:
    sys.exit("FAIL: " + "; ".join(fails))
print("ok: slow start on SimGrid pays the rounds ns-3 pays")
PY
