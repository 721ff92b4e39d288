#!/usr/bin/env bash
# Issue 29, item 6: a [[faults]] kill timed after the run's end kills nothing, so it explains
# no loss. ssock-11-small with a 10 ms connectivity deadline loses messages and times pairs out:
# FAILED without a fault, and FAILED with a fault that never fires (it used to end `result ok`).
source "$(dirname "$0")/lib.sh"
{ cat "$SRC/scenarios/papers/ssock-11-small.toml"; printf '\n[[faults]]\nkill = "r0"\nat = "82800s"\n'; } \
  > "$WORK/late.toml"
for run in plain late; do
  scenario="$SRC/scenarios/papers/ssock-11-small.toml"
  [ "$run" = late ] && scenario="$WORK/late.toml"
  status=0
  "$TSUNAGI" run "$scenario" --out "$WORK/$run" --quiet --set workload.connectivity.deadline=10ms \
    > "$WORK/$run.out" || status=$?
  [ "$status" -ne 0 ] || fail "$run: a lossy run exited 0: $(tail -n 3 "$WORK/$run.out")"
  python3 - "$WORK/$run/result.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["relay"]["timed_out_pairs"] > 0, "the 10 ms deadline timed no pair out: nothing tested"
assert r["run"]["killed_by_faults"] == [], r["run"]["killed_by_faults"]
assert any("ordered rank pairs got neither" in p for p in r["problems"]), r["problems"]
PY
  echo "ok: $run: exit $status, $(json_get "$WORK/$run/result.json" relay.timed_out_pairs) timed-out pairs count against it"
done
expect_json "$WORK/late/result.json" run.faults_declared 1
