#!/usr/bin/env bash
# Issue 32: on realnet the machine pays its own host costs. A run given nonzero ones (here by
# --costs FILE) starts its daemons with the three at 0, says so once on stderr, records them in
# result.json (host_costs_not_added), and still runs; relay / select / connect are untouched.
source "$(dirname "$0")/lib.sh"
S="$SRC/scenarios/teaching/two-switches.toml"
cat > "$WORK/costs.toml" <<'TOML'
[protocol.costs]
send_overhead = "7us"
receive_overhead = "9us"
copy_bandwidth = "2GBps"
relay = "3us"
TOML
two=(--set placement.processes=2 --set workload.pingpong.pong=1 --set workload.pingpong.rounds=2)
"$TSUNAGI" run "$S" --backend realnet --net loopback --dry-run --costs "$WORK/costs.toml" \
  "${two[@]}" --out "$WORK/dry" > "$WORK/dry.sh"
node_line=$(grep -m1 "tsunagi-node" "$WORK/dry.sh")
for zero in send_overhead=0s receive_overhead=0s copy_bandwidth=0; do
  grep -q -- "--set protocol.costs.$zero" <<< "$node_line" || fail "daemon line lacks $zero: $node_line"
done
grep -q -- "--set costs-file:$WORK/costs.toml" <<< "$node_line" || fail "daemon line lacks the file"
echo "ok: the daemons get the costs file, then the three host costs at 0"

run_realnet "$S" --backend realnet --net loopback --quiet --costs "$WORK/costs.toml" "${two[@]}" \
  --out "$WORK/run" 2> "$WORK/stderr"
[ "$RUN_STATUS" -eq 0 ] || { cat "$WORK/stderr" >&2; fail "tsunagi run exited $RUN_STATUS"; }
[ "$(grep -c "host costs are the machine's own on realnet: send_overhead 7 us, receive_overhead 9 us, copy_bandwidth 2 GB/s not added" "$WORK/stderr")" -eq 1 ] ||
  { cat "$WORK/stderr" >&2; fail "the note is not on stderr exactly once"; }
R="$WORK/run/result.json"
expect_json "$R" workload.verified true
expect_json "$R" host_costs_not_added.send_overhead_ns 7000
expect_json "$R" host_costs_not_added.receive_overhead_ns 9000
expect_json "$R" host_costs_not_added.copy_bandwidth_Bps 2000000000
