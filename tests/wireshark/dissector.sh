#!/usr/bin/env bash
# tools/wireshark/tsunagi.lua against the core's own encoders: tsunagi_frames_pcap writes one
# frame of every type (plus probes and throughput transfers as ns-3 and realnet send them) and
# tshark must show each with the values it was built from, flag nothing and leave no payload
# undecoded. Then each of five broken copies (bad version, unknown type, string over its limit,
# a list longer than its payload, a probe with stray bytes) must be flagged malformed, with the
# reason the core's decoder would give.
# Usage: dissector.sh FRAMES_PCAP_BIN   (env SRC: the source tree)
set -euo pipefail
SRC=${SRC:?}
BIN=${1:?usage: dissector.sh FRAMES_PCAP_BIN}
LUA=$SRC/tools/wireshark/tsunagi.lua
DECODE=$SRC/tests/wireshark/decode.py
command -v tshark >/dev/null || { echo "FAIL: tshark is not installed (tools/install-deps.sh)"; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tsunagi-wireshark.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

"$BIN" "$WORK/frames.pcap"
/usr/bin/python3 "$DECODE" frames "$LUA" "$WORK/frames.pcap"

# break NAME WHAT: a copy of frames.pcap with one thing broken (see the table below).
/usr/bin/python3 - "$WORK" <<'PY'
import struct, sys
work = sys.argv[1]
data = open(f"{work}/frames.pcap", "rb").read()

def header(frame_type):  # the first frame header of that type (magic, version 1, type, flags 0)
    at = data.find(bytes([0x54, 1, frame_type, 0]))
    assert at > 0, frame_type
    return at

def broken(name, at, new):
    copy = bytearray(data)
    copy[at:at + len(new)] = new
    open(f"{work}/{name}.pcap", "wb").write(copy)

broken("version", header(2) + 1, b"\x09")
broken("type", header(19) + 2, b"\x22")                                # 34: past probe_turn_grant
broken("string", header(2) + 32 + 4, struct.pack("<I", 300))           # register's endpoint
broken("list", header(4) + 32 + 4, struct.pack("<I", 1000))            # rtt_report's near list
ping = data.find(b"P" + struct.pack("<Q", 11) + struct.pack("<I", 1))
broken("probe", ping + 40, b"\x01")                                    # padding must be zeros
PY
while IFS='|' read -r name why; do
  /usr/bin/python3 "$DECODE" broken "$LUA" "$WORK/$name.pcap" "$why" | sed "s/^/$name: /"
done <<'TABLE'
version|unsupported version 9
type|unknown frame type 34
string|string of 300 bytes exceeds limit 256
list|near ranks of 1000 items does not fit
probe|not a ping/pong
TABLE
