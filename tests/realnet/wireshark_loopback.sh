#!/usr/bin/env bash
# tools/wireshark/tsunagi.lua reads realnet's traffic too (docs/wireshark.md): the teaching
# scenario on loopback, run inside a namespace of this test's own so that tcpdump on its `lo`
# sees this run and nothing else. realnet's ports are the kernel's, so the dissector finds the
# frames, probes and transfers by their content; decode.py keeps the ports the daemons logged
# and checks the frame types, that every rank registered at its 127.0.0.1 port, that every
# ping was answered, and that nothing is malformed or undecoded.
source "$(dirname "$0")/lib.sh"
need_netns
command -v tcpdump >/dev/null || { echo "SKIP: needs tcpdump (tools/install-deps.sh)"; exit $SKIP; }
command -v tshark >/dev/null || { echo "SKIP: needs tshark (tools/install-deps.sh)"; exit $SKIP; }
ns="tsg$$-wireshark"
capture=""
cleanup() {
  [ -n "$capture" ] && kill "$capture" 2>/dev/null && wait "$capture" 2>/dev/null
  ip netns delete "$ns" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up
# -B: a 64 MB kernel buffer, so that a tcpdump starved of CPU (2 cores, other tests) drops
# nothing; it takes packets in blocks, so it is stopped (SIGINT) only 2 s after the run.
ip netns exec "$ns" tcpdump -i lo -B 65536 -s 0 -w "$WORK/lo.pcap" 'tcp or udp' 2>"$WORK/tcpdump.txt" &
capture=$!
for _ in $(seq 50); do grep -q "listening on lo" "$WORK/tcpdump.txt" && break; sleep 0.1; done
grep -q "listening on lo" "$WORK/tcpdump.txt" || fail "tcpdump did not start: $(cat "$WORK/tcpdump.txt")"
ip netns exec "$ns" "$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --backend realnet \
  --net loopback --realnet-bin "$REALNET_BIN" --out "$WORK/run" -q >/dev/null
sleep 2
kill -INT "$capture"
wait "$capture" 2>/dev/null || true
capture=""
grep -qE "^0 packets dropped by kernel" "$WORK/tcpdump.txt" ||
  fail "tcpdump dropped packets: $(tail -3 "$WORK/tcpdump.txt")"
ports=$(grep -ohE '127\.0\.0\.1:[0-9]+' "$WORK"/run/realnet/*.log | cut -d: -f2 | sort -u | paste -sd, -)
[ -n "$ports" ] || fail "no listening ports in the daemons' logs ($WORK/run/realnet)"
# A failure keeps the capture and the daemons' logs in a fresh private directory (the test runs
# as root: never a predictable path), so that the packets it names can be looked at.
if ! /usr/bin/python3 "$SRC/tests/wireshark/decode.py" realnet "$SRC/tools/wireshark/tsunagi.lua" \
  "$WORK/lo.pcap" 8 "$ports"; then
  kept=$(mktemp -d "${TMPDIR:-/tmp}/tsunagi-wireshark-failed.XXXXXX")
  cp -r "$WORK/lo.pcap" "$WORK/tcpdump.txt" "$WORK/run" "$kept/"
  fail "the capture did not decode as expected; kept in $kept (ports $ports)"
fi
