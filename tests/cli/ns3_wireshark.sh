#!/usr/bin/env bash
# tools/wireshark/tsunagi.lua reads what the ns-3 backend puts on the wire (docs/wireshark.md):
# the teaching scenario's captures, decoded by tshark with the dissector, hold the frame types
# of a run (hello, register, directory, data, done, shutdown, ...) with sane fields (ranks in
# range, every rank registered at its 10.x.x.x:7000 endpoint, a directory of 8) and the RTT
# probes on UDP 14100+ (every ping answered); nothing is flagged malformed and no payload is
# left undecoded. Without the dissector no probe reads as AFS (Rx) any more. A copy with one
# frame's version byte broken is flagged: the check can fail.
source "$(dirname "$0")/lib.sh"
command -v tshark >/dev/null || fail "tshark is not installed (tools/install-deps.sh installs it)"
LUA=$SRC/tools/wireshark/tsunagi.lua
DECODE=$SRC/tests/wireshark/decode.py
"$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --backend ns3 --out "$WORK/run" \
  --pcap "$WORK/pcap" --quiet >/dev/null
/usr/bin/python3 "$DECODE" ns3 "$LUA" "$WORK/pcap" 8

afs=0
for pcap in "$WORK"/pcap/*.pcap; do
  afs=$((afs + $(tshark -r "$pcap" -Y "rx" 2>/dev/null | wc -l)))
done
[ "$afs" -eq 0 ] || fail "$afs packets still read as AFS (Rx) without the dissector"
if command -v tcpdump >/dev/null; then
  for pcap in "$WORK"/pcap/*.pcap; do tcpdump -nr "$pcap" 2>/dev/null; done >"$WORK/tcpdump.txt"
  grep -q "UDP, length" "$WORK/tcpdump.txt" || fail "tcpdump shows no probe datagram"
  ! grep -Eqi " rx |afs" "$WORK/tcpdump.txt" || fail "tcpdump reads probes as AFS (Rx)"
fi
echo "ok: without the dissector, no packet is read as AFS (Rx) by tshark or tcpdump"

/usr/bin/python3 - "$WORK/pcap/rendezvous.pcap" "$WORK/broken.pcap" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b"T\x01\x02\x00")  # the first register frame: magic, version 1, type 2, flags 0
if at < 0:
    sys.exit("FAIL: no register frame header in rendezvous.pcap")
data[at + 1] = 9
open(sys.argv[2], "wb").write(data)
PY
/usr/bin/python3 "$DECODE" broken "$LUA" "$WORK/broken.pcap" "unsupported version 9"
