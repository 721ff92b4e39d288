#!/usr/bin/env bash
# ns-3 under a connect storm: switched-1k cut to 700 processes (28 per leaf) drops handshake
# ACKs at port queues of 1,000 packets (ns-3's own override of the backend's 1.5 MB byte queues,
# which these small frames no longer overflow: the storm must drop to exercise the recovery).
# Every connection must still open (the backend's TCP answers a duplicate SYN-ACK, docs/ns3.md):
# the run ends ok, groups right, ping-pong verified.
# Before, 49 ranks never finished their static connections and the run ran out of events.
source "$(dirname "$0")/lib.sh"
NS_ATTRIBUTE_DEFAULT='ns3::DropTailQueue<Packet>::MaxSize=1000p' \
  "$TSUNAGI" run "$SRC/scenarios/bench/switched-1k.toml" --backend ns3 --out "$WORK/r" --quiet \
  --set network.tree.hosts_per_leaf=28 >/dev/null || fail "the run failed: $(head -c 600 "$WORK/r/result.json")"
expect_json "$WORK/r/result.json" ok true
expect_json "$WORK/r/result.json" inference.groups_correct true
expect_json "$WORK/r/result.json" workload.verified true
