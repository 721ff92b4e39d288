# Issue 33: `tsunagi collect` before the batch job has run says so plainly (what it looked for,
# that the job has not written it yet) and writes nothing: an OUT/realnet that the dry run made
# without run.json, and a run.json whose processes have written no event file yet.
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" collect --help >/dev/null 2>&1 || { echo "skip: built without realnet"; exit 0; }

expect_not_run() {  # DIR TEXT
  local status=0
  "$TSUNAGI" collect "$1" --quiet >"$WORK/out.txt" 2>"$WORK/err.txt" || status=$?
  cat "$WORK/err.txt"
  [ "$status" -eq 2 ] || fail "collect $1: exit $status, expected 2 (bad input)"
  grep -qF -- "$2" "$WORK/err.txt" || fail "collect $1: the message does not say '$2'"
  [ ! -e "$1/result.json" ] || fail "collect $1 wrote a result for a job that has not run"
}

# `tsunagi run --net slurm --dry-run > job.sh` made OUT/realnet; the job has not started.
mkdir -p "$WORK/queued/realnet"
expect_not_run "$WORK/queued" "exists: a batch job whose script has not started yet"
grep -qF "tsunagi collect $WORK/queued" "$WORK/err.txt" || fail "no command to collect it later"

# The job's script wrote run.json; no process has written its events yet.
mkdir -p "$WORK/starting/realnet"
cat >"$WORK/starting/realnet/run.json" <<JSON
{"scenario": "$SRC/scenarios/teaching/two-switches.toml", "overrides": [], "mode": "slurm",
 "processes": [{"label": "rendezvous", "events": "rendezvous.events.jsonl", "log": "rv.log"},
               {"label": "r0", "events": "r0.events.jsonl", "log": "r0.log"}]}
JSON
expect_not_run "$WORK/starting" "the job has not run yet: run.json is there but none of its 2"
grep -qF "looked for $WORK/starting/realnet/rendezvous.events.jsonl" "$WORK/err.txt" ||
  fail "the message does not name the file it looked for"
echo "ok: collect before the job has run says so and writes nothing"
