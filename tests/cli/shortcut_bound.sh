#!/usr/bin/env bash
# Issue 16 (paper 000 Fig. 5): a node holds at most `shortcut_capacity` shortcuts, opened or
# accepted, so connections.max_per_node <= static + capacity at every capacity; the run stays
# verified. Connections in their goodbye handshake are the documented transient
# (connections.max_closing_per_node), reported, not bounded.
# Usage: shortcut_bound.sh "CAPACITIES" [tsunagi run options...]
source "$(dirname "$0")/lib.sh"
capacities=${1:?capacities}
shift
for cap in $capacities; do
  "$TSUNAGI" run "$SRC/scenarios/papers/kaneda-is-128.toml" --quiet \
    --set protocol.shortcut_capacity="$cap" "$@" --out "$WORK/$cap" > /dev/null ||
    fail "capacity $cap: the run failed"
  python3 - "$WORK/$cap/result.json" "$cap" <<'PY' || fail "capacity $cap: over the bound"
import json, sys
r = json.load(open(sys.argv[1]))
cap = int(sys.argv[2])
c = r["connections"]
bound = c["static_max_per_node"] + cap
print(f"capacity {cap}: max_per_node {c['max_per_node']} (bound {bound}), "
      f"closing at most {c['max_closing_per_node']}, shortcuts {c['shortcuts_opened']}, "
      f"verified {r['workload']['verified']}")
sys.exit(0 if c["max_per_node"] <= bound and r["workload"]["verified"] and r["ok"] else 1)
PY
done
echo "ok: every capacity within static + capacity"
