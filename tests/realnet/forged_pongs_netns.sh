# Issue 29, item 2 (docs/security.md, "Measurements only from the run"): forged RTT pongs from
# another network namespace against a real run. A stranger's namespace, plugged into one of the
# run's switches like a machine on the same LAN, floods every node's UDP echo from the start of
# inference to the end of the run: plain UDP from its own address, and raw IPv4 packets whose
# source is another node's echo (the address and port the prober expects), with the probe ids
# and sample numbers a node uses, so that only the ping's random nonce stands in the way. The
# run is an indices run, whose result.json holds a raw RTT for every ordered pair: before the
# fix the audit made one end `result ok` with all of them forged (microseconds instead of
# milliseconds). Now the run must end ok with every RTT at least what the delay lines make
# physically possible, the groups right and the decisions SimGrid's; a positive control (the
# nodes' UDP counters) shows that the forged pongs did reach the nodes' sockets. Needs root.
source "$(dirname "$0")/lib.sh"
need_netns
PEER="$(dirname "$0")/hostile_peer.py"
SCENARIO="$SRC/scenarios/teaching/two-switches.toml"
SCALE=50
# 60 samples per inference probe (both backends): inference lasts about 3 s, so the flood starts
# while every node is still probing; the forger sweeps inference sample numbers below 76
# (retries included). The indices' raw round trips take realnet's 10.
SWEEP=76
# Paper 004's indices over all 56 ordered pairs (a raw 64-byte round trip each, a few seconds).
SETS=(--set protocol.inference.rtt_samples=60
      --set workload.kind=indices --set 'workload.indices.sizes=["64B"]'
      --set workload.indices.stream_bytes=64KB --set workload.indices.repeats=1)
PPS=20000  # forged pongs a second: enough to hit every live probe, not enough to starve the run
EVIL="tsfp$$-evil"
EVIL_IP=10.77.250.1  # in the run's flat 10.77.0.0/16, far above its hosts (10.77.0.1..)
RUN="$WORK/run"
CONTROL="$WORK/forger"  # the forger's stop and pause files and its reports
RUN_PID=""
FLOOD_PID=""

cleanup() {
  local status=$?
  touch "$CONTROL/stop" 2>/dev/null || true
  [ -z "$FLOOD_PID" ] || { kill "$FLOOD_PID" 2>/dev/null || true; wait "$FLOOD_PID" 2>/dev/null || true; }
  # Only after a failure is the run still going: the launcher tears its namespaces down on TERM.
  [ -z "$RUN_PID" ] || { kill "$RUN_PID" 2>/dev/null || true; wait "$RUN_PID" 2>/dev/null || true; }
  ip netns del "$EVIL" 2>/dev/null || true  # takes the veth pair with it
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT

wait_for() {  # WHAT COMMAND...: polls COMMAND for up to 60 s while the run lives
  local what=$1
  shift
  for _ in $(seq 6000); do
    "$@" && return 0
    kill -0 "$RUN_PID" 2>/dev/null || fail "the run ended before $what"
    sleep 0.01
  done
  fail "no $what after 60 s"
}

count_hosts() {
  grep -q "listening on" "$RUN/realnet/r0.log" 2>/dev/null || return 1
  N_HOSTS=$(ip netns list | grep -c "^tsg$RUN_PID-h[0-9]")
}

# Every node logs "listening on IP:PORT"; its UDP echo has the same port.
all_listening() {
  local k
  for k in $(seq 0 $((N_HOSTS - 1))); do
    grep -q "listening on" "$RUN/realnet/r$k.log" 2>/dev/null || return 1
  done
}

# The stranger: a namespace of its own with an address of the run's LAN that no host has. The
# forger starts in it before the run (Python takes a while to start) and waits for its targets.
start_stranger() {
  ip netns add "$EVIL"
  ip -n "$EVIL" link set lo up
  ip netns exec "$EVIL" python3 "$PEER" pongs "$CONTROL" "$PPS" "$SWEEP" &
  FLOOD_PID=$!
}

bridge_up() {
  ip -n "tsg$RUN_PID-s1" link show br0 >/dev/null 2>&1
}

# Plugs the stranger into switch 1's bridge (edge1) with a veth, as a machine on the LAN.
plug_stranger() {
  local sw="tsg$RUN_PID-s1" mtu
  mtu=$(ip -n "$sw" -o link show br0 | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
  ip link add "tsfp$$a" netns "$sw" mtu "$mtu" type veth peer name eth0 netns "$EVIL" mtu "$mtu"
  ip -n "$sw" link set "tsfp$$a" master br0 up
  ip -n "$EVIL" addr add "$EVIL_IP/16" dev eth0
  ip -n "$EVIL" link set eth0 up
  echo "ok: stranger $EVIL ($EVIL_IP) plugged into $sw's bridge"
}

# "RANK IP PORT" per node, from its log: the forger's targets, handed over whole.
list_targets() {
  local k at
  for k in $(seq 0 $((N_HOSTS - 1))); do
    at=$(sed -n 's/.*listening on \([0-9.]*\):\([0-9]*\).*/\1 \2/p' "$RUN/realnet/r$k.log")
    echo "$k $at"
  done > "$CONTROL/targets.tmp"
  mv "$CONTROL/targets.tmp" "$CONTROL/targets"
}

# "NAMESPACE ADDRESS" of every node's host and of the rendezvous, for their counters.
list_namespaces() {
  local ns ip
  for ns in $(ip netns list | awk -v p="tsg$RUN_PID-" 'index($1, p) == 1 { print $1 }'); do
    case "$ns" in
      "tsg$RUN_PID-rv") echo "$ns rendezvous" ;;
      "tsg$RUN_PID-h"*)
        ip=$(ip -n "$ns" -4 -o addr show dev eth0 | awk '{ sub(/\/.*/, "", $4); print $4 }')
        echo "$ns $ip" ;;
    esac
  done > "$WORK/namespaces"
  [ "$(grep -c . "$WORK/namespaces")" -eq $((N_HOSTS + 1)) ] || fail "hosts and rendezvous not all found"
}

# "NAMESPACE ADDRESS InDatagrams OutDatagrams RcvbufErrors" of every node's host and the
# rendezvous, read inside each namespace (/proc/net is per namespace). A namespace starts with
# zero counters, so these count from its creation.
udp_counters() {  # FILE
  local ns ip
  while read -r ns ip; do
    ip netns exec "$ns" awk -v ns="$ns" -v ip="$ip" '/^Udp:/ {
        if (!head) { for (i = 2; i <= NF; i++) col[$i] = i; head = 1; next }
        print ns, ip, $col["InDatagrams"], $col["OutDatagrams"], $col["RcvbufErrors"]
      }' /proc/net/snmp || fail "cannot read $ns's UDP counters"
  done < "$WORK/namespaces" > "$1"
}

inference_over() {
  grep -q '"key":"inference"' "$RUN/realnet/rendezvous.events.jsonl" 2>/dev/null
}

# Counts the forged pongs that reached the nodes: the forger holds its fire and says what it
# sent, the last ones cross the delay lines (11 ms at most), the counters are read, it goes on.
count_arrivals() {
  touch "$CONTROL/pause"
  wait_for "the forger's pause" test -s "$CONTROL/paused.json"
  sleep 0.3
  udp_counters "$WORK/counters"
  rm "$CONTROL/pause"
}

# Positive control: the forged pongs reached the nodes' UDP sockets. Each node's host delivered
# at least as many datagrams as were forged for it; and, since every genuine datagram a host
# received was sent by a node or the rendezvous (a pong is never answered), all deliveries
# minus all sends is what the stranger delivered: at least 99 % of what it sent.
check_arrivals() {  # COUNTERS PAUSED_REPORT
  python3 - "$@" <<'PY'
import json, sys
counters = sorted((line.split() for line in open(sys.argv[1])), key=lambda f: f[1])
report = json.load(open(sys.argv[2]))
delivered = genuine = forged = 0
for ns, ip, d_in, d_out, d_buf in counters:
    d_in, d_out = int(d_in), int(d_out)
    genuine += d_out
    if ip == "rendezvous":
        continue
    sent = sum(report["sent"][ip].values())
    forged += sent
    delivered += d_in
    print(f"  {ip}: {sent} forged pongs sent, {d_in} datagrams delivered, {d_buf} dropped (buffer)")
    if d_in < sent:
        sys.exit(f"FAIL: {ip} delivered {d_in} datagrams, fewer than the {sent} forged for it")
if forged == 0:
    sys.exit("FAIL: the forger had sent nothing")
if delivered - genuine < 0.99 * forged:
    sys.exit(f"FAIL: at most {delivered - genuine} of {forged} forged pongs reached the nodes")
print(f"ok: {forged} forged pongs sent during inference, at least {delivered - genuine} delivered "
      f"to the nodes' sockets ({delivered} delivered in all, {genuine} sent by the run)")
PY
}

# The attack covered the measurements: it began before any node had its RTTs (each node's
# rtt_view) and ended after the indices were reported. An order of events on CLOCK_MONOTONIC
# (the daemons' clock lines), not a bound on a duration.
check_coverage() {  # RUN_DIR REPORT
  python3 - "$@" <<'PY'
import glob, json, sys
run, report = sys.argv[1], json.load(open(sys.argv[2]))
def times(path, match):
    lines = [json.loads(l) for l in open(path)]
    epoch = next(l["monotonic_ns"] for l in lines if l.get("type") == "clock")
    return [epoch + l["t_ns"] for l in lines if match(l)]
rv = f"{run}/realnet/rendezvous.events.jsonl"
start = times(rv, lambda l: l.get("kind") == "directory")[0]
end = times(rv, lambda l: l.get("key") == "inference")[0]
views = []
for path in glob.glob(f"{run}/realnet/r[0-9]*.events.jsonl"):
    views += times(path, lambda l: l.get("kind") == "rtt_view")
indices = times(f"{run}/realnet/r0.events.jsonl", lambda l: l.get("key") == "indices")
if len(views) < 2 or not indices:
    sys.exit("FAIL: the nodes' RTT views or the indices report are missing")
if report["first_ns"] >= min(views):
    sys.exit("FAIL: the flood began after a node had its RTTs")
if report["last_ns"] <= indices[0]:
    sys.exit("FAIL: the flood stopped before the indices were reported")
covered = (end - max(report["first_ns"], start)) / (end - start)
paused = sum(b - a for a, b in report["pauses"]) / 1e6
print(f"ok: the flood ran from {(report['first_ns'] - start) / 1e6:.0f} ms into inference, before "
      f"the first node's RTT view ({covered:.0%} of inference), to after the indices report; "
      f"held {paused:.0f} ms for the count")
PY
}

# Every measured RTT (rank 0's inference row and each pair's raw round trip of the indices, each
# the minimum of its samples) is at least half the least its path allows: 2 x the one-way
# latencies of its links x the scale, which the delay lines enforce. A forged answer arrives in
# microseconds, 100-1000 x below.
check_rtt_floors() {  # RUN_DIR SCENARIO SCALE
  python3 - "$@" <<'PY'
import json, re, sys, tomllib
run, scenario, scale = sys.argv[1], tomllib.load(open(sys.argv[2], "rb")), float(sys.argv[3])
units = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
def ns(text):
    number, unit = re.fullmatch(r"([0-9.]+)\s*(ns|us|ms|s)", text).groups()
    return float(number) * units[unit]
topology = json.load(open(f"{run}/topology.json"))
spec = {s["name"]: s for s in scenario["network"]["switch"]}
def switch(k):
    return spec[topology["switches"][k]["name"]]
def chain(k):  # k and its ancestors, each with its uplink's latency
    out = []
    while k >= 0:
        parent = topology["switches"][k]["parent"]
        out.append((k, ns(switch(k)["uplink_latency"]) if parent >= 0 else 0.0))
        k = parent
    return out
def floor(a, b):
    sa, sb = (topology["ranks"][r]["switch"] for r in (a, b))
    one_way = ns(switch(sa)["host_latency"]) + ns(switch(sb)["host_latency"])
    common = {k for k, _ in chain(sa)} & {k for k, _ in chain(sb)}
    for k, uplink in chain(sa) + chain(sb):
        if k not in common:
            one_way += uplink
    return 2 * one_way * scale
result = json.load(open(f"{run}/result.json"))
n = len(topology["ranks"])
row = result["reports"]["rtt_row"]
rtts = [("inference", row["rank"], peer, rtt) for peer, rtt in row["sorted_peer_rtt_ns"]]
pairs = result["indices"]["pairs"]
rtts += [("indices", p["from"], p["to"], s["raw_rtt_ns"]) for p in pairs for s in p["sizes"]]
if len(row["sorted_peer_rtt_ns"]) != n - 1 or len(pairs) != n * (n - 1):
    sys.exit(f"FAIL: {len(row['sorted_peer_rtt_ns'])} RTTs in rank 0's row and {len(pairs)} "
             f"indices pairs, expected {n - 1} and {n * (n - 1)}")
missing = [(a, b) for what, a, b, rtt in rtts if rtt is None]
if missing:
    sys.exit(f"FAIL: no raw RTT for {len(missing)} pairs, e.g. r{missing[0][0]} -> r{missing[0][1]}")
low = [(what, a, b, rtt, floor(a, b)) for what, a, b, rtt in rtts if rtt < 0.5 * floor(a, b)]
for what, a, b, rtt, least in low[:10]:
    print(f"  {what} r{a} -> r{b}: {rtt / 1e3:.1f} us measured, its path allows no less than "
          f"{least / 1e3:.0f} us")
if low:
    sys.exit(f"FAIL: {len(low)} of {len(rtts)} RTTs below half their path's floor: forged")
ratio = lambda t: t[3] / floor(t[1], t[2])
worst = min(rtts, key=ratio)
print(f"ok: all {len(rtts)} measured RTTs ({n - 1} of inference, {len(rtts) - n + 1} raw of the "
      f"indices) at least half their path's floor; the lowest, {worst[0]} r{worst[1]} -> "
      f"r{worst[2]}: {worst[3] / 1e6:.3f} ms, {ratio(worst):.2f} x its floor")
PY
}

"$TSUNAGI" run "$SCENARIO" --out "$WORK/simgrid" --quiet "${SETS[@]}" > /dev/null

mkdir "$CONTROL"
start_stranger
N_HOSTS=0
"$TSUNAGI" run "$SCENARIO" --backend realnet --net netns --latency-scale "$SCALE" \
  --out "$RUN" --quiet "${SETS[@]}" &
RUN_PID=$!
# The namespaces come in one `ip -b` batch before any daemon starts: once switch 1's bridge is
# up the stranger can plug in, and once r0 listens every host namespace exists.
wait_for "switch 1's bridge" bridge_up
plug_stranger
wait_for "the run's namespaces" count_hosts
wait_for "all $N_HOSTS nodes listening" all_listening
list_targets
list_namespaces
wait_for "the end of inference" inference_over
count_arrivals
RUN_STATUS=0
wait "$RUN_PID" || RUN_STATUS=$?
pid=$RUN_PID
RUN_PID=""
touch "$CONTROL/stop"
wait "$FLOOD_PID" || fail "the forger failed"
FLOOD_PID=""
check_nothing_left "$pid"

check_arrivals "$WORK/counters" "$CONTROL/paused.json"
check_coverage "$RUN" "$CONTROL/report.json"
[ "$RUN_STATUS" -eq 0 ] || { cat "$RUN/result.json" >&2; fail "the realnet run exited $RUN_STATUS"; }
expect_json "$RUN/result.json" ok true
expect_json "$RUN/result.json" inference.groups_correct true
check_rtt_floors "$RUN" "$SCENARIO" "$SCALE"
status=0
"$TSUNAGI" compare "$WORK/simgrid" "$RUN" || status=$?
[ "$status" -eq 0 ] || fail "tsunagi compare exited $status"
echo "ok: under forged pongs from another namespace the run's RTTs are its own, its decisions SimGrid's"
