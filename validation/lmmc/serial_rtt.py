#!/usr/bin/python3
"""The serial link of lmmc-2node in namespaces, measured alone (docs/lmmc.md, "The delay line's
own cost"): UDP round trips of one frame each way, against the frames' wire time.

    /usr/bin/python3 validation/lmmc/serial_rtt.py [--build build] [--spin 0,40] [--count 300]

Needs root. For each --spin value, tsunagi-emulate builds scenarios/papers/lmmc-2node.toml's
network at --latency-scale 1 (two namespaces, one 20 Mbit/s serial link: a delay line that
holds every frame size / rate, tbf in front of it) with the delay line polling that many us
before a release (a wrapper in a temporary directory sets --spin-us); a UDP echo runs in node
1, and node 0 times --count round trips per size, 3 ms apart (the link idle between them, as
in the ping-pong). Prints, per frame size, the median and 10th/90th percentiles of the round
trip, twice the frame's wire time, and what is left (the round trip less the wire): the
kernel, the echo process and the delay line's wake-ups; then the delay line's own lateness line.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SCENARIO = "scenarios/papers/lmmc-2node.toml"
RATE = 20e6  # bit/s, the scenario's link
UDP_IP_ETH = 42  # bytes of Ethernet, IP and UDP header around the payload

ECHO = """
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("0.0.0.0", 7777))
while True:
    data, peer = s.recvfrom(65536); s.sendto(data, peer)
"""

CLIENT = """
import socket, sys, time
ip, count = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(1)
for size in map(int, sys.argv[3].split(",")):
    rtts = []
    for _ in range(count):
        t = time.perf_counter_ns(); s.sendto(b"x" * size, (ip, 7777)); s.recvfrom(65536)
        rtts.append((time.perf_counter_ns() - t) / 1e3); time.sleep(0.003)
    print(size, " ".join("%.1f" % r for r in rtts))
"""


def wrapper_dir(build, spin):
    """A directory with the realnet binaries, the delay line's wrapped to poll `spin` us."""
    bin_dir = os.path.abspath(os.path.join(build, "realnet"))
    tmp = tempfile.mkdtemp(prefix="serial-rtt-")
    for name in os.listdir(bin_dir):
        if name.startswith("tsunagi-") and name != "tsunagi-delayline":
            os.symlink(os.path.join(bin_dir, name), os.path.join(tmp, name))
    path = os.path.join(tmp, "tsunagi-delayline")
    with open(path, "w") as f:  # drop the launcher's --spin-us, put ours
        f.write('#!/bin/bash\nargs=(); skip=0\nfor a in "$@"; do\n'
                '  if [ $skip = 1 ]; then skip=0; continue; fi\n'
                '  if [ "$a" = --spin-us ]; then skip=1; continue; fi\n  args+=("$a")\ndone\n'
                'exec %s --spin-us %d "${args[@]}"\n' %
                (os.path.join(bin_dir, "tsunagi-delayline"), spin))
    os.chmod(path, 0o755)
    return tmp


def measure(args, spin):
    bins = wrapper_dir(args.build, spin)
    work = os.path.join(bins, "net")
    emulate = subprocess.Popen([os.path.join(bins, "tsunagi-emulate"), SCENARIO,
                                "--latency-scale", "1", "--work", work, "--realnet-bin", bins],
                               stdout=subprocess.PIPE, text=True)
    hosts = {}
    for line in emulate.stdout:
        words = line.split()
        if words[:2] == ["tsunagi-emulate", "host"]:
            hosts[int(words[2])] = (words[4], words[5])  # namespace, address
        if words[:2] == ["tsunagi-emulate", "ready"]:
            break
    echo = subprocess.Popen(["ip", "netns", "exec", hosts[1][0], "python3", "-c", ECHO])
    try:
        time.sleep(0.3)
        out = subprocess.run(["ip", "netns", "exec", hosts[0][0], "python3", "-c", CLIENT,
                              hosts[1][1], str(args.count), args.sizes],
                             capture_output=True, text=True, check=True).stdout
    finally:
        echo.kill()
        echo.wait()
        emulate.terminate()
        emulate.wait()
    print("spin %d us:" % spin)
    print("| frame (B) | 2 x wire (us) | round trip median (p10-p90) | round trip - wire |")
    print("|---|---|---|---|")
    points = []
    for line in out.splitlines():
        size, *rtts = line.split()
        rtts = sorted(map(float, rtts))
        frame = int(size) + UDP_IP_ETH
        wire = 2 * frame * 8 / RATE * 1e6
        median = statistics.median(rtts)
        points.append((frame, median))
        print("| %d | %.1f | %.1f (%.1f-%.1f) | %.1f |" %
              (frame, wire, median, rtts[len(rtts) // 10], rtts[len(rtts) * 9 // 10],
               median - wire))
    mean_x = statistics.mean(x for x, _ in points)
    mean_y = statistics.mean(y for _, y in points)
    slope = (sum((x - mean_x) * (y - mean_y) for x, y in points) /
             sum((x - mean_x) ** 2 for x, _ in points))
    print("round trip grows %.3f us per frame byte: %.2f x 2 x size / rate" %
          (slope, slope / (2 * 8 / RATE * 1e6)))
    with open(os.path.join(work, "delayline.log")) as f:
        print("".join(f.readlines()[-1:]))
    shutil.rmtree(bins)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--spin", default="0,40")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--sizes", default="16,64,256,1024,1400")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("serial_rtt.py: needs root (network namespaces)")
    for spin in map(int, args.spin.split(",")):
        measure(args, spin)


if __name__ == "__main__":
    main()
