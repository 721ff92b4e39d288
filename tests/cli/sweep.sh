#!/usr/bin/env bash
# `tsunagi sweep` (docs/cli.md): a 2 x 2 grid on two-switches with -j 2, sweep.csv against each
# point's result.json; a deleted point is the only one run again; other --columns run nothing; a
# failed point is a row with ok=false and exit 1; a bad SPEC names its key; TOML lists and
# quoted strings pass through whole; Ctrl-C stops the running child and exits 130.
source "$(dirname "$0")/lib.sh"
scenario="$SRC/scenarios/teaching/two-switches.toml"
out="$WORK/grid"
grid=(--set protocol.shortcut_capacity=0,2 --set workload.pingpong.rounds=1..2)

progress_lines() { grep -c '^\[[0-9]*/[0-9]*\] ' "$1" || true; }

# 1. The grid: 4 points, 2 at once.
"$TSUNAGI" sweep "$scenario" "${grid[@]}" -j 2 --out "$out" >"$WORK/out1" 2>"$WORK/err1" ||
  { cat "$WORK/err1"; fail "the sweep failed"; }
cat "$WORK/err1" "$WORK/out1"
[ "$(progress_lines "$WORK/err1")" = 4 ] || fail "expected 4 progress lines"
grep -q '^\[4/4\] .* ok (' "$WORK/err1" || fail "no [4/4] ... ok line"
python3 - "$out" <<'PY' || fail "sweep.csv does not match the points' result.json"
import csv, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "sweep.csv"))))
keys = ["protocol.shortcut_capacity", "workload.pingpong.rounds"]
header = list(rows[0].keys())
assert header[:3] == keys + ["ok"], header
assert "workload.makespan_ns" in header and "wall_s" in header, header
assert len(rows) == 4, rows
assert sorted((r[keys[0]], r[keys[1]]) for r in rows) == [
    ("0", "1"), ("0", "2"), ("2", "1"), ("2", "2")], rows
for r in rows:
    d = os.path.join(out, f"{keys[0]}={r[keys[0]]},{keys[1]}={r[keys[1]]}")
    result = json.load(open(os.path.join(d, "result.json")))
    point = json.load(open(os.path.join(d, "sweep-point.json")))
    assert f"{keys[0]}={r[keys[0]]}" in point["overrides"], point
    assert r["ok"] == "true" and point["exit_status"] == 0, r
    # Each column is the point's own figure, and the override reached the run: a ping-pong
    # round is 2 messages.
    for column, path in [("workload.makespan_ns", ["workload", "makespan_ns"]),
                         ("connections.max_per_node", ["connections", "max_per_node"]),
                         ("messages.sent", ["messages", "sent"]), ("wall_s", ["wall_s"])]:
        value = result
        for part in path:
            value = value[part]
        assert r[column] == json.dumps(value), (column, r[column], value)
    assert int(r["messages.sent"]) == 2 * int(r[keys[1]]), r
    assert r["inference.groups_correct"] == "true", r
print("ok: sweep.csv has the 4 points and each point's result.json figures")
PY

# 2. Resume: only the deleted point runs again; the others' files are untouched.
gone="$out/protocol.shortcut_capacity=2,workload.pingpong.rounds=1"
kept="$out/protocol.shortcut_capacity=0,workload.pingpong.rounds=2/result.json"
before=$(stat -c %y "$kept")
rm -rf "$gone"
"$TSUNAGI" sweep "$scenario" "${grid[@]}" -j 2 --out "$out" >"$WORK/out2" 2>"$WORK/err2" ||
  { cat "$WORK/err2"; fail "the resumed sweep failed"; }
cat "$WORK/err2"
[ "$(progress_lines "$WORK/err2")" = 1 ] || fail "resume: expected 1 point run"
grep -q '^\[4/4\] protocol.shortcut_capacity=2 workload.pingpong.rounds=1 ok' "$WORK/err2" ||
  fail "resume: the deleted point was not the one run"
grep -q '3 done before, 1 to run' "$WORK/err2" || fail "resume: no '3 done before, 1 to run'"
[ "$(stat -c %y "$kept")" = "$before" ] || fail "resume: a finished point was run again"
[ -f "$gone/result.json" ] || fail "resume: the deleted point has no result.json"
[ "$(wc -l <"$out/sweep.csv")" = 5 ] || fail "resume: sweep.csv is not header + 4 rows"
echo "ok: resume ran the deleted point only"

# 3. Other columns: nothing runs, the CSV is rewritten.
"$TSUNAGI" sweep "$scenario" "${grid[@]}" --out "$out" \
  --columns messages.delivered,inference.groups.1 >/dev/null 2>"$WORK/err3" ||
  fail "--columns sweep failed"
[ "$(progress_lines "$WORK/err3")" = 0 ] || fail "--columns: points were run again"
head -1 "$out/sweep.csv" | grep -qx \
  'protocol.shortcut_capacity,workload.pingpong.rounds,ok,messages.delivered,inference.groups.1' ||
  fail "--columns: header $(head -1 "$out/sweep.csv")"
grep -q '^0,1,true,2,"\[4,5,6,7\]"$' "$out/sweep.csv" || fail "--columns: row 0,1 wrong"
echo "ok: --columns rewrites sweep.csv without running"

# 4. A failed point (its directory cannot be made) is a row with ok=false; the others run;
#    exit status 1.
mkdir -p "$WORK/fail"
touch "$WORK/fail/protocol.shortcut_capacity=1"
set +e
"$TSUNAGI" sweep "$scenario" --set protocol.shortcut_capacity=0..2 --out "$WORK/fail" \
  >/dev/null 2>"$WORK/err4"
status=$?
set -e
cat "$WORK/err4"
[ $status -eq 1 ] || fail "failed point: exit status $status, expected 1"
grep -q 'protocol.shortcut_capacity=1 FAILED' "$WORK/err4" || fail "no FAILED line"
python3 - "$WORK/fail/sweep.csv" <<'PY' || fail "failed point: sweep.csv is wrong"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["protocol.shortcut_capacity"], r["ok"], r["messages.sent"]) for r in rows]
assert got == [("0", "true", "20"), ("1", "false", ""), ("2", "true", "20")], got
print("ok: the failed point is a row with ok=false and empty figures")
PY

# 5. Bad SPECs: exit 2, the message names the key, nothing is run.
set +e
"$TSUNAGI" sweep "$scenario" --set protocol.shortcut_capacity=0..x --out "$WORK/bad" \
  >/dev/null 2>"$WORK/err5"
status=$?
set -e
cat "$WORK/err5"
[ $status -eq 2 ] || fail "bad SPEC: exit status $status, expected 2"
grep -q -- '--set protocol.shortcut_capacity=0..x: bad range' "$WORK/err5" ||
  fail "bad SPEC: the message does not name the key"
[ ! -e "$WORK/bad" ] || fail "bad SPEC: the output directory was created"
set +e
"$TSUNAGI" sweep "$scenario" --set protocol.plan=all,ring --out "$WORK/bad" >/dev/null \
  2>"$WORK/err6"
status=$?
set -e
cat "$WORK/err6"
[ $status -eq 2 ] || fail "bad value: exit status $status, expected 2"
grep -q 'point protocol.plan=ring' "$WORK/err6" || fail "bad value: the point is not named"
[ ! -e "$WORK/bad" ] || fail "bad value: the output directory was created"
echo "ok: bad SPECs and values are rejected before anything runs"

# 6. TOML arrays and quoted strings pass through whole; a list of arrays splits between them.
mcast=(--set workload.kind=multicast --set "workload.multicast.sizes=[1000]"
  --set workload.multicast.repeats=1 --set 'name="two,switches"')
"$TSUNAGI" sweep "$scenario" "${mcast[@]}" --set "workload.multicast.group_sizes=[2,4]" \
  --out "$WORK/list" >/dev/null 2>"$WORK/err7" || { cat "$WORK/err7"; fail "list sweep failed"; }
[ "$(progress_lines "$WORK/err7")" = 1 ] || fail "[2,4] was split"
"$TSUNAGI" sweep "$scenario" "${mcast[@]}" --set "workload.multicast.group_sizes=[2],[2,4]" \
  --columns scenario --out "$WORK/lists" >/dev/null 2>"$WORK/err8" ||
  { cat "$WORK/err8"; fail "list-of-lists sweep failed"; }
python3 - "$WORK/list" "$WORK/lists" <<'PY' || fail "TOML values did not pass through"
import csv, glob, json, os, sys
point = json.load(open(os.path.join(sys.argv[1], "point", "sweep-point.json")))
assert "workload.multicast.group_sizes=[2,4]" in point["overrides"], point
assert 'name="two,switches"' in point["overrides"], point
result = json.load(open(os.path.join(sys.argv[1], "point", "result.json")))
assert result["scenario"] == "two,switches", result["scenario"]
assert sorted({s["group_size"] for s in result["multicast"]["series"]}) == [2, 4]
rows = list(csv.DictReader(open(os.path.join(sys.argv[2], "sweep.csv"))))
got = [(r["workload.multicast.group_sizes"], r["ok"], r["scenario"]) for r in rows]
assert got == [("[2]", "true", "two,switches"), ("[2,4]", "true", "two,switches")], got
dirs = glob.glob(os.path.join(sys.argv[2], "workload.multicast.group_sizes=*"))
assert len(dirs) == 2, dirs
for d in dirs:
    value = json.load(open(d + "/sweep-point.json"))["point"]["workload.multicast.group_sizes"]
    series = json.load(open(d + "/result.json"))["multicast"]["series"]
    assert str(sorted({s["group_size"] for s in series})).replace(" ", "") == value, (d, value)
print("ok: [2,4] and \"two,switches\" passed whole; [2],[2,4] made 2 points")
PY

# 7. Ctrl-C: the running child is stopped, the sweep exits 130, the point stays unfinished.
"$TSUNAGI" sweep "$scenario" --set workload.pingpong.rounds=1,50000000 --out "$WORK/int" \
  >/dev/null 2>"$WORK/err9" &
sweep_pid=$!
child=""
for _ in $(seq 100); do
  child=$(pgrep -P "$sweep_pid" -f 'rounds=50000000' || true)
  [ -n "$child" ] && break
  sleep 0.1
done
[ -n "$child" ] || fail "Ctrl-C: the long point never started"
kill -INT "$sweep_pid"
set +e
wait "$sweep_pid"
status=$?
set -e
cat "$WORK/err9"
[ $status -eq 130 ] || fail "Ctrl-C: exit status $status, expected 130"
! kill -0 "$child" 2>/dev/null || fail "Ctrl-C: child $child still runs"
grep -q "stopped workload.pingpong.rounds=50000000 (pid $child)" "$WORK/err9" ||
  fail "Ctrl-C: no 'stopped' line"
[ ! -e "$WORK/int/workload.pingpong.rounds=50000000/sweep-point.json" ] ||
  fail "Ctrl-C: the stopped point was marked finished"
grep -q '^1,true,' "$WORK/int/sweep.csv" || fail "Ctrl-C: the finished point is not in the CSV"
echo "ok: Ctrl-C stopped the child and left its point to resume"

# 8. tools/plot_sweep.py draws the grid (when matplotlib is there), by default next to the CSV.
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  png=$(/usr/bin/python3 "$SRC/tools/plot_sweep.py" "$out/sweep.csv" \
    --x workload.pingpong.rounds --y messages.delivered)
  [ "$png" = "$out/sweep-messages.delivered-vs-workload.pingpong.rounds.png" ] ||
    fail "plot written to $png"
  [ -s "$png" ] || fail "plot: no PNG"
  echo "ok: plot_sweep.py wrote $png"
else
  echo "skipped: plot_sweep.py (no matplotlib for /usr/bin/python3)"
fi
echo "ok: tsunagi sweep"
