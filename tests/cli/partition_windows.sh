#!/usr/bin/env bash
# Issue 30: groups = "partition" in windows and tree = "partition" on switched-100k's shape at
# 2,000 processes (17 windows of about 90 hosts, cut at proven switch boundaries): groups and
# tree right, at most 50 RTT probes per process and per rank, the tree with no probe of its own
# (docs/tree-inference.md, "The partition method").
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/bench/switched-100k.toml" --out "$WORK/p" --quiet \
  --set network.tree.levels.1.fanout=5 \
  --set protocol.inference.groups=partition --set protocol.inference.tree=partition
r="$WORK/p/result.json"
expect_json "$r" ok true
expect_json "$r" inference.groups_correct true
expect_json "$r" inference.tree.method '"partition"'
expect_json "$r" inference.tree_correct true
expect_json "$r" inference.tree_root_matches true
python3 - "$r" <<'PY' || fail "probe bound broken"
import json, sys
i = json.load(open(sys.argv[1]))["inference"]
n = 2000
assert i["rtt_probes"] <= 50 * n, i["rtt_probes"]
assert i["partition_max_probes_per_rank"] <= 50, i["partition_max_probes_per_rank"]
print("ok: %d RTT probes (%.2f per process), at most %d aimed at one rank"
      % (i["rtt_probes"], i["rtt_probes"] / n, i["partition_max_probes_per_rank"]))
PY
# The tree is built from the partition rounds' RTTs: without them there is nothing to build on.
if "$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --out "$WORK/bad" --quiet \
  --set protocol.inference.tree=partition > "$WORK/bad.txt" 2>&1; then
  fail "tree = partition without groups = partition was accepted"
fi
grep -q 'groups = \\"partition\\"\|groups = "partition"' "$WORK/bad.txt" ||
  fail "the refusal does not say what to set: $(cat "$WORK/bad.txt")"
echo "ok: tree = partition without groups = partition refused"
