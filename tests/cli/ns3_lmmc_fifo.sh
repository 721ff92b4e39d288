#!/usr/bin/env bash
# A serial link's FIFO depth (scenario network.serial.fifo) on ns-3: every serial device's
# transmit queue holds that many bytes (at least one 1,502-byte frame), and what does not fit
# waits at the sending node (a queue disc in front of the stopped device), never dropped:
# STAFF-Link's hardware retry. lmmc-2node's 4 KB pages are three frames: a 4096-byte FIFO
# takes a page whole, a 1600-byte one holds one frame and the node holds the rest. The link
# never idles while a frame waits, so the timings are the same (docs/lmmc.md, "FIFO depth").
source "$(dirname "$0")/lib.sh"
run_fifo() {  # FIFO: runs lmmc-2node on ns-3 into $WORK/fifo-FIFO
  "$TSUNAGI" run "$SRC/scenarios/papers/lmmc-2node.toml" --backend ns3 --quiet \
    --set network.serial.fifo="$1" --out "$WORK/fifo-$1" >/dev/null || fail "fifo $1: run failed"
  expect_json "$WORK/fifo-$1/result.json" workload.verified true
  expect_json "$WORK/fifo-$1/result.json" serial.queue_drops 0
}
run_fifo 64
run_fifo 1600
run_fifo 4096
expect_json "$WORK/fifo-64/result.json" serial.fifo_bytes 1502
expect_json "$WORK/fifo-1600/result.json" serial.fifo_bytes 1600
expect_json "$WORK/fifo-4096/result.json" serial.fifo_bytes 4096
expect_json "$WORK/fifo-4096/result.json" serial.held_frames 0
python3 - "$WORK" <<'PY' || fail "the FIFO depth is not what the queues did"
import json, sys
runs = {f: json.load(open("%s/fifo-%d/result.json" % (sys.argv[1], f))) for f in (1600, 4096)}
for fifo, result in runs.items():
    serial = result["serial"]
    assert 0 < serial["queue_peak_bytes"] <= serial["fifo_bytes"], (fifo, serial)
small, large = runs[1600]["serial"], runs[4096]["serial"]
assert small["held_frames"] > 0 and small["longest_hold_ns"] > 0, small
assert large["queue_peak_bytes"] > small["fifo_bytes"], large  # a page's frames together
assert runs[1600]["lmmc"]["series"] == runs[4096]["lmmc"]["series"]
print("ok: FIFO 1600 B held %d frames at the node (longest %.0f us), FIFO 4096 B none; "
      "peaks %d and %d bytes" % (small["held_frames"], small["longest_hold_ns"] / 1e3,
                                 small["queue_peak_bytes"], large["queue_peak_bytes"]))
PY
