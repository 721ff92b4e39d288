# Issue 29, item 1: a local user who plants a symlink or a FIFO at a path the launcher writes as
# root gets nothing from it: no file clobbered, no command run as root, no hung run. Planted at
# /tmp/tsunagi-stale-PID.batch (where a launcher cleaning up a dead run's namespaces wrote its
# `ip -force -b` batch), at every batch file a netns run wrote into its directory, at run.json and
# at the daemons' logs. The launcher's pid is known in advance: the planting shell execs it.
source "$(dirname "$0")/lib.sh"
need_netns
S="$SRC/scenarios/teaching/two-switches.toml"
sleep 0 & dead=$!
wait "$dead"
stale="tsg$dead-planted"  # a namespace of a launcher that is gone: the next run removes it
helpers=()
cleanup() {
  for pid in "${helpers[@]}"; do kill "$pid" 2>/dev/null || true; done
  ip netns del "$stale" 2>/dev/null || true
  ip netns del tsg-planted-pwned 2>/dev/null || true
  rm -f "${planted_in_tmp[@]}"
  rm -rf "$WORK"
}
planted_in_tmp=()
trap cleanup EXIT
echo keep > "$WORK/victim"

check_victim() {  # WHAT
  [ "$(cat "$WORK/victim")" = keep ] || fail "$1: the file a planted link points at was written"
  [ ! -e "$WORK/pwned" ] || fail "$1: a command written into a planted FIFO ran as root"
  ! ip netns list | grep -q '^tsg-planted-pwned' || fail "$1: a planted batch line ran as root"
  echo "ok: $1: nothing written through the plant, nothing run"
}

# Runs `tsunagi run ARGS` from a shell that first calls PLANTER with the pid the launcher will
# have (the shell execs it). A watchdog SIGKILLs a launcher still running after 60 s (status
# 137), so one blocked on a FIFO fails the test instead of hanging it.
planted_run() {  # PLANTER ARGS...
  local planter=$1 pid watchdog
  shift
  ( "$planter" "$BASHPID"; exec "$TSUNAGI" run "$@" ) &
  pid=$!
  LAUNCHER=$pid
  ( for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null ) &
  watchdog=$!
  RUN_STATUS=0
  wait "$pid" || RUN_STATUS=$?
  wait "$watchdog" || true
}

# 1. A symlink at the stale-namespace batch: the old launcher wrote its batch through it.
plant_stale_link() {
  ln -s "$WORK/victim" "/tmp/tsunagi-stale-$1.batch"
  echo "/tmp/tsunagi-stale-$1.batch" > "$WORK/planted-1"
}
ip netns add "$stale"
planted_run plant_stale_link "$S" --backend realnet --net loopback --out "$WORK/link" --quiet
planted_in_tmp+=("$(cat "$WORK/planted-1")")
[ "$RUN_STATUS" -eq 0 ] || fail "run with a link planted in /tmp: exit $RUN_STATUS"
! ip netns list | grep -q "^$stale" || fail "the dead run's namespace was not removed"
check_victim "symlink at /tmp/tsunagi-stale-PID.batch"

# 2. A FIFO there, fed by its planter (who holds it open for 5 s so a reader sees the lines):
# the old launcher's `ip -force -b FILE` read the planter's line too and ran it as root.
plant_stale_fifo() {
  local fifo="/tmp/tsunagi-stale-$1.batch"
  mkfifo "$fifo"
  echo "$fifo" > "$WORK/planted-2"
  ( exec 3<> "$fifo"; echo "netns add tsg-planted-pwned" >&3; sleep 5 ) &
  echo "$!" > "$WORK/helper"
}
ip netns add "$stale"
planted_run plant_stale_fifo "$S" --backend realnet --net loopback --out "$WORK/fifo" --quiet
planted_in_tmp+=("$(cat "$WORK/planted-2")")
helpers+=("$(cat "$WORK/helper")")
check_victim "FIFO at /tmp/tsunagi-stale-PID.batch"
[ "$RUN_STATUS" -eq 0 ] || fail "run with a FIFO planted in /tmp: exit $RUN_STATUS"
[ -p "$(cat "$WORK/planted-2")" ] || fail "the planted FIFO was removed or replaced"

# 3. A netns run into a directory someone else could write (mode 1777, as /tmp): links at every
# batch file the launcher used to write there and at run.json. The namespaces' names come
# from a dry run (tsgPID-NAME; the planting shell's pid replaces the dry run's).
"$TSUNAGI" run "$S" --backend realnet --net netns --dry-run --out "$WORK/plan" > "$WORK/plan.sh"
mapfile -t names < <(grep -o '^ip -n tsg[0-9]*-[^ ]*' "$WORK/plan.sh" | sed 's/^ip -n tsg[0-9]*-//')
[ "${#names[@]}" -gt 0 ] || fail "no namespace in the dry run"
plant_in_work_dir() {
  local dir="$WORK/shared/realnet" name
  for name in netns-root netns-teardown "${names[@]/#/tsg$1-}"; do
    ln -s "$WORK/victim" "$dir/$name.batch"
    ln -s "$WORK/victim" "$dir/$name-tc.batch"
  done
  ln -s "$WORK/victim" "$dir/run.json"
}
mkdir -p "$WORK/shared/realnet"
chmod 1777 "$WORK/shared" "$WORK/shared/realnet"
planted_run plant_in_work_dir "$S" --backend realnet --net netns --out "$WORK/shared" --quiet
[ "$RUN_STATUS" -eq 0 ] || fail "netns run with links at its batch files: exit $RUN_STATUS"
check_victim "symlinks at the netns batch files and run.json"
check_nothing_left "$LAUNCHER"

# 4. A link, then a FIFO nobody reads, at a daemon's log: the run refuses to start the daemon
# and says why (the old one wrote through the link, and hung opening the FIFO).
plant_link_at_log() {
  mkdir -p "$WORK/log-link/realnet"
  ln -s "$WORK/victim" "$WORK/log-link/realnet/rendezvous.log"
}
plant_fifo_at_log() {
  mkdir -p "$WORK/log-fifo/realnet"
  mkfifo "$WORK/log-fifo/realnet/rendezvous.log"
}
for plant in link fifo; do
  planted_run "plant_${plant}_at_log" "$S" --backend realnet --net loopback --out "$WORK/log-$plant" \
    --quiet 2> "$WORK/log-$plant.err"
  [ "$RUN_STATUS" -ne 0 ] && [ "$RUN_STATUS" -ne 137 ] ||
    fail "$plant at a daemon's log: exit $RUN_STATUS (0: written through, 137: hung)"
  grep -q "rendezvous.log" "$WORK/log-$plant.err" ||
    fail "the refusal does not name the log: $(cat "$WORK/log-$plant.err")"
  check_victim "$plant at a daemon's log"
  check_nothing_left "$LAUNCHER"
done
