#!/usr/bin/env bash
# Issue 33: Ctrl-C in the middle of a simulated run. A 16,000-process run (about 20 s) gets a
# SIGINT once its progress line shows it inferring; it must exit 130 with a result.json that
# says it was interrupted, is not ok, and a trace.jsonl whose every line is JSON. Whenever the
# signal lands the outcome is the same; a run that ended before it fails the test (no wall-clock
# bound: the run is far longer than the wait for its first progress lines).
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/bench/switched-100k.toml" --set network.tree.levels.1.fanout=40 \
  --out "$WORK/run" 2> "$WORK/stderr" > "$WORK/stdout" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 600); do
  grep -q "inference: [0-9]* RTT probes" "$WORK/stderr" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
grep -q "inference: [0-9]* RTT probes" "$WORK/stderr" || fail "no inference progress line: $(tail -n 3 "$WORK/stderr")"
kill -INT "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 130 ] || fail "exit $status after SIGINT, expected 130: $(tail -n 5 "$WORK/stderr")"
echo "ok: exit 130 after SIGINT"
expect_json "$WORK/run/result.json" ok false
expect_json "$WORK/run/result.json" run.interrupted true
at=$(json_get "$WORK/run/result.json" run.interrupted_at_s)
python3 - "$WORK/run/trace.jsonl" "$at" <<'PY' || fail "the partial trace is not readable"
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1])]
kinds = {e["kind"] for e in lines}
assert "directory" in kinds, kinds            # it got past registration ...
assert "shutdown" not in kinds, kinds         # ... and not to the end
assert all(e["t_ns"] <= float(sys.argv[2]) * 1e9 + 1 for e in lines)
print(f"ok: partial trace of {len(lines)} events, kinds {sorted(kinds)}")
PY
grep -q "interrupted (SIGINT) at t = " "$WORK/stderr" || fail "the summary does not say it was interrupted"
grep -q "^result *FAILED" "$WORK/stdout" || fail "the summary does not end FAILED: $(tail -n 2 "$WORK/stdout")"
echo "ok: result.json interrupted at t = $at s, not ok; partial trace readable"
