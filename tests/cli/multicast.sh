#!/usr/bin/env bash
# Paper 002's multicast on a scenario: every algorithm delivers to every member of every group,
# no piece reaches a non-member, the series table has one verified row per algorithm, size and
# group size, and the root's trace names each choice and tree.
# Usage: multicast.sh SCENARIO [--backend B] [--set ...]
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/$1
shift
"$TSUNAGI" run "$scenario" --out "$WORK/run" --quiet --set workload.kind=multicast \
  --set 'workload.multicast.algorithms=["auto","binomial","scatter_ring","scatter_doubling","topology","pipeline"]' \
  --set workload.multicast.repeats=2 "$@" >/dev/null || fail "the multicast run did not end ok"
result=$WORK/run/result.json
expect_json "$result" ok true
expect_json "$result" workload.verified true
expect_json "$result" multicast.frames_at_non_member 0
expect_json "$result" multicast.refused 0
expect_json "$result" multicast.unfinished 0
python3 - "$result" "$WORK/run/trace.jsonl" <<'PY' || fail "multicast series incomplete"
import json, sys
result = json.load(open(sys.argv[1]))
series = result["multicast"]["series"]
plans = [json.loads(l) for l in open(sys.argv[2]) if '"multicast_plan"' in l]
assert len(series) >= 6, series
for row in series:
    assert row["verified"] == row["runs"] == 2, row
    assert row["completion_ns"] >= row["last_delivery_ns"] > 0, row
    assert 0 < row["from_root_ns"] < row["completion_ns"], row
assert len(plans) == result["workload"]["details"]["multicasts"], len(plans)
for plan in plans:
    parents = plan["detail"]["tree_parent"]
    assert parents[0] == -1 and len(parents) == plan["detail"]["members"], plan
    if plan["detail"]["algorithm"] == "pipeline":
        # A chain in rank order: member i's parent is member i - 1, so every parent is another
        # rank and they rise (a binomial tree repeats the root among its parents).
        chain = parents[1:]
        assert all(a < b for a, b in zip(chain, chain[1:])), plan
print(f"ok: {len(series)} rows, {len(plans)} multicasts verified")
PY
