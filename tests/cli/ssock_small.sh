#!/usr/bin/env bash
# Acceptance of issue 6 on SimGrid: the scaled-down 11-cluster layout of paper 001.
# With one relay per cluster every ordered pair of the 22 processes connects, and the relay
# paths are the paper's (chiba -> logos through kototoi: logos's relay connects out to it;
# imade -> kyoto between the two NAT gateways). Without relays (every process connecting
# directly to every other one) exactly the pairs the policies forbid stay unreached.
source "$(dirname "$0")/lib.sh"
scenario="$SRC/scenarios/papers/ssock-11-small.toml"

"$TSUNAGI" run "$scenario" --out "$WORK/relay" --quiet
r="$WORK/relay/result.json"
expect_json "$r" relay.pairs_total 462   # 22 x 21 ordered pairs
expect_json "$r" relay.pairs_connected 462
expect_json "$r" relay.paths.chiba-\>logos '["chiba", "kototoi", "logos"]'
expect_json "$r" relay.paths.imade-\>kyoto '["imade", "kyoto"]'
expect_json "$r" relay.paths.chiba-\>imade '["chiba", "kototoi", "imade"]'
# Deterministic: the same seed gives a byte-identical trace (relay link state included).
"$TSUNAGI" run "$scenario" --out "$WORK/relay2" --quiet
cmp "$WORK/relay/trace.jsonl" "$WORK/relay2/trace.jsonl" || fail "relay traces differ between two runs"

no_relays=()
for c in chiba hiro hongo imade keio kototoi kyoto kyushu logos mirai okubo; do
  no_relays+=(--set "network.cluster.$c.relays=0")
done
"$TSUNAGI" run "$scenario" --out "$WORK/direct" --quiet --set protocol.plan=all \
  --set protocol.routing=direct "${no_relays[@]}" 
d="$WORK/direct/result.json"
expect_json "$d" relay.unreached_match_policy true
# Forbidden by the layout: the 7 firewalled clusters with logos, imade, kyoto (21 cluster
# pairs) and logos-imade, logos-kyoto, imade-kyoto (3): 24 x 2 x 2 ranks each way = 192.
expect_json "$d" relay.forbidden_pairs 192
expect_json "$d" relay.pairs_connected $((462 - 192))
echo "ok: ssock-11-small"
