# `tsunagi collect DIR` (no root: loopback): a run's event files give the run's trace.jsonl
# byte for byte and its decisions; a process without an exit makes a failed run naming its log;
# a directory that is no realnet run is bad input.
source "$(dirname "$0")/lib.sh"
S="$SRC/scenarios/teaching/two-switches.toml"
run_realnet "$S" --backend realnet --net loopback --out "$WORK/run" --quiet
[ "$RUN_STATUS" -eq 0 ] || fail "tsunagi run exited $RUN_STATUS"
cp -r "$WORK/run" "$WORK/again"
rm "$WORK/again/result.json" "$WORK/again/trace.jsonl"
"$TSUNAGI" collect "$WORK/again" --quiet > "$WORK/collect.out" || fail "collect exited $?"
cmp "$WORK/run/trace.jsonl" "$WORK/again/trace.jsonl" || fail "collect's trace.jsonl differs"
expect_json "$WORK/again/result.json" workload.verified true
expect_json "$WORK/again/result.json" run.all_exited_ok true
grep -q "^result       ok" "$WORK/collect.out" || fail "no summary"
status=0
"$TSUNAGI" compare "$WORK/run" "$WORK/again" > /dev/null || status=$?
[ "$status" -eq 0 ] || fail "compare run vs collected: $status"
echo "ok: collect rewrote the run's trace.jsonl byte for byte"

# A job cut short: r3's exit line is gone.
grep -v '"type":"exit"' "$WORK/again/realnet/r3.events.jsonl" > "$WORK/r3" && mv "$WORK/r3" "$WORK/again/realnet/r3.events.jsonl"
status=0
"$TSUNAGI" collect "$WORK/again" --quiet > /dev/null 2> "$WORK/cut.err" || status=$?
[ "$status" -eq 1 ] || fail "collect without r3's exit: exit $status, expected 1"
grep -q 'r3: no exit in .*r3.events.jsonl .*see .*r3.log' "$WORK/again/result.json" || { cat "$WORK/again/result.json" >&2; fail "the failure does not name r3's log"; }
echo "ok: a missing exit fails the collected run, naming r3.log"

status=0
"$TSUNAGI" collect "$WORK/nothing-here" 2> "$WORK/bad.err" || status=$?
[ "$status" -eq 2 ] || fail "collect of a non-run: exit $status, expected 2"
grep -q "run.json: not found" "$WORK/bad.err" || fail "no reason: $(cat "$WORK/bad.err")"
echo "ok: not a run directory: $(cat "$WORK/bad.err")"
