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
# The loader reads the file as the scenario's own tables: a SimGrid run with them appended.
cat "$SRC/scenarios/calibrate/pair.toml" "$WORK/costs.toml" >"$WORK/with_costs.toml"
"$TSUNAGI" run "$WORK/with_costs.toml" --out "$WORK/sg" -q >/dev/null ||
  fail "the scenario loader refused the costs file"
[ ! -e "$WORK/costs.toml.tmp" ] || fail "left a temporary file"
echo "ok: calibrate --net loopback wrote a costs file the loader accepts"
