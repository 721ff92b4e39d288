#!/usr/bin/env bash
# Two open clusters behind routers and a WAN core: the all-to-all ping-pong run works across the
# routers, every node got its site, the dry run prints routes, SYN sysctls and the site, and
# the run leaves no namespace behind, and `compare` with the SimGrid run exits 0.
source "$(dirname "$0")/lib.sh"
S="$SRC/tests/realnet/wan/two-open.toml"
"$TSUNAGI" run "$S" --backend realnet --net netns --dry-run --out "$WORK/dry" > "$WORK/dry.sh"
grep -q "^netns add tsg[0-9]*-wan$" "$WORK/dry.sh" || fail "dry run: no WAN core namespace"
grep -q "^route add 10.101.0.0/16 via 172.16.0.2 dev wan$" "$WORK/dry.sh" || fail "dry run: no route east->west"
grep -q "^route add default via 10.101.255.254$" "$WORK/dry.sh" || fail "dry run: no default route in west"
grep -q "exec tsg[0-9]*-r0 sysctl -q -w net.ipv4.ip_forward=1 " "$WORK/dry.sh" || fail "dry run: router forwarding"
grep -q "tcp_syn_retries=1 net.ipv4.tcp_syn_linear_timeouts=0" "$WORK/dry.sh" || fail "dry run: SYN timing"
[ "$(grep -c 'tsunagi-node .*--site west' "$WORK/dry.sh")" -eq 2 ] || fail "dry run: 2 nodes with --site west"
echo "ok: WAN dry run"
# The paper's layout: relay hosts inside (behind the router) or on the NAT gateway, NAT rules.
"$TSUNAGI" run "$SRC/scenarios/papers/ssock-11-small.toml" --backend realnet --net netns --dry-run \
  --set protocol.plan=all --set workload.kind=none --out "$WORK/ssock" > "$WORK/ssock.sh"
[ "$(grep -c '^# relay host ' "$WORK/ssock.sh")" -eq 11 ] || fail "ssock dry run: not 11 relay hosts"
grep -q "^# relay host imade-gw0: namespace tsg[0-9]*-r3, 172.16.0.4 " "$WORK/ssock.sh" || fail "imade gateway relay"
[ "$(grep -c 'POSTROUTING -o wan -j MASQUERADE' "$WORK/ssock.sh")" -eq 2 ] || fail "ssock dry run: not 2 NAT routers"
echo "ok: ssock-11-small dry run (11 relay hosts, 2 NAT routers)"
need_netns
run_realnet "$S" --backend realnet --net netns --out "$WORK/run" -q
[ "$RUN_STATUS" -eq 0 ] || { cat "$WORK/run/realnet/"*.log >&2; fail "run failed ($RUN_STATUS)"; }
python3 - "$WORK/run/result.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["ok"] is True, r["problems"]
assert r["workload"].get("verified") is True, r["workload"]
print("ok: cross-cluster all-to-all ping-pong over routers:", json.dumps(r["workload"])[:160])
PY
"$TSUNAGI" run "$S" --out "$WORK/sg" -q > /dev/null
"$TSUNAGI" compare "$WORK/sg" "$WORK/run" || fail "compare with SimGrid differs"
# A scenario [[faults]] kill of a rank: the launcher kills that daemon (by its pid) and names it.
{ cat "$S"; printf '\n[[faults]]\nkill = "r3"\nat = "1s"\n'; } > "$WORK/fault.toml"
run_realnet "$WORK/fault.toml" --backend realnet --net netns --out "$WORK/fault" -q 2> "$WORK/fault.err"
[ "$RUN_STATUS" -eq 1 ] || fail "fault run: exit $RUN_STATUS, expected 1"
grep -q "r3 died (killed by signal 9" "$WORK/fault.err" || { cat "$WORK/fault.err" >&2; fail "fault not named"; }
echo "ok: [[faults]] kill of r3 applied and named"
