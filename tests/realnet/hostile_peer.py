#!/usr/bin/env python3
"""A hostile peer for realnet daemons on loopback (issue 17, docs/security.md).

Each subcommand attacks a daemon listening on HOST:PORT (pid PID) one way and prints one line
"ok: ..." or exits non-zero with "FAIL: ...". hostile_loopback.sh runs them.

  idle PID HOST:PORT N       N idle TCP connections (no purpose byte) while the daemon has few
                             descriptors: it must not spin, must log once, and must still take
                             a throughput probe once its purpose deadline frees descriptors
  udp HOST:PORT              the RTT echo answers only pings of the probe's size and format
  sinks PID HOST:PORT N      N throughput sinks announcing 1 TiB and sending nothing: memory
  frames PID HOST:PORT N     N frame connections announcing 64 MiB payloads: memory
"""
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


def bulk_probe(where, timeout):
    """One byte to the daemon's throughput sink; True when it confirms within `timeout` s."""
    try:
        s = socket.create_connection(where, timeout=timeout)
        s.sendall(b"B" + struct.pack("<Q", 1) + b"\0")
        ok = s.recv(1) == b"A"
        s.close()
        return ok
    except OSError:
        return False


def idle(pid, where, n):
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
        if bulk_probe(where, 3):
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


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "idle":
        idle(int(args[0]), address(args[1]), int(args[2]))
    elif command == "udp":
        udp(address(args[0]))
    elif command == "sinks":
        sinks(int(args[0]), address(args[1]), int(args[2]))
    elif command == "frames":
        frames(int(args[0]), address(args[1]), int(args[2]))
    else:
        fail("unknown command " + command)


if __name__ == "__main__":
    main()
