# Issue 17 on real sockets (docs/security.md): a hostile peer on 127.0.0.1 against the realnet
# rendezvous and node daemons. No root needed. A stranger without the run's secret is refused
# on every connection (it cannot register, query endpoints, attach to a relay, open a shortcut
# or make a rank act on any frame). Before the fix the daemon spun at 99 % CPU in accept once
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

# The run's secret, as the launcher writes it: hex in a file only we may read.
SECRET="$WORK/run.secret"
( umask 077; python3 -c 'import os; print(os.urandom(32).hex())' > "$SECRET" )

# 0. The daemons refuse to start without a secret, or with one others may read.
status=0
env -u TSUNAGI_RUN_SECRET "$REALNET_BIN/tsunagi-rendezvous" --scenario "$SCENARIO" --listen 127.0.0.1:0 \
  --events /dev/null 2>"$WORK/nosecret.err" || status=$?
[ "$status" -eq 2 ] && grep -q "no run secret" "$WORK/nosecret.err" \
  || { cat "$WORK/nosecret.err" >&2; fail "a daemon without a secret did not refuse to start ($status)"; }
cp "$SECRET" "$WORK/open.secret"; chmod 644 "$WORK/open.secret"
status=0
"$REALNET_BIN/tsunagi-node" --scenario "$SCENARIO" --rank 0 --rendezvous 127.0.0.1:9 \
  --listen 127.0.0.1:0 --events /dev/null --secret-file "$WORK/open.secret" 2>"$WORK/open.err" || status=$?
[ "$status" -eq 2 ] && grep -q "chmod 600" "$WORK/open.err" \
  || { cat "$WORK/open.err" >&2; fail "a daemon took a secret others may read ($status)"; }
echo "ok: daemons refuse to start without a secret or with one other users may read"

# Starts a rendezvous on 127.0.0.1 with at most $1 descriptors, named $2; sets PID and WHERE.
# Its registration deadline is long: no rank ever comes, and the daemon must outlive the attack.
start_rendezvous() {
  local limit=$1 name=$2
  (
    ulimit -n "$limit"
    exec "$REALNET_BIN/tsunagi-rendezvous" --scenario "$SCENARIO" --secret-file "$SECRET" \
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
python3 "$PEER" idle "$PID" "$WHERE" 70 "$SECRET" || fail "idle connections"
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

# 5. A stranger without the secret, against the rendezvous and a registered rank.
python3 "$PEER" stranger "$WHERE" || fail "stranger against the rendezvous"
"$REALNET_BIN/tsunagi-node" --scenario "$SCENARIO" --set protocol.registration_timeout=600s \
  --secret-file "$SECRET" --rank 0 --rendezvous "$WHERE" --listen 127.0.0.1:0 --status \
  --events "$WORK/r0.events.jsonl" >"$WORK/r0.out" 2>"$WORK/r0.err" &
NODE=$!
DAEMONS+=("$NODE")
for _ in $(seq 100); do grep -q "listening" "$WORK/r0.out" 2>/dev/null && break; sleep 0.1; done
NODE_AT=$(sed -n 's/^tsunagi-status r0 listening //p' "$WORK/r0.out")
[ -n "$NODE_AT" ] || { cat "$WORK/r0.err" >&2; fail "r0 did not start"; }
python3 "$PEER" stranger "$NODE_AT" || fail "stranger against r0"
kill -0 "$NODE" || fail "r0 died under the attack"
rejected=$(grep '"kind":"frame_rejected"' "$WORK/r0.events.jsonl" | grep -c authentication || true)
[ "$rejected" -eq 7 ] || { cat "$WORK/r0.events.jsonl" >&2; fail "r0 traced $rejected refusals, expected 7"; }
grep -q '"kind":"\(shortcut_up\|static_connection\|relay_attached\)' "$WORK/r0.events.jsonl" \
  && fail "r0 acted on a stranger's hello"
rejected=$(grep '"kind":"frame_rejected"' "$WORK/roomy.events.jsonl" | grep -c authentication || true)
[ "$rejected" -ge 7 ] || fail "the rendezvous traced $rejected refusals, expected at least 7"
echo "ok: every stranger frame was refused with a reason (7 on r0, $rejected on the rendezvous)"
