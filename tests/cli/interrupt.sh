#!/usr/bin/env bash
# Issue 33: Ctrl-C in the middle of a simulated run. A 16,000-process run gets a SIGINT once its
# progress line shows it past registration (inferring, connecting or in its workload); it must
# exit 130 with a result.json that says it was interrupted, is not ok, and a trace.jsonl whose
# every line is JSON. Whenever the signal lands the outcome is the same. No wall-clock bound: a
# million ping-pong rounds keep the workload phase running for minutes, far longer than the wait
# for a progress line, however fast the inference before it has become.
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/bench/switched-100k.toml" --set network.tree.levels.1.fanout=40 \
  --set workload.pingpong.rounds=1000000 --out "$WORK/run" 2> "$WORK/stderr" > "$WORK/stdout" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$WORK"' EXIT
past_registration='\] simgrid: t=[0-9.]* s, (inference|connecting|workload): '
for _ in $(seq 600); do
  grep -Eq "$past_registration" "$WORK/stderr" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
grep -Eq "$past_registration" "$WORK/stderr" || fail "no progress line past registration: $(tail -n 3 "$WORK/stderr")"
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
