#!/usr/bin/env bash
# Acceptance: kaneda-is-128 on SimGrid sorts correctly, with at most 31 static connections
# per process in the topology-aware plan.
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/papers/kaneda-is-128.toml" --out "$WORK/a" --quiet
expect_json "$WORK/a/result.json" workload.verified true
expect_json "$WORK/a/result.json" inference.groups_correct true
static_max=$(json_get "$WORK/a/result.json" connections.static_max_per_node)
[ "$static_max" -le 31 ] || fail "static connections per process $static_max > 31"
echo "ok: static connections per process $static_max <= 31"
