#!/usr/bin/env bash
# Issue 32: auto windows on the 3-site WAN (scenarios/bench/wan-3site.toml: 4, 17 and 33 ms,
# 1 Gbit/s). The decisions: every node measured every peer (one `window` decision each, with
# one rate per pass) and, on a simulator, chose at least the pair's bandwidth-delay product
# (simulated figures; the real rates are tools/bench_auto_windows.py's, label long/timing).
# Usage: auto_windows.sh BACKEND [MIN_WINDOW_OVER_BDP] [--set ...]
source "$(dirname "$0")/lib.sh"
backend=$1
min_ratio=${2:-0}
shift 2 || shift $#
"$TSUNAGI" run "$SRC/scenarios/bench/wan-3site.toml" --backend "$backend" --out "$WORK/run" \
  --quiet "$@" >/dev/null
expect_json "$WORK/run/result.json" ok true
python3 - "$WORK/run/trace.jsonl" "$min_ratio" <<'PY'
import json, sys
rtt_ms = {frozenset(p): ms for p, ms in (((0, 1), 4), ((0, 2), 17), ((1, 2), 33))}
min_ratio = float(sys.argv[2])
seen, bad = set(), 0
for line in open(sys.argv[1]):
    event = json.loads(line)
    if event["kind"] != "window":
        continue
    rank, d = int(event["proc"].lstrip("r")), event["detail"]
    key = (rank, d["peer"])
    if key in seen or not d["measured"] or len(d["timing"]["passes"]) != 3:
        print(f"bad decision {key}: {d}")
        bad += 1
    seen.add(key)
    bdp = 125e6 * rtt_ms[frozenset(key)] / 1e3
    ratio = d["timing"]["buffer_bytes"] / bdp
    ok = ratio >= min_ratio
    bad += not ok
    print(f"{rank}->{d['peer']}: window {d['timing']['buffer_bytes']} B = {ratio:.2f} x BDP "
          f"{'ok' if ok else 'LOW'}")
want = {(i, j) for i in range(3) for j in range(3) if i != j}
if seen != want:
    print(f"decisions for {sorted(seen)}, want {sorted(want)}")
    bad += 1
sys.exit(1 if bad else 0)
PY
