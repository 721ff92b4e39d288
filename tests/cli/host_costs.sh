#!/usr/bin/env bash
# Issue 32: host costs on a simulator. A two-rank ping-pong, free and with the costs of a
# --costs FILE: every round trip grows by 2 x (send_overhead + receive_overhead +
# 2 x message_bytes / copy_bandwidth), the core's charges on the critical path (one message in
# flight at a time), so the makespan by rounds times that. Usage: host_costs.sh BACKEND
source "$(dirname "$0")/lib.sh"
backend=$1
run() {  # OUT [options]: the two-switch teaching network, ranks 0 and 1 only
  local out=$1
  shift
  "$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --backend "$backend" --quiet \
    --out "$WORK/$out" --set placement.processes=2 --set workload.pingpong.pong=1 \
    --set workload.pingpong.message_bytes=20000 "$@" >/dev/null
}
cat > "$WORK/costs.toml" <<'TOML'
# as tsunagi calibrate writes them
[protocol.costs]
send_overhead = "10us"
receive_overhead = "15us"
copy_bandwidth = "1GBps"
TOML
run free
run paid --costs "$WORK/costs.toml"
expect_json "$WORK/paid/result.json" ok true
python3 - "$WORK/free/result.json" "$WORK/paid/result.json" <<'PY'
import json, statistics, sys
free, paid = (json.load(open(p))["workload"]["details"]["round_trip_ns"] for p in sys.argv[1:])
size = 20000
# Per round trip: ping sent and received, pong sent and received; each send or receive also
# copies the 20,000-byte frame at 1 GB/s (20 us): 2 x (10 + 15 + 2 x 20) = 130 us.
predicted = 2 * (10e3 + 15e3 + 2 * size / 1e9 * 1e9)
# The first round is left out: the free run's first ping waits ~11 us for the connection's last
# set-up step, a wait the paid run's send overhead hides. After it SimGrid's growth is the
# charges exactly; ns-3's is 0.86 us less, the two 54-byte ACK frames (1 Gbit/s) a free run's
# reply queues behind and a paid run's, sent 25 us later, does not. 2 us covers that and is far
# below one missing charge (10 us or more).
grown = statistics.median(paid[1:]) - statistics.median(free[1:])
if abs(grown - predicted) > 2000:
    sys.exit(f"FAIL: a round trip grew by {grown} ns, predicted {predicted:.0f} ns")
print(f"ok: a round trip grew by {grown:.0f} ns, predicted {predicted:.0f} ns "
      f"(makespan {sum(free)} -> {sum(paid)} ns)")
PY
