# Issue 29, items 3, 4 and 5 on real sockets (docs/security.md): strangers without the run's
# secret against realnet daemons on 127.0.0.1. No root needed; about a minute (label long).
#  1. 1,100 idle connections, 200 throughput-sink headers without a proof and 100 frame
#     connections that never prove themselves, against the rendezvous at `ulimit -n 1024`
#     before any rank registered: the run (8 ranks of two-switches) finishes ok, and each
#     stranger's descriptor is freed within 10 s of its accept (measured in /proc/PID/fd, with
#     a margin of 4 s for a loaded machine). Before: refused frame connections and sinks kept
#     their descriptors until the stranger closed, so a run could be starved of them.
#  2. 16 connections sending whole 64 MiB data frames before authenticating, against the
#     rendezvous and a rank: neither daemon's peak RSS grows by 64 MB. Before: over 1 GB.
#  3. A silent listener where a rank expects the rendezvous: the rank reports it and ends
#     within the initiator's handshake deadline (20 s), not at the run's time-out.
source "$(dirname "$0")/lib.sh"
PEER="$(dirname "$0")/hostile_peer.py"
SCENARIO="$SRC/scenarios/teaching/two-switches.toml"
PIDS=()
stop_all() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap 'stop_all; rm -rf "$WORK"' EXIT

SECRET="$WORK/run.secret"
( umask 077; python3 -c 'import os; print(os.urandom(32).hex())' > "$SECRET" )
SETS=(--set protocol.registration_timeout=120s)

# Starts the rendezvous with at most $1 descriptors, named $2; sets RV and RV_AT.
start_rendezvous() {
  (
    ulimit -n "$1"
    exec "$REALNET_BIN/tsunagi-rendezvous" --scenario "$SCENARIO" "${SETS[@]}" \
      --secret-file "$SECRET" --linger 1 --listen 127.0.0.1:0 --ready-file "$WORK/$2.ready" \
      --events "$WORK/$2.events.jsonl"
  ) 2>"$WORK/$2.err" &
  RV=$!
  PIDS+=("$RV")
  for _ in $(seq 100); do [ -s "$WORK/$2.ready" ] && break; sleep 0.1; done
  [ -s "$WORK/$2.ready" ] || { cat "$WORK/$2.err" >&2; fail "$2 did not start"; }
  RV_AT=$(cat "$WORK/$2.ready")
}

# Starts rank $1 against the rendezvous at $2 with at most 1024 descriptors; sets NODE.
start_rank() {
  (
    ulimit -n 1024
    exec "$REALNET_BIN/tsunagi-node" --scenario "$SCENARIO" "${SETS[@]}" --secret-file "$SECRET" \
      --rank "$1" --rendezvous "$2" --listen 127.0.0.1:0 --host-label "h$1" --linger 1 --status \
      --events "$WORK/r$1.events.jsonl"
  ) >"$WORK/r$1.out" 2>"$WORK/r$1.err" &
  NODE=$!
  PIDS+=("$NODE")
}

# 1. Descriptor exhaustion.
start_rendezvous 1024 flooded
python3 "$PEER" flood "$RV" "$RV_AT" 1100 200 100 14 >"$WORK/flood.out" 2>&1 &
FLOOD=$!
PIDS+=("$FLOOD")
for _ in $(seq 100); do grep -q "strangers connected" "$WORK/flood.out" && break; sleep 0.2; done
grep -q "strangers connected" "$WORK/flood.out" || { cat "$WORK/flood.out" >&2; fail "flood"; }
# Ranks 0-6 register through the flood; rank 7 joins once every stranger is gone, so the
# rendezvous lives (and is watched) until then.
NODES=()
for rank in 0 1 2 3 4 5 6; do
  start_rank "$rank" "$RV_AT"
  NODES+=("$NODE")
done
wait "$FLOOD" || { cat "$WORK/flood.out" >&2; fail "strangers held descriptors too long"; }
cat "$WORK/flood.out"
start_rank 7 "$RV_AT"
NODES+=("$NODE")
for i in "${!NODES[@]}"; do
  wait "${NODES[$i]}" || { cat "$WORK/r$i.err" >&2; fail "r$i did not exit ok under the flood"; }
done
wait "$RV" || { cat "$WORK/flooded.err" >&2; fail "the flooded rendezvous did not exit ok"; }
grep -q '"key":"workload".*"verified":true' "$WORK/r0.events.jsonl" \
  || fail "r0's ping-pong is not verified"
echo "ok: the run finished ok beside 1,400 strangers at ulimit -n 1024"

# 2. Memory before authentication.
start_rendezvous 4096 roomy
start_rank 0 "$RV_AT"
for _ in $(seq 100); do grep -q "listening" "$WORK/r0.out" 2>/dev/null && break; sleep 0.1; done
R0_AT=$(sed -n 's/^tsunagi-status r0 listening //p' "$WORK/r0.out")
[ -n "$R0_AT" ] || { cat "$WORK/r0.err" >&2; fail "r0 did not start"; }
python3 "$PEER" bodies "$RV" "$RV_AT" 16 64 || fail "64 MiB bodies against the rendezvous"
python3 "$PEER" bodies "$NODE" "$R0_AT" 16 64 || fail "64 MiB bodies against r0"
kill -0 "$RV" && kill -0 "$NODE" || fail "a daemon died under 64 MiB bodies"

# 3. A silent listener on the rendezvous's port.
python3 "$PEER" silent_listener "$WORK/squatter.port" &
PIDS+=($!)
for _ in $(seq 50); do [ -s "$WORK/squatter.port" ] && break; sleep 0.1; done
start_rank 1 "127.0.0.1:$(cat "$WORK/squatter.port")"
started=$(date +%s)
status=0
wait "$NODE" || status=$?
took=$(($(date +%s) - started))
[ "$status" -ne 0 ] || fail "r1 exited ok against a silent listener"
grep -q "did not prove the run's secret" "$WORK/r1.err" "$WORK/r1.events.jsonl" \
  || { cat "$WORK/r1.err" >&2; fail "r1 did not say why it ended"; }
[ "$took" -le 30 ] || fail "r1 took $took s to give up a silent listener (deadline 20 s)"
echo "ok: a rank facing a silent listener on the rendezvous's port gave up in $took s, saying why"
