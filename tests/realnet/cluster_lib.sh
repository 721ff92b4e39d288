# Namespace "machines" for the cluster tests (ssh_hosts.sh, slurm_local.sh): the scenario's
# network held up by tsunagi-emulate (the netns run's own plan and delay lines), and helpers
# to start and stop daemons the test owns. Every process started here is stopped by its pid
# on exit; nothing host-wide is changed except what is recorded and restored here.
# Needs lib.sh sourced first.

OWNED_PIDS=()       # processes this test started, stopped on exit
CREATED_PATHS=()    # host-wide paths this test created (e.g. /run/sshd), removed on exit
EMULATE_PID=""

cluster_cleanup() {
  local pid
  for pid in "${OWNED_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${OWNED_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  if [ -n "$EMULATE_PID" ]; then
    kill -TERM "$EMULATE_PID" 2>/dev/null || true
    wait "$EMULATE_PID" 2>/dev/null || true
  fi
  local path
  for path in "${CREATED_PATHS[@]}"; do rm -rf "$path"; done
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cluster_cleanup EXIT

# emulate SCENARIO [args]: builds the network, waits for "ready"; the map is $WORK/map:
#   tsunagi-emulate rendezvous NS IP / host I NAME NS IP / rank R NS IP
emulate() {
  # A map left by an earlier call says "ready" too: gone first, or the loop below could read it
  # before the new process's redirection truncates it (and name namespaces already torn down).
  rm -f "$WORK/map"
  "$REALNET_BIN/tsunagi-emulate" "$@" --work "$WORK/net" --realnet-bin "$REALNET_BIN" \
    > "$WORK/map" 2> "$WORK/emulate.log" &
  EMULATE_PID=$!
  for _ in $(seq 300); do
    grep -qs "^tsunagi-emulate ready" "$WORK/map" && return 0
    kill -0 "$EMULATE_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$WORK/emulate.log" >&2
  fail "tsunagi-emulate did not come up"
}

map_field() {  # KIND KEY FIELD: e.g. map_field host 3 5 -> that host's IP
  awk -v k="$1" -v key="$2" -v f="$3" '$2 == k && $3 == key { print $f }' "$WORK/map"
}
rendezvous_ns() { awk '$2 == "rendezvous" { print $3 }' "$WORK/map"; }

# The daemons of this build still running (there must be none after a run).
daemons_running() { pgrep -f "^$REALNET_BIN/tsunagi-(node|rendezvous|relay) " || true; }
