# The summary says what is true (issue 18): "not run" when the plan needs no groups (and
# result.json has groups_correct null beside inferred false), "from site labels" on relay runs,
# what the relay daemons carried; help that lists the backends and works as `tsunagi help`;
# realnet-only options refused with a simulator; the file list has every file written.
source "$(dirname "$0")/lib.sh"
two="$SRC/scenarios/teaching/two-switches.toml"

"$TSUNAGI" run "$two" --set protocol.plan=all --out "$WORK/all" >"$WORK/all.txt" 2>/dev/null ||
  fail "plan=all failed: $(cat "$WORK/all.txt")"
cat "$WORK/all.txt"
grep -q '^inference    not run' "$WORK/all.txt" || fail "plan=all: no 'not run'"
if grep -q WRONG "$WORK/all.txt"; then fail "plan=all says WRONG"; fi
expect_json "$WORK/all/result.json" inference.groups_correct null
expect_json "$WORK/all/result.json" inference.groups_source '"none"'
expect_json "$WORK/all/result.json" inference.inferred false
expect_json "$WORK/all/result.json" ok true
grep -q "$WORK/all/topology.json" "$WORK/all.txt" || fail "topology.json not listed"

"$TSUNAGI" run "$SRC/scenarios/papers/ssock-11-small.toml" --out "$WORK/relay" >"$WORK/relay.txt" 2>/dev/null ||
  fail "ssock-11-small failed: $(cat "$WORK/relay.txt")"
cat "$WORK/relay.txt"
grep -q 'groups from site labels' "$WORK/relay.txt" || fail "relay run: no 'from site labels'"
if grep -Eq 'inferred|WRONG|correct' <(grep '^inference' "$WORK/relay.txt"); then
  fail "relay run calls site labels inferred or scores them"
fi
expect_json "$WORK/relay/result.json" inference.groups_source '"site_labels"'
carried=$(json_get "$WORK/relay/result.json" relay.carried)
[ "$carried" -gt 0 ] || fail "relay.carried = $carried"
grep -q "relay daemons carried $carried" "$WORK/relay.txt" || fail "summary does not say what relays carried"
grep -q "$WORK/relay/relays.dot" "$WORK/relay.txt" || fail "relays.dot not listed"

# Help.
"$TSUNAGI" help >"$WORK/help.txt" || fail "tsunagi help exits non-zero"
grep -q 'ns-3' "$WORK/help.txt" || fail "top help does not mention ns-3"
grep -q 'report' "$WORK/help.txt" || fail "top help does not list report"
"$TSUNAGI" help run >"$WORK/help-run.txt" || fail "tsunagi help run exits non-zero"
grep -Eq -- '--backend.*simgrid' "$WORK/help-run.txt" || fail "--backend help lists no backends"
if "$TSUNAGI" help nosuch 2>/dev/null; then fail "tsunagi help nosuch accepted"; fi
"$TSUNAGI" run --help | grep -q -- '--paje' || fail "run --help has no --paje"

# realnet-only options with a simulator: refused (exit 2), naming them.
set +e
"$TSUNAGI" run "$two" --latency-scale 2 --out "$WORK/x" 2>"$WORK/x.err"
status=$?
set -e
[ "$status" = 2 ] || fail "--latency-scale with simgrid: exit $status, expected 2"
grep -q -- '--latency-scale applies to --backend realnet only' "$WORK/x.err" || fail "$(cat "$WORK/x.err")"
echo "ok: $(cat "$WORK/x.err")"
set +e
"$TSUNAGI" run "$two" --backend ns3 --latency-scale 2 --out "$WORK/y" 2>"$WORK/y.err"
status=$?
set -e
if grep -q "unknown backend 'ns3'" "$WORK/y.err"; then
  echo "skip: this build has no ns3 backend"
else
  [ "$status" = 2 ] || fail "--latency-scale with ns3: exit $status, expected 2"
  grep -q -- "--latency-scale applies to --backend realnet only, not to 'ns3'" "$WORK/y.err" ||
    fail "$(cat "$WORK/y.err")"
  echo "ok: $(cat "$WORK/y.err")"
fi
if ! grep -q "unknown backend 'ns3'" "$WORK/y.err"; then
  "$TSUNAGI" run "$two" --backend ns3 --pcap "$WORK/pcap" --out "$WORK/ns3" --quiet >"$WORK/ns3.txt"
  grep -q "$WORK/pcap/\*.pcap (9 packet captures, one per host)" "$WORK/ns3.txt" ||
    fail "the summary does not list the pcaps: $(grep -A6 '^files' "$WORK/ns3.txt")"
  echo "ok: $(grep 'packet captures' "$WORK/ns3.txt")"
fi

# realnet on loopback: RTTs cannot show switches; a wrong verdict comes with the reason.
set +e
"$TSUNAGI" run "$two" --backend realnet --net loopback --out "$WORK/rl" >"$WORK/rl.txt" 2>"$WORK/rl.err"
status=$?
set -e
if grep -q "unknown backend 'realnet'" "$WORK/rl.err"; then
  echo "skip: this build has no realnet backend"
else
  [ "$status" = 0 ] || fail "realnet loopback run failed: $(tail -3 "$WORK/rl.err")"
  if grep -q '^inference.*WRONG' "$WORK/rl.txt"; then
    grep -q '^note         on loopback every process shares one host' "$WORK/rl.txt" ||
      fail "WRONG on loopback without the hint: $(cat "$WORK/rl.txt")"
    echo "ok: $(grep '^note' "$WORK/rl.txt")"
  else
    if grep -q '^note' "$WORK/rl.txt"; then fail "a loopback hint beside a right verdict"; fi
    echo "ok: loopback groups came out right this time, and no hint"
  fi
fi

# tsunagi report on a directory that holds no run: bad input, naming the file.
set +e
"$TSUNAGI" report "$WORK/nothing" 2>"$WORK/r.err"
status=$?
set -e
[ "$status" = 2 ] || fail "tsunagi report on an empty directory: exit $status, expected 2"
grep -q "$WORK/nothing/result.json" "$WORK/r.err" || fail "$(cat "$WORK/r.err")"
echo "ok: $(cat "$WORK/r.err")"
