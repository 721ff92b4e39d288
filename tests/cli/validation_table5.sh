#!/usr/bin/env bash
# Paper 004's Table 5 and Fig. 3/4 checks (validation/README.md, "Paper 004"): runs supersinet-4
# on SimGrid and ns-3 with the default and the tuned windows; table5.py exits 1 when a value
# moved more than 5 % from the committed table5_<backend>.csv (a regression) or when one of the
# paper's findings that hold today fails (8 MB rates on the fast pairs within 25 % of the paper,
# 64 B at RTT / 2, default windows flatten the rate, tuned ones lift it, and, with the host cost
# taken from the paper's pairs without Tokyo, OH_64B on the pairs into Tokyo within 25 %).
# OH_64B from Tokyo is a known miss (no per-message cost can give it): printed, not failed.
source "$(dirname "$0")/lib.sh"
cd "$SRC"
set +e
TSUNAGI=$TSUNAGI /usr/bin/python3 validation/supersinet/table5.py --backends simgrid,ns3 \
  --out "$WORK/t5" >"$WORK/log.txt" 2>&1
status=$?
set -e
cat "$WORK/log.txt"
[ $status -eq 0 ] || fail "paper 004's Table 5 checks regressed (exit $status)"
grep -q "simgrid: regression check against the committed table: ok" "$WORK/log.txt" ||
  fail "no SimGrid regression check ran"
grep -q "ns3: regression check against the committed table: ok" "$WORK/log.txt" ||
  fail "no ns-3 regression check ran"
grep -q "^input: per-message host cost 400.4 us" "$WORK/log.txt" || fail "no host cost input line"
for backend in simgrid ns3; do
  grep -q "$backend kyoto->tokyo OH_64B within 25 % of the paper (output): .*: met" "$WORK/log.txt" ||
    fail "no OH_64B check into Tokyo on $backend"
done
[ -s "$WORK/t5/table5_simgrid.csv" ] && [ -s "$WORK/t5/fig34_series.csv" ] || fail "no CSV written"
echo "ok: paper 004's Table 5 checks hold"
