#!/usr/bin/env bash
# The multicast's segment settings take effect (issue 32, docs/multicast.md "Segments"):
# `pipeline_min_bytes` moves where `auto` takes the pipeline, and `segment_bytes` changes how the
# seed and the chain are cut: 3 MB in 16 KiB segments along a 16-member chain beats the same
# 3 MB in three 1 MiB segments (simulated times, SimGrid, deterministic).
source "$(dirname "$0")/lib.sh"
run() {  # OUT [--set ...]
  local out=$1
  shift
  "$TSUNAGI" run "$SRC/scenarios/teaching/two-level-32.toml" --out "$WORK/$out" --quiet \
    --set workload.kind=multicast --set workload.multicast.repeats=1 \
    --set "workload.multicast.group_sizes=[16]" --set "workload.multicast.sizes=[3000000]" "$@" \
    >/dev/null || fail "$out: the multicast run did not end ok"
}
run auto_default --set 'workload.multicast.algorithms=["auto"]'
run auto_never --set 'workload.multicast.algorithms=["auto"]' --set workload.multicast.pipeline_min_bytes=0
run small_segments --set 'workload.multicast.algorithms=["pipeline"]' --set workload.multicast.segment_bytes=16384
run large_segments --set 'workload.multicast.algorithms=["pipeline"]' --set workload.multicast.segment_bytes=1048576
python3 - "$WORK" <<'PY' || fail "the multicast settings did not take effect"
import json, sys
def plan(name):
    plans = [json.loads(l)["detail"] for l in open(f"{sys.argv[1]}/{name}/trace.jsonl")
             if '"multicast_plan"' in l]
    assert len(plans) == 1, (name, plans)
    return plans[0]
def completion(name):
    result = json.load(open(f"{sys.argv[1]}/{name}/result.json"))
    assert result["ok"] and result["workload"]["verified"], name
    (row,) = result["multicast"]["series"]
    return row["completion_ns"]
assert plan("auto_default")["algorithm"] == "pipeline", plan("auto_default")
assert plan("auto_never")["algorithm"] != "pipeline", plan("auto_never")
small, large = completion("small_segments"), completion("large_segments")
assert small < 0.8 * large, (small, large)
print(f"ok: auto takes the pipeline by default, not with pipeline_min_bytes = 0 "
      f"({plan('auto_never')['algorithm']}); 16 KiB segments {small} ns, 1 MiB {large} ns")
PY
