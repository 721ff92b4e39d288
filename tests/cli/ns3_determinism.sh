#!/usr/bin/env bash
# Same scenario, same seed, twice on ns-3: byte-identical trace.jsonl and the same simulated
# figures in result.json (wall time aside).
# Usage: ns3_determinism.sh SCENARIO [--set ...]
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/$1
shift
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/a" --quiet "$@" >/dev/null
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/b" --quiet "$@" >/dev/null
cmp "$WORK/a/trace.jsonl" "$WORK/b/trace.jsonl" || fail "ns-3 traces differ between two runs"
echo "ok: byte-identical traces ($(wc -l < "$WORK/a/trace.jsonl") decisions, with times)"
for key in simulated_end_s workload.makespan_s inference.rtt_probes; do
  [ "$(json_get "$WORK/a/result.json" $key)" = "$(json_get "$WORK/b/result.json" $key)" ] ||
    fail "$key differs between two runs"
done
echo "ok: same simulated figures"
"$TSUNAGI" compare "$WORK/a" "$WORK/b" || fail "compare says the identical runs differ"
