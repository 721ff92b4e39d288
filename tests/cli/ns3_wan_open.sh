#!/usr/bin/env bash
# A WAN scenario through the program on ns-3: three open clusters of 2 hosts behind routers
# (WAN links of 2, 3 and 4 ms) run the core's ping-pong end to end; the RTT inference finds the
# three clusters as groups (cross-cluster RTTs are milliseconds, inside microseconds), the run
# is deterministic, and SimGrid's WAN model makes the same decisions. Until the relay role lands, blocked pairs are checked in
# tests/scenario/ns3_wan_test.cpp with scripted processes.
source "$(dirname "$0")/lib.sh"
{
  echo 'name = "wan-open-3"'
  echo 'seed = 3'
  echo '[network.wan]'
  echo 'rendezvous = "a"'
  for c in a:2ms b:3ms c:4ms; do
    echo '[[network.cluster]]'
    echo "name = \"${c%%:*}\""
    echo 'hosts = 2'
    echo "wan_latency = \"${c##*:}\""
  done
  echo '[protocol]'
  echo 'plan = "topology"'
  echo '[workload]'
  echo 'kind = "pingpong"'
} > "$WORK/wan.toml"
"$TSUNAGI" run "$WORK/wan.toml" --backend ns3 --out "$WORK/one" --quiet >/dev/null
"$TSUNAGI" run "$WORK/wan.toml" --backend ns3 --out "$WORK/two" --quiet >/dev/null
expect_json "$WORK/one/result.json" backend '"ns3"'
expect_json "$WORK/one/result.json" ok true
expect_json "$WORK/one/result.json" inference.groups_correct true
cmp -s "$WORK/one/trace.jsonl" "$WORK/two/trace.jsonl" || fail "two ns-3 runs of a WAN scenario differ"
"$TSUNAGI" run "$WORK/wan.toml" --backend simgrid --out "$WORK/simgrid" --quiet >/dev/null
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/one" || fail "SimGrid and ns-3 made different decisions"
echo "ok: 3 clusters over ns-3 routers, groups correct, deterministic, same decisions as SimGrid"
