#!/usr/bin/env bash
# Acceptance: kaneda-112 on SimGrid infers 8 groups of 14, correctly.
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/papers/kaneda-112.toml" --out "$WORK/a" --quiet
expect_json "$WORK/a/result.json" inference.groups_correct true
expect_json "$WORK/a/result.json" inference.groups_count 8
sizes=$(python3 -c "import json;print(sorted({len(g) for g in json.load(open('$WORK/a/result.json'))['inference']['groups']}))")
[ "$sizes" = "[14]" ] || fail "group sizes $sizes"
expect_json "$WORK/a/result.json" inference.rtt_probes 12432
expect_json "$WORK/a/result.json" workload.verified true
# Issue 3: the switch tree from throughput interference, on the same run.
expect_json "$WORK/a/result.json" inference.tree_correct true
# 8*7 transfers alone + 2 * (840 pairs of four switches + 168 with a shared sender).
expect_json "$WORK/a/result.json" inference.throughput_probes 2072
