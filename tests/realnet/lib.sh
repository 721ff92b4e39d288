# Helpers for the realnet tests. Each test gets TSUNAGI (the binary), SRC (the source tree),
# REALNET_BIN (the daemons' directory) and a fresh WORK directory removed on exit.
set -euo pipefail
TSUNAGI=${TSUNAGI:?}
SRC=${SRC:?}
REALNET_BIN=${REALNET_BIN:?}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tsunagi-realnet.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
SKIP=77  # ctest SKIP_RETURN_CODE

source "$(dirname "${BASH_SOURCE[0]}")/../cli/checks.sh"

# Network namespaces need root (CAP_NET_ADMIN, CAP_SYS_ADMIN), iproute2 and /dev/net/tun.
need_netns() {
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for network namespaces (run as root, as CI does)"; exit $SKIP; }
  command -v ip >/dev/null || { echo "SKIP: needs iproute2 (ip); tools/install-deps.sh installs it"; exit $SKIP; }
  command -v tc >/dev/null || { echo "SKIP: needs tc (iproute2)"; exit $SKIP; }
  [ -c /dev/net/tun ] || { echo "SKIP: needs /dev/net/tun for the delay lines"; exit $SKIP; }
}



# Checks that compare a real time or rate with a bound run only under the ctest label "timing"
# (TSUNAGI_TIMING=1, tools/timing-checks.sh): on a busy machine they fail for reasons that are
# not the code's. The default suite runs the same scenario and keeps what no load can change
# (verified, decisions, physical lower bounds). docs/testing.md lists them.
timing_checks() { [ "${TSUNAGI_TIMING:-0}" = 1 ]; }

# Runs `tsunagi run ...` in the background so its pid is known, waits, and checks that the run
# left neither namespaces (tsg<pid>-*) nor daemons behind. Sets RUN_STATUS.
run_realnet() {
  local pid
  "$TSUNAGI" run "$@" &
  pid=$!
  RUN_STATUS=0
  wait "$pid" || RUN_STATUS=$?
  check_nothing_left "$pid"
}

check_nothing_left() {  # LAUNCHER_PID
  if command -v ip >/dev/null && ip netns list 2>/dev/null | grep -q "^tsg$1-"; then
    ip netns list >&2
    fail "namespaces of run $1 left behind"
  fi
  if pgrep -f "^$REALNET_BIN/tsunagi-" >/dev/null || pgrep -f "exec tsg$1-" >/dev/null; then
    pgrep -af "tsunagi-" >&2
    fail "realnet processes left running"
  fi
  echo "ok: run $1 left no namespace and no process"
}
