# Runs after every other realnet test: no namespace of a finished project run exists (tsg<pid>-
# whose launcher is gone) and no daemon of this build runs.
source "$(dirname "$0")/lib.sh"
if command -v ip >/dev/null; then
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^tsg[0-9]*-' || true); do
    pid=${ns#tsg}; pid=${pid%%-*}
    if ! kill -0 "$pid" 2>/dev/null; then fail "namespace $ns left by finished run $pid"; fi
  done
fi
if pgrep -f "^$REALNET_BIN/tsunagi-" >/dev/null; then
  pgrep -af "^$REALNET_BIN/tsunagi-" >&2
  fail "daemons of this build still run"
fi
echo "ok: ip netns list shows no leftover project namespace; no project daemon runs"
