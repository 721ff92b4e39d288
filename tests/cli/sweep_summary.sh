#!/usr/bin/env bash
# `tsunagi sweep` over seeds (docs/cli.md, "tsunagi sweep"): a geometric range of 4 values x 5
# seeds on two-switches makes summary.csv with 4 rows of mean, sd, n = 5 and a 95 % interval
# that match sweep.csv; a run that cannot start is counted as failed and left out of its point's
# mean; a decimal range runs its values as written; plot_sweep.py draws one panel per --y.
source "$(dirname "$0")/lib.sh"
scenario="$SRC/scenarios/teaching/two-switches.toml"
out="$WORK/seeds"

# 1. 4 values (1..8:x2) x 5 seeds; the run of rounds=2, seed=3 cannot start (a file holds the
#    name of its directory), so the sweep exits 1.
mkdir -p "$out"
touch "$out/workload.pingpong.rounds=2,seed=3"
set +e
"$TSUNAGI" sweep "$scenario" --set workload.pingpong.rounds=1..8:x2 --seeds 1..5 -j 2 \
  --out "$out" >"$WORK/out1" 2>"$WORK/err1"
status=$?
set -e
cat "$WORK/out1"
[ $status -eq 1 ] || { cat "$WORK/err1"; fail "exit status $status, expected 1 (one failed run)"; }
grep -q "^summary  $out/summary.csv$" "$WORK/out1" || fail "no 'summary' line on stdout"
cat "$out/summary.csv"
python3 - "$out" <<'PY' || fail "summary.csv does not match sweep.csv"
import csv, math, os, sys
out = sys.argv[1]
T95 = {3: 3.18244630528371, 4: 2.776445105197794}  # t(0.975, df)
runs = list(csv.DictReader(open(os.path.join(out, "sweep.csv"))))
rows = list(csv.DictReader(open(os.path.join(out, "summary.csv"))))
key = "workload.pingpong.rounds"
assert len(runs) == 20, len(runs)
assert list(rows[0])[:3] == [key, "runs", "failed"], list(rows[0])
assert [r[key] for r in rows] == ["1", "2", "4", "8"], rows
for r in rows:
    ok = [x for x in runs if x[key] == r[key] and x["ok"] == "true"]
    failed = 1 if r[key] == "2" else 0
    assert (r["runs"], r["failed"]) == ("5", str(failed)), r
    for column in ["messages.sent", "workload.makespan_ns", "wall_s", "inference.groups_correct"]:
        n = int(r[column + ".n"])
        assert n == 5 - failed == len(ok), (column, r)
        values = [1.0 if x[column] == "true" else float(x[column]) for x in ok]
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        half = T95[n - 1] * sd / math.sqrt(n)
        got = [float(r[column + s]) for s in (".mean", ".sd", ".ci95_low", ".ci95_high")]
        want = [mean, sd, mean - half, mean + half]
        assert all(math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-9) for g, w in zip(got, want)), \
            (column, got, want)
    # The override reached each run: a ping-pong round is 2 messages, on every seed.
    assert float(r["messages.sent.mean"]) == 2 * int(r[key]), r
    assert float(r["messages.sent.sd"]) == 0, r
failed_run = [x for x in runs if (x[key], x["seed"]) == ("2", "3")]
assert failed_run[0]["ok"] == "false", failed_run
print("ok: summary.csv has 4 points x 5 seeds, n = 5 (4 for the point with a failed run)")
PY

# 2. A decimal range: the points are the values as written, without float noise.
"$TSUNAGI" sweep "$scenario" --set protocol.inference.min_jump_ratio=0.1..0.3:0.1 \
  --columns inference.groups_correct --out "$WORK/ratio" >/dev/null 2>"$WORK/err2" ||
  { cat "$WORK/err2"; fail "the decimal sweep failed"; }
cat "$WORK/ratio/sweep.csv"
[ "$(cut -d, -f1 "$WORK/ratio/sweep.csv" | tr '\n' ' ')" = \
  "protocol.inference.min_jump_ratio 0.1 0.2 0.3 " ] || fail "decimal range: wrong points"
[ -d "$WORK/ratio/protocol.inference.min_jump_ratio=0.3" ] || fail "decimal range: directory"
head -1 "$WORK/ratio/summary.csv" | grep -qx 'protocol.inference.min_jump_ratio,runs,failed,inference.groups_correct.mean,inference.groups_correct.sd,inference.groups_correct.n,inference.groups_correct.ci95_low,inference.groups_correct.ci95_high' ||
  fail "decimal range: summary.csv header $(head -1 "$WORK/ratio/summary.csv")"
echo "ok: 0.1..0.3:0.1 ran 0.1, 0.2, 0.3"

# 3. plot_sweep.py: one panel per --y, mean over the 5 seeds, beside the CSV by default.
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  png=$(/usr/bin/python3 "$SRC/tools/plot_sweep.py" "$out/sweep.csv" --x workload.pingpong.rounds \
    --y workload.makespan_ns --y messages.sent --y wall_s 2>"$WORK/err3") ||
    { cat "$WORK/err3"; fail "plot_sweep.py failed"; }
  cat "$WORK/err3"
  [ "$png" = "$out/sweep-workload.makespan_ns+messages.sent+wall_s-vs-workload.pingpong.rounds.png" ] ||
    fail "plot written to $png"
  grep -q '^plot_sweep: 1 failed run(s) left out$' "$WORK/err3" || fail "plot: failed run not told"
  # The PNG's own Description text (a tEXt chunk) says how many panels were drawn.
  /usr/bin/python3 - "$png" <<'PY' || fail "plot: not 3 panels"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
texts, at = {}, 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    if kind == b"tEXt":
        name, _, value = data[at + 8:at + 8 + length].partition(b"\0")
        texts[name.decode()] = value.decode("latin-1")
    at += 12 + length
description = texts.get("Description", "")
print(description)
assert description.startswith("tsunagi plot_sweep: 3 panel(s): "
                              "workload.makespan_ns; messages.sent; wall_s;"), description
assert "mean over 5 seed value(s)" in description, description
PY
  echo "ok: plot_sweep.py drew 3 panels into $png"
else
  echo "skipped: plot_sweep.py (no matplotlib for /usr/bin/python3)"
fi
echo "ok: tsunagi sweep summary"
