#!/usr/bin/env bash
# Integer sort on SimGrid and on ns-3, same seed. Which shortcut a node opens or evicts follows
# the order in which the all-to-all key exchange's messages arrive, and that order is timing:
# flow-level sharing in SimGrid, packets, queues and TCP recovery in ns-3 (docs/ns3.md,
# "Equivalence"). So this asserts what must match: the inference (RTT views, groups), the
# connection plan, the routes and the shutdown decision for decision, and both sorts verified.
# Only shortcut decisions may differ, plus, after the shutdown, a host-mate's FIN that overtakes
# a rank's own Shutdown frame (two processes per host; docs/ns3.md, "Equivalence").
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
END_OF_RUN = {"static_connection_lost", "shortcut_lost"}  # allowed only after the shutdown

def load(path):
    lines = [json.loads(line) for line in open(path)]
    shutdown = [d["t_ns"] for d in lines if d["kind"] == "shutdown"]
    if len(shutdown) != 1:
        sys.exit(f"FAIL: {path}: {len(shutdown)} shutdown decisions")
    must, rest = {}, {}
    for d in lines:
        if d["kind"] in END_OF_RUN:
            if d["t_ns"] < shutdown[0]:
                sys.exit(f"FAIL: {path}: {d['proc']} traced {d['kind']} before the shutdown")
            continue
        if d["kind"].startswith("shortcut_"):
            continue
        target = must if d["kind"] in MUST_MATCH else rest
        target.setdefault(d["proc"], []).append((d["kind"], d["detail"]))
    return must, rest

(must_a, rest_a), (must_b, rest_b) = load(sys.argv[1]), load(sys.argv[2])
for name, a, b in (("inference/plan/routes/shutdown", must_a, must_b),
                   ("other (non-shortcut)", rest_a, rest_b)):
    if a != b:
        bad = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
        sys.exit(f"FAIL: {name} decisions differ for {len(bad)} processes, first {bad[0]}: "
                 f"{a.get(bad[0])} vs {b.get(bad[0])}")
print(f"ok: {sum(len(v) for v in must_a.values())} inference, plan, route and shutdown "
      f"decisions identical; other decisions differ only in shortcuts and after the shutdown")
PY
