#!/usr/bin/env bash
# Paper 003 §4.4 on SimGrid: 8 and 16 nodes writing to their hypercube neighbours get more than
# ten times the aggregate bandwidth of the same nodes on one shared segment, and the hypercube's
# grows with the node count while the segment's stays at its rate (1.25 MB/s).
source "$(dirname "$0")/lib.sh"
scenario=$SRC/scenarios/bench/lmmc-scaling.toml
for n in 8 16; do
  for medium in links shared; do
    "$TSUNAGI" run "$scenario" --out "$WORK/$medium$n" --quiet --set network.serial.nodes=$n \
      --set "network.serial.medium=\"$medium\"" >/dev/null || fail "$medium $n did not end ok"
  done
done
python3 - "$WORK" <<'PY' || fail "the hypercube does not scale past the shared segment"
import json, sys
bw = {d: json.load(open(f"{sys.argv[1]}/{d}/result.json"))["lmmc"]["aggregate_bytes_per_s"]
      for d in ("links8", "shared8", "links16", "shared16")}
assert bw["links8"] > 10 * bw["shared8"], bw
assert bw["links16"] > 2 * bw["links8"], bw
assert 1.0e6 < bw["shared8"] <= 1.25e6 and 1.0e6 < bw["shared16"] <= 1.25e6, bw
print("ok: hypercube %.1f -> %.1f MB/s, shared segment %.2f -> %.2f MB/s" % (
    bw["links8"] / 1e6, bw["links16"] / 1e6, bw["shared8"] / 1e6, bw["shared16"] / 1e6))
PY
