#!/usr/bin/env bash
# Issue 6, faults: a relay that dies is routed around where another path exists, and what
# cannot be delivered is reported, never silently lost (docs/relay.md "Faults").
source "$(dirname "$0")/lib.sh"
with_kill() {  # $1 = time: ssock-11-small plus a [[faults]] kill of kototoi-relay0
  { cat "$SRC/scenarios/papers/ssock-11-small.toml"; printf '\n[[faults]]\nkill = "kototoi-relay0"\nat = "%s"\n' "$1"; } \
    > "$WORK/kill-$1.toml"
  echo "$WORK/kill-$1.toml"
}

# kototoi has two relays; relay0 dies after registering, before any traffic. Its rank falls
# back on relay1, the relays route through relay1, every pair still connects.
"$TSUNAGI" run "$(with_kill 70ms)" --out "$WORK/a" --quiet --set network.cluster.kototoi.relays=2 >/dev/null
expect_json "$WORK/a/result.json" relay.pairs_connected 462
expect_json "$WORK/a/result.json" 'relay.paths.chiba->logos' '["chiba", "kototoi", "logos"]'
grep -q '"proc":"r10".*"relay_attach_failed".*kototoi-relay0' "$WORK/a/trace.jsonl" || fail "r10 did not see relay0 refuse"
grep -q '"proc":"r10".*"relay_attached".*kototoi-relay1' "$WORK/a/trace.jsonl" || fail "r10 did not move to relay1"
echo "ok: a dead relay is routed around and its rank re-attaches"

# relay0 dies while the run is still registering: after it registered (20 ms: the rendezvous
# sees its connection close) or before it could (1 and 5 ms: the rendezvous stops waiting for
# it a grace period after the last rank registered). Either way the run goes on with relay1.
for at in 1ms 5ms 20ms; do
  "$TSUNAGI" run "$(with_kill "$at")" --out "$WORK/r$at" --quiet --set network.cluster.kototoi.relays=2 >/dev/null \
    || fail "a relay killed at $at while registering failed the run"
  expect_json "$WORK/r$at/result.json" relay.pairs_connected 462
  grep -q '"proc":"rendezvous".*"kind":"\(relay_lost\|relays_missing\)"' "$WORK/r$at/trace.jsonl" \
    || fail "the rendezvous did not trace the relay killed at $at"
done
"$TSUNAGI" run "$(with_kill 20ms)" --backend ns3 --out "$WORK/n20" --quiet --set network.cluster.kototoi.relays=2 >/dev/null \
  || fail "ns-3: a relay killed at 20ms while registering failed the run"
expect_json "$WORK/n20/result.json" relay.pairs_connected 462
echo "ok: a relay that dies while registering is done without, not waited for (SimGrid, ns-3)"

# kototoi's only relay dies during the traffic: the firewalled clusters and logos/imade/kyoto
# lose their only bridge. Every message is accounted for: answered, or reported (undeliverable
# notice or no answer by the deadline); chiba -> logos has no path any more.
"$TSUNAGI" run "$(with_kill 150ms)" --out "$WORK/b" --quiet --set workload.connectivity.deadline=200s >/dev/null
python3 - "$WORK/b/result.json" <<'PY'
import json, sys
relay = json.load(open(sys.argv[1]))["relay"]
accounted = relay["pairs_connected"] + len(relay["unreached"])
assert accounted == relay["pairs_total"], f"{accounted} of {relay['pairs_total']} pairs accounted for"
assert relay["unreached"], "the dead relay cut nobody off"
assert relay["paths"]["chiba->logos"] == [], relay["paths"]["chiba->logos"]
assert relay["paths"]["imade->kyoto"] == ["imade", "kyoto"], relay["paths"]["imade->kyoto"]
print(f"ok: {relay['pairs_connected']} connected, {len(relay['unreached'])} reported "
      f"({relay['timed_out_pairs']} by the deadline), none lost silently")
PY
