#!/usr/bin/env bash
# Issue 34: under CM02, messages below simgrid.uncontended_below (default 1024 B) never enter
# SimGrid; the adapter dates each as SimGrid dates a transfer alone on its route (latency +
# bytes / bottleneck). Where no two messages share a link at once, that must be SimGrid's own
# answer to the nanosecond, and it must keep the transmission time that latency-only drops.
source "$(dirname "$0")/lib.sh"
two="$SRC/scenarios/teaching/two-switches.toml"
# One host under each edge switch: a ping-pong of 700 B messages across the core, alone on
# its route (the rendezvous and inference are over before the workload starts).
pair=(--set network.switch.1.hosts=1 --set network.switch.2.hosts=1
      --set workload.pingpong.pong=1 --set workload.pingpong.message_bytes=700)
"$TSUNAGI" run "$two" "${pair[@]}" --out "$WORK/lone" --quiet
"$TSUNAGI" run "$two" "${pair[@]}" --out "$WORK/flows" --quiet --set simgrid.uncontended_below=0
"$TSUNAGI" run "$two" "${pair[@]}" --out "$WORK/latency" --quiet \
  --set simgrid.latency_only_below=1024
for run in lone flows latency; do expect_json "$WORK/$run/result.json" ok true; done
"$TSUNAGI" compare "$WORK/flows" "$WORK/lone" > "$WORK/compare-pair.txt" ||
  fail "dating small messages changed decisions: $(head -20 "$WORK/compare-pair.txt")"
lone=$(json_get "$WORK/lone/result.json" workload.makespan_ns)
flows=$(json_get "$WORK/flows/result.json" workload.makespan_ns)
latency=$(json_get "$WORK/latency/result.json" workload.makespan_ns)
echo "ping-pong makespan: dated $lone ns, SimGrid flows $flows ns, latency only $latency ns"
[ "$lone" = "$flows" ] || fail "a lone 700 B message dated $lone ns, SimGrid says $flows ns"
# 20 messages x 700 B over three 1 Gbit/s links in a row (store and forward is not modelled:
# the flow pays the bottleneck once) = 20 x 5.6 us that latency-only leaves out.
gap=$((lone - latency))
[ "$gap" -ge 110000 ] && [ "$gap" -le 114000 ] ||
  fail "dated - latency-only = $gap ns, expected 20 x 5.6 us = 112000 ns of transmission"
echo "ok: the 20 messages' transmission (112 us) is kept, to the nanosecond of SimGrid's flows"

# The whole teaching scenario (8 processes, handshakes at the same time on shared uplinks):
# contention among small messages is what the dating leaves out, so times may differ a
# little; the decisions may not.
"$TSUNAGI" run "$two" --out "$WORK/all-lone" --quiet
"$TSUNAGI" run "$two" --out "$WORK/all-flows" --quiet --set simgrid.uncontended_below=0
expect_json "$WORK/all-lone/result.json" ok true
expect_json "$WORK/all-lone/result.json" inference.groups_correct true
"$TSUNAGI" compare "$WORK/all-flows" "$WORK/all-lone" > "$WORK/compare-all.txt" ||
  fail "dating small messages changed decisions: $(head -20 "$WORK/compare-all.txt")"
echo "ok: two-switches makes the same decisions with small messages dated or as flows"
