#!/usr/bin/env bash
# Paper 002's Fig. 8/9 checks (validation/README.md, "Paper 002"): runs tsunagi's xc30-256 series
# on SimGrid and sets it beside the committed SMPI baseline (validation/multicast/
# smpi_bcast_single.csv: SMPI is deterministic, so its times are an input here, not rerun).
# fig8_fig9.py exits 1 when a check that holds today fails: issue 32's (tsunagi's `auto` end to
# end at most SMPI's fastest MPI_Bcast at 8 MB and 80 KB to 256), issue 13's ratios, and paper
# 002's finding that its ring is slower than a doubling Bcast at 80 KB. Known misses (changing
# groups) are printed and do not fail. One repeat per point: the checks hold for the first
# multicast of each point too, which also opens its connections.
source "$(dirname "$0")/lib.sh"
cd "$SRC"
set +e
TSUNAGI=$TSUNAGI /usr/bin/python3 validation/multicast/fig8_fig9.py --repeats 1 \
  --smpi-csv validation/multicast/smpi_bcast_single.csv --out "$WORK/fig89" >"$WORK/log.txt" 2>&1
status=$?
set -e
cat "$WORK/log.txt"
[ $status -eq 0 ] || fail "paper 002's Fig. 8/9 checks regressed (exit $status)"
grep -q "8 MB r=256 auto vs SMPI" "$WORK/log.txt" || fail "no issue 32 check at 8 MB in the output"
grep -q "80 KB r=256 auto vs SMPI" "$WORK/log.txt" || fail "no issue 32 check at 80 KB in the output"
[ -s "$WORK/fig89/fig8_fig9_single.csv" ] || fail "no CSV written"
echo "ok: paper 002's Fig. 8/9 checks hold"
