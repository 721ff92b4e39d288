#!/usr/bin/env bash
# A process node's own port on ns-3 holds what its device cannot take yet (a Linux host's TCP
# never loses its own segments at its queueing discipline); only switch and router ports drop.
# With every device queue cut to 20 packets (ns-3's NS_ATTRIBUTE_DEFAULT), dragonfly-16's
# multicasts burst from the master into its port: without the hold 443 of them were dropped
# there and the run took 1.63 simulated seconds of retransmission time-outs instead of 0.63.
# The routers' drops are counted too, so the counter is seen to work (docs/ns3.md, "A host's
# own port").
source "$(dirname "$0")/lib.sh"
NS_ATTRIBUTE_DEFAULT='ns3::DropTailQueue<Packet>::MaxSize=20p' \
  "$TSUNAGI" run "$SRC/scenarios/teaching/dragonfly-16.toml" --backend ns3 --quiet \
  --out "$WORK/small-ports" >/dev/null || fail "dragonfly-16 with 20-packet ports: run failed"
expect_json "$WORK/small-ports/result.json" ok true
python3 - "$WORK/small-ports/result.json" <<'PY' || fail "a host's port dropped, or none counted"
import json, sys
result = json.load(open(sys.argv[1]))
counts = result["backend_counts"]
assert counts["ns3.port_drops_at_hosts"] == 0, counts
assert counts["ns3.port_drops_at_routers"] > 0, counts  # 20-packet router ports do overflow
assert counts["ns3.first_port_drop_s"] > 0, counts
print("ok: no drop at a host's port, %d at routers' ports (the first at %.6f s)"
      % (counts["ns3.port_drops_at_routers"], counts["ns3.first_port_drop_s"]))
PY
