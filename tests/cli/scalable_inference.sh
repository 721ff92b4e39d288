#!/usr/bin/env bash
# Issue 3, scalable method: groups from leader rounds and the tree from RTTs between group
# representatives give the same answer as the exact methods on kaneda-112 with ~4 % of the
# RTT probes and no throughput probes; the decisions (groups, tree) match the exact run's.
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/papers/kaneda-112.toml" --out "$WORK/s" --quiet \
  --set protocol.inference.groups=leaders --set protocol.inference.tree=rtt
expect_json "$WORK/s/result.json" inference.groups_correct true
expect_json "$WORK/s/result.json" inference.tree_correct true
# Leader rounds: 111 + 97 + 83 + ... + 13 ranks measured (8 groups of 14), then 8 x 7 between
# representatives.
expect_json "$WORK/s/result.json" inference.rtt_probes 552
expect_json "$WORK/s/result.json" inference.throughput_probes 0
expect_json "$WORK/s/result.json" inference.tree.method '"rtt"'

# Directory on demand (what lets 10,000 processes fit): the same decisions as the full
# directory, and nodes never see all 112 endpoints.
"$TSUNAGI" run "$SRC/scenarios/papers/kaneda-112.toml" --out "$WORK/d" --quiet \
  --set protocol.inference.groups=leaders --set protocol.inference.tree=rtt \
  --set protocol.directory=on_demand
expect_json "$WORK/d/result.json" inference.groups_correct true
expect_json "$WORK/d/result.json" inference.tree_correct true
expect_json "$WORK/d/result.json" inference.rtt_probes 552
"$TSUNAGI" compare "$WORK/s" "$WORK/d" > "$WORK/compare.txt" ||
  fail "directory on demand changed decisions: $(head -20 "$WORK/compare.txt")"

# Latency-only messages (simgrid.latency_only_below, set by switched-10k) never enter SimGrid
# under CM02: a kernel timer delivers each at its route's latency. SimGrid's own transfer of size
# 0 (LV08 with CM02's factors, which the adapter leaves to SimGrid) must give the same run to
# the nanosecond: same decisions, same simulated end.
small="--set network.tree.levels.1.fanout=1"  # 400 processes
"$TSUNAGI" run "$SRC/scenarios/bench/switched-10k.toml" $small --out "$WORK/timer" --quiet
TSUNAGI_SIMGRID_CFG="network/latency-factor:1 network/bandwidth-factor:1 network/weight-S:0" \
  "$TSUNAGI" run "$SRC/scenarios/bench/switched-10k.toml" $small --out "$WORK/transfer" --quiet \
  --set simgrid.network_model=LV08
expect_json "$WORK/timer/result.json" ok true
expect_json "$WORK/timer/result.json" inference.groups_correct true
"$TSUNAGI" compare "$WORK/timer" "$WORK/transfer" > "$WORK/compare-unmodelled.txt" ||
  fail "unmodelled messages changed decisions: $(head -20 "$WORK/compare-unmodelled.txt")"
expect_json "$WORK/transfer/result.json" simulated_end_s "$(json_get "$WORK/timer/result.json" simulated_end_s)"
