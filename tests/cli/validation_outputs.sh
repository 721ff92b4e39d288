#!/usr/bin/env bash
# The validation drivers and benchmark scripts leave the committed CSV/PNG alone unless asked
# (validation/README.md): each one runs with Debian's /usr/bin/python3 (which has matplotlib),
# offers --out and --update, refuses both at once, and fig4_rtt.py run with --out writes its
# CSV and PNG there while the committed copies (validation/kaneda/, docs/figures/) stay byte
# for byte; its run is a `tsunagi sweep` (validation/common.py), which a second call finds done,
# and which another build of tsunagi runs again.
source "$(dirname "$0")/lib.sh"
cd "$SRC"
drivers=(validation/kaneda/fig4_rtt.py validation/kaneda/fig5_intsort.py
         validation/kaneda/fig5_costs.py validation/multicast/fig8_fig9.py
         validation/ssock/concurrent_connect.py validation/ssock/connectivity_matrix.py
         validation/ssock/pingpong.py validation/supersinet/table5.py tools/bench.py
         tools/bench_multicast.py)
for script in $(git ls-files 'validation/*.py' 'tools/*.py' 2>/dev/null ||
                find validation tools -name '*.py'); do
  first=$(head -1 "$script")
  case "$first" in
    '#!'*) [ "$first" = '#!/usr/bin/python3' ] || fail "$script starts with '$first', not #!/usr/bin/python3" ;;
  esac
done
for script in "${drivers[@]}"; do
  [ "$(head -1 "$script")" = '#!/usr/bin/python3' ] || fail "$script: no #!/usr/bin/python3"
  help=$(/usr/bin/python3 "$script" --help)
  grep -q -- "--out" <<<"$help" && grep -q -- "--update" <<<"$help" ||
    fail "$script --help offers no --out / --update"
  set +e
  /usr/bin/python3 "$script" --out "$WORK/x" --update >/dev/null 2>"$WORK/both.txt"
  status=$?
  set -e
  [ $status -ne 0 ] && grep -q "exclude each other" "$WORK/both.txt" ||
    fail "$script accepted --out and --update together (exit $status)"
done
echo "ok: ${#drivers[@]} drivers: #!/usr/bin/python3, --out and --update, not both"

before=$(sha256sum validation/kaneda/fig4_rtt.csv docs/figures/fig4_rtt.png)
TSUNAGI=$TSUNAGI /usr/bin/python3 validation/kaneda/fig4_rtt.py --out "$WORK/fig4" >"$WORK/fig4.txt" 2>&1 ||
  fail "fig4_rtt.py failed: $(tail -3 "$WORK/fig4.txt")"
[ -s "$WORK/fig4/fig4_rtt.csv" ] || fail "fig4_rtt.py --out wrote no CSV there"
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  [ -s "$WORK/fig4/fig4_rtt.png" ] || fail "fig4_rtt.py --out wrote no PNG there"
fi
[ "$(sha256sum validation/kaneda/fig4_rtt.csv docs/figures/fig4_rtt.png)" = "$before" ] ||
  fail "fig4_rtt.py changed the committed copies (validation/kaneda/, docs/figures/)"
[ -e "$WORK/fig4/runs/fig4/point/result.json" ] && [ -s "$WORK/fig4/runs/fig4/sweep.csv" ] ||
  fail "the run did not go under --out/runs as a tsunagi sweep (point/result.json, sweep.csv)"
# Run again, the driver's sweep finds its point done and runs nothing; the CSV is the same.
cp "$WORK/fig4/fig4_rtt.csv" "$WORK/fig4-first.csv"
TSUNAGI=$TSUNAGI /usr/bin/python3 validation/kaneda/fig4_rtt.py --out "$WORK/fig4" >"$WORK/fig4-again.txt" 2>&1 ||
  fail "fig4_rtt.py failed the second time: $(tail -3 "$WORK/fig4-again.txt")"
grep -q "1 done before, 0 to run" "$WORK/fig4-again.txt" ||
  fail "fig4_rtt.py ran its point again: $(grep 'tsunagi sweep:' "$WORK/fig4-again.txt")"
cmp -s "$WORK/fig4/fig4_rtt.csv" "$WORK/fig4-first.csv" || fail "the resumed sweep gave another CSV"
# Another build of tsunagi (here: the same program with one byte appended, which still runs) runs
# the point again: a sweep alone would resume from the old build's result.json.
cp "$TSUNAGI" "$WORK/tsunagi-other" && printf '\0' >>"$WORK/tsunagi-other"
TSUNAGI=$WORK/tsunagi-other /usr/bin/python3 validation/kaneda/fig4_rtt.py --out "$WORK/fig4" \
  >"$WORK/fig4-rebuilt.txt" 2>&1 || fail "fig4_rtt.py failed with another build: $(tail -3 "$WORK/fig4-rebuilt.txt")"
grep -q "runs of another tsunagi build" "$WORK/fig4-rebuilt.txt" &&
  grep -q "0 done before, 1 to run" "$WORK/fig4-rebuilt.txt" ||
  fail "fig4_rtt.py reused a point of another tsunagi build: $(grep 'tsunagi sweep:' "$WORK/fig4-rebuilt.txt")"
echo "ok: fig4_rtt.py --out wrote $(ls "$WORK/fig4" | tr '\n' ' ')into --out; committed copies unchanged;"
echo "    run again, its sweep ran nothing: $(grep -o '1 done before, 0 to run' "$WORK/fig4-again.txt");"
echo "    with another build it ran again: $(grep -o '0 done before, 1 to run' "$WORK/fig4-rebuilt.txt")"
echo "    $(grep "largest step" "$WORK/fig4.txt")"
