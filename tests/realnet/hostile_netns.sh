# Issue 17 inside network namespaces the test creates (docs/security.md, "Authenticated runs"):
# the run's rendezvous and rank 0 live in one namespace, a stranger without the run's secret in
# another, joined by a veth pair as two machines on a shared LAN are. Every frame the stranger
# sends is refused; then the real rank 1 joins from the stranger's side of the LAN with the
# secret, and the run completes ok with no decision caused by the stranger. Needs root.
source "$(dirname "$0")/lib.sh"
need_netns
PEER="$(dirname "$0")/hostile_peer.py"
SCENARIO="$SRC/scenarios/teaching/two-switches.toml"
NS_RUN="tsh$$-run"
NS_EVIL="tsh$$-evil"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  ip netns del "$NS_RUN" 2>/dev/null || true
  ip netns del "$NS_EVIL" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

ip netns add "$NS_RUN"
ip netns add "$NS_EVIL"
ip link add "tsh$$a" netns "$NS_RUN" type veth peer name "tsh$$b" netns "$NS_EVIL"
ip -n "$NS_RUN" addr add 10.77.0.1/24 dev "tsh$$a"
ip -n "$NS_EVIL" addr add 10.77.0.2/24 dev "tsh$$b"
for ns in "$NS_RUN" "$NS_EVIL"; do
  ip -n "$ns" link set lo up
done
ip -n "$NS_RUN" link set "tsh$$a" up
ip -n "$NS_EVIL" link set "tsh$$b" up
echo "ok: namespaces $NS_RUN (10.77.0.1) and $NS_EVIL (10.77.0.2) on one veth LAN"

SECRET="$WORK/run.secret"
( umask 077; python3 -c 'import os; print(os.urandom(32).hex())' > "$SECRET" )
SETS=(--set protocol.registration_timeout=60s)  # its 8 ranks ping-pong r0 <-> r7

ip netns exec "$NS_RUN" "$REALNET_BIN/tsunagi-rendezvous" --scenario "$SCENARIO" "${SETS[@]}" \
  --secret-file "$SECRET" --linger 1 --listen 10.77.0.1:7100 --ready-file "$WORK/rv.ready" \
  --events "$WORK/rv.events.jsonl" 2>"$WORK/rv.err" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/rv.ready" ] && break; sleep 0.1; done
[ -s "$WORK/rv.ready" ] || { cat "$WORK/rv.err" >&2; fail "the rendezvous did not start"; }

# Attack the rendezvous from the other namespace before any rank registered.
ip netns exec "$NS_EVIL" python3 "$PEER" stranger 10.77.0.1:7100 || fail "stranger against the rendezvous"

ip netns exec "$NS_RUN" "$REALNET_BIN/tsunagi-node" --scenario "$SCENARIO" "${SETS[@]}" \
  --linger 1 --secret-file "$SECRET" --rank 0 --rendezvous 10.77.0.1:7100 --listen 10.77.0.1:0 --status \
  --host-label a0 --events "$WORK/r0.events.jsonl" >"$WORK/r0.out" 2>"$WORK/r0.err" &
PIDS+=($!)
for _ in $(seq 100); do grep -q "listening" "$WORK/r0.out" 2>/dev/null && break; sleep 0.1; done
R0=$(sed -n 's/^tsunagi-status r0 listening //p' "$WORK/r0.out")
[ -n "$R0" ] || { cat "$WORK/r0.err" >&2; fail "r0 did not start"; }
ip netns exec "$NS_EVIL" python3 "$PEER" stranger "$R0" || fail "stranger against r0"
rejected=$(grep '"kind":"frame_rejected"' "$WORK/r0.events.jsonl" | grep -c authentication || true)
[ "$rejected" -eq 7 ] || fail "r0 traced $rejected refusals, expected 7"
rejected=$(grep '"kind":"frame_rejected"' "$WORK/rv.events.jsonl" | grep -c authentication || true)
[ "$rejected" -eq 7 ] || fail "the rendezvous traced $rejected refusals, expected 7"
echo "ok: r0 and the rendezvous refused all 7 stranger attempts across the LAN"

# The real ranks 1-7 join, 4-7 from the stranger's side of the LAN: the run completes ok.
NODES=()
for rank in 1 2 3 4 5 6 7; do
  if [ "$rank" -le 3 ]; then ns=$NS_RUN ip=10.77.0.1; else ns=$NS_EVIL ip=10.77.0.2; fi
  ip netns exec "$ns" "$REALNET_BIN/tsunagi-node" --scenario "$SCENARIO" "${SETS[@]}" \
    --secret-file "$SECRET" --rank "$rank" --rendezvous 10.77.0.1:7100 --listen "$ip:0" \
    --host-label "h$rank" --linger 1 --events "$WORK/r$rank.events.jsonl" 2>"$WORK/r$rank.err" &
  NODES+=($!)
  PIDS+=($!)
done
for i in "${!NODES[@]}"; do
  wait "${NODES[$i]}" || { cat "$WORK/r$((i + 1)).err" >&2; fail "r$((i + 1)) did not exit ok"; }
done
wait "${PIDS[1]}" || { cat "$WORK/r0.err" >&2; fail "r0 did not exit ok"; }
wait "${PIDS[0]}" || { cat "$WORK/rv.err" >&2; fail "the rendezvous did not exit ok"; }
grep -q '"key":"workload".*"verified":true' "$WORK/r0.events.jsonl" \
  || fail "r0's ping-pong is not verified"
echo "ok: with the stranger refused, the 8 ranks ran the ping-pong to the end, verified"
