#!/usr/bin/env bash
# A serial link's FIFO depth (scenario network.serial.fifo) in namespaces: the link's tbf
# holds at most that many bytes (at least two frames: with less, TCP small queues still let a
# second frame through now and then, and its loss stalled lmmc-2node for RTOs), and a node's own TCP sockets keep at
# most that many in it (tcp_limit_output_bytes). For two depths, tsunagi-emulate builds
# lmmc-2node's network; a UDP flood from node 0 at up to ~10 x the link rate (20 frames a millisecond) fills the queue of its
# serial link, whose backlog is sampled with `tc -s`: it never exceeds the depth and reaches
# most of it, and what does not fit is dropped (docs/lmmc.md, "FIFO depth").
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cluster_lib.sh"
need_netns
S="$SRC/scenarios/papers/lmmc-2node.toml"

flood_and_sample() {  # NS DEST_IP: prints "max_backlog drops"
  python3 - "$1" "$2" <<'PY'
import json, subprocess, sys, time
ns, dest = sys.argv[1], sys.argv[2]
flood = subprocess.Popen(["ip", "netns", "exec", ns, "python3", "-c", """
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.monotonic() + 0.6
while time.monotonic() < end:
    for _ in range(20):
        s.sendto(b'x' * 1400, ('%s', 9))
    time.sleep(0.001)
""" % dest])
peak, drops = 0, 0
while flood.poll() is None:
    out = subprocess.run(["tc", "-n", ns, "-s", "-j", "qdisc", "show", "dev", "s0"],
                         capture_output=True, text=True, check=True).stdout
    tbf = next(q for q in json.loads(out) if q["kind"] == "tbf")
    peak, drops = max(peak, tbf["backlog"]), tbf["drops"]
    time.sleep(0.01)
print(peak, drops)
PY
}

for fifo in 1600 4096 65536; do
  depth=$((fifo > 3200 ? fifo : 3200))  # two frames at least (netns_serial.cpp, serial_queue)
  emulate "$S" --latency-scale 0 --set network.serial.fifo=$fifo
  ns0=$(map_field host 0 5)
  ip1=$(map_field host 1 6)
  [ "$(ip netns exec "$ns0" sysctl -n net.ipv4.tcp_limit_output_bytes)" = "$fifo" ] ||
    fail "fifo $fifo: tcp_limit_output_bytes is not the depth"
  read -r peak drops < <(flood_and_sample "$ns0" "$ip1")
  echo "fifo $fifo: tbf backlog peaked at $peak bytes, $drops frames dropped"
  [ "$peak" -le "$depth" ] || fail "fifo $fifo: $peak bytes queued, more than $depth"
  [ "$peak" -ge $((depth / 2)) ] || fail "fifo $fifo: the flood queued only $peak bytes"
  [ "$drops" -gt 0 ] || fail "fifo $fifo: a flood at 10 x the rate dropped nothing"
  kill -TERM "$EMULATE_PID"
  wait "$EMULATE_PID" || fail "tsunagi-emulate exited $?"
  EMULATE_PID=""
done
echo "ok: the serial link's queue holds the scenario's FIFO depth"
