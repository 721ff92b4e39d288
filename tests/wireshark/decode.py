#!/usr/bin/python3
"""Decodes captures with tshark and tools/wireshark/tsunagi.lua and checks what it finds
(docs/wireshark.md). Used by tests/wireshark/dissector.sh and tests/cli/ns3_wireshark.sh.

  decode.py frames LUA PCAP          every frame type of tsunagi_frames_pcap, field by field
  decode.py broken LUA PCAP WHY      PCAP must hold a tsunagi packet flagged malformed for WHY
  decode.py ns3 LUA DIR PROCESSES    the captures of one ns-3 run of PROCESSES ranks
  decode.py realnet LUA PCAP PROCESSES PORTS   a loopback capture of one realnet run whose
                                     daemons listened on PORTS (comma-separated)

tshark writes each packet as PDML; every frame the dissector found is one <proto
name="tsunagi"> (several per packet when a segment holds several frames), probes are
tsunagi_probe, throughput transfers tsunagi_bulk.
"""
import collections
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def packets(lua, pcap, display_filter=None):
    """Per packet: {'number', 'frames': [fields], 'probes': [...], 'bulk': [...], 'tcp_len',
    'udp', 'reassembled_in', 'malformed': [reasons], 'udp_dstport'} (fields: name -> [show])."""
    argv = ["tshark", "-X", f"lua_script:{lua}", "-2", "-r", pcap, "-T", "pdml"]
    if display_filter:
        argv += ["-Y", display_filter]
    xml = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    for packet in ET.fromstring(xml).iter("packet"):
        info = {"frames": [], "probes": [], "bulk": [], "other": [], "malformed": [], "tcp_len": 0,
                "udp": False, "reassembled_in": False, "udp_dstport": None, "number": 0}
        for proto in packet.findall("proto"):
            name = proto.get("name")
            fields = collections.defaultdict(list)
            for field in proto.iter("field"):
                fields[field.get("name")].append(field.get("show"))
            if name == "frame":
                info["number"] = int(fields["frame.number"][0])
            elif name == "tcp":
                info["tcp_len"] = int((fields.get("tcp.len") or ["0"])[0])
                info["reassembled_in"] = "tcp.reassembled_in" in fields
            elif name == "udp":
                info["udp"] = True
                info["udp_dstport"] = int(fields["udp.dstport"][0])
            elif name == "tsunagi" and "tsunagi.type" not in fields:
                info["other"].append(fields)  # realnet's 'F' byte, or an unparsable stream
            elif name in ("tsunagi", "tsunagi_probe", "tsunagi_bulk"):
                info[{"tsunagi": "frames", "tsunagi_probe": "probes", "tsunagi_bulk": "bulk"}[name]
                     ].append(fields)
        # Expert infos of group Malformed (ours and Wireshark's), and Wireshark's own verdict.
        for element in packet.iter():
            if element.get("name") == "_ws.expert" and "/Malformed)" in (element.get("showname") or ""):
                info["malformed"].append(element.get("showname"))
            elif element.tag == "proto" and element.get("name") == "_ws.malformed":
                info["malformed"].append("Wireshark: malformed packet")
        yield info


def ours(packet):
    return packet["frames"] or packet["probes"] or packet["bulk"] or packet["other"]


def undecoded(packet):
    """A payload none of our dissectors took (reassembly pieces excepted)."""
    if ours(packet):
        return False
    return (packet["tcp_len"] > 0 and not packet["reassembled_in"]) or packet["udp"]


def type_name(frame):
    return frame["tsunagi.type"][0]


# FrameType numbers (model/include/tsunagi/model/wire.hpp) and names, for messages.
TYPE_NAMES = dict(enumerate(
    "hello register directory rtt_report groups route_round data done shutdown goodbye "
    "probe_order probe_result rtt_order rtt_column endpoint_query endpoint_reply relay_register "
    "relay_list relay_hello link_advert undeliverable settled start peer_unreachable "
    "shutdown_ack release auth_challenge auth_proof auth_accept".split(), start=1))


# Every frame tsunagi_frames_pcap writes (tests/wireshark/frames_pcap.cpp), by type number:
# the fields the dissector must show, with their values in order.
EXPECTED = {
    "1": {"tsunagi.rank": ["1"], "tsunagi.purpose": ["1"]},
    "2": {"tsunagi.rank": ["1"], "tsunagi.endpoint": ["10.0.0.6:7000"], "tsunagi.host": ["edge1-h01"],
          "tsunagi.site": ["chiba"]},
    "3": {"tsunagi.count": ["3"], "tsunagi.endpoint": ["10.0.0.2:7000", "10.0.0.6:7000", "10.0.16.2:7000"],
          "tsunagi.host": ["edge1-h00", "edge1-h01", "edge2-h00"]},
    "4": {"tsunagi.rank": ["1"], "tsunagi.rank_item": ["0", "2"], "tsunagi.probes": ["6"]},
    "5": {"tsunagi.count": ["2", "1", "1"], "tsunagi.run_start": ["0", "2"], "tsunagi.run_length": ["2", "1"]},
    "6": {"tsunagi.src": ["1"], "tsunagi.dst": ["2"], "tsunagi.round": ["3"], "tsunagi.final": ["1"],
          "tsunagi.route.dest": ["0", "2"], "tsunagi.route.dist": ["1", "0"]},
    "7": {"tsunagi.src": ["1"], "tsunagi.dst": ["2"], "tsunagi.seq": ["7"], "tsunagi.tag": ["42"],
          "tsunagi.filler": ["1000"], "tsunagi.body": ["01:02:03:04"]},
    "8": {"tsunagi.src": ["1"], "tsunagi.length": ["0"]},
    "9": {"tsunagi.length": ["0"]},
    "10": {"tsunagi.seq": ["1"]},
    "11": {"tsunagi.probe_id": ["5"], "tsunagi.to": ["2"], "tsunagi.bytes": ["1048576"]},
    "12": {"tsunagi.probe_id": ["5"], "tsunagi.bytes": ["1048576"], "tsunagi.elapsed_ns": ["8400000"],
           "tsunagi.ok": ["1"]},
    "13": {"tsunagi.round": ["2"], "tsunagi.run_start": ["0", "2"], "tsunagi.run_length": ["1", "1"]},
    "14": {"tsunagi.round": ["2"], "tsunagi.run_start": ["0", "2"], "tsunagi.run_length": ["1", "1"],
           "tsunagi.rtt_ns": ["21000", "61000"]},
    "15": {"tsunagi.run_start": ["0", "2"], "tsunagi.run_length": ["1", "1"]},
    "16": {"tsunagi.run_start": ["0", "2"], "tsunagi.run_length": ["1", "1"],
           "tsunagi.endpoint": ["10.0.0.2:7000", "10.0.16.2:7000"]},
    "17": {"tsunagi.label": ["chiba-relay0"], "tsunagi.site": ["chiba"], "tsunagi.endpoint": ["10.1.0.2:7000"]},
    "18": {"tsunagi.label": ["chiba-relay0", "kototoi-relay0"], "tsunagi.run_start": ["0"],
           "tsunagi.run_length": ["3"]},
    "19": {"tsunagi.label": ["chiba-relay0"]},
    "20": {"tsunagi.origin": ["chiba-relay0"], "tsunagi.advert_seq": ["3"], "tsunagi.settled": ["1"],
           "tsunagi.neighbour": ["kototoi-relay0"], "tsunagi.run_start": ["0"], "tsunagi.run_length": ["2"]},
    "21": {"tsunagi.src": ["2"], "tsunagi.dst": ["1"], "tsunagi.tag": ["42"], "tsunagi.seq": ["0", "7"],
           "tsunagi.reason": ["no route to rank 2"]},
    "22": {"tsunagi.src": ["1"]},
    "23": {"tsunagi.length": ["0"]},
    "24": {"tsunagi.src": ["1"], "tsunagi.dst": ["2"]},
    "25": {"tsunagi.length": ["0"]},
    "26": {"tsunagi.length": ["0"]},
    "27": {"tsunagi.auth.nonce": ["00:01:02:03:04:05:06:07:08:09:0a:0b:0c:0d:0e:0f"]},
    "28": {"tsunagi.auth.nonce": ["10:11:12:13:14:15:16:17:18:19:1a:1b:1c:1d:1e:1f"], "tsunagi.auth.mac": ["20:21:22:23:24:25:26:27:28:29:2a:2b:2c:2d:2e:2f:30:31:32:33:34:35:36:37:38:39:3a:3b:3c:3d:3e:3f"]},
    "29": {"tsunagi.auth.mac": ["20:21:22:23:24:25:26:27:28:29:2a:2b:2c:2d:2e:2f:30:31:32:33:34:35:36:37:38:39:3a:3b:3c:3d:3e:3f"]},
    "30": {"tsunagi.run_start": ["0"], "tsunagi.run_length": ["3"],
           "tsunagi.endpoint": ["10.0.0.2:7000", "10.0.16.2:7000"]},
    "31": {"tsunagi.run_start": ["0", "2"], "tsunagi.run_length": ["2", "1"]},
    "32": {"tsunagi.src": ["1"], "tsunagi.dst": ["2"], "tsunagi.seq": ["1"], "tsunagi.length": ["0"]},
    "33": {"tsunagi.src": ["1"], "tsunagi.dst": ["2"], "tsunagi.length": ["0"]},
}


def check_frames(lua, pcap):
    problems, by_type = [], collections.defaultdict(list)
    probes, bulk = [], []
    for p in packets(lua, pcap):
        problems += [f"packet {p['number']}: {m}" for m in p["malformed"]]
        if undecoded(p):
            problems.append(f"packet {p['number']}: payload not decoded")
        for frame in p["frames"]:
            by_type[type_name(frame)].append(frame)
        probes += p["probes"]
        bulk += p["bulk"]
    for number, fields in EXPECTED.items():
        frames = by_type.get(number, [])
        if not frames:
            problems.append(f"frame type {number} not found")
            continue
        for name, want in fields.items():
            got = frames[0].get(name, [])
            if got != want:
                problems.append(f"type {number}: {name} = {got}, expected {want}")
    # realnet's stream opened with 'F' (a hello and a register, found by the heuristic).
    if len(by_type.get("1", [])) != 2 or len(by_type.get("2", [])) != 2:
        problems.append(f"{len(by_type.get('1', []))} hello / {len(by_type.get('2', []))} register "
                        "frames; expected 2 each (ns-3 port and realnet heuristic)")
    kinds = [(f["tsunagi_probe.kind"][0], f["tsunagi_probe.id"][0], f["tsunagi_probe.sample"][0])
             for f in probes]
    want = [("0x50", "11", "1"), ("0x51", "11", "1"), ("0x50", "12", "2"), ("0x51", "12", "2")]
    if kinds != want:
        problems.append(f"probes {kinds}, expected {want}")
    sizes = [f["tsunagi_bulk.size"][0] for f in bulk if "tsunagi_bulk.size" in f]
    acks = [f for f in bulk if "tsunagi_bulk.ack" in f]
    ns3 = [f["tsunagi_bulk.probe_id"][0] for f in bulk if "tsunagi_bulk.probe_id" in f]
    if sizes != ["3000", "2000"] or len(acks) != 1 or ns3 != ["5"]:
        problems.append(f"transfers: sizes {sizes}, acks {len(acks)}, ns-3 probe ids {ns3}")
    return problems, f"{sum(len(v) for v in by_type.values())} frames of {len(by_type)} types, " \
                     f"{len(probes)} probes, {len(bulk)} transfer segments"


def check_broken(lua, pcap, why):
    reasons = [m for p in packets(lua, pcap) for m in p["malformed"]]
    if not any(why in r for r in reasons):
        return [f"no packet flagged malformed for '{why}' (flags: {reasons})"], ""
    return [], f"flagged: {[r for r in reasons if why in r][0]}"


def check_run(lua, pcaps, processes, endpoint, probe_ports, display_filter=None):
    """The captures of one run of `processes` ranks: every rank registered at an endpoint that
    matches `endpoint`, pings sent to a port in `probe_ports` and all answered, the frame types
    of any run, nothing malformed or undecoded."""
    problems, seen = [], collections.Counter()
    registered, pings, pongs = {}, 0, 0
    for pcap in pcaps:
        name = os.path.basename(pcap)
        for p in packets(lua, pcap, display_filter):
            where = f"{name} packet {p['number']}"
            problems += [f"{where}: {m}" for m in p["malformed"]]
            if undecoded(p):
                problems.append(f"{where}: payload not decoded")
            for probe in p["probes"]:
                if probe["tsunagi_probe.kind"][0] == "0x50":
                    pings += 1
                    if p["udp_dstport"] not in probe_ports:
                        problems.append(f"{where}: ping to UDP {p['udp_dstport']}")
                else:
                    pongs += 1
            for frame in p["frames"]:
                t = type_name(frame)
                seen[t] += 1
                src, dst = int(frame["tsunagi.src"][0]), int(frame["tsunagi.dst"][0])
                if not (-1 <= src < processes and -1 <= dst < processes):
                    problems.append(f"{where}: type {t} from {src} to {dst}")
                if t == "7" and (src < 0 or dst < 0 or src == dst):
                    problems.append(f"{where}: data from {src} to {dst}")
                if t == "2":
                    registered[int(frame["tsunagi.rank"][0])] = frame["tsunagi.endpoint"][0]
                if t == "3" and frame["tsunagi.count"] != [str(processes)]:
                    problems.append(f"{where}: directory of {frame['tsunagi.count']} ranks")
                if t == "1" and frame["tsunagi.purpose"][0] not in ("0", "1", "2", "3"):
                    problems.append(f"{where}: hello purpose {frame['tsunagi.purpose']}")
    names = {str(t): n for t, n in TYPE_NAMES.items()}
    required = ["hello", "register", "directory", "data", "done", "shutdown", "shutdown_ack",
                "release"]
    missing = [n for t, n in names.items() if n in required and seen[t] == 0]
    if missing:
        problems.append(f"frame types never seen: {missing}")
    if sorted(registered) != list(range(processes)):
        problems.append(f"registered ranks {sorted(registered)}, expected 0..{processes - 1}")
    for rank, at in registered.items():
        if not re.fullmatch(endpoint, at):
            problems.append(f"rank {rank} registered at {at!r}, expected {endpoint}")
    if pings == 0 or pings != pongs:
        problems.append(f"{pings} pings, {pongs} pongs")
    counts = ", ".join(f"{names.get(t, t)} {n}" for t, n in sorted(seen.items(), key=lambda x: int(x[0])))
    return problems, f"frames: {counts}; ranks 0..{processes - 1} registered; {pings} pings, " \
                     f"{pongs} pongs"


def main():
    mode, lua = sys.argv[1], sys.argv[2]
    if mode == "frames":
        problems, summary = check_frames(lua, sys.argv[3])
    elif mode == "broken":
        problems, summary = check_broken(lua, sys.argv[3], sys.argv[4])
    elif mode == "ns3":  # DIR PROCESSES: ns-3's --pcap directory; probes on UDP 14100 + slot
        directory = sys.argv[3]
        pcaps = [os.path.join(directory, f) for f in sorted(os.listdir(directory))]
        problems, summary = check_run(lua, pcaps, int(sys.argv[4]), r"10\.\d+\.\d+\.\d+:7000",
                                      range(14100, 15100))
    elif mode == "realnet":  # PCAP PROCESSES PORT,PORT,...: a loopback capture, the run's ports
        ports = [int(p) for p in sys.argv[5].split(",")]
        keep = "tcp.port in {%s} || udp.port in {%s}" % (sys.argv[5], sys.argv[5])
        problems, summary = check_run(lua, [sys.argv[3]], int(sys.argv[4]),
                                      r"127\.0\.0\.1:(%s)" % "|".join(map(str, ports)), ports, keep)
    else:
        sys.exit(f"unknown mode {mode}")
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems[:30]))
        return 1
    print(f"ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
