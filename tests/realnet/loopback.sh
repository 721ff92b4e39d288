# The protocol over real TCP on 127.0.0.1 (no topology: every RTT is a loopback RTT, so the
# inferred groups are not checked): every process exits ok and the ping-pong verifies, and the
# daemons' message events pair up into messages.csv: every message left before it arrived.
source "$(dirname "$0")/lib.sh"
run_realnet "$SRC/scenarios/teaching/two-switches.toml" --backend realnet --net loopback \
  --out "$WORK/run" --quiet
[ "$RUN_STATUS" -eq 0 ] || fail "tsunagi run exited $RUN_STATUS"
R="$WORK/run/result.json"
expect_json "$R" backend '"realnet"'
expect_json "$R" run.all_exited_ok true
expect_json "$R" run.nodes_reported 8
expect_json "$R" workload.verified true
expect_json "$R" messages.delivered 20
expect_json "$R" inference.rtt_probes 56
[ "$(grep -c . "$WORK/run/trace.jsonl")" -gt 0 ] || fail "empty trace"
# Every rank made its decisions in order: seq 0.. without gaps, per process.
python3 - "$WORK/run/trace.jsonl" <<'PY'
import json, sys, collections
seqs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    d = json.loads(line); seqs[d["proc"]].append(d["seq"])
for proc, s in seqs.items():
    assert s == list(range(len(s))), (proc, s)
print("ok: per-process seq contiguous for", len(seqs), "processes")
PY
# messages.csv from eight daemons' event files, each on its own clock put on the rendezvous's.
python3 - "$WORK/run/messages.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 20, f"{len(rows)} messages, expected the ping-pong's 20"
assert all(r["received_ns"] and int(r["sent_ns"]) < int(r["received_ns"]) for r in rows), rows
assert {(r["from"], r["to"]) for r in rows} == {("0", "7"), ("7", "0")}, rows
print("ok: messages.csv pairs all 20 ping-pong messages, each arriving after it left")
PY
