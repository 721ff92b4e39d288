#!/usr/bin/env bash
# ns-3 under a connect storm: switched-1k cut to 700 processes (28 per leaf) drops handshake
# ACKs at its 1,000-packet port queues. Every connection must still open (the backend's TCP
# answers a duplicate SYN-ACK, docs/ns3.md): the run ends ok, groups right, ping-pong verified.
# Before, 49 ranks never finished their static connections and the run ran out of events.
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/bench/switched-1k.toml" --backend ns3 --out "$WORK/r" --quiet \
  --set network.tree.hosts_per_leaf=28 >/dev/null || fail "the run failed: $(head -c 600 "$WORK/r/result.json")"
expect_json "$WORK/r/result.json" ok true
expect_json "$WORK/r/result.json" inference.groups_correct true
expect_json "$WORK/r/result.json" workload.verified true
