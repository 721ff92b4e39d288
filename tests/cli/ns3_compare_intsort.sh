#!/usr/bin/env bash
# Integer sort on SimGrid and on ns-3, same seed. Which shortcut a node opens or evicts follows
# the order in which the all-to-all key exchange's messages arrive, and that order is timing:
# flow-level sharing in SimGrid, packets, queues and TCP recovery in ns-3 (docs/ns3.md,
# "Equivalence"). So this asserts what must match: the inference (RTT views, groups), the
# connection plan, the routes and the end (shutdown) decision for decision, and both sorts
# verified; it also checks that `tsunagi compare` names only shortcut decisions as differences.
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/papers/kaneda-is-128.toml
sets=(--set workload.intsort.iterations=1 --set workload.intsort.total_keys=131072)
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/simgrid" --quiet "${sets[@]}" >/dev/null
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/ns3" --quiet "${sets[@]}" >/dev/null
for run in simgrid ns3; do
  expect_json "$WORK/$run/result.json" workload.verified true
  expect_json "$WORK/$run/result.json" inference.groups_correct true
done
python3 - "$WORK/simgrid/trace.jsonl" "$WORK/ns3/trace.jsonl" <<'PY'
import json, sys
MUST_MATCH = {"directory", "rtt_view", "groups", "plan", "routes", "shutdown"}
def decisions(path):
    per_proc = {}
    for line in open(path):
        d = json.loads(line)
        if d["kind"] in MUST_MATCH:
            per_proc.setdefault(d["proc"], []).append((d["kind"], d["detail"]))
    return per_proc
a, b = decisions(sys.argv[1]), decisions(sys.argv[2])
if a != b:
    bad = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
    sys.exit(f"FAIL: inference/plan/routes differ for {len(bad)} processes, first {bad[0]}")
count = sum(len(v) for v in a.values())
print(f"ok: {count} inference, plan, route and shutdown decisions identical")
PY
set +e
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/ns3" --max 100000 >"$WORK/diff.txt"
status=$?
set -e
if [ $status -eq 1 ]; then
  # Every difference must be a shortcut decision: the same shortcut kind with another peer, two
  # shortcut kinds, or an extra shortcut decision at the end of a process's list.
  shortcut='shortcut_[a-z_]+'
  allowed="\(kind $shortcut\): at /peer|kind A=$shortcut, B=$shortcut\$|first extra one is #[0-9]+ \(kind $shortcut\)"
  if grep "^  proc" "$WORK/diff.txt" | grep -v -E "$allowed"; then
    fail "a decision other than a shortcut differs (above)"
  fi
  echo "ok: the runs differ only in shortcut decisions ($(grep -c '^  proc' "$WORK/diff.txt") processes)"
elif [ $status -ne 0 ]; then
  fail "compare exited $status"
else
  echo "ok: the runs made identical decisions, shortcuts included"
fi
