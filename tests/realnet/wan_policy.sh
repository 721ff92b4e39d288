#!/usr/bin/env bash
# Router policies in namespaces give the connect outcomes scenario::policy_outcome gives
# (scenarios/src/wan_truth.cpp): builds tests/realnet/wan/policies.toml's network from the
# launcher's --dry-run script, connects between every pair of clusters with real TCP, tears
# it all down (also on failure) and checks that no namespace is left.
source "$(dirname "$0")/lib.sh"
need_netns
command -v iptables >/dev/null || { echo "SKIP: needs iptables"; exit $SKIP; }
SCEN="$SRC/tests/realnet/wan/policies.toml"
"$TSUNAGI" run "$SCEN" --backend realnet --net netns --dry-run --out "$WORK/out" > "$WORK/plan.sh"
PREFIX=$(grep -o 'netns add tsg[0-9]*-' "$WORK/plan.sh" | head -1 | sed 's/netns add //')
DL=""
cleanup() {
  [ -n "$DL" ] && kill "$DL" 2>/dev/null || true
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX" || true); do ip netns del "$ns"; done
  rm -rf "$WORK"
}
trap cleanup EXIT
# Section 1 of the script (the network), with the delay line started here so we know its pid.
sed -n '/^# 1\. network/,/^# 2\. processes/p' "$WORK/plan.sh" > "$WORK/net.sh"
DL_LINE=$(grep -n 'tsunagi-delayline' "$WORK/net.sh" | cut -d: -f1)
head -n $((DL_LINE - 1)) "$WORK/net.sh" | sh
DL_CMD=$(sed -n "${DL_LINE}p" "$WORK/net.sh" | sed 's/ &.*$//')
$DL_CMD > "$WORK/dl.out" 2> "$WORK/dl.log" &
DL=$!
for _ in $(seq 100); do grep -q ready "$WORK/dl.out" && break; sleep 0.1; done
grep -q ready "$WORK/dl.out" || { cat "$WORK/dl.log"; exit 1; }
tail -n +$((DL_LINE + 1)) "$WORK/net.sh" | sh -e
# Hosts: h0 lab, h1 fw, h2 inb, h3 home (one host per cluster, in file order).
ip_of() { ip -n "${PREFIX}h$1" -4 -o addr show dev eth0 | awk '{print $4}' | cut -d/ -f1; }
NAMES=(lab fw inb home)
# Expected outcomes, from the policies in policies.toml by policy_outcome's rules.
declare -A WANT=(
  [lab,fw]=accept [fw,lab]=accept [lab,inb]=drop [inb,lab]=accept [lab,home]=drop [home,lab]=accept
  [fw,inb]=refuse [inb,fw]=refuse [fw,home]=refuse [home,fw]=refuse [inb,home]=drop [home,inb]=drop)
HOME_ROUTER=$(ip -n "${PREFIX}r3" -4 -o addr show dev wan | awk '{print $4}' | cut -d/ -f1)
port=9000; fails=0
declare -A GOT
for a in 0 1 2 3; do for b in 0 1 2 3; do
  [ $a = $b ] && continue
  port=$((port + 1))
  ( python3 "$SRC/tests/realnet/wan/probe.py" "${PREFIX}h$a" "${PREFIX}h$b" "$(ip_of $b)" $port \
      > "$WORK/probe-$a-$b" ) &
done; done
wait_start=$SECONDS
wait $(jobs -p | grep -v "^$DL\$") 2>/dev/null || true
for a in 0 1 2 3; do for b in 0 1 2 3; do
  [ $a = $b ] && continue
  got=$(cat "$WORK/probe-$a-$b"); key="${NAMES[$a]},${NAMES[$b]}"
  printf '%-10s %-8s %s\n' "$key" "${WANT[$key]}" "$got"
  [ "${got%% *}" = "${WANT[$key]}" ] || { echo "MISMATCH $key: want ${WANT[$key]}, got $got"; fails=1; }
done; done
# NAT: the open cluster sees the home router's public address, not the private one.
peer=$(cut -d' ' -f2 "$WORK/probe-3-0")
[ "$peer" = "$HOME_ROUTER" ] || { echo "NAT: lab saw $peer, want router $HOME_ROUTER"; fails=1; }
echo "probes took $((SECONDS - wait_start)) s; home->lab seen as $peer (router wan $HOME_ROUTER)"
exit $fails
