#!/usr/bin/env bash
# Same scenario, same seed, twice: byte-identical trace.jsonl; tsunagi compare agrees (exit 0).
# A different seed on a seed-dependent plan: compare reports differences (exit 1).
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/${1:-teaching/two-switches.toml}
shift || true
"$TSUNAGI" run "$scenario" --out "$WORK/a" --quiet "$@" >/dev/null
"$TSUNAGI" run "$scenario" --out "$WORK/b" --quiet "$@" >/dev/null
cmp "$WORK/a/trace.jsonl" "$WORK/b/trace.jsonl" || fail "traces differ between two runs"
echo "ok: byte-identical traces ($(wc -l < "$WORK/a/trace.jsonl") decisions)"
"$TSUNAGI" compare "$WORK/a" "$WORK/b" || fail "compare says the identical runs differ"
"$TSUNAGI" run "$scenario" --out "$WORK/c" --quiet "$@" --set protocol.plan=random --seed 7 >/dev/null
set +e
"$TSUNAGI" compare "$WORK/a" "$WORK/c" >"$WORK/diff.txt"
status=$?
set -e
[ $status -eq 1 ] || fail "compare of different runs exited $status, expected 1"
grep -q "plan" "$WORK/diff.txt" || fail "compare did not name the plan difference"
echo "ok: compare finds the differences of another plan/seed"
