# `tsunagi calibrate --net loopback --quick` end to end (docs/calibration.md): three real
# ping-pongs through the launcher and daemons, a fit, and a costs file that the scenario loader
# accepts as a --costs overlay; the network factors stay at their held defaults on loopback.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
status=0
"$TSUNAGI" calibrate --net loopback --quick --out "$WORK/costs.toml" >"$WORK/out.txt" \
  2>"$WORK/err.txt" || status=$?
cat "$WORK/out.txt"
[ "$status" -eq 0 ] || fail "calibrate exited $status: $(cat "$WORK/err.txt")"
[ "$(grep -c '^calibrate: pair loopback' "$WORK/err.txt")" -eq 3 ] || fail "not 3 runs: $(cat "$WORK/err.txt")"
grep -q 'held: no path with links' "$WORK/out.txt" || fail "the held factors are not said"
grep -q '^send_overhead = "[0-9]*ns"' "$WORK/costs.toml" || fail "no send_overhead"
grep -q '^bandwidth = 1.000000' "$WORK/costs.toml" || fail "loopback must hold bandwidth = 1"
# The loader takes it as `tsunagi run --costs FILE` overlays it, on SimGrid, and the host costs
# make the ping-pong slower than without them.
"$TSUNAGI" run "$SRC/scenarios/calibrate/pair.toml" --out "$WORK/plain" -q >/dev/null ||
  fail "the plain SimGrid run failed"
"$TSUNAGI" run "$SRC/scenarios/calibrate/pair.toml" --costs "$WORK/costs.toml" --out "$WORK/sg" \
  -q >/dev/null || fail "the scenario loader refused the costs file"
python3 - "$WORK/plain/result.json" "$WORK/sg/result.json" <<'PY' || fail "the costs changed nothing"
import json, sys
plain, costed = (json.load(open(p))["workload"]["makespan_s"] for p in sys.argv[1:])
assert costed > plain, (plain, costed)
PY
echo "ok: calibrate --net loopback wrote a costs file the loader accepts"
