#!/usr/bin/env bash
# A router's connect_rate for real: iptables hashlimit drops SYNs beyond the burst, the kernel
# retransmits them (1 s, 3 s, 7 s, 15 s ...), and full connectivity takes many seconds instead of
# about one; with the limit lifted the same run connects at once. SimGrid's token bucket gives
# the same shape (18 s; realnet 24 s, docs/realnet.md).
source "$(dirname "$0")/lib.sh"
S="$SRC/tests/realnet/wan/rate-limit.toml"
need_netns
run_realnet "$S" --backend realnet --net netns --out "$WORK/limited" -q
[ "$RUN_STATUS" -eq 0 ] || fail "rate-limited run failed ($RUN_STATUS)"
run_realnet "$S" --backend realnet --net netns --out "$WORK/open" -q --set network.cluster.west.connect_rate.burst=1000
[ "$RUN_STATUS" -eq 0 ] || fail "unlimited run failed ($RUN_STATUS)"
python3 - "$WORK/limited/result.json" "$WORK/open/result.json" "$(timing_checks && echo 1 || echo 0)" <<'PY'
import json, sys
limited, unlimited = (json.load(open(p)) for p in sys.argv[1:3])
timing = sys.argv[3] == "1"  # set-up times against bounds: only under the "timing" label
for r in (limited, unlimited):
    assert r["relay"]["pairs_connected"] == 42, r["relay"]
slow, fast = limited["overlay"]["connected_ns"] / 1e9, unlimited["overlay"]["connected_ns"] / 1e9
if not timing:
    print(f"ok: 42 pairs connected with and without the limit ({slow:.1f} s, {fast:.1f} s)")
    sys.exit(0)
assert fast < 5, f"without the limit set-up took {fast:.1f} s"
assert slow > 2 * fast + 5, f"the limit did not delay set-up: {slow:.1f} s vs {fast:.1f} s"
print(f"ok: hashlimit dropped SYNs: full connectivity at {slow:.1f} s, {fast:.1f} s without the limit")
PY
