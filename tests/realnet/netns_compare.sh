# The acceptance check: a scenario run in network namespaces (latencies from the delay lines,
# switch groups inferred from real RTTs) makes the same decisions as SimGrid.
# Usage: netns_compare.sh SCENARIO [--set ...]
source "$(dirname "$0")/lib.sh"
need_netns
scenario="$SRC/scenarios/$1"
shift
"$TSUNAGI" run "$scenario" --out "$WORK/simgrid" --quiet "$@" > /dev/null
run_realnet "$scenario" --backend realnet --net netns --out "$WORK/realnet" --quiet "$@"
[ "$RUN_STATUS" -eq 0 ] || { cat "$WORK/realnet/result.json" >&2; fail "realnet run exited $RUN_STATUS"; }
expect_json "$WORK/realnet/result.json" inference.groups_correct true
status=0
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/realnet" || status=$?
[ "$status" -eq 0 ] || fail "tsunagi compare exited $status"
echo "ok: same decisions as SimGrid"
