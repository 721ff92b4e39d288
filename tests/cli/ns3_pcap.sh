#!/usr/bin/env bash
# --pcap DIR on ns-3 writes one capture per host that packet tools can read (pcap magic,
# link type PPP, packets inside); SimGrid moves no packets and rejects --pcap as bad input.
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/teaching/two-switches.toml
"$TSUNAGI" run "$scenario" --backend ns3 --out "$WORK/run" --pcap "$WORK/pcap" --quiet >/dev/null
python3 - "$WORK/pcap" <<'PY'
import os, struct, sys
d = sys.argv[1]
names = sorted(os.listdir(d))
hosts = [f"edge{e}-h0{h}.pcap" for e in (1, 2) for h in range(4)] + ["rendezvous.pcap"]
if sorted(hosts) != names:
    sys.exit(f"FAIL: pcap files {names}, expected {sorted(hosts)}")
for name in names:
    data = open(os.path.join(d, name), "rb").read()
    magic, major, minor, _, _, snaplen, linktype = struct.unpack("<IHHiIII", data[:24])
    if magic != 0xA1B2C3D4 or (major, minor) != (2, 4) or linktype != 9:
        sys.exit(f"FAIL: {name}: not a PPP pcap file")
    packets, pos = 0, 24
    while pos + 16 <= len(data):
        _, _, incl, _ = struct.unpack("<IIII", data[pos:pos + 16])
        pos += 16 + incl
        packets += 1
    if pos != len(data) or packets < 10:
        sys.exit(f"FAIL: {name}: {packets} packets, truncated={pos != len(data)}")
print(f"ok: {len(names)} pcap files with packets")
PY
set +e
"$TSUNAGI" run "$scenario" --backend simgrid --out "$WORK/sg" --pcap "$WORK/pcap2" 2>"$WORK/err.txt"
status=$?
set -e
[ $status -eq 2 ] || fail "--pcap on simgrid exited $status, expected 2"
grep -q "ns3" "$WORK/err.txt" || fail "the error does not point to --backend ns3"
echo "ok: --pcap on simgrid is bad input: $(cat "$WORK/err.txt")"
