# Issue 13: dragonfly-16 in namespaces (routers as routing namespaces, docs/realnet.md
# "Dragonfly"): the multicast series runs over the real kernel's routes, every member verifies
# every message, nothing reaches a non-member, and the run leaves nothing behind.
source "$(dirname "$0")/lib.sh"
need_netns
# Latency x2000 (as realnet:compare_dragonfly_16): at x50 the delay lines' per-hop noise breaks
# the tie the router groups rest on, the inference is wrong and, since issue 17, the run fails;
# x500 failed that way beside a CPU-heavy test (2026-11-26).
run_realnet "$SRC/scenarios/teaching/dragonfly-16.toml" --backend realnet --net netns --out "$WORK/rn" --quiet \
  --latency-scale 2000
[ "$RUN_STATUS" -eq 0 ] || { cat "$WORK/rn/result.json" >&2; fail "realnet run exited $RUN_STATUS"; }
expect_json "$WORK/rn/result.json" ok true
expect_json "$WORK/rn/result.json" workload.verified true
expect_json "$WORK/rn/result.json" multicast.frames_at_non_member 0
expect_json "$WORK/rn/result.json" multicast.ranks_reported 16
echo "ok: the multicast series ran over the Dragonfly's routers"
