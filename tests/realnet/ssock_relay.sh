#!/usr/bin/env bash
# Issue 6 acceptance on real kernel TCP: ssock-11-small in namespaces (routers with iptables
# firewalls, MASQUERADE on the NAT routers), one tsunagi-relay per cluster. Every ordered pair
# of the 22 processes connects, the relay paths are the paper's, `tsunagi compare` with SimGrid
# exits 0, and nothing is left behind.
source "$(dirname "$0")/lib.sh"
S="$SRC/scenarios/papers/ssock-11-small.toml"
"$TSUNAGI" run "$S" --backend realnet --net netns --dry-run --out "$WORK/dry" > "$WORK/dry.sh"
[ "$(grep -c 'tsunagi-relay .*--host-label' "$WORK/dry.sh")" -eq 11 ] || fail "dry run: not 11 relay daemons"
grep -q "exec tsg[0-9]*-r3 .*tsunagi-relay .*--listen 172.16.0.4:0 --host-label imade-gw0 --site imade" \
  "$WORK/dry.sh" || fail "dry run: imade's relay is not on its NAT gateway"
echo "ok: dry run starts 11 relays, imade's on the gateway"
need_netns
run_realnet "$S" --backend realnet --net netns --out "$WORK/run" -q
[ "$RUN_STATUS" -eq 0 ] || { tail -n 3 "$WORK/run/realnet/"*.log >&2; fail "run failed ($RUN_STATUS)"; }
r="$WORK/run/result.json"
expect_json "$r" relay.pairs_total 462
expect_json "$r" relay.pairs_connected 462
expect_json "$r" 'relay.paths.chiba->logos' '["chiba", "kototoi", "logos"]'
expect_json "$r" 'relay.paths.imade->kyoto' '["imade", "kyoto"]'
"$TSUNAGI" run "$S" --out "$WORK/sg" -q > /dev/null
"$TSUNAGI" compare "$WORK/sg" "$WORK/run" || fail "compare with SimGrid differs"
echo "ok: ssock-11-small over real TCP through relays: 462 of 462 pairs, SimGrid's decisions"
