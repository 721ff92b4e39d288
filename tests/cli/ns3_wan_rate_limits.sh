#!/usr/bin/env bash
# Paper 001's concurrent connect on ns-3 beside SimGrid: 56 processes in the 8 mutually
# reachable clusters connect all-to-all at once (both ends of each pair, routing = direct)
# through routers that admit 1 SYN/s beyond a burst of 700 (validation/ssock/concurrent8.toml,
# the paper's 3 s / 5 SYN schedule). On ns-3
# the SYNs are dropped by the routers' token buckets and retransmitted by ns-3's TCP. Both
# backends must open the same connections across the busiest router, take the same time within
# 2 % (dominated by SYN retransmissions), and make the same decisions except the end-of-run
# connection losses (the shutdown race, docs/ns3.md "Equivalence").
source "$(dirname "$0")/lib.sh"
sets=(--set protocol.routing=direct)
for cluster in chiba hiro hongo keio kototoi kyushu mirai okubo; do
  sets+=(--set "network.cluster.$cluster.hosts=7" --set "network.cluster.$cluster.relays=0")
done
scenario=$SRC/validation/ssock/concurrent8.toml
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/simgrid" --quiet "${sets[@]}" >/dev/null
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/ns3" --quiet "${sets[@]}" >/dev/null
expect_json "$WORK/ns3/result.json" ok true
python3 - "$WORK/simgrid" "$WORK/ns3" <<'PY'
import json, sys
a, b = (json.load(open(d + "/result.json")) for d in sys.argv[1:3])
ca, cb = (r["backend_counts"]["wan.router_connections_max"] for r in (a, b))
if ca != cb:
    sys.exit(f"FAIL: connections across the busiest router: SimGrid {ca}, ns-3 {cb}")
if b["backend_counts"]["wan.syns_rate_limited"] <= 0:
    sys.exit("FAIL: ns-3's routers dropped no SYN")
ta, tb = a["simulated_end_s"], b["simulated_end_s"]
if abs(tb - ta) > 0.02 * ta:
    sys.exit(f"FAIL: simulated end SimGrid {ta} s, ns-3 {tb} s")
def decisions(d):
    out = {}
    for line in open(d + "/trace.jsonl"):
        e = json.loads(line)
        if e["kind"] != "static_connection_lost":
            out.setdefault(e["proc"], []).append((e["kind"], e["detail"]))
    return out
if decisions(sys.argv[1]) != decisions(sys.argv[2]):
    sys.exit("FAIL: decisions differ beyond end-of-run connection losses")
print(f"ok: {cb} connections across the busiest router on both; end SimGrid {ta:.3f} s, "
      f"ns-3 {tb:.3f} s; {b['backend_counts']['wan.syns_rate_limited']:.0f} SYNs rate-limited")
PY
