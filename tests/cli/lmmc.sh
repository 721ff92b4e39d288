#!/usr/bin/env bash
# Paper 003 on a backend: lmmc-2node's ping-pong (every byte verified, nothing paged, one way
# rising with size, each size's first one way 150-200 us above the later ones: the first
# touch of the writers' pages) and lmmc-hypercube-8 (remote paging happens: faults counted,
# each one an lmmc_page decision, every byte read in order).
# Usage: lmmc.sh [--backend B] [...]
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/papers/lmmc-2node.toml" --out "$WORK/2node" --quiet "$@" >/dev/null ||
  fail "lmmc-2node did not end ok"
expect_json "$WORK/2node/result.json" ok true
expect_json "$WORK/2node/result.json" workload.verified true
expect_json "$WORK/2node/result.json" lmmc.page_faults 0
expect_json "$WORK/2node/result.json" lmmc.mismatched_bytes 0
python3 - "$WORK/2node/result.json" <<'PY' || fail "lmmc-2node's series has the wrong shape"
import json, sys
series = json.load(open(sys.argv[1]))["lmmc"]["series"]
assert len(series) == 10, series
for row in series:
    gap = row["first_minus_later_ns"] / 1000
    assert 150 <= gap <= 200, (row["bytes"], gap)
later = [row["later_one_way_ns"] for row in series]
assert all(b >= a for a, b in zip(later, later[1:])), later
assert later[-1] > 10 * later[0], later
print("ok: one way %.0f us (1 B) .. %.0f us (64 KB), first +%.0f us" %
      (later[0] / 1000, later[-1] / 1000, series[0]["first_minus_later_ns"] / 1000))
PY
"$TSUNAGI" run "$SRC/scenarios/teaching/lmmc-hypercube-8.toml" --out "$WORK/cube" --quiet "$@" \
  >/dev/null || fail "lmmc-hypercube-8 did not end ok"
expect_json "$WORK/cube/result.json" ok true
expect_json "$WORK/cube/result.json" lmmc.ranks_reported 8
python3 - "$WORK/cube/result.json" "$WORK/cube/trace.jsonl" <<'PY' || fail "no paging seen"
import json, sys
lmmc = json.load(open(sys.argv[1]))["lmmc"]
pages = sum(1 for line in open(sys.argv[2]) if '"lmmc_page"' in line)
assert lmmc["page_faults"] > 0 and pages == lmmc["page_faults"], (lmmc["page_faults"], pages)
assert lmmc["paging_requests_applied"] == lmmc["paging_requests_sent"], lmmc
assert lmmc["bytes_read"] == lmmc["bytes_written"] == 8 * 3 * 4 * 8 * 512, lmmc
assert lmmc["page_faults_by_policy"] == {"comm": lmmc["page_faults"]}, lmmc
print("ok: %d page faults in %d writes, all traced" % (lmmc["page_faults"], lmmc["writes"]))
PY
# Same seed, same decisions byte for byte (every remote paging included).
"$TSUNAGI" run "$SRC/scenarios/teaching/lmmc-hypercube-8.toml" --out "$WORK/cube2" --quiet "$@" \
  >/dev/null || fail "the second lmmc-hypercube-8 run did not end ok"
cmp -s "$WORK/cube/trace.jsonl" "$WORK/cube2/trace.jsonl" || fail "two runs of one seed differ"
echo "ok: two runs of one seed wrote the same trace"
