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
    > "$WORK/$run.out" 2>&1 || status=$?
  [ "$status" -ne 0 ] || fail "$run: a lossy run exited 0: $(tail -n 3 "$WORK/$run.out")"
  timed_out=$(json_get "$WORK/$run/result.json" relay.timed_out_pairs)
  [ "$timed_out" -gt 0 ] || fail "$run: the 10 ms deadline timed no pair out: nothing tested"
  grep -q "ordered rank pairs got neither" "$WORK/$run.out" || fail "$run: the losses are not named"
  echo "ok: $run: exit $status, $timed_out timed-out pairs count against it"
done
expect_json "$WORK/late/result.json" run.faults_declared 1
expect_json "$WORK/late/result.json" run.killed_by_faults "[]"
