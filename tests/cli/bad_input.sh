#!/usr/bin/env bash
# A broken scenario file gets exit code 2 and a message naming file, line and fix; nothing is
# written to the output directory.
source "$(dirname "$0")/lib.sh"
cat > "$WORK/bad.toml" <<'TOML'
name = "bad"
seed = 1
[[network.switch]]
name = "root"
hosts = 2
host_latncy = "5us"
TOML
set +e
"$TSUNAGI" run "$WORK/bad.toml" --out "$WORK/out" 2>"$WORK/err.txt" >/dev/null
status=$?
set -e
cat "$WORK/err.txt"
[ $status -eq 2 ] || fail "exit status $status, expected 2"
grep -q "bad.toml:6" "$WORK/err.txt" || fail "message does not name bad.toml:6"
grep -q "host_latency" "$WORK/err.txt" || fail "message does not suggest host_latency"
[ ! -e "$WORK/out/result.json" ] || fail "a result was written for a bad file"
# Issue 33: every independent error of the file at once, one a line in file order.
cat > "$WORK/bad2.toml" <<'TOML'
name = "bad"
seed = "1"
[[network.switch]]
name = "root"
hosts = 2
host_latency = 5
TOML
set +e
"$TSUNAGI" run "$WORK/bad2.toml" --out "$WORK/out" 2>"$WORK/err3.txt" >/dev/null
status=$?
set -e
cat "$WORK/err3.txt"
[ $status -eq 2 ] || fail "two errors: exit status $status, expected 2"
[ "$(grep -c '^.*bad2.toml:[0-9]*:[0-9]*: ' "$WORK/err3.txt")" -eq 2 ] ||
  fail "two errors: not both reported, one a line"
head -n 1 "$WORK/err3.txt" | grep -q "bad2.toml:2:8: seed must be an integer" ||
  fail "two errors: the first line is not the first error of the file"
set +e
"$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --out "$WORK/o2" --set protocol.plan=ring 2>"$WORK/err2.txt" >/dev/null
status=$?
set -e
cat "$WORK/err2.txt"
[ $status -eq 2 ] || fail "bad --set value: exit $status, expected 2"
echo "ok: bad input rejected with file, line and fix"
