#!/usr/bin/env python3
"""A hostile peer for realnet daemons on loopback (issue 17, docs/security.md).

Each subcommand attacks a daemon listening on HOST:PORT (pid PID) one way and prints one line
"ok: ..." or exits non-zero with "FAIL: ...". hostile_loopback.sh runs them.

  idle PID HOST:PORT N SECRET_FILE
                             N idle TCP connections (no purpose byte) while the daemon has few
                             descriptors: it must not spin, must log once, and must still take
                             a throughput probe (proving the secret) once its purpose deadline
                             frees descriptors
  udp HOST:PORT              the RTT echo answers only pings of the probe's size and format
  sinks PID HOST:PORT N      N throughput sinks announcing 1 TiB and sending nothing: memory
  frames PID HOST:PORT N     N frame connections announcing 64 MiB payloads: memory
  stranger HOST:PORT         without the run's secret: a register, an endpoint query, a relay
                             attach, a shortcut hello with data, a shutdown, and a proof made
                             with a guessed secret; the daemon must close each connection
                             after its challenge without sending anything else
  flood PID HOST:PORT IDLE BULK FRAMES SECONDS
                             issue 29: IDLE silent connections, BULK throughput-sink headers
                             without a proof and FRAMES frame connections that read the
                             challenge and say nothing, all held open; watches the daemon's
                             descriptors in /proc: each stranger's must be freed within SECONDS
                             of its accept
  bodies PID HOST:PORT N MB  issue 29: N frame connections each sending a data frame of 64 MiB,
                             body included, before authenticating; the daemon's peak RSS may
                             not grow by more than MB
  silent_listener PORT_FILE  listens on 127.0.0.1, accepts and never says a word (a squatter on
                             a port the run expects); writes its port to PORT_FILE
  pongs DIR PPS SAMPLES      issue 29: forged RTT pongs at every node of a run, about PPS a
                             second. Waits for DIR/targets, one line "RANK IP PORT" per node
                             (its UDP echo), then floods until DIR/stop exists: plain UDP from
                             the sender's own address, and raw IPv4 packets whose source is
                             another node's echo (what the prober expects), with the probe ids
                             a node uses and sample numbers below SAMPLES. While DIR/pause
                             exists it holds its fire, its counts so far in DIR/paused.json; at
                             the end DIR/report.json. forged_pongs_netns.sh runs it from a
                             stranger's namespace
"""
import hashlib
import hmac
import json
import resource
import select
import os
import socket
import struct
import sys
import time


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def address(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    fail("no VmRSS for pid %d" % pid)


def connect_all(where, n):
    socks = []
    for _ in range(n):
        s = socket.create_connection(where, timeout=5)
        socks.append(s)
    return socks


def bulk_header(secret, size):
    """A throughput probe's header proving the run's secret (realnet/src/adapter/probe_auth.hpp)."""
    head = struct.pack("<Q", size) + os.urandom(16)
    return b"B" + head + hmac.new(secret, b"tsunagi-bulk-v1" + head, hashlib.sha256).digest()


def read_secret(path):
    with open(path) as f:
        return bytes.fromhex(f.read().strip())


def bulk_probe(where, timeout, secret):
    """One byte to the daemon's throughput sink; True when it confirms within `timeout` s."""
    try:
        s = socket.create_connection(where, timeout=timeout)
        s.sendall(bulk_header(secret, 1) + b"\0")
        ok = s.recv(1) == b"A"
        s.close()
        return ok
    except OSError:
        return False


def idle(pid, where, n, secret):
    held = connect_all(where, n)  # the kernel completes them; the daemon runs out of descriptors
    time.sleep(1.0)
    before = cpu_seconds(pid)
    time.sleep(3.0)
    busy = (cpu_seconds(pid) - before) / 3.0
    if busy > 0.3:
        fail(f"the daemon used {busy:.0%} of a core with {n} idle connections (accept spinning)")
    # Idle connections are closed after the purpose deadline (10 s), which frees descriptors for
    # the ones still queued and for a real probe, while the attacker still holds everything.
    deadline = time.time() + 25
    while time.time() < deadline:
        if bulk_probe(where, 3, secret):
            print(f"ok: {busy:.0%} CPU with {n} idle connections; a probe got through while "
                  "they were held")
            for s in held:
                s.close()
            return
        time.sleep(0.5)
    fail("no throughput probe got through within 25 s of the idle connections")


def udp(where):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(0.5)

    def answer(datagram):
        s.sendto(datagram, where)
        try:
            return s.recv(65536)
        except socket.timeout:
            return None

    ping = b"P" + struct.pack("<QI", 7, 1)
    good = ping + bytes(64 - len(ping))
    reply = answer(good)
    if reply is None or len(reply) != 64 or reply[:1] != b"Q":
        fail(f"a well-formed 64-byte ping was not echoed: {reply!r}")
    for name, datagram in [("1400-byte", ping + bytes(1400 - len(ping))),
                           ("65-byte", ping + bytes(65 - len(ping))),
                           ("non-zero padding", ping + b"\x01" * (64 - len(ping))),
                           ("60000-byte", ping + bytes(60000 - len(ping)))]:
        if answer(datagram) is not None:
            fail(f"the echo reflected a {name} datagram")
    print("ok: the echo answers the 64-byte ping only (1400, 65, 60000 bytes, garbage: silence)")


def sinks(pid, where, n):
    before = rss_kib(pid)
    held = connect_all(where, n)
    for s in held:
        s.sendall(b"B" + struct.pack("<Q", 1 << 40))  # 9 bytes: "a terabyte follows"
    time.sleep(1.5)
    grown = rss_kib(pid) - before
    for s in held:
        s.close()
    if grown > 8 * 1024:
        fail(f"{n} sinks of 9 bytes each grew the daemon by {grown} KiB")
    print(f"ok: {n} throughput sinks announcing 1 TiB grew the daemon by {grown} KiB")


def frames(pid, where, n):
    before = rss_kib(pid)
    header = bytes([0x54, 1, 7, 0, 0, 16, 0, 0]) + struct.pack("<iiIIQ", 0, 1, 0, 64 << 20, 0)
    held = connect_all(where, n)
    for s in held:
        s.sendall(b"F" + header)  # a data frame announcing 64 MiB, then nothing
    time.sleep(1.5)
    grown = rss_kib(pid) - before
    for s in held:
        s.close()
    if grown > 16 * 1024:
        fail(f"{n} headers announcing 64 MiB grew the daemon by {grown} KiB")
    print(f"ok: {n} frame headers announcing 64 MiB grew the daemon by {grown} KiB")


FRAME_TYPES = {"hello": 1, "register": 2, "data": 7, "shutdown": 9, "endpoint_query": 15,
               "relay_register": 17, "challenge": 27, "proof": 28}


def frame(kind, payload=b"", src=-1, dst=-1):
    header = bytes([0x54, 1, FRAME_TYPES[kind], 0, 0, 16, 0, 0])
    return header + struct.pack("<iiIIQ", src, dst, 0, len(payload), 0) + payload


def hello(rank, purpose):  # purpose: 0 control, 1 static, 2 shortcut, 3 relay
    return frame("hello", struct.pack("<iB", rank, purpose))


def read_exact(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            fail(f"connection closed after {len(data)} of {n} bytes")
        data += chunk
    return data


def stranger(where):
    attempts = [
        ("a register without a proof", frame("register", struct.pack("<iI", 1, 0) + b"\0" * 8)),
        ("an endpoint query without a proof", frame("endpoint_query", struct.pack("<I", 0))),
        ("a relay attach without a proof", hello(1, 3)),
        ("a relay registration without a proof", frame("relay_register", b"\0" * 12)),
        ("a shortcut hello and data without a proof",
         hello(1, 2) + frame("data", struct.pack("<II", 7, 0), 1, 0)),
        ("a shutdown without a proof", frame("shutdown")),
        ("a proof made with a guessed secret",
         frame("proof", os.urandom(48)) + hello(1, 2) + frame("data", b"", 1, 0)),
    ]
    for name, attack in attempts:
        s = socket.create_connection(where, timeout=5)
        s.sendall(b"F")  # a frame connection
        challenge = read_exact(s, 32 + 16)
        if challenge[2] != FRAME_TYPES["challenge"]:
            fail(f"{name}: the daemon spoke first with frame type {challenge[2]}, not a challenge")
        s.sendall(attack)
        rest = b""
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                rest += chunk
        except socket.timeout:
            fail(f"{name}: the daemon kept the connection open")
        except ConnectionResetError:
            pass
        s.close()
        if rest:
            fail(f"{name}: the daemon answered {len(rest)} bytes (frame type {rest[2]})")
        print(f"ok: {name} is refused: challenge, then the connection closed, nothing else sent")


def daemon_sockets(pid):
    """The daemon's TCP sockets now: inode -> remote port (its accepted connections)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    remote = {}
    with open(f"/proc/{pid}/net/tcp") as f:
        next(f)
        for line in f:
            fields = line.split()
            if fields[9] in inodes:
                remote[fields[9]] = int(fields[2].split(":")[1], 16)
    return remote


def flood(pid, where, n_idle, n_bulk, n_frames, seconds):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    strangers = {}  # local port -> socket
    kinds = {}
    for kind, n in (("idle", n_idle), ("bulk", n_bulk), ("frames", n_frames)):
        for _ in range(n):
            s = socket.create_connection(where, timeout=5)
            if kind == "bulk":
                s.sendall(b"B" + struct.pack("<Q", 1 << 40))  # the pre-issue-29 header: no proof
            elif kind == "frames":
                s.sendall(b"F")
            s.setblocking(False)
            port = s.getsockname()[1]
            strangers[port] = s
            kinds[port] = kind
    print(f"ok: {len(strangers)} strangers connected ({n_idle} idle, {n_bulk} bulk sinks, "
          f"{n_frames} frame connections)", flush=True)
    first, last = {}, {}
    deadline = time.time() + 3 * seconds + 30
    while time.time() < deadline:
        now = time.time()
        held = {port for port in daemon_sockets(pid).values() if port in strangers}
        for port in held:
            first.setdefault(port, now)
            last[port] = now
        # Drain what the daemon sends (the challenges), so its writes never block.
        for port, s in strangers.items():
            try:
                s.recv(4096)
            except (BlockingIOError, OSError):
                pass
        if len(first) == len(strangers) and not held:
            break
        time.sleep(0.25)
    still = set(daemon_sockets(pid).values())  # before the strangers close theirs
    for s in strangers.values():
        s.close()
    worst = {}
    for port in first:
        life = last[port] - first[port]
        worst[kinds[port]] = max(worst.get(kinds[port], 0.0), life)
    summary = ", ".join(f"{k} {v:.1f} s" for k, v in sorted(worst.items()))
    left = [p for p in strangers if p in still]
    if left:
        fail(f"{len(left)} strangers' descriptors are still held after {3 * seconds + 30:.0f} s "
             f"(the longest held: {summary})")
    never = [p for p in strangers if p not in first]
    if never:
        fail(f"{len(never)} strangers were never accepted")
    if max(worst.values()) > seconds:
        fail(f"a stranger's descriptor was held longer than {seconds:.0f} s ({summary})")
    print(f"ok: every stranger's descriptor was freed; the longest held: {summary}")


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    fail("no VmHWM for pid %d" % pid)


def bodies(pid, where, n, megabytes):
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")  # resets the peak to the current RSS: "at rest"
    rest = peak_rss_kib(pid)
    body = bytes(64 << 20)
    header = bytes([0x54, 1, 7, 0, 0, 16, 0, 0]) + struct.pack("<iiIIQ", 0, 1, 0, 64 << 20, 0)
    held = connect_all(where, n)
    for s in held:
        try:
            s.sendall(b"F" + header + body)  # a whole 64 MiB data frame, unauthenticated
        except OSError:
            pass  # refused at the header: the daemon reset the connection
    time.sleep(1.0)
    grown = peak_rss_kib(pid) - rest
    for s in held:
        s.close()
    if grown > megabytes * 1024:
        fail(f"{n} unauthenticated 64 MiB bodies raised the daemon's peak RSS by {grown} KiB")
    print(f"ok: {n} unauthenticated 64 MiB bodies raised the daemon's peak RSS by {grown} KiB")


def silent_listener(port_file):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(s.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    held = []
    while True:
        conn, _ = s.accept()
        held.append(conn)  # never read, never written, never closed


# ---- pongs: forged RTT answers (issue 29, realnet/src/adapter/asio_probes.cpp)

PONG_HEADER = 1 + 8 + 4 + 16  # kind 'Q', probe id, sample number, the ping's nonce


def probe_id_guesses(i):
    """The forms a node's probe ids take (model/src/node/node.hpp): a peer's rank for inference,
    window (1 << 61) and workload (1 << 60) flags over a small index, and the other high bits
    the audit tried."""
    return [i, 1 << 61 | i, 1 << 60 | i, 1 << 63 | i, 1 << 62 | i, 1 << 32 | i]


def forged_pong(probe, sample, size):
    """A pong naming `probe` and `sample` (both little-endian, as the adapter writes them) with
    a made-up nonce, zero-padded to `size` bytes (a ping's size: at most 64)."""
    head = b"Q" + struct.pack("<QI", probe, sample) + os.urandom(16)
    return head + bytes(size - len(head))


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def spoofed_datagram(src, dst, payload):
    """An IPv4/UDP packet from `src` (ip, port) to `dst`, headers and checksums made here: the
    kernel sends it as it is (IPPROTO_RAW), whoever the source claims to be."""
    s_ip, d_ip = socket.inet_aton(src[0]), socket.inet_aton(dst[0])
    length = 8 + len(payload)
    udp_head = struct.pack("!HHHH", src[1], dst[1], length, 0)
    pseudo = s_ip + d_ip + struct.pack("!BBH", 0, socket.IPPROTO_UDP, length)
    udp_sum = checksum(pseudo + udp_head + payload) or 0xFFFF
    udp_head = struct.pack("!HHHH", src[1], dst[1], length, udp_sum)
    ip_head = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + length, int.from_bytes(os.urandom(2), "big"),
                          0, 64, socket.IPPROTO_UDP, 0, s_ip, d_ip)
    ip_head = ip_head[:10] + struct.pack("!H", checksum(ip_head)) + ip_head[12:]
    return ip_head + udp_head + payload


def wait_for_arp(ips, plain, seconds=5.0):
    """Resolves every target's MAC before the flood: a packet queued behind an unresolved
    neighbour may be dropped, and the positive control counts every packet sent."""
    deadline = time.time() + seconds
    while True:
        with open("/proc/net/arp") as f:
            known = {line.split()[0] for line in list(f)[1:] if line.split()[2] == "0x2"}
        missing = [ip for ip in ips if ip not in known]
        if not missing:
            return
        if time.time() > deadline:
            fail("no ARP answer from " + " ".join(missing))
        for ip in missing:
            plain.sendto(b"", (ip, 9))  # port 9 (discard): the answer we want is the ARP reply
        time.sleep(0.005)


def pong_rounds(nodes, samples):
    """The forged pongs of a round, as (spoofed source or None, destination, probe id, sample).

    First what the audit's stranger needed: for every prober q and peer p, a pong from p's own
    echo to q's with the ids a node gives its probes, p's rank for inference (sample numbers
    below `samples`) and the workload flag over index 0 for the indices workload's first raw
    round trip (below 16): only the nonce stands in its way. Then every guessed id form of ranks
    0..15 at samples 0..15, spoofed the same way and plainly from the sender's own address."""
    matched, others = [], []
    for sample in range(samples):
        for q in nodes:
            for p in nodes:
                if p is not q:
                    matched.append((p["at"], q["at"], p["rank"], sample))
                    if sample < 16:
                        matched.append((p["at"], q["at"], 1 << 60, sample))
    for q in nodes:
        for i in range(16):
            for probe in probe_id_guesses(i):
                for sample in range(16):
                    others.append((None, q["at"], probe, sample))
                    p = nodes[(i + q["rank"] + 1) % len(nodes)]
                    if p is not q:
                        others.append((p["at"], q["at"], probe, sample))
    return matched, others


class Forger:
    """Sends forged pongs and counts them per destination address. Each pong is built the
    first time it is sent (the flood starts at once) and then kept (later rounds cost one send)."""

    def __init__(self, nodes):
        self.plain = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        self.sent = {n["at"][0]: {"plain": 0, "spoofed": 0} for n in nodes}
        self.total = self.errors = 0
        self.built = {}
        self.sizes = list(range(PONG_HEADER, 65))  # every ping size a prober may use

    def send(self, pong):
        src, dst, probe, sample = pong
        data = self.built.get(pong)
        if data is None:
            payload = forged_pong(probe, sample, self.sizes[len(self.built) % len(self.sizes)])
            data = payload if src is None else spoofed_datagram(src, dst, payload)
            self.built[pong] = data
        try:
            if src is None:
                self.plain.sendto(data, dst)
            else:
                self.raw.sendto(data, (dst[0], 0))
        except OSError:
            self.errors += 1  # e.g. once the run has taken its switch (and our veth) away
            return
        self.sent[dst[0]]["spoofed" if src else "plain"] += 1
        self.total += 1

    def report(self, path, **extra):
        report = dict(sent=self.sent, total=self.total, errors=self.errors, **extra)
        with open(path + ".tmp", "w") as f:
            json.dump(report, f)
        os.rename(path + ".tmp", path)


def pongs(control, pps, samples):
    """Floods until CONTROL/stop exists. While CONTROL/pause exists it sends nothing and has
    written what it sent so far to CONTROL/paused.json: the caller counts arrivals then."""
    stop, pause = os.path.join(control, "stop"), os.path.join(control, "pause")
    targets = os.path.join(control, "targets")
    # Started before the run (Python takes a while to start), it waits for the nodes' ports.
    deadline = time.time() + 60
    while not os.path.exists(targets):
        if os.path.exists(stop):
            return
        if time.time() > deadline:
            fail("no targets after 60 s")
        time.sleep(0.002)
    nodes = []
    with open(targets) as f:
        for line in f:
            rank, ip, port = line.split()
            nodes.append({"rank": int(rank), "at": (ip, int(port))})
    forger = Forger(nodes)
    wait_for_arp([n["at"][0] for n in nodes], forger.plain)
    matched, others = pong_rounds(nodes, samples)
    # Each round: the whole matched sweep and an eighth of the rest, so that a pong which would
    # have counted before the fix comes back every few hundred ms, while its probe still runs.
    slice_size = len(others) // 8 + 1
    first_ns = time.monotonic_ns()
    pauses = []
    rounds = 0
    next_at = time.monotonic()
    while not os.path.exists(stop) and time.monotonic_ns() - first_ns < 120e9:
        cut = (rounds % 8) * slice_size
        packets = matched + others[cut:cut + slice_size]
        rounds += 1
        for at in range(0, len(packets), 128):
            for pong in packets[at:at + 128]:
                forger.send(pong)
            if os.path.exists(pause):
                paused_at = time.monotonic_ns()
                forger.report(os.path.join(control, "paused.json"), at_ns=paused_at)
                while os.path.exists(pause) and not os.path.exists(stop):
                    time.sleep(0.01)
                pauses.append([paused_at, time.monotonic_ns()])
                next_at = time.monotonic()
            # Pacing, not a check: about `pps` a second, never a burst to catch up.
            next_at = max(next_at + 128 / pps, time.monotonic() - 0.05)
            time.sleep(max(0.0, next_at - time.monotonic()))
            if os.path.exists(stop):
                break
    forger.report(os.path.join(control, "report.json"), rounds=rounds, first_ns=first_ns,
                  last_ns=time.monotonic_ns(), pauses=pauses)
    print(f"ok: {forger.total} forged pongs sent to {len(nodes)} nodes in {rounds} rounds "
          f"({sum(v['plain'] for v in forger.sent.values())} plain, "
          f"{sum(v['spoofed'] for v in forger.sent.values())} spoofed), "
          f"{forger.errors} send errors")

def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "idle":
        idle(int(args[0]), address(args[1]), int(args[2]), read_secret(args[3]))
    elif command == "flood":
        flood(int(args[0]), address(args[1]), int(args[2]), int(args[3]), int(args[4]),
              float(args[5]))
    elif command == "bodies":
        bodies(int(args[0]), address(args[1]), int(args[2]), int(args[3]))
    elif command == "silent_listener":
        silent_listener(args[0])
    elif command == "udp":
        udp(address(args[0]))
    elif command == "sinks":
        sinks(int(args[0]), address(args[1]), int(args[2]))
    elif command == "frames":
        frames(int(args[0]), address(args[1]), int(args[2]))
    elif command == "stranger":
        stranger(address(args[0]))
    elif command == "pongs":
        pongs(args[0], int(args[1]), int(args[2]))
    else:
        fail("unknown command " + command)


if __name__ == "__main__":
    main()
