#!/usr/bin/env bash
# Issue 19's benchmark pair on 20 processes (one leaf switch): tsunagi connects and reaches all
# 380 ordered pairs, and the hand-written S4U baseline moves the messages its header promises,
# whatever its idiom: 7 N(N-1) with the authenticated handshake, 4 N(N-1) with --workload-only,
# and N-1 "go" messages ending the barrier before the workload unless --no-barrier. RAW is the
# baseline program.
source "$(dirname "$0")/lib.sh"
RAW=${RAW:?}
scenario="$SRC/scenarios/bench/connectivity-all.toml"
size=network.tree.levels.0.fanout=1

"$TSUNAGI" run "$scenario" --set "$size" --out "$WORK/tsunagi" --quiet
expect_json "$WORK/tsunagi/result.json" relay.pairs_connected 380
expect_json "$WORK/tsunagi/result.json" workload.verified true

# The default idiom is per-transfer (tsunagi's way of settling transfers).
for idiom in "" "--idiom per-transfer" "--idiom per-transfer-waited" "--idiom per-transfer-unwaited" \
  "--idiom wait-all" "--detach"; do
  # shellcheck disable=SC2086  # the idiom is zero or two words
  exact=$("$RAW" $idiom "$scenario" "$size")
  echo "${idiom:-default}: $exact"
  [[ $exact == "raw_s4u_connectivity: 20 ranks, 2679 messages, simulated end "* ]] ||
    fail "baseline ${idiom:-default}: expected 20 ranks and 2679 messages, got: $exact"
  # shellcheck disable=SC2086
  subset=$("$RAW" $idiom --workload-only "$scenario" "$size")
  echo "${idiom:-default} --workload-only: $subset"
  [[ $subset == "raw_s4u_connectivity: 20 ranks, 1539 messages, simulated end "* ]] ||
    fail "baseline ${idiom:-default} --workload-only: expected 20 ranks and 1539 messages, got: $subset"
  # More messages on the same platform take longer.
  end_of() { sed 's/.*simulated end \([0-9.]*\) s/\1/' <<<"$1"; }
  awk -v a="$(end_of "$exact")" -v b="$(end_of "$subset")" 'BEGIN { exit !(a > b && b > 0) }' ||
    fail "${idiom:-default}: simulated ends: exact $(end_of "$exact") s should exceed workload-only $(end_of "$subset") s > 0"
done
unsynced=$("$RAW" --no-barrier "$scenario" "$size")
[[ $unsynced == "raw_s4u_connectivity: 20 ranks, 2660 messages, simulated end "* ]] ||
  fail "baseline --no-barrier: expected 20 ranks and 2660 messages, got: $unsynced"
if "$RAW" --bogus "$scenario" 2>/dev/null; then fail "an unknown flag should be refused"; fi
if "$RAW" --idiom bogus "$scenario" 2>/dev/null; then fail "an unknown idiom should be refused"; fi
if "$RAW" --idiom per-transfer --detach "$scenario" 2>/dev/null; then
  fail "--detach belongs to wait-all only"
fi
