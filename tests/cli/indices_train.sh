#!/usr/bin/env bash
# Issue 15: a train of back-to-back 8 MiB messages (osu_bw's window) on the 42 ms pair of
# teaching/long-fat-pair.toml with an 8 MB window. The train pays the one-way latency once, so
# its rate must reach MIN_SHARE of the link's 1 Gbit/s and beat the blocking ping-pong's 8 MiB
# message, which pays it per message and stays below s / (s / link + RTT / 2) ~ 0.78 of the
# link (BW_8MB, paper 004's definition). Not run on SimGrid: its streams keep one message in
# flight per direction (docs/simgrid.md), so a train pays the latency per message there too.
# Usage: indices_train.sh BACKEND MIN_SHARE [--set ...]
source "$(dirname "$0")/lib.sh"
backend=$1
min_share=$2
shift 2
"$TSUNAGI" run "$SRC/scenarios/teaching/long-fat-pair.toml" --backend "$backend" \
  --out "$WORK/train" --quiet --set protocol.window=8MB \
  --set workload.indices.sizes='["64B","8MB"]' --set workload.indices.repeats=2 \
  --set workload.indices.stream_bytes=64MB --set workload.indices.train_messages=8 "$@" >/dev/null
expect_json "$WORK/train/result.json" ok true
grep -q "^from,to,.*,BW_train,train_bytes_per_second$" "$WORK/train/indices.csv" ||
  fail "indices.csv has no train columns"
python3 - "$WORK/train/result.json" "$backend" "$min_share" <<'PY'
import json, sys
result, backend, min_share = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3])
link, size, one_way = 125e6, 8 << 20, 0.021
bound = size / (size / link + one_way)
bad = 0
for p in result["indices"]["pairs"]:
    train = p["train_bytes_per_second"]
    ping = size / ({s["bytes"]: s["message_ns"] for s in p["sizes"]}[size] / 1e9)
    ok = train >= min_share * link and train > ping and ping <= 1.001 * bound
    bad += not ok
    print(f"{backend} {p['from']}->{p['to']}: train {train * 8 / 1e6:.1f} Mbit/s "
          f"(BW_train {p['BW_train']:.3f}), ping-pong 8 MiB {ping * 8 / 1e6:.1f} Mbit/s "
          f"(bound {bound * 8 / 1e6:.1f}, BW_8MB {p['BW_8MB']:.3f}) {'ok' if ok else 'OFF'}")
sys.exit(1 if bad else 0)
PY
