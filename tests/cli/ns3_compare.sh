#!/usr/bin/env bash
# The same scenario and seed on SimGrid and on ns-3 make the same decisions: `tsunagi compare`
# exits 0, and the ns-3 run inferred the true switch groups (when the plan infers any).
# Usage: ns3_compare.sh SCENARIO [--set ...]
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/$1
shift
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/simgrid" --quiet "$@" >/dev/null
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/ns3" --quiet "$@" >/dev/null
expect_json "$WORK/ns3/result.json" backend '"ns3"'
expect_json "$WORK/ns3/result.json" ok true
# Only groups inferred from RTTs can be right or wrong (plan = "all" infers none, the relay
# plan takes site labels).
[ "$(json_get "$WORK/simgrid/result.json" inference.groups_source)" != '"rtt"' ] ||
  expect_json "$WORK/ns3/result.json" inference.groups_correct true
# When the scenario infers the tree too, ns-3's throughput probes must find the true one.
tree=$(json_get "$WORK/simgrid/result.json" inference.tree_correct 2>/dev/null || echo null)
[ "$tree" = null ] || expect_json "$WORK/ns3/result.json" inference.tree_correct "$tree"
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/ns3" || fail "SimGrid and ns-3 made different decisions"
echo "ok: SimGrid and ns-3 made the same decisions ($(wc -l < "$WORK/ns3/trace.jsonl") each)"
