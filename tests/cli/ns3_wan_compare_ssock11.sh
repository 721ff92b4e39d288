#!/usr/bin/env bash
# Issue 6 acceptance on ns-3: the scaled-down 11-cluster scenario through relays connects every
# ordered pair, with the paper's relay paths, and makes the same decisions as SimGrid.
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/papers/ssock-11-small.toml
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/simgrid" --quiet "$@" >/dev/null
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/ns3" --quiet "$@" >/dev/null
expect_json "$WORK/ns3/result.json" backend '"ns3"'
expect_json "$WORK/ns3/result.json" ok true
total=$(json_get "$WORK/ns3/result.json" relay.pairs_total)
expect_json "$WORK/ns3/result.json" relay.pairs_connected "$total"
expect_json "$WORK/ns3/result.json" 'relay.paths.chiba->logos' '["chiba", "kototoi", "logos"]'
expect_json "$WORK/ns3/result.json" 'relay.paths.imade->kyoto' '["imade", "kyoto"]'
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/ns3" || fail "SimGrid and ns-3 made different decisions"
echo "ok: ssock-11-small on ns-3: $total of $total pairs, paper's relay paths, same decisions as SimGrid"
