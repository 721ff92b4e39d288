# --hosts over ssh, for real: tsunagi-emulate builds two-switches' network in namespaces (x50
# latencies, as netns_compare.sh), one sshd (Debian openssh-server) listens in every host
# namespace with a key made here, and `tsunagi run --hosts` starts every daemon through ssh.
# Checks: the same decisions as SimGrid (`tsunagi compare` exits 0); every daemon counted from
# its own start (a clock line, no --epoch-ns); `tsunagi collect` of the run's directory writes
# the same trace.jsonl; SIGINT of the launcher mid-run stops every remote daemon and says so.
# The host's ssh configuration and ~/.ssh are not used (ssh -F, keys in $WORK).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cluster_lib.sh"
need_netns
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || { echo "SKIP: needs sshd (openssh-server; tools/install-deps.sh installs it)"; exit $SKIP; }
command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || { echo "SKIP: needs ssh and ssh-keygen"; exit $SKIP; }
S="$SRC/scenarios/teaching/two-switches.toml"

"$TSUNAGI" run "$S" --out "$WORK/simgrid" --quiet > /dev/null
emulate "$S" --latency-scale 50

# sshd needs its privilege-separation directory; made here only if missing, removed after.
if [ ! -d /run/sshd ]; then mkdir -m 0755 /run/sshd; CREATED_PATHS+=(/run/sshd); fi
K="$WORK/ssh"
mkdir -m 0700 "$K"
ssh-keygen -q -t ed25519 -N '' -f "$K/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$K/client_key"
cp "$K/client_key.pub" "$K/authorized_keys"
cat > "$K/config" <<CFG
Host *
  IdentityFile $K/client_key
  IdentitiesOnly yes
  UserKnownHostsFile /dev/null
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking no
  BatchMode yes
  LogLevel ERROR
  ConnectTimeout 10
CFG
: > "$WORK/hosts"
hosts=$(awk '$2 == "host"' "$WORK/map" | wc -l)
for i in $(seq 0 $((hosts - 1))); do
  ns=$(map_field host "$i" 5)
  ip=$(map_field host "$i" 6)
  cat > "$K/sshd_$i.conf" <<CFG
ListenAddress $ip:22
HostKey $K/host_key
AuthorizedKeysFile $K/authorized_keys
PidFile $K/sshd_$i.pid
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
X11Forwarding no
PrintMotd no
LogLevel ERROR
CFG
  # -D: no daemonising, so $! is sshd itself (ip netns exec execs it) and is stopped by pid.
  ip netns exec "$ns" "$SSHD" -D -f "$K/sshd_$i.conf" -E "$K/sshd_$i.log" &
  OWNED_PIDS+=($!)
  echo "$ip   # $(map_field host "$i" 4), namespace $ns" >> "$WORK/hosts"
done
RV_NS=$(rendezvous_ns)
# The launcher runs in the rendezvous's namespace: it reaches the "machines" only over the
# emulated network, as a login node would.
for i in $(seq 0 $((hosts - 1))); do
  ip=$(map_field host "$i" 6)
  for _ in $(seq 100); do
    ip netns exec "$RV_NS" ssh -F "$K/config" "$ip" true 2>/dev/null && break
    sleep 0.1
  done
  ip netns exec "$RV_NS" ssh -F "$K/config" "$ip" true || fail "ssh to $ip (namespace $(map_field host "$i" 5))"
done
echo "ok: $hosts sshd in namespaces answer"

launch() {  # OUT [args]: tsunagi run --hosts in the rendezvous namespace, status in LAUNCH_STATUS
  local out=$1
  shift
  LAUNCH_STATUS=0
  ip netns exec "$RV_NS" "$TSUNAGI" run "$S" --backend realnet --hosts "$WORK/hosts" \
    --ssh "ssh -F $K/config" --out "$out" "$@" || LAUNCH_STATUS=$?
}

launch "$WORK/realnet" --quiet > "$WORK/run.out"
[ "$LAUNCH_STATUS" -eq 0 ] || { cat "$WORK/run.out" "$WORK/realnet/realnet/"*.log >&2; fail "ssh run exited $LAUNCH_STATUS"; }
expect_json "$WORK/realnet/result.json" inference.groups_correct true
status=0
"$TSUNAGI" compare "$WORK/simgrid" "$WORK/realnet" || status=$?
[ "$status" -eq 0 ] || fail "tsunagi compare exited $status"
echo "ok: --hosts over ssh made the same decisions as SimGrid"
[ -z "$(daemons_running)" ] || fail "daemons left running after the run"

# Own clocks: every event file starts with its process's clock stamp; no epoch was sent.
for f in "$WORK/realnet/realnet/"*.events.jsonl; do
  head -n 1 "$f" | grep -q '"type":"clock"' || fail "$f: no clock line first"
done
! grep -q -- "--epoch-ns" "$WORK/realnet/realnet/run.json" || fail "an epoch in run.json"
echo "ok: every daemon counted from its own start (clock lines, no --epoch-ns)"

# collect: the same replay as the launcher's.
cp "$WORK/realnet/trace.jsonl" "$WORK/trace.run"
rm "$WORK/realnet/result.json" "$WORK/realnet/trace.jsonl"
"$TSUNAGI" collect "$WORK/realnet" -q > "$WORK/collect.out" || fail "collect exited $?"
cmp "$WORK/trace.run" "$WORK/realnet/trace.jsonl" || fail "collect's trace.jsonl differs from the run's"
expect_json "$WORK/realnet/result.json" inference.groups_correct true
echo "ok: tsunagi collect wrote the run's trace.jsonl byte for byte"

# Interrupt: a long ping-pong, SIGINT once every rank is up; every remote daemon must stop.
ip netns exec "$RV_NS" "$TSUNAGI" run "$S" --backend realnet --hosts "$WORK/hosts" \
  --ssh "ssh -F $K/config" --out "$WORK/stop" --set workload.pingpong.rounds=100000000 \
  > /dev/null 2> "$WORK/stop.err" &
launcher=$!
# SIGINT once every rank's core runs (more than its clock line in its event file).
for _ in $(seq 600); do
  up=0
  for r in 0 1 2 3 4 5 6 7; do
    [ "$(cat "$WORK/stop/realnet/r$r.events.jsonl" 2>/dev/null | wc -l)" -ge 2 ] && up=$((up + 1))
  done
  [ "$up" -eq 8 ] && break
  sleep 0.1
done
sleep 0.5
kill -INT "$launcher"
status=0
wait "$launcher" || status=$?
[ "$status" -eq 1 ] || { cat "$WORK/stop.err" >&2; fail "interrupted run exited $status, expected 1"; }
grep -q "stopped 9 remote daemons (ssh: end of input): 9 confirmed their exit" "$WORK/stop.err" || {
  cat "$WORK/stop.err" >&2
  fail "no report of the stopped remote daemons"
}
for _ in $(seq 50); do [ -z "$(daemons_running)" ] && break; sleep 0.1; done
[ -z "$(daemons_running)" ] || { pgrep -af tsunagi- >&2; fail "remote daemons still running after SIGINT"; }
grep -q "stopped: standard input ended" "$WORK/stop/realnet/r3.log" || fail "r3's log does not say why it stopped"
echo "ok: SIGINT stopped every daemon started over ssh: $(grep -o 'stopped 9 remote.*' "$WORK/stop.err")"
