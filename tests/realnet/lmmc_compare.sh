#!/usr/bin/env bash
# Issue 14: an LMMC scenario on serial links in namespaces (one veth pair per link, every node a
# forwarding namespace) makes the same decisions as SimGrid, remote paging included.
# Usage: lmmc_compare.sh SCENARIO [--latency-scale X] [--set ...]
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
expect_json "$WORK/realnet/result.json" ok true
faults=$(json_get "$WORK/simgrid/result.json" lmmc.page_faults)
expect_json "$WORK/realnet/result.json" lmmc.page_faults "$faults"
status=0
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/realnet" || status=$?
[ "$status" -eq 0 ] || fail "tsunagi compare exited $status"
echo "ok: same decisions as SimGrid, $faults page faults each"
