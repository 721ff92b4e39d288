# The acceptance check: a scenario run in network namespaces (latencies from the delay lines,
# switch groups inferred from real RTTs) makes the same decisions as SimGrid.
# Usage: netns_compare.sh SCENARIO [--latency-scale X] [--set ...]
#   --latency-scale goes to the realnet run only; everything else to both runs.
source "$(dirname "$0")/lib.sh"
need_netns
scenario="$SRC/scenarios/$1"
shift
realnet_only=()
if [ "${1:-}" = "--latency-scale" ]; then
  realnet_only=(--latency-scale "$2")
  shift 2
fi
"$TSUNAGI" run "$scenario" --out "$WORK/simgrid" --quiet "$@" > /dev/null
run_realnet "$scenario" --backend realnet --net netns --out "$WORK/realnet" --quiet \
  "${realnet_only[@]}" "$@"
[ "$RUN_STATUS" -eq 0 ] || { cat "$WORK/realnet/result.json" >&2; fail "realnet run exited $RUN_STATUS"; }
# Only groups inferred from RTTs can be right or wrong (plan = "all" infers none, the relay
# plan takes site labels).
[ "$(json_get "$WORK/simgrid/result.json" inference.groups_source)" != '"rtt"' ] ||
  expect_json "$WORK/realnet/result.json" inference.groups_correct true
status=0
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/realnet" || status=$?
[ "$status" -eq 0 ] || fail "tsunagi compare exited $status"
echo "ok: same decisions as SimGrid"
