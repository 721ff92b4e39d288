#!/usr/bin/env bash
# The same LMMC scenario and seed on SimGrid and on ns-3 make the same decisions, remote paging
# included: `tsunagi compare` exits 0 and both runs counted the same page faults.
# Usage: lmmc_compare.sh SCENARIO [--set ...]
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/$1
shift
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/simgrid" --quiet "$@" >/dev/null
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/ns3" --quiet "$@" >/dev/null
expect_json "$WORK/ns3/result.json" ok true
faults=$(json_get "$WORK/simgrid/result.json" lmmc.page_faults)
expect_json "$WORK/ns3/result.json" lmmc.page_faults "$faults"
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/ns3" || fail "SimGrid and ns-3 made different decisions"
echo "ok: SimGrid and ns-3 made the same decisions, $faults page faults each"
