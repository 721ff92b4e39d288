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
