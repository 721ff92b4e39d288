#!/usr/bin/env bash
# Issue 15: window-limited bandwidth at 42 ms RTT. For each window the core sets
# (protocol.window), the steady-state rate of a bulk transfer between the two sites of
# teaching/long-fat-pair.toml must be within 10 % of min(window / RTT, 1 Gbit/s), both ways.
# Steady state: two transfers of S and 3S bytes, rate = 2S / (their time difference), which
# cancels slow start (ns-3, the kernel) and the first byte's flight; SimGrid has no slow start.
# Usage: window_limits.sh BACKEND "WINDOWS" [--set ...]
source "$(dirname "$0")/lib.sh"
backend=$1
windows=$2
shift 2
rtt=0.042
link=125000000
bytes_of() {
  case $1 in
    *KB) echo $(( ${1%KB} * 1024 )) ;;
    *MB) echo $(( ${1%MB} * 1048576 )) ;;
  esac
}
for window in $windows; do
  w=$(bytes_of "$window")
  small=$(( 16 * w ))
  for n in 1 3; do
    "$TSUNAGI" run "$SRC/scenarios/teaching/long-fat-pair.toml" --backend "$backend" \
      --out "$WORK/$window-$n" --quiet --set protocol.window="$window" \
      --set workload.indices.sizes='["64B"]' --set workload.indices.repeats=1 \
      --set workload.indices.stream_bytes=$(( n * small )) "$@" >/dev/null
    expect_json "$WORK/$window-$n/result.json" ok true
  done
  python3 - "$WORK/$window-1/result.json" "$WORK/$window-3/result.json" "$w" "$small" \
    "$rtt" "$link" "$backend" <<'PY'
import json, sys
one, three = (json.load(open(p)) for p in sys.argv[1:3])
w, small = int(sys.argv[3]), int(sys.argv[4])
rtt, link, backend = float(sys.argv[5]), float(sys.argv[6]), sys.argv[7]
expected = min(w / rtt, link)
bad = 0
for a, b in zip(one["indices"]["pairs"], three["indices"]["pairs"]):
    dt = (b["tcp_elapsed_ns"] - a["tcp_elapsed_ns"]) / 1e9
    rate = 2 * small / dt
    ratio = rate / expected
    ok = abs(ratio - 1) <= 0.10
    bad += not ok
    print(f"{backend} window {w} B {a['from']}->{a['to']}: {rate * 8 / 1e6:.1f} Mbit/s, "
          f"expected {expected * 8 / 1e6:.1f} ({ratio:.3f}) {'ok' if ok else 'OFF'}")
sys.exit(1 if bad else 0)
PY
done
