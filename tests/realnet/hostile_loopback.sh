# Issue 17 on real sockets (docs/security.md): a hostile peer on 127.0.0.1 against the realnet
# rendezvous daemon. No root needed. Before the fix the daemon spun at 99 % CPU in accept once
# its descriptors ran out (and accepted nobody), echoed any datagram at full size, gave every
# 9-byte throughput-sink connection 256 KiB, and made room for every payload a header announced.
source "$(dirname "$0")/lib.sh"
PEER="$(dirname "$0")/hostile_peer.py"
SCENARIO="$SRC/scenarios/teaching/two-switches.toml"
DAEMONS=()
stop_daemons() {
  for pid in "${DAEMONS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${DAEMONS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap 'stop_daemons; rm -rf "$WORK"' EXIT

# Starts a rendezvous on 127.0.0.1 with at most $1 descriptors, named $2; sets PID and WHERE.
# Its registration deadline is long: no rank ever comes, and the daemon must outlive the attack.
start_rendezvous() {
  local limit=$1 name=$2
  (
    ulimit -n "$limit"
    exec "$REALNET_BIN/tsunagi-rendezvous" --scenario "$SCENARIO" \
      --set protocol.registration_timeout=600s --listen 127.0.0.1:0 \
      --ready-file "$WORK/$name.ready" --events "$WORK/$name.events.jsonl"
  ) 2>"$WORK/$name.err" &
  PID=$!
  DAEMONS+=("$PID")
  for _ in $(seq 100); do [ -s "$WORK/$name.ready" ] && break; sleep 0.1; done
  [ -s "$WORK/$name.ready" ] || { cat "$WORK/$name.err" >&2; fail "$name did not start"; }
  WHERE=$(cat "$WORK/$name.ready")
  echo "ok: $name listens on $WHERE (ulimit -n $limit)"
}

# 1. Out of descriptors: 70 idle connections against 64 descriptors.
start_rendezvous 64 starved
python3 "$PEER" idle "$PID" "$WHERE" 70 || fail "idle connections"
logged=$(grep -c "cannot accept connections" "$WORK/starved.err" || true)
[ "$logged" -eq 1 ] || { cat "$WORK/starved.err" >&2; fail "out of descriptors logged $logged times, expected once"; }
echo "ok: running out of descriptors was logged once"
kill -0 "$PID" || fail "the starved daemon died"

# 2-4. The echo, the throughput sinks and the frame headers, on a daemon with room.
start_rendezvous 4096 roomy
python3 "$PEER" udp "$WHERE" || fail "udp echo"
python3 "$PEER" sinks "$PID" "$WHERE" 200 || fail "throughput sinks"
python3 "$PEER" frames "$PID" "$WHERE" 16 || fail "frame headers"
kill -0 "$PID" || fail "the daemon died under the attack"
grep -q '"type":"exit"' "$WORK/roomy.events.jsonl" && fail "the daemon exited under the attack"
echo "ok: both daemons are still waiting for their ranks"
