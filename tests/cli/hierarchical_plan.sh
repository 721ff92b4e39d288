#!/usr/bin/env bash
# Issue 30: the hierarchical plan. On kaneda-112 (8 switches of 14 under a two-level tree) with
# scalable inference: groups and tree right, the workload verified, the plan's connections
# exactly N x group size plus two per leader link, fewer than the topology plan's, and every
# pair of ranks reaches each other through the leaders (connectivity workload, verified).
source "$(dirname "$0")/lib.sh"
hier=(--set protocol.plan=hierarchical --set protocol.routing=groups
      --set protocol.inference.groups=partition --set protocol.inference.tree=rtt
      --set protocol.directory=on_demand --set protocol.trace_full_routes=false)
"$TSUNAGI" run "$SRC/scenarios/papers/kaneda-112.toml" --out "$WORK/h" --quiet "${hier[@]}" >/dev/null
expect_json "$WORK/h/result.json" ok true
expect_json "$WORK/h/result.json" inference.groups_correct true
expect_json "$WORK/h/result.json" inference.tree_correct true
"$TSUNAGI" run "$SRC/scenarios/papers/kaneda-112.toml" --out "$WORK/t" --quiet \
  --set protocol.inference.groups=partition --set protocol.inference.tree=rtt \
  --set protocol.directory=on_demand >/dev/null
expect_json "$WORK/t/result.json" ok true
python3 - "$WORK/h" "$WORK/t" <<'PY' || fail "the hierarchical plan's connections are not what it promises"
import json, sys
hier, topo = (json.load(open(d + "/result.json")) for d in sys.argv[1:3])
events = [json.loads(l) for l in open(sys.argv[1] + "/trace.jsonl")]
plan = [e["detail"] for e in events if e["kind"] == "hierarchy"]
assert len(plan) == 1, plan
plan = plan[0]
groups = hier["inference"]["groups"]
ends = sum(len(g) * (len(g) - 1) for g in groups) + 2 * (len(groups) - 1)
assert plan["connection_ends"] == ends, (plan, ends)
assert not plan["star"], plan
assert plan["height"] >= 1, plan
static = hier["connections"]["static"]
assert 2 * static == ends, (static, ends)
assert static < topo["connections"]["static"], (static, topo["connections"]["static"])
# A member's plan is its group; only leaders have more.
members = [e for e in events if e["kind"] == "plan"]
leaders = {min(g) for g in groups}
for e in members:
    rank = int(e["proc"][1:])
    group = next(g for g in groups if rank in g)
    if rank not in leaders:
        assert sorted(e["detail"]["neighbors"]) == sorted(r for r in group if r != rank), e
print(f"static connections: hierarchical {static}, topology {topo['connections']['static']}")
PY
# Every pair through the leaders: connectivity is verified message by message.
"$TSUNAGI" run "$SRC/scenarios/papers/kaneda-112.toml" --out "$WORK/c" --quiet "${hier[@]}" \
  --set workload.kind=connectivity >/dev/null
expect_json "$WORK/c/result.json" ok true
echo "ok: hierarchical plan on kaneda-112"
