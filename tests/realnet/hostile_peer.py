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
"""
import hashlib
import hmac
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
    else:
        fail("unknown command " + command)


if __name__ == "__main__":
    main()
