#!/usr/bin/env bash
# The README's main job: the teaching scenario prints a summary and succeeds.
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --out "$WORK/a" 2>/dev/null | tee "$WORK/summary.txt"
grep -q "correct" "$WORK/summary.txt" || fail "summary does not show the inference verdict"
expect_json "$WORK/a/result.json" ok true
expect_json "$WORK/a/result.json" inference.groups_correct true
expect_json "$WORK/a/result.json" workload.verified true
